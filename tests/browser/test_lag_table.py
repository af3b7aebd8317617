"""The lag before it is played (O6): the table showed no ball at all, and the card's
"Angle" changed nothing that could be seen; on a phone the card stood over the head of
the table, where the balls wait."""

from __future__ import annotations

import math

import pytest

from server.physics.lag import lag_spot
from server.physics.table import TABLE
from tests.browser.support import Client, open_replay, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import PHONE, OpenClient, host_and_guest, play_the_lag

SHOWN = "window.ninepool.overlay()"


def card_clear_of(c: Client, seat: int) -> bool:
    """Whether the lag's card leaves the seat's ball (its middle, and a ball's width
    around it) in sight."""
    x, y = c.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", list(lag_spot(seat)))
    box = c.page.locator("#lag-controls").bounding_box()
    assert box is not None
    reach = 12
    return not (
        box["x"] - reach < x < box["x"] + box["width"] + reach
        and box["y"] - reach < y < box["y"] + box["height"] + reach
    )


def test_before_the_lag_its_balls_wait_at_their_spots_and_the_angle_turns_the_line(
    open_client: OpenClient,
) -> None:
    """Both players see both balls, named, where the server plays them from; each sees
    their own cue and line, which the angle turns, and nobody else's; the card stands
    clear of the player's own ball (held upright and sideways on a phone, on a desktop).
    Once played, the line goes and the ball waits for the other lag."""
    ana, bob, _room = host_and_guest(
        open_client, host={**PHONE, "lang": "hr"}, guest={"lang": "ru"}, first_break="lag"
    )
    for c in (ana, bob):
        c.page.locator("#lag-shoot").wait_for(state="visible")
        c.page.wait_for_function(f"({SHOWN}?.labels.length ?? 0) === 2 && !!{SHOWN}.aim")
    for c, seat in ((ana, 0), (bob, 1)):
        aim = c.page.evaluate(f"{SHOWN}.aim")
        assert aim["cue"] == pytest.approx(list(lag_spot(seat)), abs=1e-9), (c.name, aim)
        assert aim["angle"] == 0 and not aim["remote"]
        assert card_clear_of(c, seat), c.name
    # The angle turns the line (2.5° of the slider's ±3°): the slider's right to the
    # player's right, clockwise seen from above (it turned the ball to their left).
    bob.page.locator("#lag-angle").fill("25")
    bob.page.wait_for_function(f"Math.abs({SHOWN}.aim.angle + 2.5 * Math.PI / 180) < 1e-9")
    assert bob.page.inner_text("#lag-angle-out") == "2,5°"
    ball = bob.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", list(lag_spot(1)))
    far = bob.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", [2.0, lag_spot(1)[1]])
    # (drawn with the foot to the right, the player's right is down the screen)
    assert far[0] > ball[0]
    aim = bob.page.evaluate(f"{SHOWN}.aim")
    tip = bob.page.evaluate(
        "(a) => window.ninepool.screenOf("
        "a.cue[0] + Math.cos(a.angle), a.cue[1] + Math.sin(a.angle))",
        aim,
    )
    assert tip[1] > ball[1], (tip, ball)
    save(bob, "lag-line-desktop-ru.png")
    # On a wide screen the card keeps toward the foot: at the middle it covered the other
    # ball's name tag.
    card = bob.page.locator("#lag-controls").bounding_box()
    other = bob.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", list(lag_spot(0)))
    assert card is not None and card["x"] > other[0] + 150, (card, other)
    save(ana, "lag-balls-phone-hr.png")
    # Held sideways the card stands in the column beside the table, clear of both balls.
    ana.page.set_viewport_size({"width": 844, "height": 390})
    ana.page.wait_for_function("!window.ninepool.portrait()")
    ana.page.wait_for_timeout(300)
    assert card_clear_of(ana, 0) and card_clear_of(ana, 1)
    assert ana.page.locator("#lag-shoot").bounding_box()["y"] < 390 - 30
    # In the column, off the table: over its foot half it hid the far cushion the lag is
    # played to, and the line under it.
    card = ana.page.locator("#lag-controls").bounding_box()
    head = ana.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", [0.0, 0.635])
    assert card is not None
    assert card["x"] + card["width"] <= head[0], (card, head)
    save(ana, "lag-balls-sideways-hr.png")
    # Played: the line goes, and the ball waits at its spot for the other lag.
    bob.page.click("#lag-shoot")
    bob.page.wait_for_function(f"!{SHOWN}.aim && {SHOWN}.labels.length === 2")
    # (the server's word that it was played comes after the line has gone: waited for, on a
    # loaded machine it came later than a read)
    bob.wait("a.view.lagged.length === 1")
    assert_quiet(ana, bob)


def test_a_lag_balls_name_stays_on_the_cloth(open_client: OpenClient) -> None:
    """On a phone a lag ball's name tag ran past the rail over a corner pocket (a ball on
    the quarter line, a guest's long name beside it). A tag goes where it stays on the
    cloth when there is such a place."""

    def numbered(name: str, **kw: object) -> Client:  # the host as a guest the page named
        return open_client("Igrač-4323" if name == "Ana" else name, **kw)

    ana, bob, _room = host_and_guest(
        numbered, host={**PHONE, "lang": "hr"}, guest=PHONE, first_break="lag"
    )
    ana.page.wait_for_function(f"({SHOWN}?.labels.length ?? 0) === 2")
    ana.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
    canvas = ana.page.locator("#table").bounding_box()
    assert canvas is not None
    corners = [
        ana.page.evaluate("(p) => window.ninepool.screenOf(p[0], p[1])", p)
        for p in ((0.0, 0.0), (TABLE.length, TABLE.width))
    ]
    left, right = sorted(x - canvas["x"] for x, _ in corners)
    top, bottom = sorted(y - canvas["y"] for _, y in corners)
    for label in ana.page.evaluate(f"{SHOWN}.labels"):
        box = label["box"]
        assert left <= box["x"] and box["x"] + box["w"] <= right, (label["text"], box, left, right)
        assert top <= box["y"] and box["y"] + box["h"] <= bottom, (label["text"], box)
    save(ana, "lag-tags-on-the-cloth-hr.png")
    assert_quiet(ana, bob)


def test_the_lag_winners_card_says_where_both_balls_stopped(open_client: OpenClient) -> None:
    """On a phone the winner's card covers the status and the log, which alone said how
    far from the cushion each ball stopped: the winner chose without knowing by how much
    they had won. The card says both distances, the winner's as "you"."""
    ana, bob, _room = host_and_guest(
        open_client, host={**PHONE, "lang": "hr"}, guest={**PHONE, "lang": "ru"}, first_break="lag"
    )
    play_the_lag((ana, bob))
    for c in (ana, bob):
        c.wait("a.view.lag_choice != null")
    winner, loser = (ana, bob) if ana.state("a.view.lag_choice === a.seat") else (bob, ana)
    winner.page.locator("#lag-dialog").wait_for(state="visible")
    lags = winner.state("a.lastLag.lags")
    seat = winner.state("a.seat")
    cm = {lag["seat"]: f"{lag['distance'] * 100:.1f}".replace(".", ",") for lag in lags}
    lines = winner.page.inner_text("#lag-dists").split("\n")
    you, other = ("Vi", "Bob") if winner is ana else ("Вы", "Ana")
    words = "cm od mantinele" if winner is ana else "см от борта"
    assert sorted(lines) == sorted(
        [f"{you}: {cm[seat]} {words}", f"{other}: {cm[1 - seat]} {words}"]
    ), lines
    assert winner.page.locator("#lag-break").bounding_box()["y"] < 844 - 60
    assert loser.page.is_hidden("#lag-dialog")
    save(winner, "lag-won-card-phone.png")
    assert_quiet(ana, bob)


def test_a_replayed_lag_names_its_balls_as_they_roll(open_client: OpenClient) -> None:
    """A replay played the lag as two white balls, unnamed until they had stopped (live,
    each is named from its spot on). Stepped onto, the lag's balls roll named."""
    ana, bob, room = host_and_guest(open_client, first_break="lag")
    play_the_lag((ana, bob))
    for c in (ana, bob):
        c.wait("a.view.lag_choice != null")
    cleo = open_client("Cleo")
    lines = open_replay(cleo, room)
    lag = next(k for k, line in enumerate(lines) if "wins the lag" in line)
    cleo.page.locator("#r-log li button").nth(lag - 1).click()
    cleo.page.click("#r-next")  # onto the lag's result, played out
    cleo.page.wait_for_function("window.ninepool.replayLabels().length === 2")
    first = cleo.page.evaluate("window.ninepool.replayLabels()")
    assert cleo.page.evaluate("window.ninepool.replayLag()") is not None
    cleo.page.wait_for_timeout(400)
    later = cleo.page.evaluate("window.ninepool.replayLabels()")
    assert sorted(label["text"] for label in first) == ["Ana's ball", "Bob's ball"], first
    # Rolling: the tags went with the balls (one ball at least still moving then).
    assert any(
        math.dist((a["x"], a["y"]), (b["x"], b["y"])) > 0.005
        for a, b in zip(first, later, strict=True)
    ), (first, later)
    save(cleo, "replay-lag-rolling-named.png")
    assert_quiet(ana, bob, cleo)


def test_a_lag_played_again_says_why_on_its_card(open_client: OpenClient) -> None:
    """Held sideways the lag's card stands over the column whose words said why a lag
    is played again (level to 0.1 mm, or neither lag counting). The card says it."""
    ana, bob, _room = host_and_guest(
        open_client, host={**PHONE, "lang": "hr"}, guest={"lang": "ru"}, first_break="lag"
    )
    ana.page.locator("#lag-shoot").wait_for(state="visible")
    assert ana.page.is_hidden("#lag-again")  # a first lag has nothing to explain
    # The last lag as the server sends one that neither player won (both short of the
    # foot rail), the page redrawn as a change of language redraws it.
    ana.page.evaluate(
        "window.ninepool.app.lastLag = { t: 'lag_result', method: 'lag', winner: null,"
        " reason: 'both_faults', lags: [0, 1].map((seat) => ({ seat, distance: null,"
        " fault: 'the ball did not reach the foot rail', fault_code: 'short' })) }"
    )
    ana.page.select_option("#lang", "ru")
    ana.page.wait_for_function("document.documentElement.lang === 'ru'")
    ana.page.set_viewport_size({"width": 844, "height": 390})
    ana.page.wait_for_function("!window.ninepool.portrait()")
    again = ana.page.locator("#lag-again")
    assert again.is_visible() and again.inner_text() == "Ни один раскат не засчитан: переигрываем."
    box, card = again.bounding_box(), ana.page.locator("#lag-controls").bounding_box()
    assert box is not None and card is not None and card["y"] <= box["y"] < card["y"] + 60
    save(ana, "lag-again-on-the-card-sideways.png")
    assert_quiet(ana, bob)
