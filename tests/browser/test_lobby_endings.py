"""The lobby's row of a finished match says how it ended, by name: who won, and who
conceded it — also once the player who conceded has left the table, their seat freed
(leaving a running match concedes it). Read by a third person in the lobby, in English,
Croatian and Russian."""

from __future__ import annotations

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, start_match
from tests.browser.test_firstminute import OpenClient, host_and_guest
from tests.browser.test_watching import concede

#: Each language's row for Ana's match once Bob has conceded it.
CONCEDED = {
    "en": "Ana won — Bob conceded",
    "hr": "Pobjeda: Ana · predaja meča: Bob",
    "ru": "Победа: Ana · сдача матча: Bob",
}


def row_result(c: Client, room: str) -> str:
    c.page.wait_for_function(
        f"!!document.querySelector(\"tr[data-room='{room}'] small.result\")", timeout=30_000
    )
    c.page.locator(f"tr[data-room='{room}']").scroll_into_view_if_needed()
    return str(c.page.inner_text(f"tr[data-room='{room}'] small.result"))


def test_a_conceded_match_names_its_winner_and_who_conceded(open_client: OpenClient) -> None:
    ana, bob, room = start_match(open_client)
    # Cid watches the lobby while the match is played: nothing is said of an ending yet.
    cid = open_client("Cid")
    cid.page.wait_for_selector(f"tr[data-room='{room}']")
    assert cid.page.locator(f"tr[data-room='{room}'] small.result").count() == 0
    # Bob leaves the running match: that concedes it, and his seat is freed at once.
    bob.page.click("#more summary")
    bob.page.click("#leave")
    bob.page.click("#leave-confirm")
    bob.page.wait_for_selector("#lobby:not([hidden])")
    cid.page.wait_for_function(
        f"document.querySelector(\"tr[data-room='{room}'] td:nth-child(4)\")"
        "?.textContent.includes('finished')"
    )
    assert row_result(cid, room) == CONCEDED["en"]
    # Bob has gone from the seats, not from the match's players: named, and marked gone.
    assert cid.page.inner_text(f"tr[data-room='{room}'] td:nth-child(2)") == "Ana vs Bob"
    assert cid.page.inner_text(f"tr[data-room='{room}'] td:nth-child(2) .gone") == "Bob"
    save(cid, "lobby-conceded-en.png")
    # Readers who come to the lobby afterwards read it in their own language.
    for lang in ("hr", "ru"):
        reader = open_client(f"Reader-{lang}", lang=lang)
        assert row_result(reader, room) == CONCEDED[lang]
        save(reader, f"lobby-conceded-{lang}.png")
    assert_quiet(ana, bob, cid)


def test_a_drawn_first_break_is_no_lag_in_the_lobby(open_client: OpenClient) -> None:
    """A table whose first break is drawn (every tournament's) waits for the draw's winner
    to choose: its lobby row said "lag", a lag nobody played. It says the draw."""
    _ana, _bob, room = host_and_guest(open_client, first_break="draw")
    cid = open_client("Cid", lang="ru")
    pill = f"tr[data-room='{room}'] .status-pill"
    cid.page.wait_for_selector(pill)
    assert cid.page.inner_text(pill).startswith("жребий на разбитие"), cid.page.inner_text(pill)


def test_a_winner_who_leaves_keeps_their_name_by_their_score(open_client: OpenClient) -> None:
    """The match won 1:0 (a game, then the match conceded), its winner went to the lobby.
    The player who stayed read "Empty seat 1 : 0 Bob" at the table, and the lobby's row
    put the names the other way round from the score ("Bob vs Ana 1–0"). Both keep the
    winner by the winner's score."""
    ana, bob, room = host_and_guest(
        open_client, guest={"lang": "ru"}, first_break="draw", settings={"race_to": 3}
    )
    for c in (ana, bob):
        c.wait("a.view.status === 'lag' && a.view.lag_choice !== null")
    chooser = ana if ana.state("a.view.lag_choice === a.seat") else bob
    chooser.page.click("#lag-break")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && !!a.table")
    concede(bob, "game")
    for c in (ana, bob):
        c.wait("a.table.rack === 2")
        c.page.locator("#result-dialog").wait_for(state="hidden", timeout=30_000)
    concede(bob, "match")
    for c in (ana, bob):
        c.wait("a.view.status === 'finished'")
    seat = ana.state("a.seat")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.click("#result-close")
    ana.page.click("#more summary")
    ana.page.click("#leave")
    ana.page.locator("#lobby").wait_for(state="visible")
    bob.wait(f"!a.view.seats[{seat}]")
    bob.page.locator("#result-dialog").evaluate("d => d.close()")
    name = bob.page.locator(f"#seat{seat} .name")
    assert name.inner_text() == "Ana"
    assert bob.page.inner_text(f"#seat{seat} .score") == "1"
    assert bob.page.inner_text(f"#seat{seat} .tags") == "уже не за столом"
    save(bob, "winner-left-seat-ru.png")
    cid = open_client("Cid")
    cid.page.wait_for_selector(f"tr[data-room='{room}'] .gone")
    players = cid.page.inner_text(f"tr[data-room='{room}'] td:nth-child(2)")
    score = cid.page.inner_text(f"tr[data-room='{room}'] td:nth-child(3)")
    expected = ("Ana vs Bob", "1–0") if seat == 0 else ("Bob vs Ana", "0–1")
    assert players == expected[0] and score.startswith(expected[1]), (players, score)
    save(cid, "lobby-winner-left-en.png")
    assert_quiet(ana, bob, cid)
