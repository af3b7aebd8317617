"""The table's log says who sat down and who got up: a player waiting at their table saw
the other seat fill (or empty) with no line to say so. Read in Croatian by the host, in
English by the guest; someone watching takes no seat and gets no line. And the lag's
time (O6), counted down on both players' scoreboards, decides a lag one of them never
plays: the log says why, and the stream's strip counts it too."""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet, winner_chooses
from tests.browser.test_firstminute import OpenClient, host_and_guest
from tests.browser.test_watching import concede


def log_text(c: Client) -> str:
    return str(c.page.evaluate("document.getElementById('log').textContent"))


def test_the_log_says_who_sits_down_and_who_gets_up(open_client: OpenClient) -> None:
    ana, bob, room = host_and_guest(open_client, host={"lang": "hr"}, first_break="lag")
    ana.page.wait_for_function(
        "document.getElementById('log').textContent.includes('Bob sjeda za stol')"
    )
    # The guest's own arrival is the page's first view of the table: no line for it.
    assert "sits down" not in log_text(bob), log_text(bob)
    cid = open_client("Cid", hash=f"#/room/{room}")
    cid.wait("a.role === 'spectator' && !!a.view")
    bob.page.click("#more summary")
    bob.page.click("#leave")
    if bob.page.locator("#leave-confirm").is_visible():
        bob.page.click("#leave-confirm")
    bob.page.wait_for_selector("#lobby:not([hidden])")
    for c, words in ((ana, "Bob ustaje od stola"), (cid, "Bob leaves the table")):
        c.page.wait_for_function(
            "(w) => document.getElementById('log').textContent.includes(w)", arg=words
        )
    # One line each, and none for Cid, who only watches.
    assert log_text(ana).count("Bob sjeda za stol") == 1
    assert "Cid" not in log_text(ana)
    save(ana, "log-sits-and-leaves-hr.png")
    assert_quiet(ana, bob, cid)


def strip_says(strip: Client, line: str, most: int) -> None:
    """The stream strip (`/overlay/<room>`) shows `line` under the race and a running
    count of at most `most` seconds."""
    strip.page.wait_for_function(
        "([line, most]) => { const m = window.ninepoolOverlay; return !!m && m.status === 'lag'"
        " && document.querySelector('.ov-line')?.textContent === line"
        " && m.clock !== null && m.clock > 0 && m.clock <= most; }",
        arg=[line, most],
    )
    assert re.fullmatch(r"\d{1,2} s", strip.page.inner_text(".ov-clock"))


def test_the_lag_is_timed_and_a_lag_never_played_loses_it(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    ana, bob, room = host_and_guest(
        open_client,
        guest={"lang": "ru"},
        first_break="lag",
        settings={"shot_clock": 10, "first_shot_clock": 13},
    )
    strip = open_page("strip", f"/overlay/{room}")
    for c in (ana, bob):
        c.page.locator("#lag-shoot").wait_for(state="visible")
    # The room's time for a first shot is the lag's: both players see it run, and so does
    # the stream's strip.
    strip_says(strip, "Lag for the break", 13)
    for c, words in ((ana, "Lag: "), (bob, "Раскат: ")):
        c.page.wait_for_function(
            "(w) => document.getElementById('clock').textContent.startsWith(w)", arg=words
        )
        # Read at one instant with the room's deadline: the clock counts down to it, capped
        # at the lag's 13 s, not the shot clock's 10 (a slow machine reads it late, so
        # the shown value is checked against the time left, not a fixed range).
        shown, left = c.state(
            "[document.getElementById('clock').textContent,"
            " (a.view.lag_until - a.serverNow()) / 1000]"
        )
        match = re.fullmatch(r"\S+: 0:(\d\d)", shown)
        assert match and left <= 13.5, (shown, left)
        assert abs(int(match[1]) - min(13, math.ceil(left))) <= 1, (shown, left)
    ana.page.click("#lag-shoot")
    # Bob is told Ana's lag is in, and what not playing his would cost.
    bob.page.wait_for_function(
        "document.querySelector('#status .prompt').textContent.startsWith('Ana: раскат сыгран')"
    )
    assert "несыгранный раскат не засчитывается" in bob.page.inner_text("#status .prompt")
    # Someone who comes to watch now is told whose lag is in (they read "waiting for both
    # players"); the ball stays hidden until both are played.
    cid = open_client("Cid", hash=f"#/room/{room}")
    cid.wait("a.role === 'spectator' && !!a.view && a.view.status === 'lag'")
    cid.page.wait_for_function(
        "document.querySelector('#status .prompt').textContent"
        " === 'Ana has played the lag; waiting for Bob.'"
    )
    # Bob never lags. Its last ten seconds are marked on his page too.
    bob.page.wait_for_selector("#clock.low", timeout=25_000)
    save(bob, "lag-time-running-out-ru.png")
    ana.wait("a.view.status === 'lag' && a.view.lag_choice === 0", timeout=30_000)
    ana.page.locator("#lag-dialog").wait_for(state="visible")
    for c, words, clock in (
        (ana, "Bob: the lag was not played in time", "Who breaks: 0:"),
        (bob, "Вы: раскат не сыгран вовремя", "Кто разбивает: 0:"),  # his own page
    ):
        c.page.wait_for_function(
            "(w) => document.getElementById('log').textContent.includes(w)", arg=words
        )
        c.idle()
        # The lag's clock has stopped with it; the winner's choice (the room's 10 s) is
        # timed for both to see, the opponent too.
        assert c.page.inner_text("#clock").startswith(clock), c.page.inner_text("#clock")
    assert bob.page.locator("#lag-shoot").is_hidden()
    strip_says(strip, "Ana chooses who breaks", 10)  # Ana won a lag, and has 10 s to choose
    # Only the ball that was played is on the table, named; Bob's was never played.
    labels = ana.page.evaluate("window.ninepool.overlay().labels.map(l => l.text)")
    assert labels == ["Ana's ball"], labels
    save(bob, "lag-not-played-ru.png")
    # Ana never chooses: when the time is out she breaks, and nobody reads she chose to.
    for c, words in (
        (ana, "No choice in time: you break the first game"),
        (bob, "Время на выбор истекло: первую партию разбивает Ana"),
    ):
        c.page.wait_for_function(
            "(w) => document.getElementById('log').textContent.includes(w)",
            arg=words,
            timeout=30_000,
        )
        assert "chooses to break" not in log_text(c) and "по своему выбору" not in log_text(c)
    ana.wait("a.view.status === 'playing' && a.table.turn === 0")
    # The strip's shot clock stands under the player whose time it is: Ana's, on the left;
    # after her break, whoever is to shoot.
    for turn in (0, None):
        if turn is None:
            ana.page.click("#shoot")
            ana.wait("!a.anim && a.table.turn !== null && !a.shotPending", timeout=30_000)
            ana.idle()
            turn = ana.state("a.table.turn")
        strip.page.wait_for_function(
            "(turn) => { const m = window.ninepoolOverlay; return m?.status === 'playing'"
            " && m.seats[turn].toAct && m.clock !== null; }",
            arg=turn,
        )
        # Both read at once: the strip is drawn anew every second, and an element read
        # apart could be gone by the time it is measured.
        clock, bar = strip.page.evaluate(
            "['.ov-clock', '.ov-bar'].map(s => {"
            " const r = document.querySelector(s)?.getBoundingClientRect();"
            " return r ? {x: r.x, width: r.width} : null; })"
        )
        assert clock is not None and bar is not None
        middle = clock["x"] + clock["width"] / 2 - (bar["x"] + bar["width"] / 2)
        assert (middle < 0) == (turn == 0), (turn, clock, bar)
    save(strip, "strip-clock-under-the-shooter.png")
    assert_quiet(ana, bob, cid)


def bob_concedes_and_leaves(open_client: OpenClient) -> tuple[Client, Client, str]:
    """Ana and Bob play; Bob concedes the match, closes its result and leaves the table."""
    ana, bob, room = host_and_guest(open_client)
    winner_chooses((ana, bob), "#lag-give")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing'")
    concede(bob, "match")
    ana.wait("a.view.status === 'finished'")
    bob.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.click("#result-close")
    bob.page.click("#more summary")
    bob.page.click("#leave")
    if bob.page.locator("#leave-confirm").is_visible():
        bob.page.click("#leave-confirm")
    bob.page.wait_for_selector("#lobby:not([hidden])")
    ana.wait("a.view.seats[1] === null")
    return ana, bob, room


def test_a_late_spectator_reads_each_line_under_the_name_it_was_written_with(
    open_client: OpenClient,
) -> None:
    """Bob plays Ana, concedes and leaves; Cid takes his seat. Dee, who comes to watch
    after, reads Bob's lines under Bob's name (they read as Cid's: the log was named after
    who sits now) and who sat down and got up, as Ana read them live."""
    ana, _bob, room = bob_concedes_and_leaves(open_client)
    cid = open_client("Cid", hash=f"#/play/{room}")
    cid.wait("a.role === 'player' && a.seat === 1")
    ana.page.wait_for_function(
        "document.getElementById('log').textContent.includes('Cid sits down')"
    )
    dee = open_client("Dee", hash=f"#/room/{room}")
    dee.wait("a.role === 'spectator' && !!a.view")
    dee.page.wait_for_function(
        "document.getElementById('log').textContent.includes('concedes the match')"
    )
    text = log_text(dee)
    assert "Bob concedes the match" in text and "Cid concedes" not in text, text
    lines = ["Bob sits down", "Bob leaves the table", "Cid sits down"]
    assert [line in text for line in lines] == [True, True, True], text
    # Newest first, as the log reads.
    assert text.index("Cid sits down") < text.index("Bob leaves the table"), text
    # The same lines as Ana read them at the table.
    assert [line in log_text(ana) for line in lines] == [True, True, True], log_text(ana)
    save(dee, "log-late-spectator-names.png")
    assert_quiet(ana, cid, dee)


def test_a_lag_neither_player_plays_is_drawn_for_and_said_so(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    """Nobody lags in the room's time (an 8 s clock): the room draws, and its winner is
    told they won the draw, not a lag; so is the stream (its strip said "Lag for the
    break")."""
    ana, bob, room = host_and_guest(open_client, first_break="lag", settings={"shot_clock": 8})
    strip = open_page("strip", f"/overlay/{room}?lang=hr")
    for c in (ana, bob):
        c.wait("a.view.status === 'lag' && a.view.lag_choice != null", timeout=20_000)
    winner = (ana, bob)[ana.state("a.view.lag_choice")]
    winner.page.locator("#lag-dialog").wait_for(state="visible")
    assert winner.page.inner_text("#lag-title-text") == "You won the draw"
    assert winner.page.inner_text("#status .prompt").startswith("You won the draw:")
    strip_says(strip, f"Ždrijeb: {winner.name} bira tko otvara", 8)
    for c in (ana, bob):
        c.page.wait_for_function(
            "document.getElementById('log').textContent.includes("
            "'Neither player played the lag in time')"
        )
    winner.page.click("#lag-break")
    for c in (ana, bob):
        c.page.wait_for_function(
            "document.getElementById('log').textContent.includes('The draw is made')"
        )
        assert "The lag is decided" not in log_text(c)
    assert_quiet(ana, bob)


def test_a_replay_names_a_seat_empty_at_its_start_after_who_sat_there(
    open_client: OpenClient,
) -> None:
    """Bob concedes and leaves: the room's replay, opened at its first event (Ana alone at
    the table), read "Player 2" on Bob's seat — the replay's players are whoever sat at
    the end. It names the seat after who sits there next; the lobby's row names Bob too."""
    ana, _bob, room = bob_concedes_and_leaves(open_client)
    # The lobby's row names both, though Bob has gone (it named Ana alone beside "Ana won
    # — Bob conceded").
    eve = open_client("Eve")
    row = f"tr[data-room='{room}']"
    eve.page.wait_for_function(f'!!document.querySelector("{row} small.result")', timeout=30_000)
    players = eve.page.inner_text(f"{row} td:nth-child(2)")
    assert "Ana" in players and "Bob" in players, players
    dee = open_client("Dee", lang="ru", hash=f"#/replay/{room}")
    dee.page.wait_for_selector("#replay-view:not([hidden]) #r-seat1 .name")
    assert dee.page.is_disabled("#r-first")  # it opens at the first event
    dee.page.wait_for_function(
        "document.querySelector('#r-seat1 .name').textContent === 'Bob'"
        " && document.querySelector('#r-seat0 .name').textContent === 'Ana'"
    )
    save(dee, "replay-first-event-names-ru.png")
    assert_quiet(ana, dee, eve)
