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
    luka = session_token(server, "Luka")
    walked, _ = final_of_two(server, "Saturday", {"Ana": token, "Luka": luka})
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
    # On Luka's own page his name is marked his, not bold as the winner's is.
    page = page_at(f"/tournament/{walked}", "en", luka)
    page.page.wait_for_selector(".tour-slot.mine.lost")
    weight = "(s) => getComputedStyle(document.querySelector(s)).fontWeight"
    assert page.page.evaluate(weight, ".tour-slot.mine.lost") == "400"
    assert page.page.evaluate(weight, ".tour-slot.won") == "700"
    assert_quiet(ana)


def test_a_computer_that_won_keeps_its_tag_beside_its_name(page_at: Any, server: Server) -> None:
    """A computer's tag ("računalo · razina 5") went under its name when it had won: the
    winner's row is bold, its tag was too, and together they no longer fit the card that
    the loser's row fitted. On a laptop, in Croatian (the longest tag), both rows read
    name and tag on one line."""
    organiser = session_token(server, "Organiser bots")
    tournament = new_tournament(
        server,
        organiser,
        "Večernji turnir",
        format="single",
        cap=2,
        bots=True,
        bot_level=5,
        races={"winners": 2, "final": 2},
    )
    call(server, "POST", f"/api/tournaments/{tournament}/register", {"name": "Ivo"}, organiser)
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    match = decided(server, tournament)  # Ivo never sits down: the computer wins
    assert match["decided"] == "forfeit" and match["players"][match["winner"]] != "Ivo"
    page = page_at(f"/tournament/{tournament}", "hr", width=1366, height=768)
    page.page.wait_for_selector(".tour-slot.won .tour-computer")
    rows = page.page.evaluate(
        """[...document.querySelectorAll('.tour-slot')].map((slot) => {
             const name = slot.querySelector('.tour-name').getBoundingClientRect();
             const tag = slot.querySelector('.tour-computer')?.getBoundingClientRect();
             return { won: slot.classList.contains('won'), text: slot.innerText,
                      name: [name.top, name.bottom], tag: tag ? [tag.top, tag.bottom] : null };
           })"""
    )
    computer = [row for row in rows if row["tag"] is not None]
    assert len(computer) == 1 and computer[0]["won"], rows
    for row in computer:
        assert row["tag"][0] < row["name"][1], row  # beside the name, not under it
    save(page, "tournament-computer-won-hr.png")
    assert_quiet(page)
