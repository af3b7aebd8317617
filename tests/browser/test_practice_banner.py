"""The practice banner's own button, on an upright phone: the ghost's next rack and the
three-ball run set up again are offered over the table, where the player is looking. (The
ghost's "Next rack" sat two screens below the table, under the power, spin and raise; a
three-ball run's miss said "set the drill up again", and choosing the drill that was set
already did nothing.)"""

from __future__ import annotations

import json

from tests.browser.support import Client, save
from tests.browser.test_firstminute import PHONE, OpenClient
from tests.browser.test_practice_link import practice, screen_of, wait_practice

#: The banner's button, once a shot's result offers it.
BUTTON = "#p-status button.status-act"


def on_a_phone(open_client: OpenClient, lang: str, drill: str) -> Client:
    """A player at their practice table on an upright phone, `drill` set up."""
    c = open_client("Ivana", lang=lang, hash="#/practice", **PHONE)
    wait_practice(c, "!!p.view && p.role === 'player' && !p.anim")
    c.page.select_option("#p-drill", drill)
    wait_practice(c, f"p.view.drill === '{drill}' && p.queue.length === 0 && !p.anim")
    c.page.evaluate("window.scrollTo(0, 0)")
    return c


def shoot(c: Client) -> None:
    shots = practice(c, "p.view.shots")
    c.page.focus("#p-table")
    c.page.keyboard.press("Space")
    wait_practice(c, f"p.view.shots === {shots + 1} && !p.anim && p.queue.length === 0")


def in_sight(c: Client, selector: str) -> bool:
    """Whole within the phone's screen as it stands (nothing scrolled)."""
    box = c.page.locator(selector).bounding_box()
    height = c.page.viewport_size["height"] if c.page.viewport_size else 0
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_the_ghosts_next_rack_is_offered_over_the_table(open_client: OpenClient) -> None:
    c = on_a_phone(open_client, "hr", "nine_ghost")
    assert c.page.locator(BUTTON).count() == 0  # the drill's goal, no button
    for _ in range(12):  # the break, then shots until the rack is decided
        shoot(c)
        if practice(c, "p.view.ghost.rack") != "playing":
            break
        assert c.page.locator(BUTTON).count() == 0, "a rack still playing has nothing to offer"
    assert practice(c, "p.view.ghost.rack") != "playing"
    button = c.page.locator(BUTTON)
    button.wait_for()
    assert button.inner_text() == "Sljedeća partija"
    assert in_sight(c, BUTTON), c.page.locator(BUTTON).bounding_box()
    box = button.bounding_box()
    assert box is not None and box["height"] >= 44, box  # a thumb's target
    # The drill's own button is still there, screens below the table.
    assert not in_sight(c, "#p-ghost-next")
    save(c, "practice-ghost-next-in-the-banner-hr.png")
    decided = practice(c, "p.view.ghost.won + p.view.ghost.lost")
    c.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    # (the rack was counted when it was decided: the next one is racked, to be broken)
    wait_practice(
        c,
        "p.view.is_break && p.view.ghost.rack === 'playing'"
        f" && p.view.ghost.won + p.view.ghost.lost === {decided}",
    )
    wait_practice(c, "p.queue.length === 0 && !p.anim")
    assert c.page.locator(BUTTON).count() == 0  # a new rack: nothing to offer yet
    assert c.problems() == []


def test_a_three_ball_run_that_missed_is_set_up_again_from_the_banner(
    open_client: OpenClient,
) -> None:
    c = on_a_phone(open_client, "ru", "three_ball")
    set_out = practice(c, "p.view.balls")
    # Aimed at the head rail, away from every ball: a miss, and the run is over.
    x, y = screen_of(c, 0.10, 0.20)
    c.page.touchscreen.tap(x, y)
    shoot(c)
    button = c.page.locator(BUTTON)
    button.wait_for()
    assert button.inner_text() == "Заново"
    assert in_sight(c, BUTTON), button.bounding_box()
    status = c.page.inner_text("#p-status")
    # (no referee at a practice table unless asked: a miss, said to end the run)
    assert "Серия прервана: «Заново» снова расставит шары" in status, status
    save(c, "practice-three-ball-again-ru.png")
    box = button.bounding_box()
    assert box is not None
    c.page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    as_set_out = json.dumps(json.dumps(set_out, separators=(",", ":")))  # (as JS writes it)
    wait_practice(
        c, f"JSON.stringify(p.view.balls) === {as_set_out} && p.queue.length === 0 && !p.anim"
    )
    assert practice(c, "p.clean") is not False  # a fresh run
    assert c.page.locator(BUTTON).count() == 0
    assert c.problems() == []
