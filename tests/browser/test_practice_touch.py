"""The practice tray under a finger, on a 390×844 phone with real touch events: a quick
swipe up from the tray scrolls the page and leaves its ball off the table; a ball held a
moment follows the finger onto the table; a tap picks it."""

from __future__ import annotations

from collections.abc import Callable

from server.rooms.practice_layout import Layout, encode_layout
from tests.browser.support import Client, save
from tests.browser.test_firstminute import PHONE, Touch
from tests.browser.test_practice_link import practice, screen_of, wait_practice

OpenClient = Callable[..., Client]


def test_a_swipe_from_the_tray_scrolls_and_a_held_ball_is_dragged(
    open_client: OpenClient,
) -> None:
    balls: list[tuple[float, float] | None] = [None] * 10
    balls[0] = (0.6, 0.635)
    balls[1] = (1.9, 0.635)
    code = encode_layout(Layout(balls=tuple(balls)), False)
    zoe = open_client("Zoe", **PHONE, hash=f"#/practice/{code}")
    wait_practice(zoe, "!!p.view && p.role === 'player' && !p.anim")
    # No key help on a phone: it has no keyboard to read it for.
    assert zoe.page.locator("#p-keys").is_hidden()
    finger = Touch(zoe)
    six = zoe.page.locator("#p-tray button[data-ball='6']")
    six.scroll_into_view_if_needed()
    box = six.bounding_box()
    assert box is not None
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # A thumb's swipe up the page, begun on the 6: the page scrolls, the 6 stays off.
    scrolled = zoe.page.evaluate("scrollY")
    finger.drag(start, (start[0], start[1] - 300), ms=120, steps=6)
    zoe.page.wait_for_timeout(300)
    assert zoe.page.evaluate("scrollY") > scrolled
    assert practice(zoe, "p.view.balls[6]") is None
    assert practice(zoe, "p.drag") is None
    # Held a moment first, the 6 follows the finger onto the table and stays there.
    six.scroll_into_view_if_needed()
    box = six.bounding_box()
    assert box is not None
    start = (box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    spot = screen_of(zoe, 1.2, 0.4)
    finger.send("touchStart", *start)
    zoe.page.wait_for_timeout(400)
    for k in range(1, 9):
        f = k / 8
        finger.send(
            "touchMove", start[0] + (spot[0] - start[0]) * f, start[1] + (spot[1] - start[1]) * f
        )
        zoe.page.wait_for_timeout(30)
    finger.send("touchEnd")
    wait_practice(zoe, "p.view.balls[6] !== null")
    six_at = practice(zoe, "p.view.balls[6]")
    assert abs(six_at[0] - 1.2) < 0.05 and abs(six_at[1] - 0.4) < 0.05, six_at
    # A tap on a tray ball picks it, to be put where the next tap lands.
    seven = zoe.page.locator("#p-tray button[data-ball='7']")
    seven.scroll_into_view_if_needed()
    box = seven.bounding_box()
    assert box is not None
    finger.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_practice(zoe, "p.picked === 7")
    assert zoe.problems() == []


def test_a_small_phone_finds_the_practice_table_on_the_first_screen(
    open_client: OpenClient,
) -> None:
    """A newcomer on a 360 × 640 phone: the lobby's first screen offers the practice table
    (it stood below the invite code's form, past the fold), and a tap on it opens it."""
    zoe = open_client("Zoe", **{**PHONE, "width": 360, "height": 640}, lang="hr")
    link = zoe.page.locator("#practice")
    link.wait_for(state="visible")
    box = link.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 640, box
    Touch(zoe).tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_practice(zoe, "!!p.view && p.role === 'player'")


def test_a_wide_phone_held_sideways_finds_the_computer_on_the_lobbys_first_screen(
    open_client: OpenClient,
) -> None:
    """Held sideways (844 × 390) the lobby's "Play the computer" stood below the fold,
    under the name's three lines of rules and an empty answer line: the rules show while
    the name is typed (or wrong), and the button is on the first screen."""
    zoe = open_client("Zoe", **{**PHONE, "width": 844, "height": 390}, lang="ru")
    button = zoe.page.locator("#computer")
    button.wait_for(state="visible")
    box = button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 390, box
    assert zoe.page.is_hidden("#name-help")
    zoe.page.click("#name")
    assert zoe.page.is_visible("#name-help")
    # The lobby scrolls within itself: the page does not scroll on past its end into 600 px
    # of nothing, taking the top bar away (the table list's hidden column heading stood
    # there, below the page). On a desktop too.
    height = "[document.documentElement.scrollHeight, innerHeight]"
    assert zoe.page.evaluate(height) == [390, 390]
    desk = open_client("Dana", lang="ru")
    desk.page.locator("#computer").wait_for(state="visible")
    assert desk.page.evaluate(height) == [800, 800]


def test_a_wide_phone_held_sideways_practises_on_the_whole_screen(
    open_client: OpenClient,
) -> None:
    """Held sideways (844 × 390) the practice table stood under its banner, 350 px wide in
    72 % of the height: as at a match's table, the banner is a column left of the table,
    the table takes the first screen's height, and the panel's title peeks below it."""
    zoe = open_client("Zoe", **{**PHONE, "width": 844, "height": 390}, lang="ru", hash="#/practice")
    wait_practice(zoe, "!!p.view && p.role === 'player' && !p.anim")
    status = zoe.page.locator("#p-status").bounding_box()
    table = zoe.page.locator("#p-table").bounding_box()
    title = zoe.page.locator(".practice-title").bounding_box()
    assert status is not None and table is not None and title is not None
    assert status["x"] + status["width"] <= table["x"] + 1, (status, table)
    assert table["height"] > 260 and table["width"] > 500, table
    assert title["y"] < 390, title
    # Remove, Undo, Redo and Retry at the foot of the banner's column, on the first screen
    # beside the table (in the panel they were under the fold), a finger's size each, and
    # clear of the banner's words.
    words = zoe.page.evaluate(
        "Math.max(...[...document.querySelectorAll('#p-status > *')]"
        ".map((e) => e.getBoundingClientRect().bottom))"
    )
    for button in ("#p-remove", "#p-undo", "#p-redo", "#p-retry"):
        place = zoe.page.locator(button).bounding_box()
        assert place is not None, button
        assert place["x"] >= status["x"] and place["x"] + place["width"] <= table["x"], button
        assert place["y"] > words and place["y"] + place["height"] <= 390, (button, place, words)
        assert place["height"] >= 44 and place["width"] >= 44, (button, place)
    save(zoe, "practice-sideways-ru.png")
    # A shot, then Undo with a finger from there: the balls are back, without a scroll.
    before = practice(zoe, "p.view.balls")
    zoe.page.evaluate("document.getElementById('p-shoot').click()")
    wait_practice(zoe, "!p.anim && !!p.view.undo")
    assert zoe.page.evaluate("scrollY") == 0
    zoe.page.locator("#p-undo").tap()
    wait_practice(zoe, "!p.anim && !p.view.undo")
    assert practice(zoe, "p.view.balls") == before
    assert zoe.page.evaluate("scrollY") == 0
