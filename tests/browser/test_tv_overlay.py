"""The stream strip that follows the TV channel (`/overlay/tv`), and the TV page itself, on
a server of its own so that nothing is live when they open: they say nothing is live, take
the match that starts, and say nothing is live again once that match is over."""

from __future__ import annotations

from collections.abc import Callable

from tests.browser.support import RATE, Client, save
from tests.browser.test_client import assert_quiet, foul_softly, shooter, start_match
from tests.browser.test_firstminute import started
from tests.browser.test_watching import concede

OpenClient = Callable[..., Client]


def test_the_channels_strip_follows_what_is_live_and_says_when_nothing_is(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    words = {"en": "No match is live right now", "hr": "Trenutačno se ne igra nijedan meč"}
    strips = {
        lang: open_page(f"overlay-tv-{lang}", f"/overlay/tv?lang={lang}&linger=8&rate={RATE}")
        for lang in words
    }
    for lang, strip in strips.items():
        strip.page.wait_for_function("window.ninepoolOverlay?.status === 'idle'")
        strip.page.wait_for_function(
            "(text) => document.getElementById('overlay').innerText === text", arg=words[lang]
        )
        assert strip.page.locator(".ov-score").count() == 0
    # The TV page, a streamer's capture while nothing is live: the channel's words over an
    # empty table, and none of a player's controls (a Shoot button, the power, a chat box
    # that sent nowhere stood beside it).
    tv = open_page("tv-idle", f"/tv?lang=en&linger=8&rate={RATE}")
    tv.page.wait_for_function(
        "document.getElementById('tv-banner').textContent.startsWith('TV · no match')"
    )
    hidden = "(s) => getComputedStyle(document.querySelector(s)).visibility === 'hidden'"
    for part in ("#panel", "#shot-controls", "#chat-form", ".scoreboard"):
        assert tv.page.evaluate(hidden, f"#table-view {part}"), part
    save(tv, "tv-idle.png")
    ana, bob, room = start_match(open_client)
    # The match comes on: a viewer's panel (what happened, the chat) with it.
    tv.page.wait_for_function(f"window.ninepool.app.tvRoom === {room!r}")
    tv.page.wait_for_function(
        "getComputedStyle(document.getElementById('panel')).visibility === 'visible'"
    )
    assert tv.page.is_visible("#log") and tv.page.is_hidden("#shot-controls")
    for strip in strips.values():
        strip.page.wait_for_function(
            f"window.ninepoolOverlay?.room === {room!r} "
            "&& window.ninepoolOverlay.status === 'playing'"
        )
        assert [strip.page.inner_text(f".ov-seat{s} .ov-name") for s in (0, 1)] == ["Ana", "Bob"]
    assert "Igra se do" in strips["hr"].page.inner_text(".ov-race")
    save(strips["hr"], "overlay-tv-hr.png")
    concede(ana, "match")
    # The result first, then, the channel's pause over, nothing live again.
    for strip in strips.values():
        strip.page.wait_for_function("window.ninepoolOverlay?.winner === 1")
    tv.page.wait_for_function("window.ninepool.app.view?.status === 'finished'")
    # The players start a rematch at once (as computers do): the channel stays on the
    # result through its pause, not on the rematch's 0 : 0 and lag over it.
    for c in (bob, ana):
        c.page.click("#result-rematch")
    ana.wait("a.view.status === 'lag'")
    tv.page.wait_for_timeout(800)
    assert tv.state("a.view.status") == "finished"
    for strip in strips.values():
        assert strip.page.evaluate("window.ninepoolOverlay.winner") == 1
    for strip in strips.values():
        strip.page.wait_for_function(
            "window.ninepoolOverlay?.room !== " + repr(room) + " || "
            "window.ninepoolOverlay?.status !== 'finished'",
            timeout=15_000,
        )
    assert_quiet(ana, bob, tv, *strips.values())


def test_the_tv_opened_beside_a_match_watches_it_without_taking_the_seat(
    open_client: OpenClient,
) -> None:
    """A player opens the TV in a second tab of the same browser: the TV watches as
    nobody, so the match's own tab keeps its seat (a hello as the player took it, and the
    TV showed the player's own table). Going on from the TV to the game in that tab is
    sitting down there, as any second tab of the game is."""
    ana, bob, room = start_match(open_client)
    ana.wait("a.view && (a.view.status === 'lag' || a.view.status === 'playing')")
    url = ana.page.url.split("#")[0]
    tv = ana.context.new_page()
    problems: list[str] = []
    tv.on("console", lambda m: m.type in ("error", "warning") and problems.append(m.text))
    tv.goto(url.split("?")[0] + f"?lang=hr&rate={RATE}#/tv")
    tv.wait_for_function(f"window.ninepool?.app.tvRoom === {room!r}")
    assert tv.evaluate("window.ninepool.app.role") == "spectator"
    # It reads the room's chat and says nothing in it (it would be nobody's words).
    assert tv.is_hidden("#chat-input")
    # The match's tab plays on: never told another tab took its seat.
    bob.page.evaluate("window.ninepool.conn.request({ t: 'chat', text: 'still there?' })")
    ana.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('still there?')"
    )
    assert ana.state("window.ninepool.conn.replaced") is False
    assert ana.state("a.role") == "player" and ana.page.is_hidden("#play-here")
    save(Client(name="tv", page=tv, context=ana.context), "tv-second-tab.png")
    assert_quiet(ana)
    # From the TV to the game: this tab says hello as Ana and her seat comes here.
    tv.evaluate("location.hash = '#/'")
    tv.wait_for_function(
        f"window.ninepool.app.room === {room!r} && window.ninepool.app.role === 'player'"
    )
    ana.page.wait_for_selector("#play-here:not([hidden])")
    assert tv.is_visible("#chat-input")
    assert problems == []
    assert_quiet(bob)


def test_the_strip_calls_the_last_shot_the_fouls_and_a_game_conceded(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    """The strip showed the turn change with no word of why: a foul and its ball in hand,
    which the table said, never reached the stream. The referee's call on the last shot is
    said under the strip for a while, a foul marked as one; each player's fouls in a row are
    on their plate; a game conceded is called and its winner's score lit; a match over
    lists no balls of the game it ended in."""
    ana, bob, room = started(open_client)
    strip = open_page("strip-ru", f"/overlay/{room}?lang=ru&rate={RATE}")
    strip.page.wait_for_function("window.ninepoolOverlay?.status === 'playing'")
    fouler = shooter((ana, bob))
    foul_softly(fouler)
    strip.page.wait_for_selector(".ov-call.ov-foul")
    said = strip.page.inner_text(".ov-call")
    # (it names who fouled: the stream's viewers could not tell)
    assert said.startswith(f"{fouler.name} допускает фол:") and "с руки" in said, said
    save(strip, "strip-referee-call-ru.png")
    # The fouler's plate says it, as the table's tag does (a second would be the warning).
    plate = ".ov-seat0" if fouler is ana else ".ov-seat1"
    assert strip.page.inner_text(f"{plate} .ov-fouls") == "1 фол"
    assert strip.page.locator(".ov-warn").count() == 0
    # It goes after a while (the strip is not a log).
    strip.page.wait_for_selector(".ov-call", state="detached", timeout=15_000)
    # A game conceded was no shot: the strip said nothing of it. Now it is called, and the
    # winner's score lights up a moment, as a game won on a shot does.
    other = bob if fouler is ana else ana
    concede(other, "game")
    strip.page.wait_for_selector(".ov-call")
    said = strip.page.inner_text(".ov-call")
    assert said.startswith(f"{other.name} сдаёт партию"), said
    winner = 0 if fouler is ana else 1
    strip.page.wait_for_selector(f".ov-score.ov-scored[data-seat='{winner}']")
    save(strip, "strip-game-conceded-ru.png")
    # The match conceded: no balls of the game left unfinished, no fouls carried.
    concede(fouler, "match")
    strip.page.wait_for_function("window.ninepoolOverlay?.winner !== null")
    assert strip.page.locator(".ov-ball").count() == 0
    assert strip.page.locator(".ov-fouls").count() == 0
    assert_quiet(ana, bob)
