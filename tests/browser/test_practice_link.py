"""The practice table in Chromium against the real server: the lobby's Practice entry, a
ball dragged off the table to the tray and back with the real mouse, a shot, undo, and a
shared practice link that opens the same layout in another browser; a broken link is
refused in words and opens nothing."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import msgpack

from server.rooms.practice_layout import Layout, encode_layout
from tests.browser.support import Client, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import Touch, started

OpenClient = Callable[..., Client]


def practice(c: Client, expr: str) -> Any:
    return c.page.evaluate(f"(() => {{ const p = window.ninepool.practice; return {expr}; }})()")


def wait_practice(c: Client, expr: str, timeout: float = 60_000) -> None:
    c.page.wait_for_function(
        "(() => { const p = window.ninepool && window.ninepool.practice; "
        f"return !!p && ({expr}); }})()",
        timeout=timeout,
    )


def screen_of(c: Client, x: float, y: float) -> tuple[float, float]:
    sx, sy = c.page.evaluate(f"window.ninepool.practice.screenOf({x}, {y})")
    return float(sx), float(sy)


def same_layout(a: list[Any], b: list[Any], tolerance: float = 1e-4) -> bool:
    for pa, pb in zip(a, b, strict=True):
        if (pa is None) != (pb is None):
            return False
        if pa is not None and math.dist(pa, pb) > tolerance:
            return False
    return True


def test_practice_table_and_a_shared_link(open_client: OpenClient) -> None:
    ana = open_client("Ana")
    ana.page.click("#practice")
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    start = practice(ana, "p.positions()")
    assert all(pos is not None for pos in start)  # a full rack to break
    # Nothing off the table: the tray says so, and not how to take a ball from it.
    assert ana.page.is_hidden("#p-tray-label")
    assert ana.page.inner_text("#p-tray") == "All ten balls are on the table."

    # The 9 dragged off the table lands in the tray; dragged back it is on the table.
    nine = start[9]
    sx, sy = screen_of(ana, nine[0], nine[1])
    ana.page.mouse.move(sx, sy)
    ana.page.mouse.down()
    box = ana.page.locator("#p-tray").bounding_box()
    assert box is not None
    ana.page.mouse.move(box["x"] + 20, box["y"] + 10, steps=8)
    ana.page.mouse.up()
    ana.page.wait_for_selector("#p-tray button[data-ball='9']")
    wait_practice(ana, "p.view.balls[9] === null && p.view.undo === 1")
    assert ana.page.is_visible("#p-tray-label")
    tray_ball = ana.page.locator("#p-tray button[data-ball='9']").bounding_box()
    assert tray_ball is not None
    ana.page.mouse.move(tray_ball["x"] + 16, tray_ball["y"] + 16)
    ana.page.mouse.down()
    tx, ty = screen_of(ana, 1.2, 1.0)
    ana.page.mouse.move(tx, ty, steps=10)
    ana.page.mouse.up()
    wait_practice(ana, "!!p.view.balls[9] && p.view.undo === 2")
    placed = practice(ana, "p.view.balls[9]")
    assert math.dist(placed, (1.2, 1.0)) < 0.01

    # A shot from the keyboard, then undo: the balls go back where they were.
    before = practice(ana, "p.positions()")
    ana.page.focus("#p-table")
    ana.page.keyboard.press("Space")
    wait_practice(ana, "p.view.shots === 1 && !p.anim && p.queue.length === 0")
    assert not same_layout(practice(ana, "p.positions()"), before)
    result = ana.page.inner_text("#p-verdict")  # the shot's result
    assert result != "" and ana.page.inner_text("#p-status .verdict").startswith(result)
    # Worded again in a language picked after the shot, beside the table and over it.
    ana.page.select_option("#lang", "ru")
    for where in ("#p-verdict", "#p-status .verdict"):
        assert re.search("[а-я]", ana.page.inner_text(where)), where
    ana.page.select_option("#lang", "en")
    assert ana.page.inner_text("#p-verdict") == result
    ana.page.click("#p-undo")
    wait_practice(ana, "p.view.redo === 1")
    assert same_layout(practice(ana, "p.positions()"), before, 1e-9)
    # Undone, the shot's result is not the table's any more.
    assert ana.page.inner_text("#p-verdict") == ""
    ana.page.click("#p-redo")
    wait_practice(ana, "p.view.redo === 0")
    shared = practice(ana, "p.positions()")
    link = ana.page.input_value("#p-link")
    # The link keeps the page's language (its address said `?lang=en`), nothing else of it,
    # and follows the language picked on the page.
    assert "/?lang=en#/practice/" in link
    tray = ana.page.inner_text("#p-tray-label")
    ana.page.select_option("#lang", "hr")
    ana.page.wait_for_function("document.getElementById('p-link').value.includes('?lang=hr#')")
    # The panel is worded anew, and the address says the language picked (a reload kept
    # the one the page was opened with).
    assert ana.page.inner_text("#p-tray-label") != tray
    assert "lang=hr" in ana.page.url and "lang=en" not in ana.page.url
    ana.page.select_option("#lang", "en")
    assert ana.page.input_value("#p-link") == link
    assert "lang=en" in ana.page.url
    save(ana, "practice-ana.png")

    # Another browser opens the link: the same layout, at a table of its own.
    code = link.split("#/practice/")[1]
    bob = open_client("Bob", hash=f"#/practice/{code}")
    bob.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(bob, "!!p.view && p.role === 'player'")
    assert same_layout(practice(bob, "p.positions()"), shared)
    assert practice(bob, "p.view.layout") == code
    assert practice(bob, "p.room") != practice(ana, "p.room")
    # The tray holds exactly the balls off the table.
    tray = bob.page.eval_on_selector_all(
        "#p-tray button[data-ball]", "bs => bs.map(b => Number(b.dataset.ball))"
    )
    assert sorted(tray) == [n for n, pos in enumerate(shared) if pos is None]
    save(bob, "practice-bob-from-link.png")

    # Ana's table's room link lets a spectator watch it (no seat to take).
    sam = open_client("Sam", hash=f"#/room/{practice(ana, 'p.room')}")
    sam.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(sam, "!!p.view && p.role === 'spectator'")
    assert same_layout(practice(sam, "p.positions()"), shared, 1e-9)
    assert sam.page.is_disabled("#p-shoot")
    wait_practice(ana, "p.view.spectators === 1")

    # A reload puts Ana back at her own table, as she left it.
    ana.page.reload()
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ana, "!!p.view && p.role === 'player'")
    assert same_layout(practice(ana, "p.positions()"), shared, 1e-9)
    assert not ana.page.is_disabled("#p-undo")

    for c in (ana, bob, sam):
        assert c.problems() == []


def test_a_broken_practice_link_is_refused_in_words(open_client: OpenClient) -> None:
    eve = open_client("Eve", lang="hr", hash="#/practice/AQAAK8A2TAGZhDZMAAK8A2TAGZhDZM")
    eve.page.wait_for_selector("#toast:not([hidden])")
    assert "Ta poveznica za vježbu je oštećena" in eve.page.inner_text("#toast")
    eve.page.wait_for_selector("#lobby:not([hidden])")
    assert practice(eve, "p.room") is None
    assert eve.problems() == []


def test_a_link_opens_its_position_in_a_browser_that_has_a_practice_table(
    open_client: OpenClient,
) -> None:
    """A browser whose practice table is still there (another tab, or closed a moment ago)
    opens a friend's position link: the linked position, not its own old rack; a broken
    link there is refused in words too."""
    ana = open_client("Ana", hash="#/practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    assert all(pos is not None for pos in practice(ana, "p.positions()"))  # her own full rack
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0], balls[3] = (0.6, 0.635), (1.9, 0.4)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    ana.page.goto(ana.page.url.split("#")[0] + f"#/practice/{code}")
    ana.page.reload()
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim && p.view.balls[9] === null")
    assert same_layout(practice(ana, "p.positions()"), balls)
    # Played on and reloaded: the table as it stands, not the linked position again.
    assert ana.page.evaluate("location.hash") == "#/practice"
    ana.page.focus("#p-table")
    ana.page.keyboard.press("Space")
    wait_practice(ana, "p.view.shots === 1 && !p.anim && p.queue.length === 0")
    played = practice(ana, "p.positions()")
    ana.page.reload()
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    assert same_layout(practice(ana, "p.positions()"), played)
    ana.page.goto(ana.page.url.split("#")[0] + "#/practice/AQAAK8A2TAGZhDZMAAK8A2TAGZhDZM")
    ana.page.reload()
    ana.page.wait_for_selector("#toast:not([hidden])")
    ana.page.wait_for_selector("#lobby:not([hidden])")
    assert ana.problems() == []


def test_practice_by_touch_and_keys(open_client: OpenClient) -> None:
    """A phone: tap an object ball to aim at it; tap the cue ball to pick it, tap where it
    goes, Remove, a tray ball back by taps; the preview of the whole shot; and the keyboard
    for aim and undo."""
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0], balls[1] = (0.6, 0.635), (1.6, 0.5)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    zoe = open_client("Zoe", width=390, height=844, touch=True, hash=f"#/practice/{code}")
    zoe.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(zoe, "!!p.view && p.role === 'player'")
    # The table stands upright and fills the phone's width beside the power strip, as a
    # match's does: large enough to pick one ball of a rack with a finger.
    table = zoe.page.locator("#p-table").bounding_box()
    strip = zoe.page.locator("#p-strip").bounding_box()
    assert table is not None and strip is not None
    assert table["height"] > table["width"] >= 300, table
    assert table["width"] + strip["width"] >= 380, (table, strip)
    # A finger is told to tap, never to click.
    assert "tap" in zoe.page.inner_text("#p-tray-label")
    # A tap on an object ball aims at it, as at a match table: nothing is picked.
    zoe.page.touchscreen.tap(*screen_of(zoe, 1.6, 0.5))
    toward = math.atan2(0.5 - 0.635, 1.6 - 0.6)
    wait_practice(zoe, f"Math.abs(p.angle - ({toward})) < 0.02 && p.picked === null")
    # A tap on the cue ball picks it; the next tap puts it there. The table does not move
    # under the finger when the words above it change.
    before = zoe.page.locator("#p-table").bounding_box()
    zoe.page.touchscreen.tap(*screen_of(zoe, 0.6, 0.635))
    wait_practice(zoe, "p.picked === 0")
    assert zoe.page.locator("#p-table").bounding_box() == before
    status = zoe.page.inner_text("#p-status")
    assert "Tap where it goes" in status and "lick" not in status, status
    zoe.page.touchscreen.tap(*screen_of(zoe, 1.0, 0.9))
    wait_practice(zoe, "!!p.view.balls[0] && p.view.undo === 1")
    assert math.dist(practice(zoe, "p.view.balls[0]"), (1.0, 0.9)) < 0.02
    zoe.page.touchscreen.tap(*screen_of(zoe, 1.0, 0.9))
    wait_practice(zoe, "p.picked === 0")
    zoe.page.locator("#p-remove").tap()
    wait_practice(zoe, "p.view.balls[0] === null")
    zoe.page.locator("#p-tray button[data-ball='0']").tap()
    wait_practice(zoe, "p.picked === 0")
    zoe.page.touchscreen.tap(*screen_of(zoe, 0.8, 0.4))
    wait_practice(zoe, "!!p.view.balls[0] && p.view.undo === 3")
    zoe.page.locator("#p-preview").tap()
    wait_practice(zoe, "!!p.preview")
    save(zoe, "practice-phone-preview.png")

    # Keys: the arrows turn the aim, Ctrl+Z undoes the last change.
    zoe.page.focus("#p-table")
    angle = practice(zoe, "p.angle")
    zoe.page.keyboard.press("ArrowLeft")
    assert practice(zoe, "p.angle") != angle
    zoe.page.keyboard.press("Control+z")
    wait_practice(zoe, "p.view.balls[0] === null && p.view.undo === 2")
    # Keys alone: a tray ball picked with Enter goes to a free spot, the arrows move it.
    zoe.page.focus("#p-tray button[data-ball='0']")
    zoe.page.keyboard.press("Enter")
    wait_practice(zoe, "p.picked === 0")
    zoe.page.keyboard.press("Enter")
    wait_practice(zoe, "!!p.view.balls[0]")
    x, y = practice(zoe, "p.view.balls[0]")
    zoe.page.keyboard.press("ArrowRight")
    wait_practice(zoe, f"p.view.balls[0][0] > {x + 0.005}")
    assert practice(zoe, "p.view.balls[0][1]") == y
    # Space on the power slider shoots, as the key help says.
    assert not practice(zoe, "p.view.retry")
    zoe.page.focus("#p-power")
    zoe.page.keyboard.press(" ")
    wait_practice(zoe, "!!p.view.retry")
    assert zoe.problems() == []


def test_a_phone_shoots_practice_from_the_strip_at_the_edge(open_client: OpenClient) -> None:
    """On a phone the practice table has the match table's power strip beside it (the
    Shoot button and the slider are below the table, off the screen): pulled down and let
    go, it shoots. The page says tap and pull, and no keyboard keys."""
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0], balls[1] = (0.6, 0.635), (1.6, 0.5)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    ana = open_client(
        "Ana", width=390, height=844, touch=True, lang="hr", hash=f"#/practice/{code}"
    )
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ana, "!!p.view && p.role === 'player'")
    track = ana.page.locator("#p-strip-track")
    box = track.bounding_box()
    assert track.is_visible() and box is not None
    assert box["y"] + box["height"] <= 844 and box["x"] + box["width"] <= 390, box
    assert ana.page.inner_text("#p-status") == (
        "Dodirom ciljajte; za udarac povucite traku uz desni rub."
    )
    table_box = ana.page.locator("#p-table").bounding_box()
    assert ana.page.is_hidden("#p-keys")
    finger = Touch(ana)
    sx, sy = box["x"] + box["width"] / 2, box["y"] + 8
    finger.drag((sx, sy), (sx, sy + box["height"] * 0.5), ms=500)
    wait_practice(ana, "!!p.view.retry")
    assert 40 <= int(ana.page.inner_text("#p-strip-out").rstrip(" %")) <= 60
    # The shot's result heads the banner over the table (the panel's line is below it, off
    # the screen), the next step under it; the table has not moved for the longer words.
    wait_practice(ana, "!p.anim && p.queue.length === 0")
    result = ana.page.inner_text("#p-verdict")
    assert result and ana.page.inner_text("#p-status .verdict") == result
    # (The 1 potted, the table is clear: the next step is to play it again.)
    next_step = (
        "Dodirom ciljajte; za udarac povucite traku uz desni rub."
        if practice(ana, "p.view.balls[1]")
        else "Sve su kugle ubačene. „Udarac još jednom“ vraća kugle kako su stajale prije"
        " zadnjeg udarca; za novi položaj odaberite vježbu ili postavite kugle izvan stola."
    )
    assert ana.page.inner_text("#p-status .prompt") == next_step
    assert ana.page.locator("#p-table").bounding_box() == table_box
    # A drill set up says its goal there, and nothing contradicts it.
    ana.page.select_option("#p-drill", "spot_shot")
    wait_practice(ana, "p.view.drill === 'spot_shot' && p.view.in_hand === 'kitchen'")
    assert ana.page.inner_text("#p-status") == (
        "Jedinica na foot točki, bijela u ruci ispod head linije: ubacite jedinicu u kutnu rupu."
    )
    assert ana.page.locator("#p-status .prompt").count() == 0
    assert ana.problems() == []


def test_a_finger_scrolling_the_practice_page_back_up_shoots_nothing(
    open_client: OpenClient,
) -> None:
    """The practice page scrolls on a phone (its buttons are under the table). Scrolled
    down, the strip is partly out of sight; a finger drawn down it then scrolls the page
    back up, and shoots nothing (it broke the rack at 92 %)."""
    ana = open_client("Ana", width=390, height=844, touch=True, lang="ru", hash="#/practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    track = ana.page.locator("#p-strip-track")
    top = track.bounding_box()
    assert top is not None and top["y"] >= 0
    finger = Touch(ana)
    # Up the page from its lower edge, below the strip: the page scrolls down.
    finger.drag((200, 830), (200, 530), ms=400)
    ana.page.wait_for_timeout(400)
    scrolled = track.bounding_box()
    assert scrolled is not None and scrolled["y"] < 0, scrolled
    # Back down along the right edge, over the strip: the page scrolls back, no shot.
    x = scrolled["x"] + scrolled["width"] / 2
    y = scrolled["y"] + scrolled["height"] - 40
    finger.drag((x, y), (x, y + 300), ms=400)
    ana.page.wait_for_timeout(800)
    assert practice(ana, "p.view.shots") == 0 and not practice(ana, "!!p.anim")
    back = track.bounding_box()
    assert back is not None and back["y"] > scrolled["y"]
    # In sight again, the strip shoots as ever.
    while back["y"] < 0:
        finger.drag((200, 300), (200, 700), ms=300)
        ana.page.wait_for_timeout(300)
        back = track.bounding_box()
        assert back is not None
    finger.drag((back["x"] + 20, back["y"] + 8), (back["x"] + 20, back["y"] + 200), ms=500)
    wait_practice(ana, "p.view.shots === 1")
    assert ana.problems() == []


def test_a_page_loaded_at_the_lobby_from_practice_stays_in_the_lobby(
    open_client: OpenClient,
) -> None:
    """Someone at the practice table who loads the site's address again lands in the
    lobby: the practice table is closed, not shown as an empty match table."""
    leo = open_client("Leo", hash="#/practice")
    wait_practice(leo, "!!p.view && p.role === 'player'")
    leo.page.goto(leo.page.url.split("#")[0])
    leo.page.wait_for_function("window.ninepool && window.ninepool.app.welcome")
    leo.page.wait_for_timeout(800)
    assert leo.page.evaluate("location.hash") == ""
    assert leo.page.is_visible("#lobby") and leo.page.is_hidden("#table-view")
    assert leo.state("a.room") is None
    assert leo.problems() == []


def test_the_ghost_drill_shows_its_score(open_client: OpenClient) -> None:
    """The nine-ball ghost drill in Russian: the score against the ghost shown, a break,
    then the next rack — the rack just broken is counted for one side or the other. A break
    starts from a break's power and the shot after it from the everyday one, as at a match."""
    ivan = open_client("Ivan", lang="ru")
    ivan.page.click("#practice")
    ivan.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ivan, "!!p.view && p.role === 'player' && !p.anim")
    assert ivan.page.is_hidden("#p-ghost")  # no score outside the drill
    ivan.page.select_option("#p-drill", "nine_ghost")
    wait_practice(ivan, "!!p.view.ghost")
    ivan.page.wait_for_selector("#p-ghost:not([hidden])")
    assert ivan.page.inner_text("#p-ghost-score") == "Партии: вы 0, призрак 0"
    assert "Закончите партию" in ivan.page.inner_text("#p-ghost-rack")

    assert ivan.page.input_value("#p-power") == "87"
    ivan.page.focus("#p-table")
    ivan.page.keyboard.press("Space")  # the break
    wait_practice(ivan, "p.view.shots === 1 && !p.anim && p.queue.length === 0")
    assert ivan.page.input_value("#p-power") == "40"
    ivan.page.click("#p-ghost-next")
    wait_practice(ivan, "p.view.is_break && p.view.ghost.won + p.view.ghost.lost === 1")
    assert ivan.page.input_value("#p-power") == "87"
    won, lost = practice(ivan, "[p.view.ghost.won, p.view.ghost.lost]")
    assert ivan.page.inner_text("#p-ghost-score") == f"Партии: вы {won}, призрак {lost}"
    assert practice(ivan, "p.view.ghost.rack") == "playing"
    save(ivan, "practice-ghost-score.png")
    assert ivan.problems() == []


def test_side_spin_takes_the_cue_ball_off_a_straight_line_at_the_rail(
    open_client: OpenClient,
) -> None:
    """Practice has side spin as well as draw and follow: the cue ball alone, struck straight
    up the table into the foot rail, comes back on its own line without it and off that
    line with right-hand spin (it squirts, and takes the spin off the rail). Space on
    the side slider shoots; the words say which side and how much."""
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0] = (0.6, 0.635)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    ana = open_client("Ana", hash=f"#/practice/{code}")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    fx, fy = screen_of(ana, 2.0, 0.635)
    ana.page.mouse.click(fx, fy)  # aim straight at the foot rail
    wait_practice(ana, "Math.abs(p.angle) < 0.003")
    ana.page.locator("#p-power").fill("45")
    ana.page.focus("#p-side")
    ana.page.keyboard.press(" ")
    wait_practice(ana, "!!p.view.retry && !p.anim && p.queue.length === 0")
    plain = practice(ana, "p.view.balls[0]")
    ana.page.click("#p-retry")
    wait_practice(ana, "p.view.balls[0][0] === 0.6 && p.view.undo >= 1")
    ana.page.locator("#p-side").fill("40")
    assert ana.page.inner_text("#p-side-out") == "right 40 %"
    ana.page.locator("#p-spin").fill("35")
    assert ana.page.inner_text("#p-side-out") == "right 40 % — miscue risk"
    assert ana.page.inner_text("#p-spin-out") == "follow 35 % — miscue risk"
    ana.page.locator("#p-spin").fill("0")
    assert ana.page.inner_text("#p-spin-out") == "centre ball"
    ana.page.focus("#p-side")
    ana.page.keyboard.press(" ")
    wait_practice(ana, "p.view.shots === 2 && !p.anim && p.queue.length === 0")
    spun = practice(ana, "p.view.balls[0]")
    assert abs(plain[1] - 0.635) < 0.005, plain
    assert abs(spun[1] - 0.635) > 0.02, spun
    assert ana.problems() == []


def test_a_drill_aims_at_its_ball_and_space_still_shoots_after_a_switch(
    open_client: OpenClient,
) -> None:
    """Set up from the drills, the cue points at the drill's ball to hit (it kept the old
    table's aim, and the ghost drill's break went into the cushion). A switch clicked with
    the mouse hands the keys back to the table: Space shoots, not toggles it again. A
    table opened afresh starts from a centred cue ball."""
    ana = open_client("Ana", lang="hr")
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    ana.page.locator("#p-side").fill("40")
    fx, fy = screen_of(ana, 0.3, 0.2)
    ana.page.mouse.click(fx, fy)  # aim somewhere else entirely
    for drill, ball in (("three_ball", 7), ("nine_ghost", 1), ("spot_shot", 1)):
        ana.page.select_option("#p-drill", drill)
        wait_practice(ana, f"p.view.drill === {drill!r} && p.queue.length === 0")
        cue, target = practice(ana, f"[p.view.balls[0], p.view.balls[{ball}]]")
        toward = math.atan2(target[1] - cue[1], target[0] - cue[0])
        wait_practice(ana, f"Math.abs(p.angle - ({toward})) < 1e-3")
        ana.page.mouse.click(fx, fy)
    # Break practice: a retry racks again at the power the player broke with.
    ana.page.select_option("#p-drill", "break")
    wait_practice(ana, "p.view.drill === 'break' && p.view.is_break && p.queue.length === 0")
    ana.page.locator("#p-power").fill("60")
    ana.page.focus("#p-power")
    ana.page.keyboard.press(" ")
    wait_practice(ana, "!p.view.is_break && !p.anim && p.queue.length === 0")
    assert ana.page.input_value("#p-power") == "40"
    ana.page.click("#p-retry")
    wait_practice(ana, "p.view.is_break")
    assert ana.page.input_value("#p-power") == "60"
    ana.page.click("#p-rules")  # the referee on, with the mouse
    wait_practice(ana, "p.view.rules === true")
    ana.page.keyboard.press(" ")
    wait_practice(ana, "p.view.shots === 1")
    assert practice(ana, "p.view.rules") is True
    # Left and opened again: the spin is centred.
    ana.page.click("#practice-view a[href='#/']")
    ana.page.wait_for_selector("#lobby:not([hidden])")
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    assert practice(ana, "[p.side, p.height]") == [0, 0]
    assert ana.page.input_value("#p-side") == "0"
    # Left at a break's power and opened again: the break's power is not taken for the
    # everyday one.
    assert practice(ana, "[p.view.is_break, p.power]") == [True, 0.87]
    ana.page.click("#practice-view a[href='#/']")
    ana.page.wait_for_selector("#lobby:not([hidden])")
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    assert practice(ana, "[p.power, p.everyday]") == [0.87, 0.4]
    assert ana.problems() == []


def test_after_undo_with_the_mouse_space_shoots_again(open_client: OpenClient) -> None:
    """A shot undone with the mouse left the keys on the page (the undo button, disabled
    once there was nothing more to undo, lost the focus): Space, which the key help says
    shoots, did nothing until the table was clicked. The keys go back to the table."""
    ana = open_client("Ana", lang="ru")
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    fx, fy = screen_of(ana, 0.3, 0.2)
    ana.page.mouse.click(fx, fy)  # aims, and the keys are the table's
    ana.page.keyboard.press(" ")
    wait_practice(ana, "p.view.shots === 1 && !p.anim && p.queue.length === 0")
    ana.page.click("#p-undo")
    wait_practice(ana, "!p.view.undo && !!p.view.redo && p.queue.length === 0")
    ana.page.keyboard.press(" ")
    wait_practice(ana, "p.view.shots === 2")
    assert_quiet(ana)


def test_the_keys_ring_on_the_practice_table_stays_off_the_prompt(
    open_client: OpenClient,
) -> None:
    """Once the keys were used, the keyboard's yellow ring around the practice table ran
    across the bottom of the prompt above it: it is drawn inside the table. A click draws
    none, as on the match's table. (And the position's link reads as one: beside its Copy
    button in Russian the field showed "http://127"; it takes a line of its own.)"""
    ana = open_client("Ana", lang="ru", width=1440, height=900)
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    link = ana.page.locator("#p-link").bounding_box()
    assert link is not None and link["width"] >= 200, link
    fx, fy = screen_of(ana, 0.3, 0.2)
    ana.page.mouse.click(fx, fy)
    ring = "(() => { const s = getComputedStyle(document.getElementById('p-table'));"
    ring += " return [document.activeElement.id, s.outlineStyle, s.outlineOffset]; })()"
    assert ana.page.evaluate(ring)[:2] == ["p-table", "none"]
    ana.page.keyboard.press("ArrowLeft")
    assert ana.page.evaluate(ring) == ["p-table", "solid", "-3px"]
    assert_quiet(ana)


def test_after_a_shot_the_cue_points_at_the_ball_to_hit_and_an_undo_aims_as_played(
    open_client: OpenClient,
) -> None:
    """After the break the cue pointed where the rack had been (at a cushion); it points
    at the ball to hit, as at a match's next turn. Undone, the shot is aimed as it was
    played, to practise it again. A drill's goal stays said as its cue ball is moved, and
    the cue stays on the drill's ball."""
    ana = open_client("Ana", lang="ru")
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    played = practice(ana, "p.angle")
    ana.page.focus("#p-table")
    ana.page.keyboard.press("Space")
    wait_practice(ana, "p.view.shots === 1 && !p.anim && p.queue.length === 0")
    cue, low = practice(ana, "[p.view.balls[0], p.view.lowest && p.view.balls[p.view.lowest]]")
    if cue is not None and low is not None:  # (a scratch leaves no cue ball to aim from)
        toward = math.atan2(low[1] - cue[1], low[0] - cue[0])
        # (past a ball in the way, within the ball's own width as seen from the cue ball)
        width = math.asin(min(1.0, 2 * 0.028575 / math.dist(cue, low)))
        off = abs((practice(ana, "p.angle") - toward + math.pi) % (2 * math.pi) - math.pi)
        assert off <= width + 1e-6, (off, width)
    ana.page.click("#p-undo")
    wait_practice(ana, "p.view.redo === 1 && p.queue.length === 0")
    assert practice(ana, "p.angle") == played
    # A drill's goal, and the cue ball moved: the goal is still what the banner says.
    ana.page.select_option("#p-drill", "three_ball")
    wait_practice(ana, "p.view.drill === 'three_ball' && p.queue.length === 0")
    goal = ana.page.inner_text("#p-status .verdict")
    assert goal == ana.page.inner_text("#p-drill-help") and goal
    cue = practice(ana, "p.view.balls[0]")
    sx, sy = screen_of(ana, cue[0], cue[1])
    ana.page.mouse.move(sx, sy)
    ana.page.mouse.down()
    # (across the line to the drill's ball, so that the old direction misses it, to a
    # spot clear of every ball)
    balls = [b for b in practice(ana, "p.view.balls") if b is not None]
    dy = next(
        d
        for d in (0.2, -0.2, 0.25, -0.25, 0.3, -0.3)
        if 0.1 < cue[1] + d < 1.17 and all(math.dist(b, (cue[0], cue[1] + d)) > 0.08 for b in balls)
    )
    tx, ty = screen_of(ana, cue[0], cue[1] + dy)
    ana.page.mouse.move(tx, ty, steps=8)
    ana.page.mouse.up()
    wait_practice(ana, f"Math.abs(p.view.balls[0][1] - {cue[1]}) > 0.15 && p.queue.length === 0")
    assert ana.page.inner_text("#p-status .verdict") == goal
    # The cue, on the drill's ball before, is on it still from where the cue ball went
    # (it had kept its direction and pointed at a cushion).
    cue, low = practice(ana, "[p.view.balls[0], p.view.balls[p.view.lowest]]")
    toward = math.atan2(low[1] - cue[1], low[0] - cue[0])
    off = abs((practice(ana, "p.angle") - toward + math.pi) % (2 * math.pi) - math.pi)
    assert off < math.asin(2 * 0.028575 / math.dist(cue, low)), off
    assert_quiet(ana)


def test_a_long_result_beside_the_table_keeps_clear_of_the_help_below_it(
    open_client: OpenClient,
) -> None:
    """On a 1280 × 720 screen with the ghost drill's box open, the panel is taller than
    the window: a three-line result shrank to one line and ran over the keys' help. The
    panel scrolls instead; each part keeps its height."""
    ana = open_client("Ana", lang="hr", width=1280, height=720)
    ana.page.click("#practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    ana.page.select_option("#p-drill", "nine_ghost")
    wait_practice(ana, "p.view.drill === 'nine_ghost' && p.queue.length === 0")
    # (the words of a long result, as the table writes them after a break)
    ana.page.evaluate(
        "document.getElementById('p-verdict').textContent ="
        " 'Devetka iz otvaranja (ubačeno: 5, 4, 9): u meču to je dobivena partija!'"
        " + ' Faul: bijela je najprije pogodila kuglu 2, a ne kuglu 1.'"
    )
    verdict = ana.page.locator("#p-verdict").bounding_box()
    keys = ana.page.locator("#p-keys").bounding_box()
    assert verdict and keys and verdict["y"] + verdict["height"] <= keys["y"], (verdict, keys)
    words = ana.page.evaluate("document.getElementById('p-verdict').scrollHeight")
    assert verdict["height"] >= words - 1, (verdict, words)


def test_the_practice_address_from_a_table_leaves_it_or_says_why_not(
    open_client: OpenClient,
) -> None:
    """The practice address (typed, or a position's link) opened at a table: the practice
    view waited for ever on a table that never came. A spectator leaves the table they
    watched and practises; a player in a running match is sent back to it and told how to
    leave it, the match untouched."""
    ana, bob, room = started(open_client)
    cleo = open_client("Cleo", hash=f"#/room/{room}")
    cleo.wait(f"a.room === {room!r} && a.role === 'spectator' && !!a.view")
    ana.page.evaluate("location.hash = '#/practice'")
    ana.page.wait_for_function(f"location.hash === '#/room/{room}'")
    ana.page.wait_for_function("document.getElementById('toast').textContent.includes('More')")
    assert ana.page.is_visible("#table-view") and ana.page.is_hidden("#practice-view")
    assert ana.state("a.room") == room and ana.state("a.view.status") == "playing"
    assert ana.state("window.ninepool.practice.room") is None
    cleo.page.evaluate("location.hash = '#/practice'")
    wait_practice(cleo, "!!p.view && p.role === 'player'")
    assert cleo.state("a.room") is None
    assert_quiet(ana, bob, cleo)


def test_a_phones_copied_link_is_said_under_the_link_not_over_undo(
    open_client: OpenClient,
) -> None:
    """The "Copy link" button said what it did in a toast at the top of the screen, which on a phone
    stood over the table's Undo and Redo for four seconds. It is said under the link,
    where the player is looking; a phone that cannot copy by itself is told to press and
    hold the selected link (not to press Ctrl+C)."""
    ana = open_client("Ana", width=390, height=844, touch=True, lang="hr", hash="#/practice")
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ana, "!!p.view && p.role === 'player'")
    ana.page.wait_for_function("document.getElementById('p-link').value.includes('#/practice/')")
    ana.page.locator("#p-copy").scroll_into_view_if_needed()
    ana.page.locator("#p-copy").tap()
    said = ana.page.locator("#p-copied")
    said.wait_for(state="visible")
    copied = ana.page.evaluate("navigator.clipboard ? 1 : 0")
    words = said.inner_text()
    if copied:
        assert words in (
            "Poveznica kopirana: tko je otvori, dobiva ovaj raspored.",
            "Poveznica je označena: da biste je kopirali, pritisnite je i držite.",
        ), words
    else:
        assert words == "Poveznica je označena: da biste je kopirali, pritisnite je i držite."
    assert "Ctrl" not in words
    assert ana.page.is_hidden("#toast")
    # Under the link, in sight.
    link = ana.page.locator("#p-link").bounding_box()
    box = said.bounding_box()
    assert link and box and box["y"] >= link["y"] + link["height"] - 1, (link, box)
    assert box["y"] + box["height"] <= 844
    save(ana, "practice-link-copied-phone-hr.png")
    said.wait_for(state="hidden", timeout=8_000)
    assert_quiet(ana)


def test_a_phones_shoot_button_under_the_table_brings_the_table_back_into_view(
    open_client: OpenClient,
) -> None:
    """Scrolled down to the panel, a phone's "Shoot" played the shot out of sight, and
    its result too, in the box over the table. The page scrolls back up to the table."""
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0], balls[1] = (0.6, 0.635), (1.6, 0.5)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    ana = open_client("Ana", width=390, height=844, touch=True, hash=f"#/practice/{code}")
    wait_practice(ana, "!!p.view && p.role === 'player'")
    shoot = ana.page.locator("#p-shoot")
    shoot.scroll_into_view_if_needed()
    assert ana.page.evaluate("window.scrollY") > 200
    shoot.tap()
    ana.page.wait_for_function("window.scrollY === 0")
    table = ana.page.locator("#p-table").bounding_box()
    assert table is not None and table["y"] >= 0 and table["y"] + table["height"] <= 844
    wait_practice(ana, "!p.anim && !!p.view && p.view.shots > 0", timeout=30_000)
    save(ana, "practice-phone-shot-in-view.png")
    assert_quiet(ana)


def test_the_practice_table_raises_the_cue_for_a_jump(open_client: OpenClient) -> None:
    """The practice table had no cue elevation: a jump over a blocking ball could be set
    up and shared there, but not tried. It has the table's slider, and the shot goes with
    the cue raised, at no more than the speed a raised cue can give."""
    ana = open_client("Ana", lang="ru")
    sent: list[dict[str, Any]] = []

    def frames(ws: Any) -> None:
        ws.on("framesent", lambda payload: sent.append(unpack(payload)))

    ana.page.on("websocket", frames)
    ana.page.reload()
    ana.page.wait_for_selector("#conn.conn-online")
    ana.page.click("#practice")
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    assert ana.page.inner_text("label:has(#p-elev) span") == "Наклон кия 0°"
    ana.page.evaluate(
        "(() => { const e = document.getElementById('p-elev'); e.value = '40';"
        " e.dispatchEvent(new Event('input')); })()"
    )
    ana.page.wait_for_function("document.getElementById('p-elev-out').textContent === '40°'")
    ana.page.click("#p-shoot")
    for _ in range(100):
        shots = [m for m in sent if isinstance(m, dict) and m.get("t") == "shot"]
        if shots:
            break
        ana.page.wait_for_timeout(50)
    assert shots and shots[-1]["elevation"] == 40, shots
    assert shots[-1]["speed"] <= 13 * math.cos(math.radians(40)) + 1e-6
    assert_quiet(ana)


def unpack(payload: Any) -> Any:
    """A frame the page sent, as the server reads it (MessagePack; text frames as they are)."""
    if isinstance(payload, bytes | bytearray):
        return msgpack.unpackb(bytes(payload), raw=False, strict_map_key=False)
    return payload


def test_a_drill_done_is_said_with_the_shot(open_client: OpenClient) -> None:
    """The kick drill's goal is to reach the 1 off a cushion, the 2 in the way: a shot
    straight at the 1 meets the 2 and is told it missed, and how to try again; a kick off
    the long rail that reaches the 1 first is told it did it (both were told only
    "Nothing pocketed")."""
    ana = open_client("Ana", hash="#/practice")
    wait_practice(ana, "!!p.view && p.role === 'player' && !p.anim")
    ana.page.select_option("#p-drill", "kick")
    wait_practice(ana, "p.view.drill === 'kick' && p.queue.length === 0 && !p.anim")
    verdict = ana.page.locator("#p-verdict")
    ana.page.locator("#p-power").fill("40")
    for aim, done in (((2.20, 0.30), False), ((2.20, -0.358), True)):
        fx, fy = screen_of(ana, *aim)  # at the 1 itself, then off the near long rail
        ana.page.mouse.click(fx, fy)
        ana.page.focus("#p-power")
        shots = practice(ana, "p.view.shots")
        ana.page.keyboard.press(" ")
        wait_practice(ana, f"p.view.shots === {shots + 1} && !p.anim && p.queue.length === 0")
        ana.page.wait_for_function("document.getElementById('p-verdict').textContent !== ''")
        said = verdict.inner_text()
        assert said.endswith("The cue ball reached the 1 first — well done!") == done, said
        assert said.endswith("not reach the 1 first: Retry shot sets the kick up again.") != done
        assert ("good" in (verdict.get_attribute("class") or "")) == done
        if not done:
            ana.page.click("#p-retry")
            wait_practice(ana, "p.view.balls[0][0] === 0.7 && !p.anim && p.queue.length === 0")
    assert "well done" in ana.page.inner_text("#p-status")
    assert ana.problems() == []
