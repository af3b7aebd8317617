"""A phone player's table, with real touch: the card between two games leaves the table
to the breaker's finger, the bar over the table has buttons a finger can hit, and long
names are read whole on the seats."""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.support import Client, save
from tests.browser.test_client import (
    assert_quiet,
    foul_softly,
    settle,
    shooter,
    winner_chooses,
)
from tests.browser.test_firstminute import (
    PHONE,
    OpenClient,
    Touch,
    center,
    host_and_guest,
    play_the_lag,
    started,
)
from tests.browser.test_rated_browser import sign_up
from tests.browser.test_watching import concede

#: The phones the tests hold: upright (two sizes) and sideways.
UPRIGHT = ((390, 844), (360, 740))
SIDEWAYS = (844, 390)
#: Names of the longest a name may be (`protocol/text.py`'s NAME_MAX, 20 characters).
LONG_NAMES = ("Борис Спасский-Орлов", "Владимир Ковалевский")


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    """A pause between games long enough that the result is still up when the finger comes
    down, however busy the machine (it closes by itself when the pause ends)."""
    return ["--rack-pause", "40"]


def cloth(c: Client) -> dict[str, float]:
    """The table's bed on the screen (CSS px): left, top, right, bottom."""
    corners = [c.screen(x, y) for x in (0, 2.54) for y in (0, 1.27)]
    xs, ys = [p[0] for p in corners], [p[1] for p in corners]
    return {"left": min(xs), "top": min(ys), "right": max(xs), "bottom": max(ys)}


def box(c: Client, selector: str) -> dict[str, float]:
    found = c.page.locator(selector).bounding_box()
    assert found is not None, selector
    return dict(found)


def test_between_games_the_result_leaves_the_table_to_the_breakers_finger(
    open_client: OpenClient,
) -> None:
    """A match goes on after its first game; the phone's player breaks the next. The
    game's result (with its replay's link) stood over the middle of the table while the
    break was theirs to play: a tap meant for the table hit the card, or its link, which
    took the player off the table. On a phone the result stands over the scoreboard, clear
    of the cloth, and the first touch on the table goes to the table (and closes it)."""
    ana, bob, room = host_and_guest(open_client, host=PHONE, table={"#c-race": "3"})
    for c in (ana, bob):
        c.wait("a.view && a.view.status === 'lag' && a.view.lag_choice != null")
    # Bob (at a desk) breaks: the phone's player wins the game and breaks the next.
    winner = (ana, bob)[ana.state("a.view.lag_choice")]
    winner.page.locator("#lag-dialog").wait_for(state="visible")
    winner.page.click("#lag-break" if winner is bob else "#lag-give")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && !!a.table && a.table.turn === 1")
        c.idle()
    foul_softly(bob)  # a shot played in the game: its result links the game's replay
    settle(ana, bob)
    # The phone's player reads the log when the game ends: the sheet over the table gives
    # way to the table and the result (its heading was under the sheet's bar).
    ana.page.click("#panel-toggle")
    ana.wait("a.panelOpen")
    concede(bob, "game")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.wait("!a.panelOpen")
    ana.page.locator("#result-replay").wait_for(state="visible")
    ana.wait("a.table.rack === 2 && a.table.turn === a.seat && !a.anim")
    assert "you break" in ana.page.inner_text("#result-next")
    save(ana, "phone-between-games.png")

    card, bed = box(ana, "#result-dialog"), cloth(ana)
    assert card["y"] + card["height"] <= bed["top"] + 1, (card, bed)
    # Held sideways it keeps off the cloth too.
    ana.page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    ana.page.wait_for_function("!window.ninepool.portrait()")
    save(ana, "phone-between-games-sideways.png")
    card, bed = box(ana, "#result-dialog"), cloth(ana)
    # (a 2:1 phone: in the column left of the table, where the prompt stands)
    assert card["x"] + card["width"] <= bed["left"] + 1, (card, bed)
    assert card["y"] >= 0 and card["y"] + card["height"] <= SIDEWAYS[1], card
    # Under the scoreboard: over it, it left a slice of Ana's seat, its score without a name.
    seat = box(ana, "#seat0")
    assert card["y"] >= seat["y"] + seat["height"], (card, seat)
    for button in ("#result-replay", "#result-close"):
        place = box(ana, button)
        assert place["x"] >= card["x"], (place, card)
        assert place["x"] + place["width"] <= card["x"] + card["width"] + 1, (place, card)
    # ... and short of the strip, whose cue waits at its top for the break.
    strip = box(ana, "#strip")
    assert card["x"] + card["width"] <= strip["x"] + 1, (card, strip)
    ana.page.set_viewport_size({"width": PHONE["width"], "height": PHONE["height"]})
    ana.page.wait_for_function("window.ninepool.portrait()")

    # A tap on the cloth where a card in the middle of the screen stood (the upper half of
    # the table, beside the long axis: it turns the cue) goes to the table.
    x, y = ana.screen(1.6, 0.45)
    bed = cloth(ana)
    assert bed["left"] < x < bed["right"] and bed["top"] < y < bed["bottom"]
    assert abs(y - PHONE["height"] / 2) < 120, "not where a card in the middle stood"
    angle = ana.state("a.aim.angle")
    Touch(ana).tap(x, y)
    ana.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
    assert abs(ana.state("a.aim.angle") - angle) > 1e-3, "the tap did not reach the table"
    assert len(ana.context.pages) == 1, "a page was opened"
    assert ana.state("a.room") == room and ana.page.is_visible("#table-view")
    # The card has said its piece: the player is playing.
    ana.page.locator("#result-dialog").wait_for(state="hidden", timeout=15_000)
    save(ana, "phone-between-games-tapped.png")
    # A desk keeps its card in the middle of the screen, to answer.
    assert bob.page.evaluate("document.querySelector('#result-dialog:modal') !== null")
    assert_quiet(ana, bob)


def bar_targets(c: Client) -> list[dict[str, Any]]:
    """The bar's controls as shown: each one's id (or class), box and words."""
    found: list[dict[str, Any]] = c.page.evaluate(
        """[...document.querySelectorAll('.topbar :is(a, button, select)')]
          .filter((e) => e.getClientRects().length > 0)
          .map((e) => { const r = e.getBoundingClientRect();
            const name = e.getAttribute('aria-label') || e.textContent.trim();
            return { id: e.id || e.className, x: r.x, y: r.y, width: r.width,
                     height: r.height, name }; })"""
    )
    return found


def test_the_bar_over_a_phones_table_has_buttons_a_finger_can_hit(
    open_client: OpenClient,
) -> None:
    """At a table the bar's buttons were 21–26 px tall on a phone (a finger is 40 px and
    more). They are a finger's size, on one row that takes no more of the table's height
    than the two rows of small buttons did; in every language, upright and sideways."""
    pages = {}
    for lang in ("en", "hr", "ru"):
        c = open_client(f"Phil {lang}", **{**PHONE, "lang": lang})
        if lang == "ru":
            sign_up(c, "Филипп Ру")  # an account's buttons: the profile and the log-out
        c.page.click("#create-form button[type=submit]")
        c.wait("!!a.view && a.role === 'player'")
        pages[lang] = c
    for lang, c in pages.items():
        for width, height in (*UPRIGHT, SIDEWAYS):
            c.page.set_viewport_size({"width": width, "height": height})
            c.page.wait_for_function(
                "([w, upright]) => window.innerWidth === w"
                " && window.ninepool.portrait() === upright",
                arg=[width, height > width],
            )
            save(c, f"phone-bar-{lang}-{width}x{height}.png")
            targets = bar_targets(c)
            if width > height:
                assert targets == [], "sideways the table takes the whole screen"
                continue
            ids = {t["id"] for t in targets}
            want = {"brand", "lang", "mute"} | (
                {"account-profile", "account-logout"} if lang == "ru" else {"account-open"}
            )
            assert want | {"leaders-open"} <= ids, (lang, width, ids)
            for t in targets:
                assert t["height"] >= 40 and t["width"] >= 40, (lang, width, t)
                assert t["name"], (lang, width, t)  # named, for a screen reader too
                assert t["x"] >= 0 and t["x"] + t["width"] <= width + 0.5, (lang, width, t)
            bar = box(c, ".topbar")
            # One row: no taller than the two rows of small buttons were (64 px).
            assert bar["height"] <= 56, (lang, width, bar)
    assert_quiet(*pages.values())


def names_whole(c: Client) -> list[dict[str, Any]]:
    """Each seat's name: its words, whether all of them are in sight, the font's size."""
    found: list[dict[str, Any]] = c.page.evaluate(
        """[0, 1].map((i) => { const e = document.querySelector(`#seat${i} .name`);
             const seat = document.getElementById(`seat${i}`).getBoundingClientRect();
             const r = e.getBoundingClientRect();
             return { text: e.textContent, wide: e.scrollWidth <= e.clientWidth,
                      tall: e.scrollHeight <= e.clientHeight + 1,
                      inside: r.left >= seat.left - 0.5 && r.right <= seat.right + 0.5,
                      size: parseFloat(getComputedStyle(e).fontSize) }; })"""
    )
    return found


def test_long_names_are_read_whole_on_a_phones_seats(open_client: OpenClient) -> None:
    """Two players with names of twenty letters at a phone's table: "Борис Спасск…" was
    all the seat showed. Upright, each name is on the seat whole (smaller, or on two
    lines), the tags and the score beside it."""
    ana = open_client(LONG_NAMES[0], **{**PHONE, "lang": "ru"})
    ana.page.select_option("#c-first", "draw")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    link = ana.page.input_value("#invite-link")
    bob = open_client(LONG_NAMES[1], **{**PHONE, "lang": "ru"}, hash=link[link.index("#") :])
    bob.wait("!!a.view && a.role === 'player' && a.seat === 1")
    winner_chooses((ana, bob), "#lag-break")
    ana.wait("a.view.status === 'playing' && !!a.table")
    ana.idle()
    for width, height in UPRIGHT:
        ana.page.set_viewport_size({"width": width, "height": height})
        ana.page.wait_for_function(f"window.innerWidth === {width}")
        ana.page.wait_for_function(
            """[0, 1].every((i) => { const e = document.querySelector(`#seat${i} .name`);
                 return e.scrollWidth <= e.clientWidth
                   && e.scrollHeight <= e.clientHeight + 1; })""",
            timeout=15_000,
        )
        save(ana, f"phone-long-names-{width}x{height}.png")
        for seat, name in zip(names_whole(ana), LONG_NAMES, strict=True):
            assert seat["text"] == name
            assert seat["wide"] and seat["tall"] and seat["inside"], (width, seat)
            assert seat["size"] >= 10, (width, seat)  # still read without a squint
    # And so on the seats of the match's replay.
    bob.page.set_viewport_size({"width": 360, "height": 740})
    bob.page.evaluate(f"location.hash = '#/replay/{ana.state('a.room')}'")
    bob.page.wait_for_selector("#replay-view:not([hidden]) #r-seat1 .name")
    bob.page.wait_for_function(
        """[0, 1].every((i) => { const e = document.querySelector(`#r-seat${i} .name`);
             return e.textContent.length >= 20 && e.scrollWidth <= e.clientWidth
               && e.scrollHeight <= e.clientHeight + 1; })""",
        timeout=15_000,
    )
    save(bob, "phone-long-names-replay.png")
    # Where a name cannot fit at all (a phone's window split in two), the seat shows what
    # fits and a tap on the name shows it whole.
    ana.page.set_viewport_size({"width": 250, "height": 700})
    ana.page.wait_for_selector("#seat1 .name.cut")
    save(ana, "phone-long-names-250x700.png")
    name = ana.page.locator("#seat1 .name")
    assert name.get_attribute("title") == LONG_NAMES[1]
    found = name.bounding_box()
    assert found is not None
    Touch(ana).tap(found["x"] + found["width"] / 2, found["y"] + found["height"] / 2)
    ana.page.locator("#tip").wait_for(state="visible")
    assert ana.page.inner_text("#tip") == LONG_NAMES[1]
    save(ana, "phone-long-names-tip.png")
    assert_quiet(ana, bob)


def test_held_sideways_a_wide_phone_gives_the_table_the_whole_height(
    open_client: OpenClient,
) -> None:
    """Held sideways, the prompt above the table left a 844 × 390 phone's table 412 px
    wide, with a 150 px band of empty canvas either side of it, and cut the prompt to two
    lines; the spin's pop-up covered the rack. On a phone 2:1 or wider the prompt stands in
    a column left of the table, read whole, the spin's pop-up over it, and the table takes
    the stage's height; a 16:9 phone (640 × 360), which would lose width by it, keeps the
    box above the table. (In Russian, whose words are the longest: the spin's two
    buttons side by side only just fit.)"""
    ana, bob, _room = started(
        open_client, host={**PHONE, "lang": "ru"}, guest={**PHONE, "lang": "ru"}
    )
    phone = shooter((ana, bob))
    phone.page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    phone.page.wait_for_function("!window.ninepool.portrait()")
    phone.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
    bed, status = cloth(phone), box(phone, "#status")
    assert status["x"] + status["width"] <= bed["left"], (status, bed)
    assert bed["top"] - status["y"] < 60 and status["height"] > 200, (status, bed)
    assert bed["right"] - bed["left"] > 0.55 * SIDEWAYS[0], bed
    prompt = phone.page.locator("#status .prompt")
    assert prompt.inner_text().strip(), "no prompt"
    assert prompt.evaluate("(e) => e.scrollHeight <= e.clientHeight + 1"), "the prompt is cut"
    save(phone, "phone-sideways-wide.png")
    # The spin's pop-up over the column, whole, its buttons inside it — on a phone 360 px
    # tall too (its words ran out of it there).
    for width, height in (SIDEWAYS, (780, 360)):
        phone.page.set_viewport_size({"width": width, "height": height})
        phone.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
        bed = cloth(phone)
        Touch(phone).tap(*center(phone, "#spin-mini"))
        phone.page.locator("#spin-pop").wait_for(state="visible")
        pop = box(phone, "#spin-pop")
        assert pop["x"] + pop["width"] <= bed["left"] and pop["y"] + pop["height"] <= height
        parts = ("#spin-pop .help", "#spin-pop-ball", "#spin-pop-elev", "#spin-pop-reset")
        for part in (*parts, "#spin-pop-close"):
            if part.endswith(".help") and height < 380:
                continue  # (no line of help on a phone this small)
            place = box(phone, part)
            assert pop["x"] <= place["x"] and place["x"] + place["width"] <= pop["x"] + pop["width"]
            assert (
                pop["y"] <= place["y"] and place["y"] + place["height"] <= pop["y"] + pop["height"]
            )
        save(phone, f"phone-sideways-wide-spin-{width}.png")
        phone.page.click("#spin-pop-close")
    # The cue's elevation is set there too (it was only in the sheet, under "Log · chat ·
    # menu"), and the sheet's slider says the same.
    Touch(phone).tap(*center(phone, "#spin-mini"))
    phone.page.locator("#spin-pop-elev").focus()
    for _ in range(5):
        phone.page.keyboard.press("ArrowRight")
    assert phone.state("a.aim.elevation") == 5
    assert phone.page.input_value("#elevation") == "5"
    sheet = phone.page.text_content("#elev-out")  # (in the closed sheet)
    assert phone.page.inner_text("#spin-pop-elev-out") == sheet == "5°"
    phone.page.click("#spin-pop-close")
    # A 16:9 phone: the box above the table (as before: its cloth 280–305 px wide beside
    # the strip, as the prompt's lines take more or less of the height).
    phone.page.set_viewport_size({"width": 640, "height": 360})
    phone.page.evaluate("new Promise((r) => requestAnimationFrame(() => r(null)))")
    bed, status = cloth(phone), box(phone, "#status")
    assert status["y"] + status["height"] <= bed["top"], (status, bed)
    assert bed["right"] - bed["left"] > 0.4 * 640, bed
    save(phone, "phone-sideways-16-9.png")
    assert_quiet(ana, bob)


def test_held_sideways_the_lag_winners_question_leaves_the_lag_balls_in_view(
    open_client: OpenClient,
) -> None:
    """Held sideways the lag balls rest by the head cushion, one in each half of the
    table's width: the lag winner's question stood across the foot of the stage, over the
    lower one. It stands in the column left of the table, its buttons whole."""
    ana, bob, _ = host_and_guest(
        open_client, host={**PHONE, "lang": "ru"}, guest={**PHONE, "lang": "hr"}, first_break="lag"
    )
    for c in (ana, bob):
        c.page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    # What a lag is, said on the lag's card (the prompt beside the table names the button
    # alone), the button still on the screen.
    help_line = ana.page.locator("#lag-controls [data-i18n='lag.help']")
    help_line.wait_for(state="visible")
    assert help_line.inner_text().startswith("Раскат на право разбития")
    shoot = ana.page.locator("#lag-shoot").bounding_box()
    assert shoot is not None and shoot["y"] + shoot["height"] <= SIDEWAYS[1], shoot
    play_the_lag((ana, bob), finger=True)
    for c in (ana, bob):
        c.wait("a.view.lag_choice != null")
        c.idle()
    winner = (ana, bob)[ana.state("a.view.lag_choice")]
    winner.page.locator("#lag-dialog").wait_for(state="visible")
    box = winner.page.locator("#lag-dialog").bounding_box()
    assert box is not None
    balls = winner.page.evaluate(
        "window.ninepool.app.lagBalls.map(l => window.ninepool.screenOf(l.pos[0], l.pos[1]))"
    )
    assert len(balls) == 2, balls
    for x, y in balls:
        assert not (
            box["x"] - 14 <= x <= box["x"] + box["width"] + 14
            and box["y"] - 14 <= y <= box["y"] + box["height"] + 14
        ), (balls, box)
    # Under the scoreboard: over it, it hid the winner's own name; and above the sheet's
    # bar, over the column's own words (they peeked out above it, half hidden).
    for seat in ("#seat0", "#seat1"):
        at = winner.page.locator(seat).bounding_box()
        assert at is not None and box["y"] >= at["y"] + at["height"] - 1, (seat, at, box)
    bar = winner.page.locator("#panel-toggle").bounding_box()
    column = winner.page.locator("#status").bounding_box()
    assert bar is not None and column is not None
    assert box["y"] + box["height"] <= bar["y"] + 1, (box, bar)
    assert box["y"] <= column["y"] + 1, (box, column)
    assert box["y"] + box["height"] >= column["y"] + column["height"] - 1, (box, column)
    for button in ("#lag-break", "#lag-give"):
        b = winner.page.locator(button).bounding_box()
        assert b is not None and b["y"] >= 0 and b["y"] + b["height"] <= SIDEWAYS[1], (button, b)
        assert box["y"] <= b["y"] and b["y"] + b["height"] <= box["y"] + box["height"], (b, box)
        assert b["height"] >= 44, (button, b)
    save(winner, "lag-choice-sideways.png")
    winner.page.locator("#lag-break").tap()
    for c in (ana, bob):
        c.wait("a.view.status === 'playing'")
    assert_quiet(ana, bob)


def test_held_sideways_a_chat_line_sent_leaves_the_box_whole_in_sight(
    open_client: OpenClient,
) -> None:
    """In the open sheet the box scrolls into sight as it is tapped; the line sent then
    grew the chat above it and pushed it 6 px under the screen's edge, the Send button cut.
    The box stays whole in sight, with the sheet's margin under it, for the next line."""
    ana, bob, _ = started(open_client, host=PHONE, guest={**PHONE, "lang": "ru"})
    for c in (ana, bob):
        c.page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    bob.page.tap("#panel-toggle")
    bob.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    for text in ("Удачи!", "Хорошая игра"):
        bob.page.locator("#chat-input").tap()
        bob.page.keyboard.type(text)
        bob.page.keyboard.press("Enter")
        bob.page.wait_for_function(
            "(t) => [...document.querySelectorAll('#chat-log li')]"
            ".some(li => li.textContent.endsWith(t))",
            arg=text,
        )
        # (the sheet scrolls smoothly: the box's place once it has come to rest)
        bob.page.wait_for_timeout(400)
        form = bob.page.evaluate(
            "document.querySelector('#chat-form .row').getBoundingClientRect().toJSON()"
        )
        assert form["top"] >= 0 and form["bottom"] <= SIDEWAYS[1] - 8, (text, form)
    save(bob, "chat-sent-sideways.png")
    assert_quiet(ana, bob)


def test_held_sideways_the_result_between_games_keeps_its_next_game_line_in_sight(
    open_client: OpenClient,
) -> None:
    """Between two games, a phone held sideways shows the result in the column left of the
    table. With long names its score took five lines ("Борис Спасский-" / "Орлов" / "0 : 1"
    / "Владимир" / "Ковалевский"), and the line that says when the next game starts and
    who breaks went under the buttons at the card's foot. The score is the scoreboard's,
    just above: the card leaves it out, and its words stay whole."""
    ana = open_client(LONG_NAMES[0], **{**PHONE, "lang": "ru"})
    ana.page.select_option("#c-first", "draw")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    link = ana.page.input_value("#invite-link")
    bob = open_client(LONG_NAMES[1], **PHONE, hash=link[link.index("#") :])
    bob.wait("!!a.view && a.role === 'player' && a.seat === 1")
    winner_chooses((ana, bob), "#lag-break")
    ana.wait("a.view.status === 'playing' && !!a.table")
    ana.idle()
    ana.page.click("#panel-toggle")  # (the menu is in the sheet)
    concede(ana, "game")
    ana.page.locator("#result-dialog.between").wait_for(state="visible")
    ana.page.set_viewport_size({"width": SIDEWAYS[0], "height": SIDEWAYS[1]})
    ana.page.wait_for_function("!window.ninepool.portrait()")
    ana.page.locator("#result-next").wait_for(state="visible")
    save(ana, "phone-result-long-names-sideways.png")
    broken: list[str] = ana.page.evaluate(
        """(() => { const text = document.getElementById('result-title').firstChild;
             const out = [];
             for (const m of text.textContent.matchAll(/[^\\s-]+/g)) {
               const r = document.createRange();
               r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
               const lines = new Set([...r.getClientRects()].map((q) => Math.round(q.top)));
               if (lines.size > 1) out.push(m[0]);
             }
             return out; })()"""
    )
    assert broken == [], broken
    assert LONG_NAMES[1] in ana.page.inner_text("#result-title")
    card = box(ana, "#result-dialog")
    for part in ("#result-title", "#result-next", "#result-close"):
        inside = box(ana, part)
        assert (
            inside["x"] >= card["x"]
            and inside["x"] + inside["width"] <= card["x"] + card["width"] + 1
        )
    # The next game's line whole above the buttons, with nothing to scroll.
    assert ana.page.evaluate("document.getElementById('result-dialog').scrollTop") == 0
    next_line = box(ana, "#result-next")
    assert next_line["y"] + next_line["height"] <= box(ana, "#result-dialog .row")["y"] + 1
    assert ana.page.is_hidden("#result-score")
    # Its button is on the screen above the sheet's bar.
    bar = box(ana, "#panel-toggle")
    assert box(ana, "#result-close")["y"] + box(ana, "#result-close")["height"] <= bar["y"] + 1
    assert_quiet(ana, bob)


def test_on_a_phone_a_chat_message_is_shown_for_a_moment_over_the_sheets_bar(
    open_client: OpenClient,
) -> None:
    """A message came to a phone as a red "1" on the sheet's toggle, which went unnoticed.
    It shows for a moment on one line over the bar (the count stays), takes no tap from
    the table under it, and not while the sheet is open, where the chat is in sight."""
    ana, bob, _ = started(open_client, host={"lang": "hr"}, guest={**PHONE, "lang": "hr"})
    ana.page.fill("#chat-input", "Lijep udarac maloprije! Sretno u nastavku, vidimo se za stolom")
    ana.page.press("#chat-input", "Enter")
    pop = bob.page.locator("#chat-pop")
    pop.wait_for(state="visible")
    assert pop.inner_text().startswith("Ana: Lijep udarac")
    box, bar = pop.bounding_box(), bob.page.locator("#panel-toggle").bounding_box()
    assert box is not None and bar is not None
    assert box["height"] < 36 and box["y"] + box["height"] <= bar["y"], (box, bar)
    assert (
        bob.page.evaluate("getComputedStyle(document.getElementById('chat-pop')).pointerEvents")
        == "none"
    )
    assert bob.page.inner_text("#panel-badge") == "1"
    save(bob, "phone-chat-pop.png")
    pop.wait_for(state="hidden", timeout=8_000)
    bob.page.locator("#panel-toggle").tap()
    bob.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    ana.page.fill("#chat-input", "Još jedna")
    ana.page.press("#chat-input", "Enter")
    bob.page.wait_for_function("window.ninepool.app.chatLines.length === 2")
    bob.page.wait_for_timeout(300)
    assert bob.page.is_hidden("#chat-pop")
    assert_quiet(ana, bob)
