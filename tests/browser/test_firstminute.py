"""The first minute of a newcomer, trap by trap, in chromium against the real server.

Each test names the trap it guards (the numbers of the first-minute report) and fails on
the client before the fix. Phones are a 390×844 touch context driven with real touch
events (the DevTools protocol's Input.dispatchTouchEvent, which chromium turns into
pointer events as it does for a finger); desktops a mouse and a keyboard.
"""

from __future__ import annotations

import math
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.support import Client, Server, save
from tests.browser.test_client import (
    assert_quiet,
    click_table,
    foul_softly,
    replay_events,
    settle,
    shooter,
    winner_chooses,
)

OpenClient = Callable[..., Client]
PHONE = {"width": 390, "height": 844, "dpr": 2, "touch": True}


def host_and_guest(
    open_client: OpenClient,
    host: dict[str, Any] | None = None,
    guest: dict[str, Any] | None = None,
    first_break: str = "draw",
    table: dict[str, str] | None = None,
    settings: dict[str, Any] | None = None,
) -> tuple[Client, Client, str]:
    """Ana creates a table and sends Bob the invite link; Bob opens it and is seated. (A
    client without an invite link is set up through the lobby list and the ready buttons,
    so each trap's own check is what fails there.) `settings`: the table is made through
    the page's own connection with these, not its form — a test that waits out a clock
    takes the server's least (5 s), the form's least being 20 s."""
    ana = open_client("Ana", **(host or {}))
    if settings is not None:
        create = {"t": "create", "settings": {"first_break": first_break, **settings}}
        ana.page.evaluate("(m) => window.ninepool.conn.request(m)", create)
    else:
        ana.page.select_option("#c-first", first_break)
        for field, value in (table or {}).items():  # more of the table's settings
            if ana.page.evaluate("(s) => document.querySelector(s).tagName", field) == "SELECT":
                ana.page.select_option(field, value)
            else:  # a field under "More settings"
                ana.page.evaluate(
                    "document.querySelector('#create-form details.advanced').open = true"
                )
                ana.page.fill(field, value)
        ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    room = ana.state("a.room")
    if ana.page.locator("#invite-link").count():
        link = ana.page.input_value("#invite-link")
        bob = open_client("Bob", hash=link[link.index("#") :], **(guest or {}))
    else:
        bob = open_client("Bob", **(guest or {}))
        bob.page.wait_for_selector(f"tr[data-room='{room}'] button.primary")
        bob.page.click(f"tr[data-room='{room}'] button.primary")
    bob.wait("!!a.view && a.role === 'player' && a.seat === 1")
    for i, c in enumerate((ana, bob)):
        # A moment (300 ms) for the seat's readiness to arrive (sitting down is being
        # ready), or less: until the match has started or this seat shows ready.
        c.page.wait_for_function(
            "([i, until]) => { const v = window.ninepool.app.view; return Date.now() > until"
            " || v.status !== 'waiting' || !!(v.seats[i] && v.seats[i].ready); }",
            arg=[i, c.page.evaluate("Date.now() + 300")],
        )
        if c.state(f"a.view.status === 'waiting' && !a.view.seats[{i}].ready"):
            c.page.click("#ready")
    return ana, bob, room


def started(open_client: OpenClient, **kw: Any) -> tuple[Client, Client, str]:
    """A match by the draw, its winner breaking: both players at the table, the break to play."""
    ana, bob, room = host_and_guest(open_client, **kw)
    winner_chooses((ana, bob), "#lag-break")
    for c in (ana, bob):
        c.wait("a.view.status === 'playing' && !!a.table && a.table.ball_in_hand === 'kitchen'")
        c.idle()
    return ana, bob, room


def play_the_lag(clients: tuple[Client, Client], finger: bool = False) -> None:
    """Both players strike their lag at the speed it offers, until the lag has a winner:
    a stroke is struck again only when its press never reached the button (the button
    was taken away for a moment as the other lag arrived) or the lag is to be played
    again (O6: a tie, or no lag counting)."""
    pending = "a.view.status === 'lag' && a.view.lag_choice == null"
    for _attempt in range(4):
        for c in clients:
            if c.state(f"{pending} && !(a.view.lagged ?? []).includes(a.seat) && !a.lagSent"):
                button = c.page.locator("#lag-shoot")
                button.wait_for(state="visible")
                button.tap() if finger else button.click()
        try:
            for c in clients:
                c.wait(f"!({pending})", timeout=15_000)
            return
        except PlaywrightTimeout:
            continue
    seen = [
        c.state("({status: a.view.status, lagged: a.view.lagged, sent: a.lagSent, seat: a.seat})")
        for c in clients
    ]
    raise AssertionError(f"the lag found no winner in four strokes each: {seen}")


class Touch:
    """A finger on a page: real touch events through the DevTools protocol."""

    def __init__(self, c: Client) -> None:
        self.c = c
        self.cdp = c.context.new_cdp_session(c.page)

    def send(self, kind: str, x: float | None = None, y: float | None = None) -> None:
        points = [] if x is None else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def drag(
        self, start: tuple[float, float], end: tuple[float, float], ms: float, steps: int = 8
    ) -> float:
        """Presses at `start`, moves to `end` in `steps` over `ms` milliseconds, lifts;
        returns the seconds the gesture really took (more than `ms` on a busy machine)."""
        began = time.monotonic()
        self.send("touchStart", *start)
        for k in range(1, steps + 1):
            self.c.page.wait_for_timeout(ms / steps)
            f = k / steps
            self.send(
                "touchMove", start[0] + (end[0] - start[0]) * f, start[1] + (end[1] - start[1]) * f
            )
        self.send("touchEnd")
        return time.monotonic() - began

    def tap(self, x: float, y: float) -> None:
        self.send("touchStart", x, y)
        self.c.page.wait_for_timeout(60)
        self.send("touchEnd")


def shots_sent(server: Server, room: str) -> int:
    return sum(1 for e in replay_events(server, room) if e["t"] == "shot_result")


def aim_at(c: Client, ball: int) -> None:
    pos = c.state(f"a.table.balls[{ball}]")
    click_table(c, pos[0], pos[1])


def test_trap1_a_swipe_on_the_phone_neither_shoots_nor_aims(
    open_client: OpenClient, server: Server
) -> None:
    ana, bob, room = started(open_client, host=PHONE)
    phone = ana if shooter((ana, bob)) is ana else None
    if phone is None:
        # The phone must be the breaker: the desktop breaks softly, then it is the phone's turn.
        foul_softly(bob)
        settle(ana, bob)
        phone = ana
    finger = Touch(phone)
    shots = shots_sent(server, room)
    angle = phone.state("a.aim.angle")
    cue = phone.state("a.table.balls[0]")
    cx, cy = phone.screen(*cue)
    # A scroll swipe that starts on the cue ball: quick, pulling away from the aim.
    took = finger.drag((cx, cy), (cx, cy + 220), ms=40, steps=3)
    phone.page.wait_for_timeout(800)
    assert shots_sent(server, room) == shots, "a swipe shot"
    assert not phone.state("a.shotPending") and not phone.state("!!a.anim")
    if took < 0.15:  # a flick (see below)
        assert abs(phone.state("a.aim.angle") - angle) < 1e-9, "a swipe turned the aim"
    angle = phone.state("a.aim.angle")
    # A swipe elsewhere on the table: the aim stays too — if it was a swipe at all: on a
    # machine too busy to send the touches within a flick's time it is a slow drag, which
    # aims (nothing may shoot either way).
    x0, y0 = phone.screen(1.6, 0.3)
    took = finger.drag((x0, y0), (x0 - 30, y0 + 250), ms=40, steps=3)
    phone.page.wait_for_timeout(300)
    assert shots_sent(server, room) == shots, "a swipe shot"
    if took < 0.15:
        assert abs(phone.state("a.aim.angle") - angle) < 1e-9
    # A deliberate drag aims; the pull on the strip at the edge shoots.
    end = (cue[0] + 0.8, cue[1] + 0.25)
    finger.drag(phone.screen(cue[0] + 0.6, cue[1] - 0.1), phone.screen(*end), ms=700)
    want = math.atan2(end[1] - cue[1], end[0] - cue[0])
    assert abs(phone.state("a.aim.angle") - want) < 0.02
    before = shots_sent(server, room)
    box = phone.page.locator("#strip-track").bounding_box()
    sx, sy = box["x"] + box["width"] / 2, box["y"] + 8
    finger.drag((sx, sy), (sx, sy + box["height"] * 0.5), ms=500)
    settle(ana, bob)
    assert shots_sent(server, room) == before + 1
    assert_quiet(ana, bob)


def test_trap2_14_the_lag_at_the_defaults_does_not_tie_and_each_ball_is_named(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = host_and_guest(open_client, first_break="lag")
    for c in (ana, bob):
        c.page.locator("#lag-shoot").wait_for(state="visible")
    ana.page.click("#lag-shoot")
    bob.page.click("#lag-shoot")
    # A press that came as the other lag arrived (its button taken away for a moment) never
    # reached the page: pressed again, as a player would (`play_the_lag`).
    for c in (ana, bob):
        if not c.state("a.lagSent || (a.view.lagged ?? []).includes(a.seat) || !!a.anim"):
            c.page.click("#lag-shoot")
    # While the balls roll, each carries its player's name.
    ana.wait("!!a.anim && !!a.anim.seats")
    # The names are drawn from the next frame on (the overlay read is the last one drawn).
    ana.page.wait_for_function("(window.ninepool.overlay()?.labels.length ?? 0) > 0")
    labels = ana.page.evaluate("window.ninepool.overlay().labels.map(l => l.text)")
    assert sorted(labels) == ["Ana's ball", "Bob's ball"]
    for c in (ana, bob):
        c.page.wait_for_function("document.getElementById('log').textContent.includes('lag')")
        c.idle()
    text = ana.page.inner_text("#log")
    assert "Lag again" not in text, text
    # (on the winner's own page: "You win the lag and choose who breaks")
    assert re.search(r"(Bob wins|You win) the lag and chooses? who breaks", text), text
    assert re.search(r"stopped [\d.]+ cm closer to the cushion", text)
    # The balls stay where they stopped, named, until the break is chosen; no name tag
    # covers a ball.
    labels = ana.page.evaluate("window.ninepool.overlay().labels.map(l => l.text)")
    assert sorted(labels) == ["Ana's ball", "Bob's ball"]
    for c in (ana, bob):
        boxes_and_balls = c.page.evaluate(
            "(() => { const r = document.getElementById('table').getBoundingClientRect();"
            " return window.ninepool.overlay().labels.map(l => [l.box,"
            " window.ninepool.screenOf(l.x, l.y).map((v, i) => v - (i ? r.top : r.left))]); })()"
        )
        for box, _ in boxes_and_balls:
            for _, (bx, by) in boxes_and_balls:
                assert not (
                    box["x"] < bx < box["x"] + box["w"] and box["y"] < by < box["y"] + box["h"]
                ), (box, bx, by)
    save(ana, "lag-result-named.png")
    assert_quiet(ana, bob)


def test_trap3_4_pull_back_with_ball_in_hand_is_a_legal_break_at_the_default_power(
    open_client: OpenClient, server: Server
) -> None:
    ana, bob, room = started(open_client)
    breaker = shooter((ana, bob))
    # The break starts at a legal break's power, shown as a percentage with the speed.
    assert breaker.page.inner_text("#power-out") == "87\xa0%"
    assert breaker.page.inner_text("#power-speed") == "9.13 m/s"
    assert "87\xa0%" in breaker.page.inner_text("#status")
    # The prompt follows the power as a key moves it.
    breaker.page.focus("#power")
    breaker.page.keyboard.press("ArrowLeft")
    breaker.page.wait_for_function(
        "document.getElementById('power-out').textContent === '86\\u00a0%'"
    )
    assert "86\xa0%" in breaker.page.inner_text("#status")
    breaker.page.keyboard.press("ArrowRight")
    breaker.page.wait_for_function(
        "document.getElementById('power-out').textContent === '87\\u00a0%'"
    )
    assert "87\xa0%" in breaker.page.inner_text("#status")
    cue = breaker.state("a.table.balls[0]")
    one = breaker.state("a.table.balls[1]")
    ang = math.atan2(one[1] - cue[1], one[0] - cue[0])
    # A click just behind the cue ball is not a stroke: nothing is shot, the power stays.
    breaker.page.mouse.click(
        *breaker.screen(cue[0] - math.cos(ang) * 0.06, cue[1] - math.sin(ang) * 0.06)
    )
    breaker.page.wait_for_timeout(300)
    assert not breaker.state("a.shotPending") and breaker.state("a.table.turn") is not None
    assert breaker.page.inner_text("#power-out") == "87\xa0%"
    assert [e for e in replay_events(server, room) if e["t"] == "shot_result"] == []
    # Pull back from the cue ball (ball in hand) and let go: a shot, not a moved ball.
    x0, y0 = breaker.screen(*cue)
    back = 0.06 + 0.87 * 0.55
    x1, y1 = breaker.screen(cue[0] - math.cos(ang) * back, cue[1] - math.sin(ang) * back)
    breaker.page.mouse.move(x0, y0)
    breaker.page.mouse.down()
    for k in range(1, 11):
        breaker.page.mouse.move(x0 + (x1 - x0) * k / 10, y0 + (y1 - y0) * k / 10)
    breaker.page.mouse.up()
    settle(ana, bob)
    shots = [e for e in replay_events(server, room) if e["t"] == "shot_result"]
    assert len(shots) == 1
    assert shots[0]["shot"]["speed"] >= 8.5
    assert "R4" not in shots[0]["verdict"]["fouls"], shots[0]["verdict"]
    assert_quiet(ana, bob)


def test_trap6_a_reload_and_a_late_spectator_keep_the_log_chat_and_verdict(
    open_client: OpenClient,
) -> None:
    ana, bob, room = started(open_client)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    ana.page.fill("#chat-input", "hello table")
    ana.page.press("#chat-input", "Enter")
    bob.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('hello table')"
    )
    verdict = bob.page.inner_text("#status .verdict")
    assert verdict.startswith(("Foul: ", "Your foul: ")), verdict
    bob.page.reload()
    bob.page.wait_for_selector("#conn.conn-online")
    bob.wait("!!a.table")
    bob.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('hello table')"
    )
    bob.page.wait_for_function(
        "/Foul: |Your foul: /.test(document.getElementById('log').textContent)"
    )
    assert bob.page.inner_text("#status .verdict") == verdict
    cleo = open_client("Cleo", hash=f"#/room/{room}")
    cleo.wait("a.role === 'spectator' && !!a.table")
    cleo.page.wait_for_function(
        "document.getElementById('chat-log').textContent.includes('hello table')"
    )
    cleo.page.wait_for_function(
        "document.getElementById('log').textContent.includes('chooses to break')"
    )
    # The same verdict, worded for a spectator, who is told who fouled: Bob's own page says
    # "you" where it is his ball in hand, and "your foul" where it was his (the draw
    # decides who broke and fouled).
    said = cleo.page.inner_text("#status .verdict")
    if verdict.startswith("Your foul: "):
        spectators = verdict.replace("Your foul: ", "Foul by Bob: ", 1)
    else:
        spectators = "Foul by Ana: " + verdict.removeprefix("Foul: ")
        spectators = spectators.replace("ball in hand for you", "ball in hand for Bob")
    assert said == spectators, said
    assert_quiet(ana, bob, cleo)


def test_trap7_an_invite_link_seats_the_friend_and_an_empty_seat_offers_sit_here(
    open_client: OpenClient,
) -> None:
    ana = open_client("Ana")
    ana.page.check("#c-private")
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.code && !!a.view")
    link = ana.page.input_value("#invite-link")
    assert ana.state("a.code") in link and ana.state("a.room") in link
    assert "Table id" not in ana.page.inner_text("#wait-controls")
    # The link's card stands on the empty cloth: at the table's foot it covered the bottom
    # rail and the side pocket of a desktop's table.
    card = ana.page.locator("#wait-controls").bounding_box()
    corners = [ana.screen(x, y) for x in (0, 2.54) for y in (0, 1.27)]
    assert card is not None
    assert min(p[0] for p in corners) < card["x"] and card["x"] + card["width"] < max(
        p[0] for p in corners
    )
    assert min(p[1] for p in corners) < card["y"] and card["y"] + card["height"] < max(
        p[1] for p in corners
    )
    assert "on the table" in ana.page.inner_text("#status")
    bob = open_client("Bob", hash=link[link.index("#") :])
    bob.wait("a.role === 'player' && a.seat === 1")
    # A public table: a spectator sees the empty seat and sits in it.
    cleo = open_client("Cleo")
    cleo.page.click("#create-form button[type=submit]")
    cleo.wait("!!a.view && a.role === 'player'")
    room = cleo.state("a.room")
    dan = open_client("Dan")
    dan.page.wait_for_selector(f"tr[data-room='{room}']")
    dan.page.click(f"tr[data-room='{room}'] button:has-text('Watch')")
    dan.wait("a.role === 'spectator' && !!a.view")
    assert "Watching as Dan" in dan.page.inner_text("#me")
    dan.page.click("#seat1 button:has-text('Sit here')")
    dan.wait("a.role === 'player' && a.seat === 1")
    assert "Playing as Dan" in dan.page.inner_text("#me")
    assert_quiet(ana, bob, cleo, dan)


def test_trap8_the_lag_button_goes_once_the_lag_is_played(open_client: OpenClient) -> None:
    ana, bob, _ = host_and_guest(open_client, first_break="lag")
    ana.page.locator("#lag-shoot").wait_for(state="visible")
    ana.page.click("#lag-shoot")
    assert ana.page.is_hidden("#lag-controls") or ana.page.is_disabled("#lag-shoot")
    bob.page.click("#lag-shoot")
    for c in (ana, bob):
        c.page.wait_for_function("document.getElementById('log').textContent.includes('lag')")
        c.idle()
        if c.state("a.view.lag_choice") is not None:
            assert c.page.is_hidden("#lag-controls"), "the lag is decided: nothing to play"
    assert ana.page.is_hidden("#toast") or "error" not in ana.page.inner_text("#toast")
    assert_quiet(ana, bob)


def test_a_game_that_would_end_the_match_is_conceded_as_the_match(
    open_client: OpenClient,
) -> None:
    """In a race to 1 (or with the opponent a game from the match) conceding the game is
    conceding the match: the dialog offered both, which did the same thing. It offers the
    match alone and says why (in a race to 3 at 0 : 0 both: trap 9 concedes the game)."""
    ana, bob, _ = started(open_client, guest={"lang": "hr"}, settings={"race_to": 1})
    bob.page.click("#more summary")
    bob.page.click("#concede")
    bob.page.locator("#concede-dialog").wait_for(state="visible")
    assert bob.page.is_hidden("#concede-game")
    assert bob.page.inner_text("#concede-text") == (
        "Protivniku nedostaje još jedna partija: predajom mu prepuštate meč."
    )
    bob.page.click("#concede-cancel")
    assert_quiet(ana, bob)


def test_trap9_result_dialogs_in_words(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client)
    ana.page.click("#more summary")
    ana.page.click("#concede")
    ana.page.click("#concede-game")
    for c in (ana, bob):
        c.page.locator("#result-dialog").wait_for(state="visible")
        # The winner reads it addressed to them.
        title = "You win game 1!" if c is bob else "Bob wins game 1!"
        assert c.page.inner_text("#result-title") == title
        # Named: "the opponent conceded" would be false on Ana's own screen, which
        # speaks to her.
        conceded = "You conceded the game." if c is ana else "Ana concedes the game."
        assert c.page.inner_text("#result-text") == conceded
        score = c.page.locator("#result-score")
        assert score.get_attribute("aria-label") == "Ana 0 – 1 Bob"
        parts = score.locator("span").all_inner_texts()
        assert parts == ["Ana", "0 : 1", "Bob"], parts
    # The winner's screen cheers; the loser's does not.
    assert "fanfare" in bob.page.evaluate("window.ninepool.sounds().heard")
    assert "fanfare" not in ana.page.evaluate("window.ninepool.sounds().heard")
    assert_quiet(ana, bob)


def test_trap10_11_keys_after_a_click_on_the_table_and_spin_for_one_shot(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    c = shooter((ana, bob))
    aim_at(c, 1)
    angle = c.state("a.aim.angle")
    c.page.keyboard.press("ArrowLeft")
    assert abs(c.state("a.aim.angle") - angle - math.radians(0.5)) < 1e-6
    # Spin, set on the cue-ball face: a dot on the cue ball, for this shot only.
    box = c.page.locator("#spin").bounding_box()
    shoot_box = c.page.locator("#shoot").bounding_box()
    # (a click a pixel or two off the vertical is on it: no side spin asked for)
    c.page.mouse.click(box["x"] + box["width"] * 0.51, box["y"] + box["height"] * 0.3)
    assert c.state("a.aim.height") > 0.2 and c.state("a.aim.side") == 0
    c.page.wait_for_function("(window.ninepool.overlay().tip || {}).height > 0.2")
    # (16) Changing the spin does not move the Shoot button.
    assert c.page.locator("#shoot").bounding_box() == shoot_box
    aim_at(c, 1)
    c.page.keyboard.press("Space")
    settle(ana, bob)
    assert c.state("a.aim.height") == 0 and c.state("a.aim.side") == 0
    assert c.page.inner_text("#spin-text") == "centre ball"
    assert_quiet(ana, bob)


def test_trap11_12_16_the_phone_fits_table_power_and_spin_on_one_screen(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client, host=PHONE)
    phone = ana
    for w, h in ((390, 844), (844, 390)):
        phone.page.set_viewport_size({"width": w, "height": h})
        phone.page.wait_for_timeout(300)
        assert phone.page.evaluate("document.documentElement.scrollHeight") <= h + 1
        # Every pocket, the rails and the strip with its spin button are in view, uncovered.
        for x, y in ((0.0, 0.0), (2.54, 0.0), (0.0, 1.27), (2.54, 1.27), (1.27, 0.0), (1.27, 1.27)):
            sx, sy = phone.screen(x, y)
            assert 0 <= sx <= w and 0 <= sy <= h, (w, h, x, y)
            hit = phone.page.evaluate(f"document.elementFromPoint({sx}, {sy})?.id")
            assert hit == "table", (w, h, x, y, hit)
        for sel in ("#strip-track", "#spin-mini"):
            box = phone.page.locator(sel).bounding_box()
            assert (
                box is not None
                and box["y"] >= 0
                and box["y"] + box["height"] <= h
                and box["x"] + box["width"] <= w
            )
        # (16) The table is not flush with the screen's edge.
        r = phone.page.locator("#table").bounding_box()
        corners = [phone.screen(x, y) for x in (-0.135, 2.675) for y in (-0.135, 1.405)]
        assert min(x for x, _ in corners) >= r["x"] + 3 and min(y for _, y in corners) >= r["y"] + 3
        assert max(x for x, _ in corners) <= r["x"] + r["width"] - 3
        save(phone, f"phone-{w}x{h}.png")
    phone.page.set_viewport_size({"width": 390, "height": 844})
    phone.page.wait_for_timeout(300)
    # The spin is a tap away, on the screen.
    if shooter((ana, bob)) is phone:
        Touch(phone).tap(*center(phone, "#spin-mini"))
        phone.page.locator("#spin-pop").wait_for(state="visible")
        save(phone, "phone-spin.png")
        box = phone.page.locator("#spin-pop").bounding_box()
        assert box["y"] + box["height"] <= 844
        # (12) The ball-in-hand handle sits well clear of the ball, for a finger.
        handle = phone.page.evaluate("window.ninepool.overlay().handle")
        bx, by = phone.screen(*phone.state("a.table.balls[0]"))
        r = phone.page.locator("#table").bounding_box()
        assert math.hypot(handle["x"] + r["x"] - bx, handle["y"] + r["y"] - by) >= 50
    assert_quiet(ana, bob)


def center(c: Client, sel: str) -> tuple[float, float]:
    box = c.page.locator(sel).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_trap12_ball_in_hand_by_its_handle_with_a_finger(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client, guest=PHONE)
    phone = bob
    if shooter((ana, bob)) is ana:
        foul_softly(ana)  # the phone now has ball in hand anywhere
        settle(ana, bob)
    else:
        pass  # the phone breaks: ball in hand behind the head string
    assert phone.state("a.table.ball_in_hand") in ("kitchen", "table")
    hx, hy = phone.page.evaluate("window.ninepool.handleOf()")
    cue = phone.state("a.table.balls[0]")
    bx, by = phone.screen(*cue)
    assert math.hypot(hx - bx, hy - by) >= 50, "the finger would cover the ball"
    # Drag the handle 2 cm-ish toward the long rail: the ball follows, offset, and is placed.
    Touch(phone).drag((hx, hy), (hx - 40, hy), ms=500)
    phone.wait(f"Math.hypot(a.table.balls[0][0] - {cue[0]}, a.table.balls[0][1] - {cue[1]}) > 0.02")
    assert phone.state("a.lastShot") is None or phone.state("a.lastShot.shooter") != phone.state(
        "a.seat"
    )
    assert_quiet(ana, bob)


def test_trap13_plain_words_first_rule_ids_in_small_print_and_no_stalemate_after_the_break(
    open_client: OpenClient,
) -> None:
    ana, bob, _ = started(open_client)
    assert ana.page.is_hidden("#stalemate")
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    for c in (ana, bob):
        main = c.page.evaluate(
            "(() => { const s = document.getElementById('status').cloneNode(true);"
            " s.querySelectorAll('.rule').forEach(r => r.remove()); return s.textContent; })()"
        )
        assert main.startswith(("Foul: ", "Your foul: ")), main
        assert not re.search(r"\b[RGO]\d{1,2}\b", main), main
        assert "kitchen" not in main.lower() and "stalemate innings" not in main.lower()
        assert re.fullmatch(
            r"[RGO]\d+(, [RGO]\d+)*", c.page.locator("#status .rule").first.inner_text()
        )
    assert ana.page.is_hidden("#stalemate"), "not offered right after the break"
    assert_quiet(ana, bob)


def test_trap15_a_shot_plays_faster_and_a_tap_skips_it(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client, host={"rate": None}, guest={"rate": None})
    c = shooter((ana, bob))
    other = bob if c is ana else ana
    aim_at(c, 1)
    c.page.click("#shoot")
    other.wait("!!a.anim")
    assert other.page.evaluate("window.ninepool.animating()")
    # Esc, or a tap on the table, shows where the balls end at once.
    other.page.keyboard.press("Escape")
    other.page.wait_for_function("!window.ninepool.animating()", timeout=2000)
    c.wait("!!a.anim || !window.ninepool.animating()")
    if c.state("!!a.anim"):
        x, y = center(c, "#table")
        c.page.mouse.click(x, y)
        c.page.wait_for_function("!window.ninepool.animating()", timeout=2000)
    assert c.page.evaluate("window.ninepool.positions()") == other.page.evaluate(
        "window.ninepool.positions()"
    )
    heard = c.page.evaluate("window.ninepool.sounds().heard")
    assert "cue" in heard
    assert_quiet(ana, bob)


def test_trap16_a_foul_banner_does_not_move_the_table(open_client: OpenClient) -> None:
    ana, bob, _ = started(open_client)
    first = shooter((ana, bob))
    box = ana.page.locator("#table").bounding_box()
    for _ in range(2):
        foul_softly(shooter((ana, bob)))
        settle(ana, bob)
    foul_softly(shooter((ana, bob)))
    settle(ana, bob)
    ana.page.locator("#banner").wait_for(state="visible")
    assert ana.page.locator("#table").bounding_box() == box
    assert first  # the three fouls alternate; the first player is on two
    assert_quiet(ana, bob)


def test_trap17_18_a_spectator_watches_leaving_asks_in_the_page_and_the_mute_is_kept(
    open_client: OpenClient,
) -> None:
    ana, bob, room = started(open_client)
    cleo = open_client("Cleo", hash=f"#/room/{room}")
    cleo.wait("a.role === 'spectator' && !!a.table")
    assert cleo.page.inner_text("#me") == "Watching as Cleo"
    # Leaving a running match asks in a dialog of the page (no native confirm).
    ana.page.click("#more summary")
    ana.page.click("#leave")
    ana.page.locator("#leave-dialog").wait_for(state="visible")
    ana.page.click("#leave-cancel")
    assert ana.state("a.room") == room
    # Sound: the mute toggle is remembered across a reload.
    assert bob.page.evaluate("window.ninepool.sounds().muted") is False
    bob.page.click("#mute")
    bob.page.reload()
    bob.page.wait_for_selector("#conn.conn-online")
    assert bob.page.evaluate("window.ninepool.sounds().muted") is True
    assert bob.page.get_attribute("#mute", "aria-pressed") == "true"
    assert_quiet(ana, bob, cleo)


def test_newcomer_from_the_page_to_a_legal_break_in_five_actions(
    open_client: OpenClient, server: Server
) -> None:
    """Ana has never played: she opens the page, makes a table, sends the link, lags and
    breaks. Every click she makes is counted; Bob, her friend, only opens the link (and,
    should he win the lag, gives her the break)."""
    started_at = time.monotonic()
    actions = 0
    ana = open_client("Ana", rate=None)
    ana.page.click("#create-form button[type=submit]")  # 1: create a table
    actions += 1
    ana.page.click("#invite-copy")  # 2: copy the invite link (sent to Bob)
    actions += 1
    link = ana.page.input_value("#invite-link")
    bob = open_client("Bob", hash=link[link.index("#") :], rate=None)
    ana.page.locator("#lag-shoot").wait_for(state="visible")
    ana.page.click("#lag-shoot")  # 3: play the lag at the speed it offers
    actions += 1
    bob.page.locator("#lag-shoot").wait_for(state="visible")
    bob.page.click("#lag-shoot")
    for c in (ana, bob):
        c.wait("a.view.lag_choice != null || !!a.table", timeout=60_000)
    if ana.state("a.view.lag_choice") == 0:
        ana.page.locator("#lag-dialog").wait_for(state="visible")
        ana.page.click("#lag-break")  # 4: she breaks
        actions += 1
    else:
        bob.page.locator("#lag-dialog").wait_for(state="visible")
        bob.page.click("#lag-give")
    ana.wait("!!a.table && a.table.ball_in_hand === 'kitchen' && a.table.turn === 0")
    ana.idle()
    ana.page.click("#shoot")  # 5: the break, aimed and powered for her
    actions += 1
    ana.wait("!!a.lastShot")
    room = ana.state("a.room")
    shot = next(e for e in replay_events(server, room) if e["t"] == "shot_result")
    assert shot["shooter"] == 0
    assert "R4" not in shot["verdict"]["fouls"], shot["verdict"]
    assert actions <= 5
    print(
        f"newcomer: {actions} actions, {time.monotonic() - started_at:.1f} s "
        "from opening the page to the break"
    )
    assert_quiet(ana, bob)


# --- every word in the reader's language -----------------------------------------------------

ENGLISH = None


def english_words() -> set[str]:
    """Words of the English catalogue that neither other catalogue uses (4+ letters)."""
    global ENGLISH
    if ENGLISH is None:
        import pathlib

        root = pathlib.Path(__file__).resolve().parents[2] / "client_web" / "i18n"
        # A language's catalogue and the parts it spreads in (`tournament.<lang>.mjs`, …).
        text = {
            lang: " ".join(
                path.read_text()
                for path in sorted(root.glob("*.mjs"))
                if lang in path.name.split(".")
            )
            for lang in ("en", "hr", "ru")
        }
        strip = lambda s: re.sub(r"\{\w+\}|\"[\w.]+\":|//.*", " ", s)  # noqa: E731
        words = {w.lower() for w in re.findall(r"[A-Za-z]{4,}", strip(text["en"]))}
        other = {
            w.lower()
            for lang in ("hr", "ru")
            for w in re.findall(r"[A-Za-z]{4,}", strip(text[lang]))
        }
        # ("English" is the language picker's own name for English, on every page)
        ENGLISH = words - other - {"ninepool", "export", "default", "const", "english"}
    return ENGLISH


def english_left(c: Client) -> list[str]:
    text = (
        c.page.evaluate("document.body.innerText")
        + " "
        + c.page.evaluate(
            "[...document.querySelectorAll('[aria-label], [title], [placeholder]')]"
            ".filter(e => e.offsetParent !== null)"
            ".map(e => [e.getAttribute('aria-label'), e.getAttribute('title'),"
            " e.getAttribute('placeholder')].join(' ')).join(' ')"
        )
    )
    return sorted({w for w in re.findall(r"[A-Za-z]{4,}", text) if w.lower() in english_words()})


def test_lobby_table_and_foul_in_croatian_and_russian(open_client: OpenClient) -> None:
    for lang in ("hr", "ru"):
        ana = open_client("Ana", lang=lang)
        assert ana.page.evaluate("document.documentElement.lang") == lang
        assert english_left(ana) == [], (lang, english_left(ana))
        save(ana, f"lobby-{lang}.png")
        ana.page.select_option("#c-first", "draw")
        ana.page.click("#create-form button[type=submit]")
        ana.wait("!!a.view")
        link = ana.page.input_value("#invite-link")
        bob = open_client("Bob", lang=lang, hash=link[link.index("#") :], **PHONE)
        winner_chooses((ana, bob), "#lag-break")
        for c in (ana, bob):
            c.wait("a.view.status === 'playing' && !!a.table")
            c.idle()
        save(ana, f"table-{lang}.png")
        save(bob, f"table-{lang}-phone.png")
        foul_softly_any(shooter((ana, bob)))
        settle(ana, bob)
        for c, name in ((ana, "desktop"), (bob, "phone")):
            text = c.page.inner_text("#status")
            # (the fouler's own page: "your foul"; the other's, whose ball in hand it is,
            # "foul" alone: theirs is the only other seat)
            fouled = ("Vaš faul", "Faul") if lang == "hr" else ("Ваш фол", "Фол")
            assert text.split(":")[0] in fouled, text
            assert english_left(c) == [], (lang, name, english_left(c))
        # The rule's id says its name in the reader's words on hover.
        title = ana.page.get_attribute("#status .verdict .rule", "title") or ""
        assert title.startswith(
            "R4: nepravilno otvaranje" if lang == "hr" else "R4: неправильное разбитие"
        ), title
        # On the phone the foul's verdict is read whole, ball in hand's player included,
        # and the box holds it and the prompt.
        cut = bob.page.evaluate(
            "[...document.querySelectorAll('#status, #status .verdict, #status .prompt')]"
            ".filter(e => e.scrollHeight > e.clientHeight + 1).map(e => e.className)"
        )
        assert cut == [], (lang, cut, bob.page.inner_text("#status"))
        save(ana, f"foul-{lang}.png")
        save(bob, f"foul-{lang}-phone.png")
        assert_quiet(ana, bob)
        ana.context.close()
        bob.context.close()


def foul_softly_any(c: Client) -> None:
    """A soft roll into the head rail, from the desktop (Shoot) or a phone (the strip)."""
    cue = c.state("a.table.balls[0]")
    click_table(c, max(0.05, cue[0] - 0.3), cue[1])
    if c.page.is_visible("#shoot"):
        c.page.fill("#power", "8")
        c.page.click("#shoot")
        return
    box = c.page.locator("#strip-track").bounding_box()
    finger = Touch(c)
    x, y = box["x"] + box["width"] / 2, box["y"] + 6
    finger.drag((x, y), (x, y + box["height"] * 0.9 * 0.08), ms=400)


def test_language_from_the_browser_switch_and_remember(open_client: OpenClient) -> None:
    ana = open_client("Ana", lang=None)
    assert ana.page.evaluate("document.documentElement.lang") == "en"
    ana.page.select_option("#lang", "ru")
    assert ana.page.evaluate("document.documentElement.lang") == "ru"
    assert ana.page.inner_text("#quick") == "Быстрая игра"
    ana.page.reload()
    ana.page.wait_for_selector("#conn.conn-online")
    assert ana.page.evaluate("document.documentElement.lang") == "ru"
    assert ana.page.inner_text("#create-form h2") == "Создать стол"
    assert_quiet(ana)
