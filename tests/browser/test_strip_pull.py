"""The phone's power strip under a real finger (touch events through the DevTools
protocol): a soft shot from the cue drawn on it, the same pull giving about the same power
held upright or sideways, and the scoreboard's kitchen tag clear of the score sideways.
Screenshots go to `test-artifacts/`."""

from __future__ import annotations

from typing import Any

from tests.browser.support import Client, Server, save
from tests.browser.test_client import assert_quiet, replay_events, settle, shooter
from tests.browser.test_firstminute import PHONE, OpenClient, Touch, aim_at, shots_sent, started

Box = dict[str, float]


def box(c: Client, selector: str) -> Box:
    b = c.page.locator(selector).bounding_box()
    assert b is not None, selector
    return b


def laid_out(c: Client, width: int, height: int) -> None:
    """Turns the phone to `width`×`height` and waits for the page to be laid out anew."""
    c.page.set_viewport_size({"width": width, "height": height})
    c.page.wait_for_function(f"innerWidth === {width} && innerHeight === {height}")
    c.page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")


def hold_pull(finger: Touch, c: Client, x: float, y: float, pull: float) -> float:
    """Puts a finger down at (x, y) and draws it `pull` px down the screen, still held;
    returns the power the strip then shows."""
    finger.send("touchStart", x, y)
    for k in range(1, 7):
        c.page.wait_for_timeout(40)
        finger.send("touchMove", x, y + pull * k / 6)
    c.page.wait_for_timeout(60)
    return float(c.state("a.aim.power"))


def call_off(finger: Touch, c: Client, x: float, y: float, pull: float) -> str:
    """Slides the held finger back up to where it went down and lets go: no shot. What
    the strip said under the cue just before the finger let go."""
    for k in range(5, -1, -1):
        c.page.wait_for_timeout(40)
        finger.send("touchMove", x, y + pull * k / 6)
    c.page.wait_for_timeout(60)
    said = c.page.inner_text("#strip-out")
    save(c, "strip-no-shot.png")
    finger.send("touchEnd")
    return said


def test_a_short_pull_from_the_cue_drawn_on_the_strip_is_a_soft_shot(
    open_client: OpenClient, server: Server
) -> None:
    """A first-time player puts a finger on the cue drawn on the strip and pulls it a
    little for a soft shot. It once went on from the power the cue was drawn at (a break's
    87 %): a short pull was a hard shot. The pull is the power now: a short one soft, a
    long one hard, from wherever on the cue the finger takes hold."""
    ana, bob, room = started(open_client, host=PHONE, guest=PHONE)
    c = shooter((ana, bob))
    aim_at(c, 1)
    track = box(c, "#strip-track")
    cue = box(c, "#strip-cue")
    save(c, "strip-at-rest-break.png")
    # On the drawn cue: a finger's width below its tip, within the strip.
    x = track["x"] + track["width"] / 2
    y = min(cue["y"] + 16, track["y"] + track["height"] - 8)
    finger = Touch(c)
    shots = shots_sent(server, room)
    # A long pull: a hard shot (held, then slid back up where it went down: called off).
    long_pull = track["height"] * 0.75
    hard = hold_pull(finger, c, x, y, long_pull)
    save(c, "strip-long-pull.png")
    before = c.page.inner_text("#strip-out")
    # Slid back up, the strip says letting go there shoots nothing (it said "0 %" and a
    # speed, as if a shot that soft would be played).
    assert call_off(finger, c, x, y, long_pull) == "no shot"
    assert hard >= 0.6, hard
    c.page.wait_for_timeout(300)
    assert shots_sent(server, room) == shots, "called off, nothing shot"
    assert c.page.inner_text("#strip-out") != "no shot" and "%" in before
    # A short pull from the same place on the cue: a soft shot, and the one sent.
    cue = box(c, "#strip-cue")
    y = min(cue["y"] + 16, track["y"] + track["height"] - 8)
    soft = hold_pull(finger, c, x, y, track["height"] * 0.1)
    save(c, "strip-short-pull.png")
    assert 0.03 <= soft < 0.2, soft
    speed = c.page.inner_text("#strip-speed")
    finger.send("touchEnd")
    settle(ana, bob)
    results = [e for e in replay_events(server, room) if e["t"] == "shot_result"]
    assert len(results) == shots + 1
    sent = results[-1]["shot"]["speed"]
    assert f"{sent:.2f}" == speed.split()[0], (sent, speed)
    assert_quiet(ana, bob)


def test_the_same_pull_gives_about_the_same_power_upright_and_sideways(
    open_client: OpenClient,
) -> None:
    """Held sideways the strip was 80 px tall and the pull's scale its height: three times
    as touchy as upright, a few pixels a big change. The same pull now gives about the same
    power either way, and the strip's whole length still reaches full power on screen."""
    ana, bob, _room = started(open_client, host=PHONE, guest=PHONE)
    c = shooter((ana, bob))
    aim_at(c, 1)
    finger = Touch(c)
    pull = 40.0
    powers: dict[tuple[int, int], float] = {}
    fulls: dict[tuple[int, int], float] = {}
    for w, h in ((390, 844), (844, 390), (740, 360)):
        laid_out(c, w, h)
        track = box(c, "#strip-track")
        assert track["y"] >= 0 and track["y"] + track["height"] <= h, (w, h, track)
        x, top = track["x"] + track["width"] / 2, track["y"] + 6
        powers[(w, h)] = hold_pull(finger, c, x, top, pull)
        save(c, f"strip-pull-{w}x{h}.png")
        call_off(finger, c, x, top, pull)
        # From its top to its bottom, the strip is full power.
        whole = track["height"] - 12
        fulls[(w, h)] = hold_pull(finger, c, x, top, whole)
        call_off(finger, c, x, top, whole)
    upright = powers[(390, 844)]
    assert upright > 0.05, powers
    for size in ((844, 390), (740, 360)):
        ratio = powers[size] / upright
        assert 0.6 <= ratio <= 1.6, (size, ratio, powers)
    assert all(full >= 0.97 for full in fulls.values()), fulls
    assert_quiet(ana, bob)


def overlaps(a: Box, b: Box) -> bool:
    return (
        a["x"] < b["x"] + b["width"]
        and b["x"] < a["x"] + a["width"]
        and a["y"] < b["y"] + b["height"]
        and b["y"] < a["y"] + a["height"]
    )


def test_held_sideways_the_kitchen_tag_keeps_clear_of_the_score(
    open_client: OpenClient,
) -> None:
    """At the break the breaker's seat carries "ball in hand, behind the line" (Russian:
    the longest). Held sideways, each seat is a third of the width and the tag, kept on
    one line, ran over the seat's score. Whoever looks, in every language, no tag of the
    scoreboard meets a score."""
    for lang in ("ru", "hr", "en"):
        phone: dict[str, Any] = {**PHONE, "lang": lang}
        ana, bob, _room = started(open_client, host=phone, guest=phone)
        for w, h in ((844, 390), (740, 360)):
            for c in (ana, bob):
                laid_out(c, w, h)
                c.page.wait_for_selector("#table-view .scoreboard .tag.bih")
                # Tags and scores read in one go: the seats are drawn anew every second.
                tags, scores = c.page.evaluate(
                    "() => { const at = (e) => { const r = e.getBoundingClientRect();"
                    " return {x: r.x, y: r.y, width: r.width, height: r.height}; };"
                    " const board = document.querySelector('#table-view .scoreboard');"
                    " return [[...board.querySelectorAll('.tag')]"
                    ".filter((e) => e.getClientRects().length).map((e) => [e.textContent, at(e)]),"
                    " [0, 1].map((i) => at(board.querySelector(`.seat${i} .score`)))]; }"
                )
                save(c, f"kitchen-tag-{lang}-{w}x{h}-{c.name}.png")
                for text, tag in tags:
                    for score in scores:
                        assert not overlaps(tag, score), (lang, w, h, c.name, text, tag, score)
        assert_quiet(ana, bob)
        ana.context.close()
        bob.context.close()
