"""A match won by forfeit says so on the bracket, with its names: who won it and who was
not at the table when its no-show time ran out (`--tournament-no-show`, 10 s here) — or,
when neither came, that the better seed went on. In English, Croatian and Russian."""

from __future__ import annotations

import time
from typing import Any

import pytest

from tests.browser.support import Client, Server, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient
from tests.browser.test_tournament_page import call, new_tournament, session_token

#: Each language's words under the final Ana won because Luka never sat down.
NO_SHOW = {
    "en": "Won by forfeit: Ana (no-show: Luka)",
    "hr": "Pobjeda bez borbe: Ana (nedolazak: Luka)",
    "ru": "Техническая победа: Ana (неявка: Luka)",
}
#: … and under one neither Mia nor Nik came to (Mia, the better seed, goes on).
NEITHER = {
    "en": "Won by forfeit: Mia (neither came; the higher seed goes on)",
    "hr": "Pobjeda bez borbe: Mia (nije došao nijedan igrač, prolazi bolji nositelj)",
    "ru": (
        "Техническая победа: Mia (не явился ни один из игроков, "
        "дальше проходит игрок с более высоким посевом)"
    ),
}


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    return ["--tournament-no-show", "10"]


def final_of_two(server: Server, name: str, players: dict[str, str]) -> tuple[str, str]:
    """A single elimination of the two `players` (name: session token), seeded by the
    draw, started: its id and its organiser's token."""
    organiser = session_token(server, "Organiser")
    tournament = new_tournament(
        server,
        organiser,
        name,
        format="single",
        cap=2,
        races={"winners": 2, "final": 2},
    )
    for player, token in players.items():
        call(server, "POST", f"/api/tournaments/{tournament}/register", {"name": player}, token)
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    return tournament, organiser


def decided(server: Server, tournament: str) -> dict[str, Any]:
    for _ in range(1200):
        view = call(server, "GET", f"/api/tournaments/{tournament}")
        if view["status"] == "finished":
            return dict(view["matches"][0])
        time.sleep(0.05)
    raise AssertionError("the final was never decided")


def card_words(page: Client) -> str:
    page.page.wait_for_selector(".tour-match .tour-forfeit")
    return str(page.page.inner_text(".tour-match .tour-forfeit"))


def test_a_forfeit_names_the_winner_and_the_no_show(
    open_client: OpenClient, page_at: Any, server: Server
) -> None:
    ana = open_client("Ana")
    ana.wait("!!a.welcome")
    token = ana.page.evaluate("localStorage.getItem('ninepool.token')")
    walked, _ = final_of_two(
        server, "Saturday", {"Ana": token, "Luka": session_token(server, "Luka")}
    )
    nobody, _ = final_of_two(
        server,
        "Sunday",
        {"Mia": session_token(server, "Mia"), "Nik": session_token(server, "Nik")},
    )
    # Ana sits down at her match's table from the lobby; Luka never comes.
    ana.page.locator("#my-match").wait_for(state="visible")
    ana.page.click("#my-match-sit")
    ana.wait("a.role === 'player'")
    match = decided(server, walked)
    assert (match["decided"], match["players"][match["winner"]]) == ("forfeit", "Ana")
    assert match["no_show"][match["winner"]] is False
    assert match["no_show"][1 - match["winner"]] is True
    other = decided(server, nobody)
    assert other["decided"] == "forfeit" and other["no_show"] == [True, True]
    # The draw made one of them the better seed: the one who went on.
    neither = dict(NEITHER)
    if other["players"][other["winner"]] != "Mia":
        neither = {lang: words.replace("Mia", "Nik") for lang, words in neither.items()}
    for lang in ("en", "hr", "ru"):
        page = page_at(f"/tournament/{walked}", lang)
        assert card_words(page) == NO_SHOW[lang]
        save(page, f"tournament-no-show-{lang}.png")
        page = page_at(f"/tournament/{nobody}", lang)
        assert card_words(page) == neither[lang]
        save(page, f"tournament-neither-came-{lang}.png")
        assert_quiet(page)
    assert_quiet(ana)
