"""The stream strip that follows the TV channel (`/overlay/tv`), and the TV page itself, on
a server of its own so that nothing is live when they open: they say nothing is live, take
the match that starts, and say nothing is live again once that match is over."""

from __future__ import annotations

from collections.abc import Callable

from tests.browser.support import RATE, Client, save
from tests.browser.test_client import assert_quiet, start_match
from tests.browser.test_watching import concede

OpenClient = Callable[..., Client]


def test_the_channels_strip_follows_what_is_live_and_says_when_nothing_is(
    open_client: OpenClient, open_page: Callable[[str, str], Client]
) -> None:
    words = {"en": "No match is live right now", "hr": "Trenutačno se ne igra nijedan meč"}
    strips = {
        lang: open_page(f"overlay-tv-{lang}", f"/overlay/tv?lang={lang}&linger=4&rate={RATE}")
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
    tv = open_page("tv-idle", f"/tv?lang=en&linger=4&rate={RATE}")
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
    for strip in strips.values():
        strip.page.wait_for_function(
            "window.ninepoolOverlay?.status === 'idle' && window.ninepoolOverlay.room === null",
            timeout=15_000,
        )
    assert strips["en"].page.inner_text("#overlay") == words["en"]
    assert_quiet(ana, bob, tv, *strips.values())
