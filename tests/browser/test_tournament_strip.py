"""A tournament's table and its stream strip, in Croatian, as an organiser who streams
the matches sees them: the table and the strip name a match's round as the bracket page
does (a double elimination's winners' bracket said, not a bare "1. kolo"), and a match
conceded keeps both players' names on the strip and at the table after they have gone."""

from __future__ import annotations

import json
import time
from typing import Any

from tests.browser.support import Server, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient
from tests.browser.test_tournament_page import (
    SINGLE,
    call,
    new_tournament,
    play_out,
    session_token,
)


def opened_rooms(server: Server, tournament: str, count: int) -> list[dict[str, Any]]:
    """The matches being played once `count` of them have their rooms."""
    for _ in range(400):
        view = call(server, "GET", f"/api/tournaments/{tournament}")
        playing = [m for m in view["matches"] if m["status"] == "playing" and m["room"]]
        if len(playing) >= count:
            return playing
        time.sleep(0.05)
    raise AssertionError("the matches never got their rooms")


def test_the_table_and_its_strip_name_the_winners_bracket(
    open_client: OpenClient, open_page: Any, server: Server
) -> None:
    """A double elimination's first round is the winners' bracket's: the bracket page puts
    it under "Pobjednička grana", so the table and its strip say so too."""
    organiser = session_token(server, "Streamer")
    tournament = new_tournament(server, organiser, "Kup Rijeke", cap=4)
    for name in ("Ivo", "Jure", "Kata", "Lea"):
        token = session_token(server, name)
        call(server, "POST", f"/api/tournaments/{tournament}/register", {"name": name}, token)
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    room = opened_rooms(server, tournament, 2)[0]["room"]
    bracket = open_page("bracket", f"/tournament/{tournament}?lang=hr", height=900)
    bracket.page.wait_for_selector(".tour-bracket h2")
    # How the bracket page says it: the side, then the round.
    side = bracket.page.locator(".tour-bracket h2").first.inner_text()
    column = bracket.page.locator(".tour-bracket").first.locator("h3").first.inner_text()
    assert (side, column) == ("Pobjednička grana", "1. kolo")
    stage = "Kup Rijeke · Pobjednička grana, 1. kolo"

    eve = open_client("Eve", lang="hr", hash=f"#/room/{room}")
    eve.wait(f"a.room === {room!r} && a.role === 'spectator'")
    eve.page.wait_for_function("document.getElementById('match-line').textContent.length > 0")
    assert eve.page.inner_text("#match-line").startswith(f"{stage} · "), eve.page.inner_text(
        "#match-line"
    )
    strip = open_page("strip", f"/overlay/{room}?lang=hr")
    # (the strip is drawn before its room's snapshot too: wait for the room's own)
    strip.page.wait_for_function(
        "(stage) => window.ninepoolOverlay?.status === 'waiting'"
        " && window.ninepoolOverlay.title === stage",
        arg=stage,
    )
    assert strip.page.inner_text(".ov-title") == stage
    save(strip, "tournament-strip-winners-hr.png")
    assert_quiet(eve)
    assert bracket.problems() == [] and strip.problems() == []


def test_a_conceded_match_keeps_its_players_names_after_they_go(
    open_client: OpenClient, open_page: Any, server: Server
) -> None:
    """The loser concedes and both players leave the finished table (a tournament's room
    frees their seats at once): the strip, one opened afterwards too, and the table still
    name them, and the table says who conceded."""
    organiser = session_token(server, "Streamer 2")
    tournament = new_tournament(server, organiser, "Petak", cap=2, **SINGLE)
    tokens = {name: session_token(server, name) for name in ("Mara", "Nikola")}
    for name, token in tokens.items():
        call(server, "POST", f"/api/tournaments/{tournament}/register", {"name": name}, token)
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    match = opened_rooms(server, tournament, 1)[0]
    room = match["room"]
    winner, loser = match["players"]
    strip = open_page("strip", f"/overlay/{room}?lang=hr")
    strip.page.wait_for_function("window.ninepoolOverlay?.status === 'waiting'")
    eve = open_client("Eve", lang="hr", hash=f"#/room/{room}")
    eve.wait(f"a.room === {room!r} && a.role === 'spectator'")

    play_out(server, match, tokens, loser=loser)  # and both connections close
    eve.wait("a.view?.status === 'finished' && !a.view.seats[0] && !a.view.seats[1]")
    eve.page.wait_for_function("!window.ninepool.animating()")
    strip.page.wait_for_function(
        "window.ninepoolOverlay?.winner === 0 && window.ninepoolOverlay.status === 'finished'"
    )
    strip.page.wait_for_timeout(600)  # the strip's next redraws, with the seats emptied
    names = strip.page.evaluate("window.ninepoolOverlay.seats.map(s => s.name)")
    assert names == [winner, loser]
    assert "Prazno" not in strip.page.inner_text("#overlay")
    save(strip, "tournament-strip-conceded-hr.png")
    # A strip opened once they have gone (a stream started late) names them too.
    late = open_page("late strip", f"/overlay/{room}?lang=hr")
    both = json.dumps([winner, loser], separators=(",", ":"))
    late.page.wait_for_function(
        f"JSON.stringify(window.ninepoolOverlay?.seats.map(s => s.name)) === {both!r}"
    )
    # The table: the result names who conceded, the scoreboard both players.
    assert eve.page.inner_text("#result-text") == f"{loser} predaje meč."
    board = eve.page.inner_text(".scoreboard")
    assert winner in board and loser in board, board
    # Gone after playing, not awaited: no "not here yet" over a finished match.
    assert "još nije tu" not in board, board
    save(eve, "tournament-table-conceded-hr.png")
    # A table opened once they have gone rebuilds its log from the room's record: the
    # concession is still theirs, not "Mjesto 2"'s.
    late_table = open_client("Late", lang="hr", hash=f"#/room/{room}")
    late_table.wait(f"a.room === {room!r} && a.view?.status === 'finished'")
    conceded = f"{loser} predaje meč"
    late_table.page.wait_for_function(
        f"document.getElementById('log').textContent.includes({conceded!r})"
        f" && document.getElementById('status').textContent.includes({conceded!r})"
    )
    for where in ("#log", "#status", ".scoreboard"):
        assert "Mjesto" not in late_table.page.inner_text(where), where
    save(late_table, "tournament-table-late-hr.png")
    assert_quiet(eve, late_table)
    assert strip.problems() == [] and late.problems() == []
