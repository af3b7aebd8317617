"""Every control a phone player's finger meets at the table is a finger's size: at least
44 px tall, the platforms' guidance for a touch target. Found by playing on a 390×844
touch phone: the lag's sliders were 18 px tall and its button 32, the sheet's "Centre" 21,
the cue-raised slider 18, the menu's items and the chat 33–35, the spin's buttons 35, the
fine-aim buttons 40. The lag's card says what a lag is in words, without a rule id in
small print ("O6" read as noise to a newcomer, as it did in the status line)."""

from __future__ import annotations

import math
from typing import Any

from tests.browser.support import Client, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    pull_strip,
    settle,
    shoot_at_lowest,
    shooter,
)
from tests.browser.test_firstminute import (
    PHONE,
    OpenClient,
    Touch,
    host_and_guest,
    play_the_lag,
    started,
)

#: The platforms' guidance for a finger (Apple: 44 pt; WCAG 2.5.5: 44 CSS px).
FINGER = 44

#: Every control, visible and on the screen, whose box is shorter than a finger.
TOO_SMALL = """(selectors) => {
  const small = [];
  for (const e of document.querySelectorAll(selectors)) {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0 || e.closest('[hidden]')) continue;
    if (getComputedStyle(e).visibility === 'hidden') continue;
    if (r.bottom < 0 || r.top > innerHeight) continue;
    if (r.height < 44) small.push(`${e.id || e.tagName.toLowerCase()} ${Math.round(r.height)} px`);
  }
  return small;
}"""
CONTROLS = "button, summary, input, select, a[href], [role=slider]"


def warned_soon(open_client: OpenClient) -> tuple[Client, Client]:
    """Two Croatian phones at a match with a 20 s shot clock whose warning comes at 18 s
    left: the break's shooter is warned two seconds into the turn."""
    ana, bob, _room = started(
        open_client,
        host={**PHONE, "lang": "hr"},
        guest={**PHONE, "lang": "hr"},
        table={"#c-preset": "custom", "#c-clock": "20", "#c-warning": "18"},
    )
    return ana, bob


def too_small(c: Client, within: str) -> list[str]:
    found: list[str] = c.page.evaluate(
        TOO_SMALL, ", ".join(f"{within} :is({CONTROLS})" for within in within.split(","))
    )
    return found


def aim_clear_of_the_chip(c: Client, legal: bool = False) -> None:
    """Aims a soft shot 0.3 m from the cue ball, at a point of the cloth the push-out's
    chip does not cover (a click on the chip takes the push-out back: the chip sits on a
    rail, and where depends on the balls). `legal`: on a line whose first ball is not a
    wrong one (whose warning would take the prompt's place)."""
    cue = c.state("a.table.balls[0]")
    chip = c.page.locator("#push-chip").bounding_box()
    ways = [(0.3 * math.cos(a * math.pi / 6), 0.3 * math.sin(a * math.pi / 6)) for a in range(12)]
    for dx, dy in ((-0.3, 0.0), (0.0, 0.3), (0.0, -0.3), (0.3, 0.0), *(ways if legal else [])):
        x, y = cue[0] + dx, cue[1] + dy
        if not (0.1 <= x <= 2.44 and 0.1 <= y <= 1.17):
            continue
        sx, sy = c.screen(x, y)
        if chip is not None and (
            chip["x"] - 12 < sx < chip["x"] + chip["width"] + 12
            and chip["y"] - 12 < sy < chip["y"] + chip["height"] + 12
        ):
            continue
        click_table(c, x, y)
        if not legal or c.state("a.wrongBall") is None:
            return
    raise AssertionError(f"no point to aim at clear of the chip: {cue}, {chip}")


def test_the_lag_is_played_with_a_finger(open_client: OpenClient) -> None:
    ana, bob, _room = host_and_guest(
        open_client, host={**PHONE, "lang": "hr"}, guest=PHONE, first_break="lag"
    )
    ana.page.locator("#lag-controls").wait_for(state="visible")
    assert too_small(ana, "#lag-controls") == []
    for slider in ("#lag-power", "#lag-angle"):
        height = ana.page.locator(slider).bounding_box()
        assert height is not None and height["height"] >= FINGER, (slider, height)
    # Its words are words: what a lag is, not "O6".
    card = ana.page.inner_text("#lag-controls")
    assert "Bliškanje za otvaranje" in card and "O6" not in card, card
    # The aside on a stroke's variance is left out: it scrolled under the button, cut.
    assert ana.page.locator('#lag-controls [data-i18n="lag.hand"]').is_hidden()
    # The card still leaves the status in sight, and the head of the table, where the lag
    # balls wait and the player's line starts (`test_lag_table`): over the far half.
    card_box = ana.page.locator("#lag-controls").bounding_box()
    status = ana.page.locator("#status").bounding_box()
    table = ana.page.locator("#table").bounding_box()
    assert card_box is not None and status is not None and table is not None
    assert card_box["y"] >= status["y"] + status["height"], (card_box, status)
    assert card_box["y"] + card_box["height"] < table["y"] + table["height"] * 0.7, card_box
    save(ana, "phone-lag-hr.png")
    assert_quiet(ana, bob)


def test_the_break_and_the_sheet_are_played_with_a_finger(open_client: OpenClient) -> None:
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "ru"}, guest=PHONE)
    shooter = ana if ana.state("a.view.turn === a.seat") else bob
    # The strip at the edge: the fine aim's turns.
    assert too_small(shooter, "#strip .fine-aim") == []
    # The sheet's bar under the table (it was 29 px).
    bar = shooter.page.locator("#panel-toggle").bounding_box()
    assert bar is not None and bar["height"] >= FINGER, bar
    # The spin's pop-up.
    shooter.page.click("#spin-mini")
    shooter.page.locator("#spin-pop").wait_for(state="visible")
    assert too_small(shooter, "#spin-pop") == []
    shooter.page.click("#spin-pop-close")
    # The sheet: spin, cue raised, the menu and its items, the chat.
    shooter.page.click("#panel-toggle")
    shooter.page.locator("#more summary").wait_for(state="visible")
    elevation = shooter.page.locator("#elevation").bounding_box()
    assert elevation is not None and elevation["height"] >= FINGER, elevation
    small: list[Any] = too_small(shooter, "#panel")
    assert small == [], small
    shooter.page.click("#more summary")
    shooter.page.locator("#leave").wait_for(state="visible")
    # (placed on the details' `toggle`, a task after the click: read once it has run)
    shooter.page.evaluate("new Promise((r) => setTimeout(() => requestAnimationFrame(r), 0))")
    assert shooter.page.locator("#leave").is_visible()
    small = too_small(shooter, "#panel")
    assert small == [], small
    save(shooter, "phone-sheet-menu.png")
    assert_quiet(ana, bob)


def push_out_offered(open_client: OpenClient) -> tuple[Client, Client, Client, Client]:
    """Two phones (Ana's English, Bob's Croatian) after a break that leaves a push-out:
    Ana, Bob, the player it is offered to and the other."""
    ana, bob, _room = started(open_client, host=PHONE, guest={**PHONE, "lang": "hr"})
    shoot_at_lowest(shooter((ana, bob)), 95)
    settle(ana, bob)
    pusher = shooter((ana, bob))
    other = bob if pusher is ana else ana
    assert pusher.state("a.table.push_out_allowed"), "the seeded break should leave a push-out"
    return ana, bob, pusher, other


def test_the_push_out_and_its_choice_are_taken_with_a_finger(open_client: OpenClient) -> None:
    """The push-out's button on the table and the opponent's two answers (32–35 px)."""
    ana, bob, pusher, other = push_out_offered(open_client)
    pusher.page.locator("#push-chip").wait_for(state="visible")
    assert too_small(pusher, ".canvas-wrap") == []
    # Aimed at a wrong ball, the warning says the push-out would make the line no foul
    # (it said only "foul", the push-out's button unexplained beside it).
    chip = pusher.page.locator("#push-chip").bounding_box()
    assert chip is not None
    # On one line wherever it stands: pushed to 70 % of the width it wrapped ("Push / out")
    # and grew over the corner pocket beside it.
    lines = pusher.page.evaluate(
        """() => { const chip = document.getElementById("push-chip"), kept = chip.className;
          const places = [[], ["far"], ["wing"], ["wing", "right"], ["far", "wing", "right"]];
          const range = document.createRange();
          const lines = places.map((p) => { chip.className = ["push-chip", ...p].join(" ");
            range.selectNodeContents(chip);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.bottom))).size; });
          chip.className = kept; return lines; }"""
    )
    assert lines == [1] * 5, lines
    balls = pusher.state("a.table.balls")
    lowest = min(n for n, b in enumerate(balls) if n and b)
    for n, b in enumerate(balls):
        sx, sy = pusher.screen(*b) if b else (0.0, 0.0)
        under = chip["x"] - 12 < sx < chip["x"] + chip["width"] + 12 and chip["y"] - 12 < sy
        if n > lowest and b and not (under and sy < chip["y"] + chip["height"] + 12):
            click_table(pusher, *b)
            if pusher.state("a.wrongBall") is not None:
                break
    warning = pusher.page.inner_text("#status .prompt")
    assert "unless you play a push-out" in warning or "osim ako odigrate push out" in warning
    # Offered, the push-out is said where the player reads, not only named on a button
    # (on a line whose first ball is a wrong one, the warning comes first: aimed clear).
    aim_clear_of_the_chip(pusher, legal=True)
    prompt = pusher.page.inner_text("#status .prompt")
    assert prompt.startswith(
        ("After the break you may play a push-out", "Nakon otvaranja smijete odigrati push out")
    ), prompt
    assert not other.page.inner_text("#status .prompt").startswith(("After", "Nakon"))
    save(pusher, "phone-push-out-offered.png")
    pusher.page.locator("#push-chip").tap()
    aim_clear_of_the_chip(pusher)
    assert pusher.page.get_attribute("#push-chip", "aria-pressed") == "true"
    pull_strip(pusher, 12)
    settle(ana, bob)
    other.page.locator("#choice-dialog").wait_for(state="visible")
    assert too_small(other, "#choice-dialog") == []
    # What was played is said in the choice itself (the status box is under it).
    text = other.page.locator("#choice-text")
    said = text.inner_text()  # (the other player's page is English or Croatian, by the draw)
    assert text.is_visible() and ("pushed out" in said or "odigrao push out" in said), said
    box, table = other.page.locator("#choice-dialog").bounding_box(), other.screen(0, 0)
    assert box is not None and box["y"] + box["height"] < min(table[1], other.screen(2.54, 0)[1])
    save(other, "phone-push-out-choice.png")
    assert_quiet(ana, bob)


def test_the_push_out_chip_moves_aside_from_balls_at_both_ends(open_client: OpenClient) -> None:
    """The chip stood on the head rail, or on the foot rail with a ball under it there: with
    balls by both cushions' middles it hid one of them (the 9, once, lit over it). It
    moves aside along a rail to where no ball is under it."""
    _ana, _bob, pusher, _other = push_out_offered(open_client)
    chip = pusher.page.locator("#push-chip")
    chip.wait_for(state="visible")
    # Balls by the middle of both short cushions (the page redrawn as a change of
    # language redraws it), the rest out of the way.
    pusher.page.evaluate(
        "{ const b = window.ninepool.app.table.balls;"
        " for (let n = 1; n < b.length; n++) if (b[n]) b[n] = [1.27, 0.2];"
        " b[1] = [0.05, 0.635]; b[2] = [2.49, 0.635]; }"
    )
    pusher.page.select_option("#lang", "hr")
    pusher.page.wait_for_function("document.documentElement.lang === 'hr'")
    assert "wing" in (chip.get_attribute("class") or "")
    box = chip.bounding_box()
    assert box is not None
    for x, y in ((0.05, 0.635), (2.49, 0.635)):
        sx, sy = pusher.screen(x, y)
        assert not (
            box["x"] - 14 < sx < box["x"] + box["width"] + 14
            and box["y"] - 14 < sy < box["y"] + box["height"] + 14
        ), ((x, y), (sx, sy), box)


def test_the_lag_winners_question_is_answered_with_a_finger(open_client: OpenClient) -> None:
    ana, bob, _room = host_and_guest(
        open_client, host={**PHONE, "lang": "ru"}, guest=PHONE, first_break="lag"
    )
    play_the_lag((ana, bob), finger=True)
    for c in (ana, bob):
        c.wait("a.view && a.view.status === 'lag' && a.view.lag_choice != null")
    chooser = (ana, bob)[ana.state("a.view.lag_choice")]
    chooser.page.locator("#lag-dialog").wait_for(state="visible")
    assert too_small(chooser, "#lag-dialog") == []
    assert_quiet(ana, bob)


def test_a_rule_mark_says_its_rule_under_a_finger(open_client: OpenClient) -> None:
    """The log's rule marks ("R3, O6") and the dialogs' ("O4") read as codes nobody could
    look up on a phone: only a mouse's hover showed their names. A tap says them."""
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "hr"}, guest=PHONE)
    ana.page.click("#panel-toggle")
    ana.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    mark = ana.page.locator("#log small.rule").first
    mark.wait_for(state="visible")
    mark.scroll_into_view_if_needed()
    ana.page.wait_for_timeout(600)  # the sheet slides up
    ids = mark.inner_text().split(", ")
    box = mark.bounding_box()
    assert box is not None
    Touch(ana).tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = ana.page.locator("#tip")
    tip.wait_for(state="visible")
    words = tip.inner_text()
    assert all(f"{rule}: " in words for rule in ids), (ids, words)
    assert "R3: tko otvara" in words or "O6: bliškanje" in words, words
    save(ana, "phone-rule-mark-hr.png")
    # The page's own marks too, in the language shown: the concession's O4.
    assert ana.page.get_attribute("#concede-title small.rule", "data-tip") == "O4: predaja"
    assert_quiet(ana, bob)


#: A short phone held upright.
SMALL_PHONE = {**PHONE, "width": 360, "height": 640}


def on_top(c: Client, selector: str) -> bool:
    """Whether the control is whole on the screen and a finger at its middle lands on it
    (not on the sheet's bar or whatever else stands over it)."""
    found: bool = c.page.evaluate(
        """(selector) => {
          const e = document.querySelector(selector);
          const r = e.getBoundingClientRect();
          if (r.top < 0 || r.left < 0) return false;
          if (r.bottom > innerHeight || r.right > innerWidth) return false;
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && (hit === e || e.contains(hit));
        }""",
        selector,
    )
    return found


def test_a_short_phone_reaches_the_lag_and_the_fine_aim(open_client: OpenClient) -> None:
    """On a 360 × 640 phone the lag's button stood below its card's fold (a sliver of it
    showed) and the strip's second fine turn under the sheet's bar: both are whole and
    take a finger's tap. The card's words fit above the button."""
    ana, bob, _room = host_and_guest(
        open_client, host={**SMALL_PHONE, "lang": "hr"}, guest=PHONE, first_break="lag"
    )
    ana.page.locator("#lag-shoot").wait_for(state="visible")
    assert on_top(ana, "#lag-shoot"), ana.page.locator("#lag-shoot").bounding_box()
    # Nothing of the card's words scrolls under its sticky button (a help line stood there,
    # cut in half).
    scroll, height = ana.page.evaluate(
        "(() => { const c = document.querySelector('#lag-controls');"
        " return [c.scrollHeight, c.clientHeight]; })()"
    )
    assert scroll <= height + 1, (scroll, height)
    save(ana, "phone-small-lag-hr.png")
    ana, bob, _room = started(
        open_client, host={**SMALL_PHONE, "lang": "ru"}, guest={**SMALL_PHONE, "lang": "hr"}
    )
    player = shooter((ana, bob))
    for turn in ("#aim-anticlockwise", "#aim-clockwise"):
        assert on_top(player, turn), (turn, player.page.locator(turn).bounding_box())
    assert on_top(player, "#strip-track") and on_top(player, "#spin-mini")
    save(player, "phone-small-break.png")
    assert_quiet(ana, bob)


def test_held_sideways_the_push_out_leaves_the_pockets_in_sight(open_client: OpenClient) -> None:
    """Held sideways the near rail is a long one: the push-out's button stood in its middle,
    over the side pocket a push-out may well be played towards. It stands a quarter along,
    clear of every pocket and ball."""
    ana, bob, pusher, _other = push_out_offered(open_client)
    pusher.page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    pusher.page.wait_for_function("!window.ninepool.portrait()")
    chip = pusher.page.locator("#push-chip")
    chip.wait_for(state="visible")
    # Where the chip stands once the sideways layout has settled (two frames alike).
    pusher.page.wait_for_function(
        """() => new Promise((done) => requestAnimationFrame(() => {
             const a = JSON.stringify(document.getElementById('push-chip').getBoundingClientRect());
             requestAnimationFrame(() => done(a === JSON.stringify(
               document.getElementById('push-chip').getBoundingClientRect())));
           }))"""
    )
    box = chip.bounding_box()
    assert box is not None
    length, width = 2.54, 1.27
    pockets = [(x, y) for x in (0.0, length / 2, length) for y in (0.0, width)]
    balls = [tuple(b) for b in pusher.state("a.table.balls") if b]
    for x, y in (*pockets, *balls):
        sx, sy = pusher.screen(x, y)
        assert not (
            box["x"] - 14 < sx < box["x"] + box["width"] + 14
            and box["y"] - 14 < sy < box["y"] + box["height"] + 14
        ), ((x, y), (sx, sy), box, chip.get_attribute("class"))
    save(pusher, "push-out-sideways.png")
    assert_quiet(ana, bob)


def test_the_practice_panel_and_the_tournament_pages_are_tapped_with_a_finger(
    open_client: OpenClient, open_page: Any
) -> None:
    """The practice panel's buttons, sliders and drills' menu (Undo was 35 px tall, the
    sliders 18), and the tournament pages' top-bar links (16 px of underlined text)."""
    ana = open_client("Ana", lang="hr", hash="#/practice", **PHONE)
    ana.page.wait_for_selector("#practice-view:not([hidden])")
    ana.page.wait_for_function("!!window.ninepool.practice?.view")
    small: list[str] = ana.page.evaluate(
        TOO_SMALL.replace("r.bottom < 0 || r.top > innerHeight", "false"),
        ".practice-panel :is(button:not(.tray-ball), select, input[type=range])",
    )
    assert small == [], small
    for path, shown in (
        ("/tournaments?lang=ru", "#tour-list"),
        ("/tournament/new?lang=hr", "#tour-create"),
    ):
        page = open_page(path, path, width=390, height=844, touch=True)
        # The page's script has run (it hides the links a page does not need).
        page.page.wait_for_selector(f"{shown}:not([hidden])")
        page.page.wait_for_selector(".topbar a:not(.brand):visible")
        links: list[str] = page.page.evaluate(TOO_SMALL, ".topbar a:not(.brand)")
        assert links == [], (path, links)
    # The organiser's form has no link to itself.
    assert page.page.locator("a[href^='/tournament/new']:visible").count() == 0
    assert_quiet(ana)
