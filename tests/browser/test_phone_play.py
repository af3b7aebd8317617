"""What a first-time player met playing on a phone: the cue on the power strip pulled from
the top, header buttons a finger can hit, and a TV table drawn along
the phone's length."""

from __future__ import annotations

import re

from tests.browser.support import Client, Server, open_replay, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    drag_handle,
    foul_softly,
    pull_strip,
    replay_events,
    set_power,
    settle,
    shooter,
    start_match,
    winner_chooses,
)
from tests.browser.test_firstminute import (
    PHONE,
    OpenClient,
    Touch,
    aim_at,
    foul_softly_any,
    host_and_guest,
    play_the_lag,
    shots_sent,
    started,
)
from tests.browser.test_phone_targets import on_top, warned_soon
from tests.browser.test_watching import concede


def test_the_cue_on_the_strip_waits_at_the_top_and_the_pull_is_the_power(
    open_client: OpenClient, server: Server
) -> None:
    """At the break the cue waits at the top of the strip, the break's power marked further
    down. A newcomer puts a finger on the cue and pulls it most of the way: a firm break,
    the pull being the power (the cue was once drawn low at the break's power and a pull
    went on from there: a short pull was a hard shot, and before that a pull from the low
    cue started again from nothing and broke at 24 %). A press let go where it went down,
    a wobble, or a pull slid back up, shoots nothing and keeps the break's power."""
    ana, bob, room = started(
        open_client, host={**PHONE, "lang": "ru"}, guest={**PHONE, "lang": "ru"}
    )
    c = ana if ana.state("a.table.turn === a.seat") else bob
    aim_at(c, 1)
    before = c.state("a.aim.power")
    assert before > 0.8, before
    track = c.page.locator("#strip-track").bounding_box()
    cue = c.page.locator("#strip-cue").bounding_box()
    assert track is not None and cue is not None
    assert cue["y"] <= track["y"] + 8, "the cue waits at the top"
    mark = c.page.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('strip-track'), '::after').top)"
    )
    assert mark > track["height"] * 0.7, "the break's power is marked low on the strip"
    assert c.page.inner_text("#strip-out") == f"{round(before * 100)}\xa0%"
    x, y = track["x"] + track["width"] / 2, cue["y"] + 20
    finger = Touch(c)
    shots = shots_sent(server, room)
    # Held, not pulled, and let go: no shot, the power as it was.
    finger.send("touchStart", x, y)
    c.page.wait_for_timeout(360)
    finger.send("touchEnd")
    c.page.wait_for_timeout(300)
    assert shots_sent(server, room) == shots
    assert abs(c.state("a.aim.power") - before) < 0.005
    # Slid up the strip, wobbled a little, or pulled and slid back up, and let go: no shot.
    for moves in ((-0.2,), (0.02,), (0.3, 0.0)):
        finger.send("touchStart", x, y)
        for move in moves:
            for k in range(1, 4):
                c.page.wait_for_timeout(60)
                finger.send("touchMove", x, y + track["height"] * 0.9 * move * k / 3)
        c.page.wait_for_timeout(100)
        finger.send("touchEnd")
        c.page.wait_for_timeout(300)
        assert shots_sent(server, room) == shots, moves
        assert abs(c.state("a.aim.power") - before) < 0.005, moves
    # Pulled most of the way down: a firm break, the pull's power.
    pull = track["height"] * 0.9 * 0.88
    finger.send("touchStart", x, y)
    for k in range(1, 7):
        c.page.wait_for_timeout(60)
        finger.send("touchMove", x, y + pull * k / 6)
    c.page.wait_for_timeout(100)
    power = c.state("a.aim.power")
    assert abs(power - 0.88) < 0.02, (before, power)
    speed = c.page.inner_text("#strip-speed")
    save(c, "phone-strip-cue-pulled.png")
    other = bob if c is ana else ana
    # What the other table says while the break rolls, recorded as it changes (a break at
    # 16 times its pace can be over before a wait for it polls, on a loaded machine).
    other.page.evaluate(
        """() => { window.seenRolling = [];
          new MutationObserver(() => { if (window.ninepool.app.anim)
            window.seenRolling.push(document.getElementById('status').innerText); })
          .observe(document.getElementById('status'), { childList: true, subtree: true }); }"""
    )
    finger.send("touchEnd")
    # The break rolls: a finger skips it by tapping the table, as the prompt says; no
    # button covers the balls.
    # (read while it rolls, in one go: a break at 16 times its pace is over in half a second)
    seen = c.page.wait_for_function(
        "window.ninepool.app.anim ? [document.getElementById('skip').hidden,"
        " document.getElementById('status').innerText] : false"
    ).json_value()
    assert seen[0] is True, seen
    assert "Коснитесь стола, чтобы пропустить" in seen[1], seen
    # The shooter's own shot is theirs ("Вы бьёте…", read as it rolls); the other table
    # names them.
    assert seen[1].startswith("Вы бьёте…"), seen
    settle(ana, bob)
    rolling = other.page.evaluate("window.seenRolling")
    assert any(text.startswith(f"{c.name} ") for text in rolling), rolling
    results = [e for e in replay_events(server, room) if e["t"] == "shot_result"]
    assert len(results) == shots + 1
    sent = results[-1]["shot"]["speed"]
    assert f"{sent:.2f}" == speed.split()[0].replace(",", "."), (sent, speed)
    assert_quiet(ana, bob)


def test_a_watchers_result_is_a_notice_that_leaves_the_page_usable(
    open_client: OpenClient,
) -> None:
    """Someone watching on a phone opens the leaderboard while the match goes on; a rack
    ends. The result shows over the table without taking the page or the keys (it opened
    as a modal dialog over the leaderboard, focused its own button, and swallowed the
    next tap). The bar's buttons are a finger's size (they were 21 px tall)."""
    ana, bob, room = start_match(open_client)
    eve = open_client("Eve", **{**PHONE, "lang": "ru"}, hash=f"#/room/{room}")
    eve.wait("a.role === 'spectator' && !!a.view")
    eve.page.evaluate("location.hash = '#/'")
    eve.page.wait_for_selector("#lobby:not([hidden])")
    for sel in ("#leaders-open", "#account-open", "#lang", "#mute"):
        box = eve.page.locator(sel).bounding_box()
        assert box is not None and box["height"] >= 44, (sel, box)
    # The lobby's check boxes too (they were 13 px), their words part of the target.
    for sel in ("#c-private", "#c-rated"):
        box = eve.page.locator(sel).bounding_box()
        label = eve.page.locator(f"label:has({sel})").bounding_box()
        assert box is not None and box["height"] >= 22, (sel, box)
        assert label is not None and label["height"] >= 44, (sel, label)
    eve.page.evaluate(f"location.hash = '#/room/{room}'")
    eve.wait(f"a.role === 'spectator' && a.room === {room!r}")
    # Watching is stopped, not a table left; a player leaves the table.
    assert eve.page.text_content("#leave") == "Перестать смотреть"
    assert ana.page.text_content("#leave") == "Leave table"
    # The table stands upright on the upright phone, the scoreboard whatever it holds.
    assert eve.page.evaluate("window.ninepool.portrait()")
    eve.page.evaluate("document.getElementById('leaders-dialog').showModal()")
    eve.page.focus("#leaders-dialog button")
    concede(ana, "game")
    eve.page.locator("#result-dialog").wait_for(state="visible")
    assert eve.page.evaluate("document.querySelector('#result-dialog:modal') === null")
    assert eve.page.evaluate("document.getElementById('leaders-dialog').open")
    assert eve.page.evaluate("!!document.activeElement.closest('#leaders-dialog')")
    save(eve, "phone-watcher-result-notice.png")
    # The players' own results are still theirs to answer.
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
        assert c.page.evaluate("document.querySelector('#result-dialog:modal') !== null")
        assert c.page.evaluate("document.activeElement.id") == "result-close"
    assert_quiet(ana, bob, eve)


def test_the_replays_next_button_stays_under_the_finger(open_client: OpenClient) -> None:
    """Stepping through a replay on a phone, one tap after another on Next: the event's
    words take one line or four, and the buttons were under them, so Next moved between
    taps and a tap in the same place hit the words. The buttons stay put."""
    ana, bob, room = start_match(open_client)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    concede(ana, "game")
    eve = open_client("Eve", **{**PHONE, "lang": "hr"}, hash=f"#/replay/{room}")
    eve.page.wait_for_selector("#replay-view:not([hidden])")
    # The event's words are on the screen as it opens, under the buttons: below the fold
    # the balls moved and nothing said what happened.
    eve.page.wait_for_function("document.getElementById('r-pos').textContent !== ''")
    caption = eve.page.locator("#r-pos").bounding_box()
    assert caption is not None and caption["y"] + caption["height"] <= PHONE["height"], caption
    eve.page.locator("#r-next").scroll_into_view_if_needed()
    places, words = set(), set()
    for _ in range(12):
        box = eve.page.locator("#r-next").bounding_box()
        assert box is not None
        places.add(round(box["y"]))
        words.add(eve.page.locator("#r-pos").bounding_box()["height"])  # type: ignore[index]
        if eve.page.locator("#r-next").is_disabled():
            break
        eve.page.tap("#r-next")
    assert len(words) > 1, "the events' words took the same room throughout: no test"
    assert len(places) == 1, places
    assert_quiet(ana, bob, eve)


def test_the_lobby_shows_a_tables_score_on_a_phone(open_client: OpenClient) -> None:
    """The lobby's row of a match being played says its score and race on a phone too (it
    said only "playing")."""
    ana, bob, room = start_match(open_client)
    concede(ana, "game")
    eve = open_client("Eve", **{**PHONE, "lang": "hr"})
    score = eve.page.locator(f"tr[data-room='{room}'] td").nth(2)
    score.wait_for()
    eve.page.wait_for_function(
        f"document.querySelector(\"tr[data-room='{room}'] td:nth-child(3)\")"
        ".textContent.startsWith('0:1 (do\\u00a03)')"
    )
    # (the race's number never left alone at the start of a line: "(do" / "3)")
    assert score.is_visible()
    assert_quiet(ana, bob, eve)


def breaker_lowers_the_power(
    ana: Client, bob: Client, presses: int
) -> tuple[Client, Client, float]:
    """The breaker lowers the power by keys on the strip: (breaker, the waiting player,
    the waiting player's own power before)."""
    c = shooter((ana, bob))
    waiting = bob if c is ana else ana
    own = waiting.state("a.aim.power")
    c.page.focus("#strip-track")
    for _ in range(presses):
        c.page.keyboard.press("ArrowDown")
    return c, waiting, float(own)


def test_the_waiting_players_strip_shows_the_power_the_words_give(
    open_client: OpenClient,
) -> None:
    """While the opponent aims, the prompt gives their power; the waiting phone's strip
    showed its own player's instead. It shows the opponent's now, and the player's own
    power comes back with the turn."""
    ana, bob, _room = started(open_client, host=PHONE, guest=PHONE)
    # The breaker brings the power down by keys on the strip, well away from the other's.
    c, waiting, own = breaker_lowers_the_power(ana, bob, 40)
    theirs = c.state("a.aim.power")
    assert abs(theirs - own) > 0.2, (theirs, own)
    percent = round(theirs * 100)
    waiting.page.wait_for_function(
        r"(p) => new RegExp(`(^|[^0-9])${p}\\s%`)"
        ".test(document.querySelector('#status .prompt').textContent)",
        arg=percent,
    )
    assert waiting.page.inner_text("#strip-out") == f"{percent}\xa0%"
    speed = c.page.inner_text("#strip-speed")
    assert waiting.page.inner_text("#strip-speed") == speed, "the speed under it is theirs too"
    assert waiting.state("a.aim.power") == own, "the waiting player's own power is kept"
    save(waiting, "strip-waiting-phone.png")
    assert_quiet(ana, bob)


def test_held_sideways_the_sheets_more_menu_opens_in_sight(open_client: OpenClient) -> None:
    """A phone held sideways leaves the sheet little height: opening "More" scrolled its
    own button half out of the sheet, under the scoreboard. The sheet takes the height
    under its bar now, and the button and every item of the menu are in sight."""
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "ru"}, guest=PHONE)
    ana.page.set_viewport_size({"width": 844, "height": 390})
    ana.page.click("#panel-toggle")
    ana.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    ana.page.click("#more summary")
    ana.page.locator("#leave").wait_for(state="visible")
    ana.page.wait_for_timeout(300)
    sheet = ana.page.locator("#panel").bounding_box()
    bar = ana.page.locator("#panel-toggle").bounding_box()
    button = ana.page.locator("#more summary").bounding_box()
    last = ana.page.locator("#leave").bounding_box()
    assert sheet and bar and button and last
    assert sheet["y"] >= bar["y"] + bar["height"] - 1, (sheet, bar)
    assert button["y"] >= sheet["y"], (button, sheet)
    assert last["y"] + last["height"] <= 390, last
    save(ana, "sheet-more-landscape-ru.png")
    assert_quiet(ana, bob)


def test_held_sideways_the_shooters_sheet_shows_the_log_and_the_chat(
    open_client: OpenClient,
) -> None:
    """Held sideways, the sheet of the player to shoot holds the spin and cue controls
    first: the log under them (a box that scrolls) shrank to 0–2 px while it held a dozen
    lines, and the chat's box was cut. They keep their height, and the sheet scrolls."""
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "hr"}, guest=PHONE)
    phone = shooter((ana, bob))
    phone.page.set_viewport_size({"width": 844, "height": 390})
    phone.page.wait_for_function("!window.ninepool.portrait()")
    phone.page.click("#panel-toggle")
    phone.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    # The handle over the table says the shot is theirs (it said only "Back to the table").
    handle = "#panel-toggle > :first-child"
    turn = {"hr": "▾ Na potezu ste — natrag na stol", "en": "▾ Your shot — back to the table"}
    back = {"hr": "▾ Natrag na stol", "en": "▾ Back to the table"}
    other = bob if phone is ana else ana
    assert phone.page.inner_text(handle) == turn["hr" if phone is ana else "en"]
    other.page.click("#panel-toggle")
    other.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    assert other.page.inner_text(handle) == back["hr" if other is ana else "en"]
    phone.page.wait_for_function("document.querySelectorAll('#log li').length >= 2")
    log = phone.page.locator("#log")
    log.scroll_into_view_if_needed()
    box = log.bounding_box()
    assert box is not None and box["height"] >= 80, box
    first = phone.page.locator("#log li").first.bounding_box()
    assert first is not None and first["height"] > 10 and first["y"] < 390, first
    chat = phone.page.locator("#chat-input")
    chat.scroll_into_view_if_needed()
    place = chat.bounding_box()
    assert place is not None and place["height"] >= 30 and place["y"] + place["height"] <= 390
    save(phone, "sheet-log-sideways.png")
    # The top bar (hidden over the table held sideways) is in reach with the sheet: the
    # sound, the language, the account.
    for control in ("#mute", "#lang", "#account-open"):
        assert on_top(phone, control), control
    phone.page.click("#mute")
    assert phone.page.get_attribute("#mute", "class") and "muted" in (
        phone.page.get_attribute("#mute", "class") or ""
    )
    assert_quiet(ana, bob)


def test_the_sheet_opens_at_the_log_for_the_player_not_to_shoot(open_client: OpenClient) -> None:
    """The sheet opens on the spin and cue controls for the player to shoot; for the other
    player, whose controls are greyed out, it opened there too and the log lay below a
    scroll (held sideways, where the sheet is short). It opens at the log and the chat."""
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "ru"}, guest=PHONE)
    up = shooter((ana, bob))
    down = bob if up is ana else ana
    for c in (up, down):
        c.page.set_viewport_size({"width": 844, "height": 390})
        c.page.wait_for_function("!window.ninepool.portrait()")
        c.page.click("#panel-toggle")
        c.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
        c.page.wait_for_timeout(300)  # the sheet slides up
    assert up.page.evaluate("document.querySelector('#panel').scrollTop") == 0
    assert on_top(up, "#spin"), up.page.locator("#spin").bounding_box()
    assert on_top(down, "#log li"), down.page.locator("#log li").first.bounding_box()
    assert on_top(down, "#chat-input"), down.page.locator("#chat-input").bounding_box()
    save(down, "sheet-at-the-log-sideways.png")
    assert_quiet(ana, bob)


def test_a_phones_seats_keep_their_height_from_the_break_to_the_next_turn(
    open_client: OpenClient,
) -> None:
    """The break's tags ("ball in hand, behind the head string" on two lines, "breaks",
    "you") made the breaker's seat four lines tall on a phone, and both seat boxes shrank
    after the break (80 → 58 px). The seats keep one height now, the "you" tag sharing a
    line, and the table keeps its place and size."""
    ana, bob, _room = started(
        open_client, host={**PHONE, "lang": "hr"}, guest={**PHONE, "lang": "hr"}
    )
    players = (ana, bob)

    def sizes() -> list[tuple[int, ...]]:
        out = []
        for p in players:
            boxes = [p.page.locator(s).bounding_box() for s in ("#table", "#seat0", "#seat1")]
            out.append(tuple(round(v) for b in boxes if b for v in (b["y"], b["height"])))
        return out

    at_break = sizes()
    c = shooter(players)
    assert "ispod head linije" in c.page.inner_text(f"#seat{c.state('a.seat')} .tags")
    c.page.focus("#table")
    c.page.keyboard.press("Space")
    settle(*players)
    for p in players:
        p.page.wait_for_function(
            "!document.querySelector('.tag.bih')?.textContent?.includes('head')"
        )
    save(ana, "phone-after-break-hr.png")
    assert sizes() == at_break, (sizes(), at_break)
    assert_quiet(ana, bob)


def test_the_clocks_warning_leaves_the_cue_ball_in_sight(open_client: OpenClient) -> None:
    """In the shot clock's last seconds its warning stood over the far end of a phone's
    table, over the cue ball the shooter was aiming. With a ball under it there, it
    stands at the other end."""
    # A 14 s clock (the form's least is 20): its warning, at 10 s, comes sooner.
    ana, bob, _room = started(
        open_client, host={**PHONE, "lang": "hr"}, guest=PHONE, settings={"shot_clock": 14}
    )
    c = shooter((ana, bob))
    cue = c.state("a.table.balls[0]")
    click_table(c, max(0.05, cue[0] - 0.3), cue[1])
    pull_strip(c, 8)  # into the head rail, no ball hit: a foul
    settle(ana, bob)
    other = bob if c is ana else ana
    other.wait("a.table.turn === a.seat && a.table.ball_in_hand === 'table'")
    # The cue ball near the end drawn at the top of the screen, by the middle.
    ends = [(2.54 - 0.07, 1.27 / 2 + 0.12), (0.07, 1.27 / 2 + 0.12)]
    top = min(ends, key=lambda p: other.screen(*p)[1])
    drag_handle(other, top)
    other.wait(f"Math.abs(a.table.balls[0][0] - {top[0]}) < 0.05", timeout=10_000)
    banner = other.page.locator("#banner.clock")
    banner.wait_for(state="visible", timeout=25_000)
    other.page.wait_for_timeout(300)
    box = banner.bounding_box()
    x, y = other.screen(*other.state("a.table.balls[0]"))
    assert box is not None
    assert not (
        box["x"] - 14 < x < box["x"] + box["width"] + 14
        and box["y"] - 14 < y < box["y"] + box["height"] + 14
    ), (box, x, y)
    save(other, "clock-warning-clear-of-cue-ball.png")
    # Its words count down with the clock (they said "10 s left" to the end), and its
    # extension is a finger's size (it was 21 px tall).
    words = other.page.locator("#banner.clock .clock-words")
    first = words.inner_text()
    other.page.wait_for_function(
        "(w) => document.querySelector('#banner.clock .clock-words')?.textContent !== w",
        arg=first,
        timeout=8_000,
    )

    def seconds(text: str) -> int:
        found = re.search(r"\d+", text)
        assert found is not None, text
        return int(found.group())

    assert 0 <= seconds(words.inner_text()) < seconds(first) <= 10, (first, words.inner_text())
    chip = other.page.locator("#extend-chip").bounding_box()
    assert chip is not None and chip["height"] >= 44, chip
    assert_quiet(ana, bob)


def test_the_open_sheet_keeps_the_shot_clock_in_sight(open_client: OpenClient) -> None:
    """Held sideways the open sheet covers the scoreboard and its clock: a player reading
    the menu there ran out of time unseen. The sheet's bar shows the clock."""
    ana, bob, _room = started(
        open_client, host={**PHONE, "lang": "hr"}, guest=PHONE, table={"#c-clock": "20"}
    )
    c = shooter((ana, bob))
    c.page.set_viewport_size({"width": 844, "height": 390})
    c.page.click("#panel-toggle")
    c.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    bar_clock = c.page.locator("#panel-clock")
    bar_clock.wait_for(state="visible")
    c.page.wait_for_function(
        "document.getElementById('panel-clock').textContent"
        " === document.getElementById('clock').textContent"
    )
    assert c.page.inner_text("#panel-clock").startswith("0:")
    box = bar_clock.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 40, box
    save(c, "sheet-clock-landscape-hr.png")
    c.page.click("#panel-toggle")
    bar_clock.wait_for(state="hidden")
    assert_quiet(ana, bob)


def test_the_waiting_players_power_slider_shows_the_opponents_power(
    open_client: OpenClient,
) -> None:
    """On a laptop too: the waiting player's (disabled) power slider showed their own
    power while the prompt gave the opponent's."""
    ana, bob, _room = started(open_client)
    c = shooter((ana, bob))
    waiting = bob if c is ana else ana
    set_power(c, 23)
    waiting.page.wait_for_function(
        "document.querySelector('#status .prompt').textContent.includes('power 23')"
    )
    assert waiting.page.inner_text("#power-out") == "23\xa0%"
    assert waiting.page.input_value("#power") == "23"
    assert waiting.page.inner_text("#power-speed") == c.page.inner_text("#power-speed")
    assert waiting.page.is_disabled("#shoot")
    assert_quiet(ana, bob)


def test_after_a_few_shots_the_prompt_says_what_to_hit_not_how(open_client: OpenClient) -> None:
    """The prompt over a phone's table told how to aim and shoot (or move the cue ball in
    hand) on every turn, at the fortieth shot too, in a box a tenth of the screen tall. After
    the player's third shot it says what to hit; a newcomer's first turns still say how.
    How to move a ball in hand is said until the player has moved one: a first ball in
    hand came after the third shot, with the handle unnamed (and the aim's foul warning
    in its place)."""
    ana, bob, _room = started(
        open_client, host={**PHONE, "lang": "hr"}, guest={**PHONE, "lang": "hr"}
    )
    first = shooter((ana, bob))
    other = bob if first is ana else ana
    foul_softly_any(first)  # the break rolled into the head rail: ball in hand for the other
    settle(ana, bob)
    assert (first.state("a.ownShots"), other.state("a.ownShots")) == (1, 0)
    prompt = "document.querySelector('#status .prompt').textContent"
    other.wait("a.table.turn === a.seat && a.table.ball_in_hand === 'table'")
    assert "povucite plavu ručicu" in other.page.evaluate(prompt)
    other.page.evaluate("window.ninepool.app.ownShots = 3")  # as after three shots
    aim_at(other, 1)  # (the prompt is worded anew as the aim changes)
    assert "povucite plavu ručicu" in other.page.evaluate(prompt)  # never moved one yet

    # Aimed past the 1 at a rack ball's edge, so that the line meets that ball first: the
    # red ghost ball says so, but the prompt still says how to move the ball first.
    def aim_wrong() -> None:
        for n in range(2, 10):
            at = other.state(f"a.table.balls[{n}]")
            for dy in (-0.04, 0.04) if at else ():
                click_table(other, at[0], at[1] + dy)
                if other.state("a.wrongBall") is not None:
                    return
        raise AssertionError("no line meets another ball before the 1")

    aim_wrong()
    other.page.wait_for_timeout(150)
    assert other.page.evaluate("window.ninepool.overlay().wrong") is True
    assert "povucite plavu ručicu" in other.page.evaluate(prompt)
    # The handle dragged a little towards the table's middle, with a finger.
    hx, hy = other.page.evaluate("window.ninepool.handleOf()")
    mx, my = other.screen(1.27, 0.635)
    step = 30 / max(1.0, ((mx - hx) ** 2 + (my - hy) ** 2) ** 0.5)
    before = other.state("a.table.balls[0]")
    Touch(other).drag((hx, hy), (hx + (mx - hx) * step, hy + (my - hy) * step), 400)
    other.wait(f"a.table.balls[0][0] !== {before[0]} && a.placedPending === null")
    aim_at(other, 1)
    other.page.wait_for_function(f"{prompt} === 'Bijela u ruci — najprije pogodite kuglu\u00a01.'")
    assert_quiet(ana, bob)


def sideways_after_the_match(open_client: OpenClient) -> tuple[Client, Client]:
    """Ana's phone held sideways (in Russian), Bob's upright; Bob concedes the match and
    Ana closes its result: the finished table, sideways."""
    ana, bob, _room = started(open_client, host={**PHONE, "lang": "ru"}, guest=PHONE)
    ana.page.set_viewport_size({"width": 844, "height": 390})
    ana.page.wait_for_function("!window.ninepool.portrait()")
    bob.page.tap("#panel-toggle")
    concede(bob, "match")
    ana.page.locator("#result-dialog").wait_for(state="visible")
    ana.page.tap("#result-close")
    return ana, bob


def test_a_finished_match_leads_back_to_the_lobby_from_the_table(open_client: OpenClient) -> None:
    """Held sideways (no top bar over the table), a finished match's table offered only
    the rematch: the way back to the lobby went through the sheet's menu and "Leave
    table". The card on the table offers the lobby beside the rematch."""
    ana, bob = sideways_after_the_match(open_client)
    lobby = ana.page.locator("#over-lobby")
    lobby.wait_for(state="visible")
    assert lobby.inner_text() == "Лобби" and on_top(ana, "#over-lobby")
    box = lobby.bounding_box()
    assert box is not None and box["height"] >= 44, box  # a finger's target
    save(ana, "over-card-sideways-ru.png")
    ana.page.tap("#over-lobby")
    ana.page.locator("#lobby").wait_for(state="visible")
    ana.wait("a.room === null")  # the lobby shows at once; the room goes with the server's answer
    assert_quiet(ana, bob)


def test_the_clocks_warning_and_its_extension_stand_over_the_open_sheet(
    open_client: OpenClient,
) -> None:
    """A player typing in the chat of the open sheet, on their turn with a 20 s clock,
    lost the turn: the clock's warning and its extension stood over the table, under the
    sheet (the sheet's bar showed the time, the extension was two taps away in its menu).
    They stand at the sheet's top, and the extension is a tap away."""
    ana, bob = warned_soon(open_client)
    c = shooter((ana, bob))
    c.page.click("#panel-toggle")
    c.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    # Held upright the open sheet's bar (44 px) covers the top bar (49 px) whole: its icons
    # peeked out in a 5 px strip under it.
    bar = c.page.locator("#panel-toggle").bounding_box()
    assert bar is not None
    y = bar["height"] + 2
    under = c.page.evaluate(
        f"[...Array(12).keys()].map((i) => document.elementFromPoint(10 + i * 32, {y}))"
        ".some((e) => !!e && !!e.closest('.topbar'))"
    )
    assert not under
    c.page.click("#chat-input")
    c.page.keyboard.type("Bok!")
    c.page.locator("#extend-chip").wait_for(state="visible", timeout=10_000)
    assert on_top(c, "#extend-chip")
    banner = c.page.locator("#banner").bounding_box()
    assert banner is not None
    assert banner["y"] >= bar["y"] + bar["height"], (bar, banner)
    save(c, "clock-warning-over-sheet-hr.png")
    before = c.state("a.table.clock.deadline")
    c.page.tap("#extend-chip")
    c.wait(f"a.table.clock.deadline > {before}")
    assert c.state("a.panelOpen") and c.page.input_value("#chat-input") == "Bok!"
    assert_quiet(ana, bob)


def test_once_the_opponents_cue_line_fades_the_prompt_stops_saying_they_aim(
    open_client: OpenClient,
) -> None:
    """The waiting phone's prompt said "Bob is aiming: power 40 %" long after Bob had
    stopped aiming and his cue line had faded from the table: the words were written only
    when something happened at the table. They go with the line, and the strip shows the
    player's own power again."""
    ru = {**PHONE, "lang": "ru"}
    ana, bob, _room = started(open_client, host=ru, guest=ru)
    c, waiting, own = breaker_lowers_the_power(ana, bob, 30)
    percent = round(c.state("a.aim.power") * 100)
    aims = "document.querySelector('#status .prompt').textContent.includes('%')"
    waiting.page.wait_for_function(aims)
    waiting.page.wait_for_function("!!window.ninepool.overlay()?.aim?.remote")
    waiting.page.wait_for_function(
        f"document.getElementById('strip-out').textContent === '{percent}\\u00a0%'"
    )
    # Nothing more from the shooter: the line fades after 5 s, and the words with it.
    waiting.page.wait_for_function("!window.ninepool.overlay()?.aim?.remote", timeout=10_000)
    waiting.page.wait_for_function(f"!({aims})", timeout=2_000)
    prompt = waiting.page.inner_text("#status .prompt")
    assert prompt == f"Разбивает {c.name}.", prompt  # (the break: who breaks)
    assert waiting.page.inner_text("#strip-out") == f"{round(own * 100)}\xa0%"
    save(waiting, "prompt-after-aim-fades-ru.png")
    assert_quiet(ana, bob)


def test_once_the_match_is_over_the_sheet_opens_at_its_rematch(open_client: OpenClient) -> None:
    """Held sideways after the match, the sheet opened at the log, as it does for a
    player waiting on the other's shot: its Rematch and More (to leave) stood under its
    bar, out of a finger's reach. Once the match is over it opens at its top."""
    ana, bob = sideways_after_the_match(open_client)
    # A match's worth of words in the sheet, so that it scrolls.
    for n in range(8):
        c = bob if n % 2 else ana  # (at most five a player in ten seconds)
        c.page.evaluate(f"window.ninepool.conn.request({{t: 'chat', text: 'GG {n}'}})")
    ana.page.wait_for_function("document.querySelectorAll('#chat-log li').length >= 8")
    ana.page.tap("#panel-toggle")
    ana.page.wait_for_function("document.documentElement.classList.contains('panel-open')")
    panel = ana.page.evaluate(
        "(() => { const p = document.getElementById('panel');"
        " return [p.scrollTop, p.scrollHeight - p.clientHeight]; })()"
    )
    assert panel[1] > 50 and panel[0] == 0, panel
    ana.page.locator("#more summary").wait_for(state="visible")
    assert on_top(ana, "#more summary")
    save(ana, "sheet-after-match-sideways-ru.png")
    assert_quiet(ana, bob)


def test_held_sideways_a_replay_says_the_event_beside_the_table(
    open_client: OpenClient,
) -> None:
    """Held sideways, a replay's buttons and the words of the event shown were under the
    table, the words below the screen's edge (a swipe on the table did not scroll to them).
    They stand beside the table now, in sight, and the table is the larger for it."""
    ana, bob, room = started(open_client)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    sara = open_client("Sara", **{**PHONE, "lang": "hr"})
    sara.page.set_viewport_size({"width": 844, "height": 390})
    open_replay(sara, room)
    sara.page.click("#r-next")
    sara.page.wait_for_function(
        "document.getElementById('r-pos').textContent.startsWith('Događaj 2')"
    )
    words = sara.page.locator("#r-pos").bounding_box()
    table = sara.page.locator("#r-table").bounding_box()
    step = sara.page.locator("#r-next").bounding_box()
    assert words and table and step
    assert words["y"] + words["height"] <= 390 and words["x"] >= table["x"] + table["width"] - 1
    assert step["y"] + step["height"] <= 390 and table["width"] >= 480, table
    save(sara, "replay-sideways-hr.png")
    assert_quiet(ana, bob, sara)


def test_held_sideways_the_rematch_lag_card_leaves_the_seats_in_sight(
    open_client: OpenClient,
) -> None:
    """The finished match's tags made the scoreboard tall, and it kept that height into
    the rematch: its lag card, laid out under a one-row scoreboard, covered a seat's name
    and score. A rematch's scoreboard starts from its own height."""
    tom, sara, _room = host_and_guest(
        open_client, guest=PHONE, first_break="lag", table={"#c-preset": "custom", "#c-clock": "30"}
    )
    sara.page.set_viewport_size({"width": 844, "height": 390})
    sara.wait("a.view.status === 'lag'")
    board = "document.querySelector('#table-view .scoreboard').getBoundingClientRect()"
    first = sara.page.evaluate(f"{board}.height")
    play_the_lag((tom, sara))
    winner_chooses((tom, sara), "#lag-break")
    tom.wait("a.view.status === 'playing'")
    concede(tom, "match")
    for c in (sara, tom):
        c.page.locator("#result-dialog").wait_for(state="visible")
        c.page.click("#result-rematch")
    sara.wait("a.view.status === 'lag'")
    sara.page.wait_for_selector("#lag-controls:not([hidden])")
    sara.page.wait_for_timeout(300)
    again = sara.page.evaluate(f"{board}.height")
    assert again <= first + 2, (first, again)
    card = sara.page.locator("#lag-controls").bounding_box()
    bottom = sara.page.evaluate(f"{board}.bottom")
    assert card is not None and card["y"] >= bottom - 1, (card, bottom)
    save(sara, "rematch-lag-sideways.png")
    assert_quiet(tom, sara)
