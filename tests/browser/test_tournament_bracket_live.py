"""The bracket page while a match's table waits for its players, in Chromium: a player
who has sat down at their table (from another tab) is told so, not asked to sit down
again; and a no-show's countdown appearing in a match's card never widens its column,
on a laptop or on a 390 px phone."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

import msgpack
from websockets.sync.client import connect

from protocol.messages import PROTOCOL_VERSION
from tests.browser.support import Server, save
from tests.browser.test_tournament_page import SINGLE, call, new_tournament, session_token


def frame(ws: Any, until: Any) -> dict[str, Any]:
    """Reads a scripted player's frames until one that `until` accepts (returned)."""
    while True:
        got = msgpack.unpackb(ws.recv(timeout=20))
        if until(got):
            return dict(got)


@contextmanager
def seated(server: Server, room: str, token: str, name: str) -> Iterator[Any]:
    """A player at their match's table, ready, from a page of their own (another tab):
    their seat held until the block ends."""
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, origin=server.url) as ws:  # type: ignore[arg-type]
        hello = {"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": name, "token": token}
        ws.send(msgpack.packb(hello))
        frame(ws, lambda f: f["t"] == "welcome")
        ws.send(msgpack.packb({"t": "join", "id": 2, "room": room, "role": "player"}))
        assert frame(ws, lambda f: f.get("id") == 2)["t"] == "joined"
        ws.send(msgpack.packb({"t": "ready", "id": 3, "ready": True}))
        yield ws


def registered(server: Server, names: tuple[str, ...], cap: int) -> tuple[str, dict[str, str]]:
    """A single elimination of `names` in `cap` places, not started: its id and the
    session tokens of the players and (under "") the organiser."""
    organiser = session_token(server, f"Org {names[0]}")
    tournament = new_tournament(server, organiser, f"Live {names[0]}", cap=cap, **SINGLE)
    tokens = {name: session_token(server, name) for name in names}
    for name, token in tokens.items():
        call(server, "POST", f"/api/tournaments/{tournament}/register", {"name": name}, token)
    return tournament, {**tokens, "": organiser}


def started(server: Server, names: tuple[str, ...], cap: int) -> tuple[str, dict[str, str]]:
    """The same, started, its first round's tables open."""
    tournament, tokens = registered(server, names, cap)
    start(server, tournament, tokens[""])
    return tournament, tokens


def start(server: Server, tournament: str, organiser: str) -> None:
    """The organiser's "Start now", once the first round's tables are open."""
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    for _ in range(400):
        matches = call(server, "GET", f"/api/tournaments/{tournament}")["matches"]
        if "ready" not in [m["status"] for m in matches] and any(m["room"] for m in matches):
            return
        time.sleep(0.05)
    raise AssertionError("the first round's tables never opened")


def playing(server: Server, tournament: str) -> dict[str, Any]:
    matches = call(server, "GET", f"/api/tournaments/{tournament}")["matches"]
    return dict(next(m for m in matches if m["status"] == "playing"))


def test_a_player_seated_in_another_tab_is_sent_back_to_the_table(
    open_page: Any, server: Server
) -> None:
    """The page's banner asks a player to sit down at their match's table; once they have
    (in another tab), it says they are seated there and leads back to it, and nothing on
    the page asks them to sit down any more."""
    tournament, tokens = started(server, ("Tena", "Vid"), 2)
    match = playing(server, tournament)
    room = match["room"]
    client = open_page(
        "Tena",
        f"/tournament/{tournament}?lang=hr",
        height=900,
        storage={"ninepool.token": tokens["Tena"]},
    )
    page = client.page
    page.wait_for_selector("#tour-mine:not([hidden])")
    assert page.inner_text("#tour-mine-sit") == "Sjedni za stol"
    # A tab left in the background says it in its title (the no-show's clock runs).
    assert page.title().startswith("● Vaš je stol otvoren — "), page.title()
    with seated(server, room, tokens["Tena"], "Tena") as tab:
        page.wait_for_function(
            "document.getElementById('tour-mine-sit').textContent === 'Natrag za stol'"
        )
        banner = page.inner_text("#tour-mine")
        assert banner.startswith("Već sjedite za stolom svoga meča."), banner
        # Still the way to the seat (the same link), but no longer a call to take it.
        assert page.get_attribute("#tour-mine-sit", "href") == f"/?lang=hr#/play/{room}"
        assert "Sjedni za stol" not in page.locator("body").inner_text()
        assert not page.title().startswith("●"), page.title()  # seated: nothing to call her to
        # The no-show clock there is the opponent's, and names him (bare, it read as hers).
        page.wait_for_selector("#tour-mine-deadline .tour-deadline")
        due = page.inner_text("#tour-mine-deadline")
        said = r"Vid ima još \d:\d\d min da sjedne za stol, inače gubi bez borbe"
        assert re.fullmatch(said, due), due
        card = page.locator(f'.tour-match[data-match="{match["id"]}"] .tour-foot')
        assert "Natrag za stol" in card.inner_text(), card.inner_text()
        # Her own match's card offers her seat, not to watch it.
        assert "Gledaj" not in card.inner_text(), card.inner_text()
        save(client, "tournament-seated-hr.png")
        # Up from the table before play began (the seat given up): asked to sit down again.
        tab.send(msgpack.packb({"t": "leave", "id": 4}))
        page.wait_for_function(
            "document.getElementById('tour-mine-sit').textContent === 'Sjedni za stol'"
        )
        assert page.inner_text("#tour-mine").startswith(
            "Stol za vaš meč je otvoren (protivnik: Vid)."
        )
    assert client.problems() == []


def _widths(page: Any, match: str) -> dict[str, Any]:
    """The bracket's columns, the match's card and its countdown, as laid out now."""
    return dict(
        page.evaluate(
            """(match) => {
              const box = (el) => el && el.getBoundingClientRect();
              const card = document.querySelector(`.tour-match[data-match="${match}"]`);
              const clock = box(card.querySelector('.tour-deadline'));
              const c = box(card);
              return {
                columns: [...document.querySelectorAll('.tour-round')].map(
                  (col) => Math.round(box(col).width * 10) / 10),
                card: [c.left, c.right],
                clock: clock && [clock.left, clock.right],
                scroll: document.documentElement.scrollWidth,
                inner: innerWidth,
              };
            }""",
            match,
        )
    )


def test_a_no_show_countdown_never_widens_its_column(open_page: Any, server: Server) -> None:
    """Three players in four places: the top seed's bye, the other two's table open and
    waiting for them with a no-show countdown in its card. On a laptop every column keeps
    the width of a column with no countdown, and keeps it when the countdown goes (both
    players sit down); on a phone the countdown fits in the card, nothing scrolls sideways."""
    tournament, tokens = started(server, ("Ante", "Branka", "Cvijeta"), 4)
    match = playing(server, tournament)
    pages = {
        "laptop": open_page("laptop", f"/tournament/{tournament}?lang=ru", height=900),
        "phone": open_page("phone", f"/tournament/{tournament}?lang=ru", width=390, height=844),
    }
    before: dict[str, dict[str, Any]] = {}
    for kind, client in pages.items():
        client.page.wait_for_selector(f'.tour-match[data-match="{match["id"]}"] .tour-deadline')
        before[kind] = _widths(client.page, match["id"])
        save(client, f"tournament-countdown-{kind}-ru.png", full_page=True)
    laptop, phone = before["laptop"], before["phone"]
    # The round with the countdown is as wide as the final's, which has none.
    assert len(set(laptop["columns"])) == 1, laptop
    for layout in (laptop, phone):
        left, right = layout["card"]
        assert left <= layout["clock"][0] and layout["clock"][1] <= right, layout
        assert layout["scroll"] <= layout["inner"], layout
    with ExitStack() as stack:
        for name in match["players"]:
            stack.enter_context(seated(server, match["room"], tokens[name], name))
        for kind, client in pages.items():
            client.page.wait_for_selector(
                f'.tour-match[data-match="{match["id"]}"] .tour-score.live', timeout=20_000
            )
            after = _widths(client.page, match["id"])
            assert after["clock"] is None
            assert after["columns"] == before[kind]["columns"], (kind, before[kind], after)
            assert after["card"][1] - after["card"][0] == (
                before[kind]["card"][1] - before[kind]["card"][0]
            ), (kind, before[kind], after)
    for client in pages.values():
        assert client.problems() == []


def test_an_account_is_named_on_a_running_tournament_and_a_player_not_yet_seated_is_not_dimmed(
    open_page: Any, server: Server
) -> None:
    """The top bar says whose page it is once the tournament is under way too (the name
    had gone from it at the start); a player not yet at the table is marked in italics,
    not dimmed like a beaten player."""
    credentials = {"name": "Mira", "password": "correct horse battery"}
    call(server, "POST", "/api/accounts", credentials)
    account = call(server, "POST", "/api/login", credentials)["token"]
    tournament, _ = started(server, ("Ines", "Jura"), 2)
    # On a phone too: its top bar keeps the way back to the game on one line (only the "9"
    # led there), leaving "New tournament" to the list.
    phone = open_page("phone", f"/tournament/{tournament}?lang=en", width=390, height=844)
    phone.page.wait_for_selector(".tour-match")
    assert phone.page.is_visible("#tour-game") and phone.page.is_hidden("#tour-new")
    bar = phone.page.locator(".topbar").bounding_box()
    assert bar is not None and bar["height"] < 70, bar  # one line (two stood 109 px)
    client = open_page(
        "Mira", f"/tournament/{tournament}?lang=en", storage={"ninepool.account": account}
    )
    page = client.page
    page.wait_for_selector(".tour-slot.away")
    page.wait_for_function("document.querySelector('.topbar .me').textContent === 'Mira'")
    path = f"/api/tournaments/{tournament}"
    assert call(server, "GET", path, token=account)["account"] == "Mira"  # (under way)
    assert call(server, "GET", path)["account"] is None
    style = page.evaluate(
        "(() => { const slot = document.querySelector('.tour-slot.away > span:nth-child(2)');"
        " const s = getComputedStyle(slot); return [s.fontStyle, s.opacity]; })()"
    )
    assert style == ["italic", "1"], style
    assert client.problems() == [] and phone.problems() == []


def test_the_call_to_the_table_is_in_sight_wherever_the_page_was_scrolled(
    open_page: Any, server: Server
) -> None:
    """A player on a phone held sideways has scrolled the bracket page down when the
    organiser starts: the call to their table, with its no-show clock, is on the screen —
    it was added above the part of the page they were looking at, out of sight."""
    names = ("Dmitrij", "Jelena", "Ante", "Bojan", "Cvita", "Duje", "Ema", "Frane")
    tournament, tokens = registered(server, names, 8)
    client = open_page(
        "Dmitrij",
        f"/tournament/{tournament}?lang=ru",
        width=844,
        height=390,
        storage={"ninepool.token": tokens["Dmitrij"]},
    )
    page = client.page
    page.wait_for_selector("#tour-view:not([hidden])")
    page.mouse.move(400, 200)
    page.mouse.wheel(0, 3000)
    scrolled = "document.querySelector('main.tournament').scrollTop"  # (the page's own scroller)
    page.wait_for_function(f"{scrolled} > 60")
    start(server, tournament, tokens[""])
    page.wait_for_selector("#tour-mine:not([hidden]) #tour-mine-deadline .tour-deadline")
    assert page.evaluate(scrolled) > 60  # nothing scrolled the page for it
    for part in ("#tour-mine-text", "#tour-mine-sit", "#tour-mine-deadline"):
        box = page.locator(part).bounding_box()
        assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 390, (part, box)
    # The sit link is the banner's, on top: a tap there takes the seat.
    sit = page.locator("#tour-mine-sit").bounding_box()
    assert sit is not None
    on_top = page.evaluate(
        f"document.elementFromPoint({sit['x'] + sit['width'] / 2}, {sit['y'] + sit['height'] / 2})"
        ".closest('#tour-mine-sit') !== null"
    )
    assert on_top
    save(client, "tournament-call-scrolled-ru.png")
