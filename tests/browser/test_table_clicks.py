"""What a click on the table does where things drawn on it overlap: a ball under the cue
stick is aimed at, not the stick grabbed."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from tests.browser.support import Server, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    foul_softly,
    replay_events,
    set_power,
    settle,
    shooter,
)
from tests.browser.test_firstminute import OpenClient, started


def test_a_click_on_a_ball_under_the_cue_stick_aims_at_it(open_client: OpenClient) -> None:
    """A new turn often leaves the stick drawn across the very ball to hit. A click on that
    ball aims at it (it grabbed the stick, and the aim stayed put while the clock ran);
    a press on the stick away from any ball still grabs it."""
    ana, bob, _ = started(open_client)
    c = shooter((ana, bob))
    cue = c.state("a.table.balls[0]")
    one = c.state("a.table.balls[1]")
    toward = math.atan2(one[1] - cue[1], one[0] - cue[0])
    # Aimed straight away from the 1 (by way of a quarter turn: a click where the stick
    # lies grabs it), softly: the stick lies behind the cue ball, over the 1.
    side = toward + math.pi / 2
    click_table(c, cue[0] + 0.3 * math.cos(side), cue[1] + 0.3 * math.sin(side))
    click_table(c, cue[0] - 0.3 * math.cos(toward), cue[1] - 0.3 * math.sin(toward))
    set_power(c, 10)
    assert abs(math.remainder(c.state("a.aim.angle") - toward - math.pi, 2 * math.pi)) < 0.02
    # The 1 lies on the stick as the client draws it and takes presses on it (its tip
    # 1.4 + 5·power radii behind the cue ball, 1.4 m long): the case this test is about.
    r = 0.028575  # the ball's radius (client_web/table.mjs)
    tip = r * (1.4 + 5 * c.state("a.aim.power"))
    gap = math.dist(cue, one)
    assert tip + 2 * r < gap < tip + 1.4 - r, (tip, gap)
    save(c, "stick-over-the-1.png")
    click_table(c, one[0], one[1])
    assert abs(math.remainder(c.state("a.aim.angle") - toward, 2 * math.pi)) < 0.01
    # Grabbed on the stick behind the cue ball (no ball there) and pulled back: power, no turn.
    angle = c.state("a.aim.angle")
    power = c.state("a.aim.power")
    away = angle + math.pi
    grab = (cue[0] + 0.3 * math.cos(away), cue[1] + 0.3 * math.sin(away))
    x0, y0 = c.screen(*grab)
    x1, y1 = c.screen(grab[0] + 0.02 * math.cos(away), grab[1] + 0.02 * math.sin(away))
    c.page.mouse.move(x0, y0)
    c.page.mouse.down()
    c.page.mouse.move(x1, y1, steps=4)
    assert c.state("a.aim.power") > power
    assert abs(c.state("a.aim.angle") - angle) < 1e-9
    c.page.keyboard.press("Escape")
    assert_quiet(ana, bob)


def test_the_more_menu_closes_on_escape_and_on_a_click_elsewhere(open_client: OpenClient) -> None:
    """Left open, the menu would float over the power slider and the Shoot button when the
    turn comes: Esc or a click anywhere else closes it, as any menu; a click inside it
    does not."""
    ana, bob, _ = started(open_client)
    c = shooter((ana, bob))
    menu = "document.getElementById('more').open"
    c.page.click("#more summary")
    assert c.page.evaluate(menu) is True
    c.page.keyboard.press("Escape")
    assert c.page.evaluate(menu) is False
    assert c.page.evaluate("document.activeElement === document.querySelector('#more summary')")
    c.page.click("#more summary")
    c.page.hover("#more .more-menu")
    c.page.mouse.down()
    c.page.mouse.up()
    assert c.page.evaluate(menu) is True
    c.page.click("#status")  # (the open menu may cover the log below it)
    assert c.page.evaluate(menu) is False
    assert_quiet(ana, bob)


def test_a_shot_skipped_before_its_first_frame_still_sounds_the_cues_strike(
    open_client: OpenClient,
) -> None:
    """A shooter who skips the shot they have just played (Esc, a tap) at once heard
    nothing: the skip dropped every impact not yet heard, the cue's strike too when the
    skip came before the animation's first frame (a busy phone). What is due is heard."""
    ana, bob, _ = started(open_client, host={"rate": None}, guest={"rate": None})
    c = shooter((ana, bob))
    # Esc the moment the shot starts to play, before any frame draws it.
    c.page.evaluate(
        """() => {
          const app = window.ninepool.app;
          let anim = app.anim;
          Object.defineProperty(app, "anim", {
            configurable: true,
            get: () => anim,
            set: (value) => {
              anim = value;
              if (value && !window.skippedAtOnce) {
                window.skippedAtOnce = true;
                const esc = new KeyboardEvent("keydown", { key: "Escape", bubbles: true });
                document.body.dispatchEvent(esc);
              }
            },
          });
        }"""
    )
    c.page.click("#shoot")
    c.page.wait_for_function("window.skippedAtOnce && !window.ninepool.animating()")
    assert c.page.evaluate("window.ninepool.sounds().heard")[:1] == ["cue"]
    assert_quiet(ana, bob)


def test_a_chat_message_typed_off_the_box_plays_no_shot(open_client: OpenClient) -> None:
    """A player whose click missed the chat's box typed "Hvala, sretno i tebi!" onto the
    page: its first space played a shot (Space shoots), a foul. A space or an Enter just
    after a typed character is taken for typing — no shot, and a word on where to type —
    and Space shoots again a moment later."""
    ana, bob, _ = started(open_client, host={"lang": "hr"})
    c = shooter((ana, bob))
    balls = c.state("JSON.stringify(a.table.balls)")
    c.page.click(".log-title")  # (focus on the page, not on a field)
    c.page.keyboard.type("Hvala, sretno i tebi!", delay=20)
    c.page.keyboard.press("Enter")
    c.page.wait_for_function("!document.getElementById('toast').hidden")
    toast = c.page.inner_text("#toast")
    assert "chat" in toast or "razgovor" in toast, toast
    c.page.wait_for_timeout(300)
    assert c.state("!a.anim && !a.shotPending && a.table.turn === a.seat")
    assert c.state("JSON.stringify(a.table.balls)") == balls
    c.page.wait_for_timeout(1600)
    c.page.keyboard.press("Space")
    c.wait("!!a.anim || a.shotPending")
    assert_quiet(ana, bob)


def test_the_cue_stays_on_the_ball_to_hit_as_the_cue_ball_is_moved(
    open_client: OpenClient,
) -> None:
    """The break's cue points at the 1; moving the cue ball along the head string left it
    pointing past the rack, parallel to where it was. Aimed at the ball to hit, the cue
    follows it as the ball is moved; aimed elsewhere, it keeps its direction."""
    ana, bob, _ = started(open_client)
    c = shooter((ana, bob))
    assert c.state("a.table.ball_in_hand") == "kitchen"

    def to_one() -> float:
        cue, one = c.state("a.table.balls[0]"), c.state("a.table.balls[1]")
        return math.atan2(one[1] - cue[1], one[0] - cue[0])

    assert abs(math.remainder(c.state("a.aim.angle") - to_one(), 2 * math.pi)) < 1e-3
    for dy in (-60, 45):  # screen pixels along the head string (the table lies flat)
        before = c.state("a.table.balls[0]")
        hx, hy = c.page.evaluate("window.ninepool.handleOf()")
        c.page.mouse.move(hx, hy)
        c.page.mouse.down()
        c.page.mouse.move(hx, hy + dy / 2, steps=4)
        c.page.mouse.move(hx, hy + dy, steps=4)
        c.page.mouse.up()
        c.wait(
            f"Math.hypot(a.table.balls[0][0] - {before[0]}, a.table.balls[0][1] - {before[1]})"
            " > 0.02"
        )
        assert abs(math.remainder(c.state("a.aim.angle") - to_one(), 2 * math.pi)) < 2e-3
    # Aimed 10° off the 1, the cue keeps its direction as the ball moves.
    off = to_one() + math.radians(10)
    c.page.evaluate(f"window.ninepool.app.aim.angle = {off}")
    before = c.state("a.table.balls[0]")
    hx, hy = c.page.evaluate("window.ninepool.handleOf()")
    c.page.mouse.move(hx, hy)
    c.page.mouse.down()
    c.page.mouse.move(hx, hy + 40, steps=6)
    c.page.mouse.up()
    c.wait(f"Math.hypot(a.table.balls[0][1] - {before[1]}) > 0.02")
    assert abs(c.state("a.aim.angle") - off) < 1e-9
    assert_quiet(ana, bob)


def test_every_turn_after_a_shot_starts_with_the_cue_at_the_ball_to_hit(
    open_client: OpenClient,
) -> None:
    """The cue of a player whose turn comes back points at the ball to hit from where the
    cue ball now lies, not where they aimed last: their old line, drawn from where the
    cue ball was, ran past the rack and the prompt at once warned of a wrong ball."""
    ana, bob, _ = started(open_client)
    first = shooter((ana, bob))
    other = bob if first is ana else ana
    for turn, c in enumerate((first, other, first, other)):
        c.wait("a.table.turn === a.seat && !a.anim && !a.shotPending")
        c.page.wait_for_timeout(200)  # a frame or two: the new turn's aim is drawn
        cue = c.state("a.table.balls[0]")
        low = c.state("a.table.balls[a.table.lowest]")
        toward = math.atan2(low[1] - cue[1], low[0] - cue[0])
        assert abs(math.remainder(c.state("a.aim.angle") - toward, 2 * math.pi)) < 0.01, turn
        if turn == 3:
            break
        # A gentle roll square to a side rail, away from every ball: a foul. (Not a click
        # behind the cue ball: that grabs the stick lying there.)
        click_table(c, cue[0], cue[1] + 0.2)
        assert abs(c.state("a.aim.angle") - math.pi / 2) < 0.01
        set_power(c, 12)
        c.page.click("#shoot")
        settle(ana, bob)


#: W, A, S and D where a Russian keyboard has them: the same keys, other letters.
RUSSIAN_WASD = {"KeyW": ("ц", 87), "KeyA": ("ф", 65), "KeyS": ("ы", 83), "KeyD": ("в", 68)}


def press_russian(cdp: Any, code: str, held: int = 0) -> None:
    """A key as a Russian keyboard sends it (the key's letter is Cyrillic): pressed, or
    held down for `held` repeats, then let go."""
    key, vk = RUSSIAN_WASD[code]
    down: dict[str, Any] = {"key": key, "code": code, "windowsVirtualKeyCode": vk}
    cdp.send("Input.dispatchKeyEvent", {"type": "keyDown", "text": key, **down})
    for _ in range(held):
        repeat = {"type": "keyDown", "text": key, "autoRepeat": True, **down}
        cdp.send("Input.dispatchKeyEvent", repeat)
    cdp.send("Input.dispatchKeyEvent", {"type": "keyUp", **down})


def test_the_cue_ball_in_hand_moves_by_key_on_any_layout_and_is_put_down_once(
    open_client: OpenClient, server: Server
) -> None:
    """WASD moved the cue ball in hand only where those keys type w, a, s and d: on a
    Russian layout (ц, ф, ы, в) nothing moved. And every press was a placement, a line of
    the game's record each (a replay listed dozens for one move). The keys act by their
    place on the keyboard; held down they go faster; the ball is put down once they rest,
    and Space strikes it where the keys left it."""
    ana, bob, room = started(open_client, host={"lang": "ru"}, guest={"lang": "ru"})
    c = shooter((ana, bob))
    assert c.state("a.table.ball_in_hand") == "kitchen"
    start = c.state("a.table.balls[0]")
    placed_before = sum(e["t"] == "placed" for e in replay_events(server, room))
    c.page.click(".log-title")  # (the focus on the page, not on a field)
    cdp = c.context.new_cdp_session(c.page)
    for _ in range(3):
        press_russian(cdp, "KeyW")
    press_russian(cdp, "KeyW", held=4)  # 1 cm, then 3 cm a repeat
    # Put down when the keys rest: where eight moves took it (3 + 1 + 4 × 3 cm), in fewer
    # placements than moves (one, unless the machine stalled between two of them).
    c.wait("!a.keyPlace && !a.placedPending")
    moved = c.state("a.table.balls[0]")
    assert math.dist(moved, start) == pytest.approx(0.16, abs=1e-6), (moved, start)
    c.page.wait_for_timeout(300)
    placed = [e for e in replay_events(server, room) if e["t"] == "placed"]
    assert placed_before < len(placed) < placed_before + 3
    assert math.dist(placed[-1]["pos"], moved) < 1e-6
    # A press and Space at once: the ball goes down where the press left it, then is struck.
    press_russian(cdp, "KeyS")
    cdp.detach()
    c.page.keyboard.press("Space")
    c.wait("!!a.anim || a.shotPending || !!a.lastShot")
    settle(ana, bob)
    events = replay_events(server, room)
    shot_at = max(i for i, e in enumerate(events) if e["t"] == "shot_result")
    last_placed = max(i for i, e in enumerate(events) if e["t"] == "placed")
    assert last_placed < shot_at
    assert math.dist(events[last_placed]["pos"], moved) == pytest.approx(0.01, abs=1e-6)
    assert_quiet(ana, bob)


def test_the_keys_go_to_the_table_once_it_is_shown_and_after_a_dialog(
    open_client: OpenClient,
) -> None:
    """A keyboard player pressed "Play the computer": the button went with the lobby and
    the focus fell to the page's body, no ring in sight and the next Tab at the logo, six
    presses from the table. The table takes the keys once it is shown (Space there plays
    the lag), and again when a dialog over it closes with nothing else to go back to."""
    ana = open_client("Ana", lang="ru")
    ana.page.focus("#computer")
    ana.page.keyboard.press("Enter")
    ana.wait("a.view && (a.view.status === 'lag' || a.view.status === 'playing')")
    ana.page.wait_for_function("document.activeElement?.id === 'table'")
    # Space on the table plays the lag, as it plays a shot (it took three Tabs to the
    # card's button).
    ana.page.locator("#lag-shoot").wait_for(state="visible")
    ana.page.keyboard.press("Space")
    ana.wait("a.lagSent || a.view.status !== 'lag' || a.view.lag_choice !== null")
    # A dialog opened from the table and closed: the keys back on the table.
    ana.page.evaluate("document.getElementById('concede-dialog').showModal()")
    ana.page.evaluate("document.activeElement.blur()")
    ana.page.keyboard.press("Escape")
    ana.page.wait_for_function("document.activeElement?.id === 'table'")
    assert_quiet(ana)


def test_the_concede_dialog_opens_on_keep_playing(open_client: OpenClient) -> None:
    """The concede dialog held the keys on "Concede the game": a reflex Enter or Space gave
    the game away. It opens on its safe answer, and Enter keeps playing."""
    ana, bob, _ = started(open_client, host={"lang": "ru"})
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.locator("#concede-dialog").wait_for(state="visible")
    assert ana.page.evaluate("document.activeElement.id") == "concede-cancel"
    ana.page.keyboard.press("Enter")
    ana.page.locator("#concede-dialog").wait_for(state="hidden")
    ana.page.wait_for_timeout(300)
    assert ana.state("a.view.status") == "playing" and ana.state("a.table.score") == [0, 0]
    assert_quiet(ana, bob)


def test_back_in_the_lobby_the_keys_are_at_the_lobby(open_client: OpenClient) -> None:
    """A keyboard player who left a table by its "Leave table" button found the focus on
    the page's body: the next Tab started again at the logo, and a screen reader said
    nothing of where the page now was. The lobby's heading takes the focus, and the next
    Tab is in the lobby."""
    ana = open_client("Ana", lang="hr")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    ana.page.wait_for_function("document.activeElement?.id === 'table'")
    ana.page.evaluate("document.querySelector('#more').open = true")
    ana.page.focus("#leave")
    ana.page.keyboard.press("Enter")
    if ana.page.locator("#leave-dialog").is_visible():
        ana.page.focus("#leave-confirm")
        ana.page.keyboard.press("Enter")
    ana.page.locator("#lobby").wait_for(state="visible")
    ana.page.wait_for_function("document.activeElement?.id === 'lobby-title'")
    ana.page.keyboard.press("Tab")
    assert ana.page.evaluate("!!document.activeElement.closest('#lobby')")
    assert_quiet(ana)


def test_the_others_hear_an_aim_only_once_the_shooter_aims(open_client: OpenClient) -> None:
    """A turn's starting aim (at the ball to hit, a break's power) went out as the player's
    aim: the others read "Alice is aiming: power 87 %" while Alice was still reading the
    last game's result. Only the shooter's own aiming is heard."""
    ana, bob, _ = started(open_client, host={"lang": "ru"})
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    other.page.wait_for_timeout(1500)
    assert other.state("a.remoteAim") is None
    assert "целится" not in other.page.inner_text("#status .prompt")
    table = c.state("a.table")
    low = table["balls"][table["lowest"]]
    click_table(c, low[0] + 0.01, low[1])
    other.wait(f"!!a.remoteAim && a.remoteAim.seat === {table['turn']}")
    # Draw put on the cue ball is read in words ("draw", "оттяжка"), not "draw 0.29".
    spin = c.page.locator("#spin").bounding_box()
    assert spin is not None
    c.page.mouse.click(spin["x"] + spin["width"] / 2, spin["y"] + spin["height"] * 0.68)
    other.wait("!!a.remoteAim && a.remoteAim.tip[1] < -0.15")
    other.page.wait_for_function(
        "/(draw|оттяжка)\\.$/.test(document.querySelector('#status .prompt').textContent)"
    )
    said = other.page.inner_text("#status .prompt")
    assert not re.search(r"\d[.,]\d\d", said), said
    assert_quiet(ana, bob)


def test_a_replay_opened_from_the_table_says_when_the_move_there_is_yours(
    open_client: OpenClient,
) -> None:
    """Between games a tournament player opened the result's replay of the game: the next
    break was theirs, its clock ran out unseen, and the break went to the opponent. The
    replay's way back says when the move at the table is the reader's, with its time."""
    ana, bob, room = started(
        open_client, host={"lang": "hr"}, table={"#c-preset": "custom", "#c-clock": "60"}
    )
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    for p in (c, other):
        p.page.evaluate(f"location.hash = '#/replay/{room}'")
        p.page.wait_for_selector("#replay-view:not([hidden])")
        p.page.locator("#r-back").wait_for(state="visible")
    c.page.wait_for_function(
        "/\\(\\d:\\d\\d\\)/.test(document.getElementById('r-back').textContent)"
    )
    said = c.page.inner_text("#r-back")
    assert said.startswith(("Your move at the table (", "Na potezu ste (")), said
    assert other.page.inner_text("#r-back") in ("Back to the table", "Natrag na stol")
    save(c, "replay-says-your-move.png")
    c.page.click("#r-back")
    c.page.wait_for_selector("#table-view:not([hidden])")
    assert c.state("a.table.turn === a.seat")
    # The move comes while the reader watches the replay: the opponent's foul, played out
    # unseen behind it (the table's shot waited for the table to be shown again).
    foul_softly(c)
    other.page.wait_for_function(
        "/^(Your move at the table|Na potezu ste) \\(\\d:\\d\\d\\)/"
        ".test(document.getElementById('r-back').textContent)"
    )
    assert_quiet(ana, bob)
