"""A tournament's table and its stream strip, in Croatian, as an organiser who streams
the matches sees them: the table and the strip name a match's round as the bracket page
does (a double elimination's winners' bracket said, not a bare "1. kolo")."""

from __future__ import annotations

import time
from typing import Any

from tests.browser.support import Server, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient
from tests.browser.test_tournament_page import call, new_tournament, session_token


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
    strip.page.wait_for_function("window.ninepoolOverlay?.status === 'waiting'")
    assert strip.page.evaluate("window.ninepoolOverlay.title") == stage
    assert strip.page.inner_text(".ov-title") == stage
    save(strip, "tournament-strip-winners-hr.png")
    assert_quiet(eve)
    assert bracket.problems() == [] and strip.problems() == []
