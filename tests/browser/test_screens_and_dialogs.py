"""What a first-time player met on a phone and on a laptop screen: the scoreboard's tags kept
inside their seat, the More menu inside the window, the shot clock never showing more than the
turn's time, a sign-up form that starts from the name typed in the lobby and says its rules, a
push-out chosen on the table itself on a phone, a two-foul warning that leaves a phone's table
clear once said, and a finished match's rematch offered on a phone's table."""

from __future__ import annotations

import math
import re
from typing import Any

import pytest

from tests.browser.support import Client, Server, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    pull_strip,
    replay_events,
    settle,
    shoot_at_lowest,
    shooter,
)
from tests.browser.test_firstminute import (
    PHONE,
    OpenClient,
    Touch,
    aim_at,
    host_and_guest,
    play_the_lag,
    started,
)
from tests.browser.test_phone_targets import aim_clear_of_the_chip, push_out_offered, warned_soon
from tests.browser.test_watching import concede

LAPTOP = {"width": 1366, "height": 768}


def inside(inner: dict[str, float], outer: dict[str, float], slack: float = 1.0) -> bool:
    return (
        inner["x"] >= outer["x"] - slack
        and inner["y"] >= outer["y"] - slack
        and inner["x"] + inner["width"] <= outer["x"] + outer["width"] + slack
        and inner["y"] + inner["height"] <= outer["y"] + outer["height"] + slack
    )


def boxes(c: Client, selector: str) -> list[dict[str, float]]:
    """The elements' boxes read at one moment (the scoreboard is drawn anew every second:
    read one by one, an element may be gone before its box is read)."""
    found: list[dict[str, float]] = c.page.evaluate(
        """(selector) => [...document.querySelectorAll(selector)].map((e) => {
            const r = e.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
        })""",
        selector,
    )
    return found


@pytest.mark.parametrize("screen", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_scoreboard_tags_stay_in_their_seat_in_russian(
    open_client: OpenClient, screen: dict[str, Any]
) -> None:
    ana, bob, _ = started(
        open_client,
        host={**screen, "lang": "ru"},
        table={"#c-preset": "custom", "#c-clock": "60"},
    )
    # The breaker's card carries the longest tags ("биток с руки, за передней линией",
    # "осталось 1 продление").
    for c in (ana,):
        c.page.wait_for_timeout(300)
        seats = boxes(c, "#table-view .scoreboard .seat")
        assert len(seats) == 2
        left, right = seats
        assert left["x"] + left["width"] <= right["x"] + 1, seats
        for s, seat in enumerate(seats):
            for tag in boxes(c, f"#table-view .scoreboard .seat{s} .tag"):
                # (a tag the layout leaves out, as a phone does the break's "breaks", has no box)
                assert not tag["width"] or inside(tag, seat), (s, tag, seat)
            (score,) = boxes(c, f"#table-view .scoreboard .seat{s} .score")
            assert inside(score, seat), (s, score, seat)
    assert_quiet(ana, bob)


def test_on_a_phone_the_table_stays_put_from_turn_to_turn(open_client: OpenClient) -> None:
    """The seats' tags change with the turn (to shoot, ball in hand, the extensions): the
    scoreboard keeps its height, so the table and the aim point under a finger stay put."""
    ana, bob, _ = started(
        open_client,
        host={**PHONE, "lang": "hr"},
        guest={**PHONE, "lang": "hr"},
        table={"#c-preset": "custom", "#c-clock": "60"},
    )
    top = "document.getElementById('table').getBoundingClientRect().top"
    tops = {ana.page.evaluate(top)}
    for _ in range(3):  # a foul each in turn: ball in hand goes from one seat to the other
        c = shooter((ana, bob))
        cue = c.state("a.table.balls[0]")
        click_table(c, max(0.05, cue[0] - 0.3), cue[1])  # softly into the head rail (R8)
        pull_strip(c, 8)
        settle(ana, bob)
        ana.page.wait_for_timeout(1100)  # the seats are drawn anew every second
        tops.add(ana.page.evaluate(top))
    assert len(tops) == 1, tops
    assert_quiet(ana, bob)


def test_the_more_menu_opens_inside_a_laptop_window(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client, host=LAPTOP, guest=LAPTOP)
    for c in (ana, bob):
        c.page.click("#more summary")
        # (placed on the details' `toggle`, a task after the click: read once it has run)
        c.page.evaluate("new Promise((r) => setTimeout(() => requestAnimationFrame(r), 0))")
        menu = c.page.locator("#more .more-menu").bounding_box()
        assert menu is not None
        assert menu["y"] >= 0 and menu["y"] + menu["height"] <= 768, menu
        # Its last item (leaving the table) takes the first click.
        c.page.click("#leave")
        c.page.locator("#leave-dialog").wait_for(state="visible")
        c.page.keyboard.press("Escape")
    assert_quiet(ana, bob)


def clock_seconds(c: Client) -> int | None:
    text = c.page.inner_text("#clock")
    found = re.search(r"(\d+):(\d\d)", text)
    return None if found is None else int(found[1]) * 60 + int(found[2])


def test_the_clock_never_shows_more_than_the_turns_time(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client, table={"#c-preset": "custom", "#c-clock": "30"})
    breaker = ana if ana.state("a.table.turn === a.seat") else bob
    aim_at(breaker, 1)
    breaker.page.click("#shoot")
    # While the shot plays the next turn's clock waits, read as a clock reads ("0:30").
    other = bob if breaker is ana else ana
    waiting = other.page.wait_for_function(
        "window.ninepool.app.anim && window.ninepool.app.anim.playbacks.length"
        " && document.getElementById('clock').textContent"
    ).json_value()
    assert re.fullmatch(r"\d+:\d\d", waiting), waiting
    settle(ana, bob)
    # The deadline holds the server's estimate of the break's playing time; the pages
    # played it sixteen times faster, so the raw deadline is well beyond the turn's time.
    for c in (ana, bob):
        seconds = c.state("a.table.clock.seconds")
        ahead = c.state("(a.table.clock.deadline - a.serverNow()) / 1000")
        assert ahead > seconds, (ahead, seconds)
        for _ in range(5):
            shown = clock_seconds(c)
            assert shown is not None and shown <= seconds, (c.page.inner_text("#clock"), seconds)
            c.page.wait_for_timeout(200)
    assert_quiet(ana, bob)


def test_sign_up_starts_from_the_lobby_name_and_states_the_rules(
    open_client: OpenClient,
) -> None:
    marko = open_client("Gost", lang="hr")
    marko.page.wait_for_function("window.ninepool && window.ninepool.app.welcome")
    marko.page.fill("#name", "Marko Horvat")
    marko.page.click("#account-open")
    marko.page.locator("#account-dialog").wait_for(state="visible")
    field = marko.page.locator("#account-name")
    assert field.input_value() == "Marko Horvat"
    # Selected: what the player types replaces it.
    marko.page.keyboard.type("Marko")
    assert field.input_value() == "Marko"
    rules = marko.page.inner_text("#account-rules")
    assert "od 3 do 20" in rules and "8" in rules and "lozinka" in rules
    # A password too short is refused in the page's words (not the browser's): nothing sent.
    sent: list[str] = []
    marko.page.on("request", lambda r: sent.append(r.url) if "/api/" in r.url else None)
    marko.page.fill("#account-password", "kratko")
    marko.page.click("#account-login")
    marko.page.wait_for_function("document.getElementById('account-error').textContent !== ''")
    too_short = "Lozinka je prekratka: treba imati najmanje 8 znakova."
    assert marko.page.inner_text("#account-error") == too_short
    assert (
        marko.page.evaluate("document.getElementById('account-password').validationMessage")
        == too_short
    )
    assert sent == []
    assert_quiet(marko)


def test_a_name_typed_in_the_lobby_is_the_name_at_once(open_client: OpenClient) -> None:
    """The top bar takes a changed name when the field is left, not only once a table is
    made; the server hears it when the guest sits down; a name the rules refuse changes
    nothing."""
    ivo = open_client("Ivo", lang="hr")
    ivo.page.wait_for_function("window.ninepool && window.ninepool.app.welcome")
    assert ivo.page.inner_text("#me") == "Ivo"
    ivo.page.fill("#name", "Ivo Kovač")
    ivo.page.keyboard.press("Tab")
    ivo.page.wait_for_function("document.getElementById('me').textContent === 'Ivo Kovač'")
    ivo.page.fill("#name", "Ivo!!")
    ivo.page.keyboard.press("Tab")
    ivo.page.wait_for_selector("#toast:not([hidden])")
    assert ivo.page.inner_text("#toast").startswith("Ime ima od 3 do 20")
    assert ivo.page.inner_text("#me") == "Ivo Kovač"
    # Sitting down says the last good name to the server, and the table shows it.
    ivo.page.fill("#name", "Ivo Kovač")
    ivo.page.click("#computer")
    ivo.wait("a.room !== null && a.welcome.name === 'Ivo Kovač'")
    ivo.page.wait_for_function(
        "document.getElementById('me').textContent === 'Igrate kao Ivo Kovač'"
    )


def test_the_invite_code_example_is_readable_whole_on_a_phone(open_client: OpenClient) -> None:
    """The invite code's example ("например, Q7K2MX…") is not cut off by the buttons
    beside the field on a narrow phone, in the longest of the three languages."""
    for lang in ("ru", "hr"):
        phone = open_client("Pavel", width=360, height=740, dpr=2, touch=True, lang=lang)
        phone.page.wait_for_function("window.ninepool && window.ninepool.app.welcome")
        room_for_example = phone.page.evaluate(
            """(() => {
              const input = document.getElementById('join-code');
              const style = getComputedStyle(input);
              const ctx = document.createElement('canvas').getContext('2d');
              ctx.font = style.font;
              const inner = input.clientWidth - parseFloat(style.paddingLeft)
                - parseFloat(style.paddingRight);
              return inner - ctx.measureText(input.placeholder).width;
            })()"""
        )
        assert room_for_example >= 0, (lang, room_for_example)
        # The ways elsewhere keep their words on one line ("Stol za vježbu" took three).
        join = phone.page.locator("#join-code-form button[type=submit]").bounding_box()
        for way in ("#practice", "#tournaments", "#tv-link"):
            box = phone.page.locator(way).bounding_box()
            assert join is not None and box is not None
            assert box["height"] <= join["height"] + 2, (lang, way, box, join)
        assert phone.page.evaluate("document.documentElement.scrollWidth") <= 360
        save(phone, f"lobby-invite-code-{lang}.png")


def test_an_invite_link_pasted_into_the_code_field_seats_or_lets_watch(
    open_client: OpenClient,
) -> None:
    """A friend given the whole link pastes it where the lobby asks for a code: "Join"
    follows it to the seat, "Watch" watches that table; anything else gets the words."""
    ana = open_client("Ana")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    link = ana.page.input_value("#invite-link")
    room = ana.state("a.room")
    eve = open_client("Eve", lang="ru")
    eve.page.fill("#join-code", "not a code")
    eve.page.click("#join-code-watch")
    eve.page.wait_for_selector("#toast:not([hidden])")
    assert "можно вставить и всю ссылку" in eve.page.inner_text("#toast")
    eve.page.fill("#join-code", link)
    eve.page.click("#join-code-watch")
    eve.wait(f"a.room === {room!r} && a.role === 'spectator'")
    ivo = open_client("Ivo", lang="hr")
    ivo.page.fill("#join-code", f"  {link} ")
    ivo.page.click("#join-code-form button[type=submit]")
    ivo.wait(f"a.room === {room!r} && a.role === 'player' && a.seat === 1")
    ana.wait("!!a.view.seats[1] && a.view.seats[1].name === 'Ivo'")
    assert_quiet(ana, eve, ivo)


def test_a_phone_on_its_side_shows_the_lag_button_and_a_readable_scoreboard(
    open_client: OpenClient,
) -> None:
    ana = open_client("Ana", width=844, height=390, dpr=2, touch=True, lang="ru")
    ana.page.wait_for_function("window.ninepool && window.ninepool.app.welcome")
    ana.page.tap("#computer")
    ana.wait("a.view && a.view.status === 'lag'")
    ana.page.wait_for_selector("#lag-controls:not([hidden])")
    card = ana.page.locator("#lag-controls").bounding_box()
    button = ana.page.locator("#lag-shoot").bounding_box()
    assert card is not None and button is not None
    assert inside(button, card) and button["y"] + button["height"] <= 390, (button, card)
    # The middle of the scoreboard keeps clear of both seats.
    middle = ana.page.locator("#table-view .scoreboard .match-info").bounding_box()
    seats = boxes(ana, "#table-view .scoreboard .seat")
    assert middle is not None
    assert seats[0]["x"] + seats[0]["width"] <= middle["x"] + 1, (seats, middle)
    assert middle["x"] + middle["width"] <= seats[1]["x"] + 1, (seats, middle)
    # The button takes a tap: the lag is played.
    ana.page.tap("#lag-shoot")
    ana.wait("a.lagSent || a.view.status === 'playing' || a.view.lag_choice !== null")
    assert_quiet(ana)


def test_a_game_result_counts_down_to_the_break_and_then_the_clock_starts(
    open_client: OpenClient,
) -> None:
    """A game's result stays up through the pause between games (`--rack-pause`, 6 s),
    counting down and naming the breaker; the break's clock stands at the turn's time
    meanwhile and starts when the result closes itself."""
    ana, bob, _ = started(
        open_client, guest={"lang": "hr"}, table={"#c-preset": "custom", "#c-clock": "30"}
    )
    concede(bob, "game")
    # The breaker reads "you break", the other player the breaker's name.
    lines = (
        (ana, r"Next game in (\d) s: you break\.", r"Next game in (\d) s: Bob breaks\."),
        (
            bob,
            r"Sljedeća partija za (\d) s: otvarate vi\.",
            r"Sljedeća partija za (\d) s: otvara Ana\.",
        ),
    )
    first: list[int] = []
    for c, mine, theirs in lines:
        c.page.locator("#result-next").wait_for(state="visible")
        breaker = c.state("a.table.breaker")
        pattern = mine if breaker == c.state("a.seat") else theirs
        found = re.fullmatch(pattern, c.page.inner_text("#result-next"))
        assert found is not None, (pattern, c.page.inner_text("#result-next"))
        assert 1 <= int(found[1]) <= 6
        first.append(int(found[1]))
        assert clock_seconds(c) == 30  # the break's clock stands while the result shows
    save(ana, "rack-pause-en.png")
    save(bob, "rack-pause-hr.png")
    ana.page.wait_for_timeout(1600)
    later = re.search(r"\d", ana.page.inner_text("#result-next"))
    assert later is not None and int(later[0]) < first[0]
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="hidden", timeout=10_000)
        # The breaker's ring pulses once the result has gone (it pulsed its time under it).
        breaker = c.state("a.table.turn === a.seat")
        c.page.wait_for_function("(b) => !b || !window.ninepool.overlay().calm", arg=breaker)
        # Closed no sooner than the pause's end, when the server starts the break's clock.
        starts = c.state("a.table.clock.deadline - a.table.clock.seconds * 1000")
        assert c.state("a.serverNow()") >= starts - 300
        c.page.wait_for_function(
            "() => /0:2\\d/.test(document.querySelector('#clock').textContent)", timeout=5_000
        )
    assert_quiet(ana, bob)


def test_the_computer_is_named_in_russian_and_plays_without_a_clock(
    open_client: OpenClient,
) -> None:
    """A game against the computer from the lobby: the computer's name is the reader's
    ("Бот 2"), and no shot clock runs (the quick match's clock is for strangers)."""
    ana = open_client("Ana", lang="ru")
    ana.page.select_option("#computer-level", "2")
    ana.page.click("#computer")
    ana.page.wait_for_selector("#table-view:not([hidden])")
    ana.wait("a.view && a.view.seats[1] && a.view.seats[1].computer === 2")
    assert ana.page.inner_text("#seat1 .name") == "Бот 2"
    assert "компьютер · уровень 2" in ana.page.inner_text("#seat1")
    assert ana.state("a.view.settings.shot_clock") is None
    line = ana.page.inner_text("#format-line")
    assert "Любительский" in line and "без ограничения времени" in line, line
    ana.wait("a.view.status === 'lag'")
    assert ana.page.is_hidden("#clock") or ana.page.inner_text("#clock").strip() == ""
    assert_quiet(ana)


def test_a_pull_begun_low_on_the_strip_shoots_at_the_power_it_showed(
    open_client: OpenClient, server: Server
) -> None:
    """A finger may take hold of the strip's cue low down: the pull is measured from where
    the finger went down, while pulling and on letting go alike (it once shot from the
    strip's top on letting go: full power)."""
    ana, bob, room = started(open_client, host=PHONE, guest=PHONE)
    c = ana if ana.state("a.table.turn === a.seat") else bob
    # The help teaches the phone's way: the strip, no Shift or keys.
    help_text = c.page.text_content("#power-help") or ""
    assert "strip at the right edge" in help_text and "Shift" not in help_text, help_text
    aim_at(c, 1)
    box = c.page.locator("#strip-track").bounding_box()
    assert box is not None
    x, top = box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.55
    pull = box["height"] * 0.9 * 0.3  # 30 % of the strip's travel
    finger = Touch(c)
    finger.send("touchStart", x, top)
    for k in range(1, 7):
        c.page.wait_for_timeout(60)
        finger.send("touchMove", x, top + pull * k / 6)
    c.page.wait_for_timeout(100)
    shown = c.page.inner_text("#strip-out")
    speed = c.page.inner_text("#strip-speed")
    power = c.state("a.aim.power")
    assert abs(power - 0.3) < 0.02, (power, shown)
    shots = sum(1 for e in replay_events(server, room) if e["t"] == "shot_result")
    finger.send("touchEnd")
    settle(ana, bob)
    results = [e for e in replay_events(server, room) if e["t"] == "shot_result"]
    assert len(results) == shots + 1
    sent = results[-1]["shot"]["speed"]
    assert f"{sent:.2f}" == speed.split()[0], (sent, speed, shown)
    assert abs(c.state("a.aim.power") - power) < 0.005
    assert_quiet(ana, bob)


def test_a_computer_players_name_is_refused_and_a_fresh_one_given(
    open_client: OpenClient,
) -> None:
    """A guest who comes as "Бот 2" (a computer player's name as the Russian page words
    it) is told in Russian that the name is taken and plays under a fresh default name."""
    ivan = open_client("Бот 2", lang="ru")
    ivan.page.wait_for_selector("#conn.conn-online")
    ivan.page.locator("#toast").wait_for(state="visible")
    assert ivan.page.inner_text("#toast").startswith("Это имя занято")
    name = ivan.page.input_value("#name")
    assert re.fullmatch(r"Игрок-\d{4}", name), name
    assert ivan.state("a.welcome.name") == name
    # The refused hello is the only thing the console may mention.
    assert [p for p in ivan.problems() if "name_taken" not in p] == []


def test_on_a_phone_the_result_buttons_stack_and_a_rematch_closes_the_sheet(
    open_client: OpenClient,
) -> None:
    """The match's result on a phone: its buttons one above the other, each the dialog's
    width (a label never wraps in a squeezed button). Rematch from the sheet's menu: the
    sheet makes way for the new match's lag on the table."""
    ana, bob, _ = started(open_client, host={**PHONE, "lang": "ru"}, guest=PHONE)
    bob.page.tap("#panel-toggle")  # on a phone the menu is in the sheet
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    buttons = ana.page.locator("#result-dialog .row > :visible")
    boxes = [b for b in (buttons.nth(i).bounding_box() for i in range(buttons.count())) if b]
    assert len(boxes) >= 2
    assert len({round(b["x"]) for b in boxes}) == 1, boxes  # one column
    assert len({round(b["width"]) for b in boxes}) == 1, boxes  # one width
    assert all(b["height"] < 60 for b in boxes), boxes  # one line each
    save(ana, "result-phone-ru.png")
    ana.page.tap("#result-close")
    ana.page.tap("#panel-toggle")
    assert ana.state("document.documentElement.classList.contains('panel-open')")
    ana.page.tap("#more summary")
    ana.page.tap("#rematch")
    ana.wait("!document.documentElement.classList.contains('panel-open')")
    bob.page.locator("#result-dialog").wait_for(state="visible")
    bob.page.tap("#result-rematch")
    for c in (ana, bob):
        c.wait("!!a.view && a.view.status !== 'finished'", timeout=20_000)
    assert not bob.state("document.documentElement.classList.contains('panel-open')")
    assert_quiet(ana, bob)


def test_on_a_phone_the_lag_winners_question_leaves_the_lag_balls_in_view(
    open_client: OpenClient,
) -> None:
    """Upright on a phone the lag balls rest near the bottom (the head cushion): the lag
    winner's question stands at the top, and neither ball is under it."""
    ana, bob, _ = host_and_guest(open_client, host=PHONE, guest=PHONE, first_break="lag")
    play_the_lag((ana, bob), finger=True)
    for c in (ana, bob):
        c.wait("a.view && a.view.status === 'lag' && a.view.lag_choice != null")
        c.idle()
    winner = (ana, bob)[ana.state("a.view.lag_choice")]
    dialog = winner.page.locator("#lag-dialog")
    dialog.wait_for(state="visible")
    box = dialog.bounding_box()
    assert box is not None
    balls = winner.page.evaluate(
        "window.ninepool.app.lagBalls.map(l => window.ninepool.screenOf(l.pos[0], l.pos[1]))"
    )
    assert len(balls) == 2, balls
    for x, y in balls:
        inside = (
            box["x"] <= x <= box["x"] + box["width"] and box["y"] <= y <= box["y"] + box["height"]
        )
        assert not inside, (balls, box)
    save(winner, "lag-choice-phone.png")
    assert_quiet(ana, bob)


def test_on_a_phone_the_push_out_is_on_the_table(open_client: OpenClient) -> None:
    """The shot after the break may be a push-out (R6): on a phone the choice is a button
    on the table, lit while armed, not only a box in the closed sheet."""
    ana, bob, pusher, other = push_out_offered(open_client)
    chip = pusher.page.locator("#push-chip")
    chip.wait_for(state="visible")
    assert other.page.locator("#push-chip").is_hidden()
    # No ball lies under the chip: on the near rail, or the far one when a ball is there.
    box = chip.bounding_box()
    assert box is not None
    under = pusher.page.evaluate(
        "window.ninepool.app.table.balls.filter(Boolean)"
        ".map(b => window.ninepool.screenOf(b[0], b[1]))"
    )
    for x, y in under:
        assert not (
            box["x"] - 12 < x < box["x"] + box["width"] + 12
            and box["y"] - 12 < y < box["y"] + box["height"] + 12
        ), (x, y, box, chip.get_attribute("class"))
    assert not pusher.state("document.documentElement.classList.contains('panel-open')")
    assert chip.get_attribute("aria-pressed") == "false"
    chip.tap()
    assert chip.get_attribute("aria-pressed") == "true"
    assert pusher.page.is_checked("#pushout")
    # The prompt says what the shot now is (Ana reads English, Bob Croatian), whatever
    # ball the line meets first: a push-out need hit none (no "wrong ball" warning).
    table = pusher.state("a.table")
    other_ball = next(n for n in range(1, 10) if table["balls"][n] and n != table["lowest"])
    click_table(pusher, *table["balls"][other_ball])
    assert pusher.state("a.wrongBall") is None
    prompt = pusher.page.inner_text("#status")
    assert "Push-out: no ball need be hit" in prompt or "Push out: bijela ne mora" in prompt
    save(pusher, "push-out-phone.png")
    aim_clear_of_the_chip(pusher)  # (a click on the chip would take the push-out back)
    assert chip.get_attribute("aria-pressed") == "true"
    pull_strip(pusher, 12)
    settle(ana, bob)
    other.page.locator("#choice-dialog").wait_for(state="visible")
    assert chip.is_hidden()
    # The choice is about the table: over the status box, never over the position being
    # chosen — held upright a strip above the table, its two answers side by side; held
    # sideways (a 2:1 phone) the column left of the table, one answer above the other.
    for size in ({"width": 390, "height": 844}, {"width": 844, "height": 390}):
        other.page.set_viewport_size(size)
        other.page.wait_for_timeout(200)
        dialog = other.page.locator("#choice-dialog").bounding_box()
        table = other.page.locator("#table").bounding_box()
        shoot = other.page.locator("#choose-shoot").bounding_box()
        pass_back = other.page.locator("#choose-pass").bounding_box()
        assert dialog and table and shoot and pass_back
        if size["width"] < size["height"]:
            assert dialog["y"] + dialog["height"] <= table["y"] + 2, (size, dialog, table)
            assert round(shoot["y"]) == round(pass_back["y"]), (shoot, pass_back)
        else:
            assert dialog["x"] + dialog["width"] <= table["x"] + 2, (size, dialog, table)
            assert shoot["y"] + shoot["height"] <= pass_back["y"] + 1, (shoot, pass_back)
            assert pass_back["y"] + pass_back["height"] <= dialog["y"] + dialog["height"]
        # Either way it says what the answers do (sideways it said only the title).
        assert other.page.locator("#choice-text").is_visible(), size
        save(other, f"push-out-choice-phone-{size['width']}.png")
    assert_quiet(ana, bob)


def test_on_a_phone_the_two_foul_warning_is_said_then_leaves_the_table_clear(
    open_client: OpenClient,
) -> None:
    """Over a phone's table a banner covers cloth and pockets (a side pocket, held
    sideways): the R13 warning shows, then fades; the seat's tag keeps saying it."""
    ana, bob, _ = started(open_client, host={**PHONE, "lang": "hr"}, guest={**PHONE, "lang": "ru"})
    bob.page.set_viewport_size({"width": PHONE["height"], "height": PHONE["width"]})
    for _ in range(3):
        c = shooter((ana, bob))
        cue = c.state("a.table.balls[0]")
        click_table(c, max(0.05, cue[0] - 0.3), cue[1])
        pull_strip(c, 8)
        settle(ana, bob)
    for c in (ana, bob):
        c.page.locator("#banner").wait_for(state="visible")
        # The two-foul warning (R13); a phone shows its words, not the rule's id.
        assert "R13" in (c.page.text_content("#banner") or "")
        assert c.page.is_hidden("#banner .rule")
    save(bob, "two-fouls-landscape-ru.png")
    # Held sideways the scoreboard is one row: each seat's tags stay inside its seat,
    # clear of the middle column, however many there are.
    overlap = bob.page.evaluate(
        """(() => {
          const box = (el) => el.getBoundingClientRect();
          const mid = box(document.querySelector('.scoreboard .match-info'));
          const out = [];
          for (const id of ['seat0', 'seat1']) {
            const seat = box(document.getElementById(id));
            if (seat.right > mid.left && seat.left < mid.right) out.push(id + ' meets the middle');
            const score = box(document.querySelector('#' + id + ' .score'));
            for (const tag of document.querySelectorAll('#' + id + ' .tag')) {
              const t = box(tag);
              if (t.left < seat.left - 1 || t.right > seat.right + 1) out.push(tag.textContent);
              const onScore = t.right > score.left && t.left < score.right;
              if (onScore) out.push(tag.textContent + ' on the score');
            }
          }
          return out;
        })()"""
    )
    assert overlap == []
    for c in (ana, bob):
        c.page.wait_for_function(
            "getComputedStyle(document.getElementById('banner')).opacity === '0'",
            timeout=10_000,
        )
    # Faded, the banner leaves its mark on the seat: the count in a row, and the sign.
    assert "⚠ 2 фола подряд" in bob.page.inner_text(".scoreboard")
    assert "⚠ 2 faula zaredom" in ana.page.inner_text(".scoreboard")
    save(ana, "two-fouls-faded-phone-hr.png")
    assert_quiet(ana, bob)


def test_on_a_phone_the_sheet_makes_way_for_the_last_shot_and_a_new_table(
    open_client: OpenClient,
) -> None:
    # Bob's page plays at twice real time (the default): the replay still rolls when looked at.
    ana, bob, _ = started(open_client, host=PHONE, guest={**PHONE, "lang": "ru", "rate": 2})
    shoot_at_lowest(shooter((ana, bob)), 95)
    settle(ana, bob)
    sheet_open = "document.documentElement.classList.contains('panel-open')"
    bob.page.tap("#panel-toggle")
    assert bob.state(sheet_open)
    # Open, its handle says how to get back to the table.
    handle = bob.page.inner_text("#panel-toggle")  # ("▾ Ваш удар — назад к столу" on his turn)
    assert handle.startswith("▾") and "назад к столу" in handle.lower(), handle
    bob.page.tap("#more summary")
    bob.page.tap("#replay-last")
    # The replay plays on the table, not behind the sheet.
    assert not bob.state(sheet_open)
    assert bob.page.evaluate("window.ninepool.animating()")
    # The shot replayed is its shooter's, whoever's turn it is now: the tag and the prompt.
    seat = bob.state("a.lastShot.shooter")
    assert bob.page.locator(f"#seat{seat} .tag.turn").count() == 1
    assert bob.page.locator(f"#seat{1 - seat} .tag.turn").count() == 0
    name = bob.state(f"a.view.seats[{seat}].name")
    assert f"Повтор последнего удара ({name})…" in bob.page.inner_text(".prompt")
    bob.idle()
    bob.page.tap("#panel-toggle")
    bob.page.tap("#more summary")
    bob.page.tap("#leave")
    bob.page.locator("#leave-dialog").wait_for(state="visible")
    bob.page.tap("#leave-confirm")
    bob.page.locator("#lobby").wait_for(state="visible")
    assert not bob.state(sheet_open)
    assert_quiet(ana, bob)


def test_on_a_phone_a_finished_match_offers_the_rematch_on_the_table(
    open_client: OpenClient,
) -> None:
    """The result's Rematch is gone once the dialog is closed, and a reload shows no
    result at all: the table itself offers it, not only the closed sheet's menu."""
    ana, bob, _ = started(open_client, host={**PHONE, "lang": "hr"}, guest=PHONE)
    bob.page.tap("#panel-toggle")
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    assert ana.page.is_hidden("#over-controls")  # the dialog offers it meanwhile
    # Conceded before the break: no replay of a game in which nothing was played; the
    # keys land on the rematch.
    assert ana.page.is_hidden("#result-replay")
    assert ana.page.evaluate("document.activeElement.id") == "result-rematch"
    ana.page.tap("#result-close")
    card = ana.page.locator("#over-controls")
    card.wait_for(state="visible")
    ana.page.reload()
    ana.page.wait_for_selector("#conn.conn-online")
    card.wait_for(state="visible")
    assert ana.page.inner_text("#over-rematch") == "Revanš"
    save(ana, "rematch-card-phone-hr.png")
    ana.page.tap("#over-rematch")
    ana.page.wait_for_function("document.getElementById('over-rematch').disabled")
    bob.page.locator("#result-rematch").click()
    for c in (ana, bob):
        c.wait("!!a.view && a.view.status !== 'finished'", timeout=20_000)
    assert ana.page.is_hidden("#over-controls")
    assert_quiet(ana, bob)


def test_on_a_phone_the_fine_aim_buttons_turn_the_cue_a_tenth_the_way_they_show(
    open_client: OpenClient,
) -> None:
    """A finger has no Shift: ↷ turns the cue 0.1° clockwise as seen on the screen, ↶ the
    other way, and held it keeps turning."""
    ana, bob, _ = started(open_client, host={**PHONE, "lang": "ru"}, guest={**PHONE, "lang": "ru"})
    c = shooter((ana, bob))
    c.page.locator("#aim-clockwise").wait_for(state="visible")
    assert c.page.get_attribute("#aim-clockwise", "aria-label") == (
        "Повернуть прицел на 0,1° по часовой стрелке (удерживайте, чтобы продолжать)"
    )
    cue = c.state("a.table.balls[0]")

    def on_screen(angle: float) -> tuple[float, float]:
        x0, y0 = c.page.evaluate(f"window.ninepool.screenOf({cue[0]}, {cue[1]})")
        x1, y1 = c.page.evaluate(
            f"window.ninepool.screenOf({cue[0]} + Math.cos({angle}), {cue[1]} + Math.sin({angle}))"
        )
        return x1 - x0, y1 - y0

    before = c.state("a.aim.angle")
    c.page.tap("#aim-clockwise")
    after = c.state("a.aim.angle")
    assert abs(abs(after - before) - 0.1 * math.pi / 180) < 1e-9, (before, after)
    (bx, by), (ax, ay) = on_screen(before), on_screen(after)
    assert bx * ay - by * ax > 0  # clockwise on the screen (its y grows downward)
    # Held, ↶ turns on and on the other way.
    box = c.page.locator("#aim-anticlockwise").bounding_box()
    assert box is not None
    c.page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    c.page.mouse.down()
    c.page.wait_for_timeout(1000)
    c.page.mouse.up()
    held = c.state("a.aim.angle")
    (hx, hy) = on_screen(held)
    assert ax * hy - ay * hx < 0 and abs(held - after) > 0.5 * math.pi / 180, (after, held)
    save(c, "fine-aim-phone-ru.png")
    assert_quiet(ana, bob)


def test_the_clock_stops_for_everyone_while_the_shooter_is_away(
    open_client: OpenClient,
) -> None:
    """The shooter's connection goes (O5): the opponent's clock says it has stopped, with
    the time kept, and runs again from there when they are back — not down to 0:00."""
    ana, bob, _ = started(
        open_client, host=LAPTOP, guest=LAPTOP, table={"#c-preset": "custom", "#c-clock": "30"}
    )
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    other.page.wait_for_function("/\\d:\\d\\d/.test(document.getElementById('clock').textContent)")
    c.page.evaluate("window.ninepool.conn.close()")
    other.page.wait_for_function("document.getElementById('clock').textContent.includes('stopped')")
    stopped = other.page.inner_text("#clock")
    left = clock_seconds(other)
    assert left is not None and 0 < left <= 30, stopped
    other.page.wait_for_timeout(2000)
    assert other.page.inner_text("#clock") == stopped  # it does not run meanwhile
    c.page.evaluate("window.ninepool.conn.start()")
    c.page.wait_for_selector("#conn.conn-online")
    other.page.wait_for_function(
        "!document.getElementById('clock').textContent.includes('stopped')"
    )
    running = clock_seconds(other)
    assert running is not None and left - 2 <= running <= left, (left, running)
    # The shooter's own page, back, shows the same time as the opponent's, read together
    # (the page takes a moment to come back, and the clock runs meanwhile).
    c.page.wait_for_function("/\\d:\\d\\d/.test(document.getElementById('clock').textContent)")
    own, now = clock_seconds(c), clock_seconds(other)
    assert own is not None and now is not None and abs(own - now) <= 1, (own, now, running)
    assert_quiet(ana, bob)


def test_on_a_phone_the_warned_shooter_has_the_extension_on_the_table(
    open_client: OpenClient,
) -> None:
    """The clock's warning speaks to the shooter ("you"), who has the extension on the
    table itself, not two taps away in the closed sheet; used, it goes."""
    ana, bob = warned_soon(open_client)
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    chip = c.page.locator("#extend-chip")
    chip.wait_for(state="visible", timeout=10_000)
    # The warning comes at 20 s left; a busy machine reads it a few seconds late.
    own = re.match(r"Još (\d+) s za vaš udarac", c.page.inner_text("#banner"))
    assert own and 0 < int(own[1]) <= 20, c.page.inner_text("#banner")
    assert other.page.is_hidden("#extend-chip")
    theirs = re.match(f"{c.name}: još (\\d+) s za udarac", other.page.inner_text("#banner"))
    assert theirs and abs(int(theirs[1]) - int(own[1])) <= 2, other.page.inner_text("#banner")
    save(c, "extend-chip-phone-hr.png")
    before = c.state("a.table.clock.deadline")
    chip.tap()
    c.wait(f"a.table.clock.deadline > {before}")
    chip.wait_for(state="hidden")
    assert c.state("a.table.clock.extensions[a.seat]") == 0
    assert_quiet(ana, bob)


def test_on_a_phone_a_reload_does_not_count_chat_already_there_as_unread(
    open_client: OpenClient,
) -> None:
    """The sheet's badge counts chat that came while it was closed; the lines a reload
    brings back were there before it, and the badge stays clear."""
    ana, bob, _ = started(open_client, host=LAPTOP, guest=PHONE)
    for text in ("Bok!", "Sretno"):
        ana.page.fill("#chat-input", text)
        ana.page.press("#chat-input", "Enter")
        ana.page.wait_for_function("document.getElementById('chat-input').value === ''")
    bob.page.wait_for_function("document.getElementById('panel-badge').textContent === '2'")
    bob.page.reload()
    bob.wait("!!a.view && !!a.table && a.chatLines.length === 2")
    bob.page.wait_for_timeout(300)
    assert bob.page.is_hidden("#panel-badge"), bob.page.inner_text("#panel-badge")
    assert_quiet(ana, bob)


def test_a_first_time_visitor_by_an_invite_link_is_asked_their_name_first(
    open_client: OpenClient,
) -> None:
    """Someone who never chose a name in this browser opens a friend's invite link: asked
    their name (the one the server gave them offered) before the seat is taken, then
    seated under it, and not asked again."""
    ana = open_client("Ana")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    link = ana.page.input_value("#invite-link")
    newcomer = open_client("", lang="hr", hash=link[link.index("#") :])
    dialog = newcomer.page.locator("#name-dialog")
    dialog.wait_for(state="visible")
    assert newcomer.page.inner_text("#name-dialog-title") == "Vaše ime za stolom"
    assert newcomer.page.inner_text("#name-dialog-text").startswith("Ana vas poziva za svoj stol.")
    given = newcomer.page.input_value("#name-dialog-input")
    assert re.fullmatch(r"Igrač-\d{4}", given), given
    assert newcomer.state("a.room") is None  # not seated yet
    # Behind the question the lobby, not a table not yet joined (empty seats, race to 0).
    assert newcomer.page.is_visible("#lobby") and newcomer.page.is_hidden("#table-view")
    newcomer.page.fill("#name-dialog-input", "Marija")
    newcomer.page.click("#name-dialog button[value=sit]")
    newcomer.wait("a.role === 'player' && a.seat === 1 && a.welcome.name === 'Marija'")
    ana.wait("!!a.view.seats[1] && a.view.seats[1].name === 'Marija'")
    assert newcomer.page.evaluate("localStorage.getItem('ninepool.name')") == "Marija"
    assert newcomer.page.evaluate("localStorage.getItem('ninepool.nameAsked')") == "1"
    assert newcomer.page.is_visible("#table-view")
    # One join for one link: no "you are already at a table" after sitting down.
    newcomer.page.wait_for_timeout(500)
    assert newcomer.page.is_hidden("#toast"), newcomer.page.inner_text("#toast")
    assert_quiet(ana, newcomer)
