"""The line that would hit the wrong ball first (a red ghost ball and the words of the
foul), and a raised cue, as for a jump over the ball in the way: the preview line is drawn
on the cloth, and a firm stroke lifts the cue ball off it. The page called a jump a foul on the
ball it would clear ("That line hits the 8 first — the 1 must be hit first (foul)"); with
the cue raised it says the line shows only where the cue points."""

from __future__ import annotations

from tests.browser.support import Client, save
from tests.browser.test_client import OpenClient, assert_quiet, click_table, settle, shooter
from tests.browser.test_firstminute import aim_at, foul_softly_any, started


def after_the_break(open_client: OpenClient) -> tuple[Client, Client, Client]:
    """A match whose break was played at the power it offers: both players, and the one
    to shoot now, shooting (a push-out's choice made)."""
    ana, bob, _ = started(open_client)
    shooter((ana, bob)).page.click("#shoot")
    settle(ana, bob)
    c = shooter((ana, bob))
    if c.state("a.table.choice_pending"):
        c.page.click("#choose-shoot")
        c.wait("!a.table.choice_pending")
    return ana, bob, c


def aim_at_a_wrong_ball(c: Client) -> None:
    """Clicks on the balls above the lowest, one by one, until the aim meets one of them
    first (a foul's line)."""
    balls = c.state("a.table.balls")
    for n in range(c.state("a.table.lowest") + 1, 10):
        p = balls[n]
        if p is None:
            continue
        click_table(c, p[0], p[1])
        c.page.wait_for_timeout(120)
        if c.state("a.wrongBall") is not None:
            break


def test_trap5_a_red_ghost_ball_when_the_first_ball_is_the_wrong_one(
    open_client: OpenClient,
) -> None:
    ana, bob, c = after_the_break(open_client)
    aim_at(c, c.state("a.table.lowest"))
    c.page.wait_for_timeout(150)
    assert c.page.evaluate("window.ninepool.overlay().wrong") is False
    aim_at_a_wrong_ball(c)  # the first ball hit would not be the lowest
    assert c.state("a.wrongBall") is not None
    assert c.page.evaluate("window.ninepool.overlay().wrong") is True
    assert "must be hit first" in c.page.inner_text("#status")
    save(c, "wrong-ball-ghost.png")
    assert_quiet(ana, bob)


def test_a_raised_cue_calls_no_foul_on_the_ball_it_may_jump(open_client: OpenClient) -> None:
    ana, bob, c = after_the_break(open_client)
    aim_at_a_wrong_ball(c)
    assert c.state("a.wrongBall") is not None  # level: the ball met first is a foul
    c.page.evaluate(
        "(() => { const e = document.getElementById('elevation'); e.value = '30';"
        " e.dispatchEvent(new Event('input')); })()"
    )
    c.wait("a.wrongBall === null")
    assert c.page.evaluate("window.ninepool.overlay().wrong") is False
    said = c.page.inner_text("#status .prompt")
    assert said.startswith("Cue raised 30°: a firm stroke lifts the cue ball off the cloth"), said
    # Lowered again, the line is the ball's path, and the foul is said.
    c.page.evaluate(
        "(() => { const e = document.getElementById('elevation'); e.value = '0';"
        " e.dispatchEvent(new Event('input')); })()"
    )
    c.wait("a.wrongBall !== null")
    assert "must be hit first" in c.page.inner_text("#status")
    assert_quiet(ana, bob)


def test_space_on_the_power_slider_shoots(open_client: OpenClient) -> None:
    """The key help says Space shoots; with the power slider focused (after setting it by
    hand) Space scrolled the panel instead, and the spin ball stayed cut off."""
    ana, bob, _ = started(open_client)
    c = shooter((ana, bob))
    c.page.locator("#power").focus()
    c.page.keyboard.press("ArrowUp")
    c.page.keyboard.press("Space")
    c.wait("a.lastShot !== null || a.shotPending")
    settle(ana, bob)
    assert c.state("a.lastShot.shooter") == c.state("a.seat")
    assert_quiet(ana, bob)


def test_a_new_ball_in_hand_is_said_before_the_line_the_aim_was_left_on(
    open_client: OpenClient,
) -> None:
    """A second ball in hand in a match, to a player who has moved one before: the status
    says ball in hand first, not that the line the aim lies on would be a foul (a page
    opened on "That line hits the 6 first … (foul)" before the ball was touched); once the
    ball is put down, the line's foul is said."""
    ana, bob, _ = started(open_client)
    breaker = shooter((ana, bob))
    other = bob if breaker is ana else ana
    breaker.page.click("#shoot")
    settle(ana, bob)
    if other.state("a.table.turn !== a.seat"):  # the break made a ball: the breaker fouls
        if breaker.state("a.table.choice_pending"):
            breaker.page.click("#choose-shoot")
        foul_softly_any(breaker)
        settle(ana, bob)
    elif other.state("a.table.choice_pending"):
        other.page.click("#choose-shoot")
        other.wait("!a.table.choice_pending")
    if other.state("a.table.ball_in_hand") != "table":  # (no foul on the break)
        foul_softly_any(other)
        settle(ana, bob)
        foul_softly_any(breaker)
        settle(ana, bob)
    # The first ball in hand: moved by its handle, then a soft foul hands it over.
    assert other.state("a.table.ball_in_hand") == "table"
    hx, hy = other.page.evaluate("window.ninepool.handleOf()")
    other.page.mouse.move(hx, hy)
    other.page.mouse.down()
    other.page.mouse.move(hx, hy - 40, steps=8)
    other.page.mouse.up()
    other.wait("a.movedInHand")
    foul_softly_any(other)
    settle(ana, bob)
    foul_softly_any(breaker)
    settle(ana, bob)
    assert other.state("a.table.ball_in_hand") == "table" and other.state("a.movedInHand")
    # The turn opens with the aim on a line that meets a wrong ball first (as when no line
    # to the ball to hit is clear from where the cue ball lies): ball in hand is said.
    other.page.evaluate(
        "(() => { const a = window.ninepool.app; const t = a.table;"
        " const n = t.balls.findIndex((p, i) => i > t.lowest && p);"
        " const [c, b] = [t.balls[0], t.balls[n]];"
        " a.aim.angle = Math.atan2(b[1] - c[1], b[0] - c[0]); })()"
    )
    other.wait("a.wrongBall !== null")
    said = other.page.inner_text("#status .prompt")
    assert said == f"Ball in hand — hit the\u00a0{other.state('a.table.lowest')} first.", said
    # Aimed by the player (a click on the table), the line's foul is said.
    aim_at_a_wrong_ball(other)
    assert other.state("a.wrongBall") is not None
    assert "must be hit first" in other.page.inner_text("#status .prompt")
    assert_quiet(ana, bob)
