"""The live bracket page `/tournament/<id>` in Chromium, in English, Croatian and Russian:
a running double elimination with its matches linked to watch, and registration from the
page for one still open. No page may log an error or a warning."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import msgpack
import pytest
from websockets.sync.client import connect

from protocol.messages import PROTOCOL_VERSION
from tests.browser.support import CUT_TEXTS, Server, save

LANGUAGES = {
    "en": ("Winners' bracket", "Losers' bracket", "Watch"),
    "hr": ("Pobjednička grana", "Gubitnička grana", "Gledaj"),
    "ru": ("Верхняя сетка", "Нижняя сетка", "Смотреть"),
}


def session_token(server: Server, name: str) -> str:
    """A player's session token, from a `hello` over the WebSocket as the game sends it."""
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, origin=server.url) as ws:  # type: ignore[arg-type]
        ws.send(msgpack.packb({"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": name}))
        welcome = msgpack.unpackb(ws.recv())
    assert welcome["t"] == "welcome", welcome
    return str(welcome["token"])


def call(server: Server, method: str, path: str, body: Any = None, token: str = "") -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(f"{server.url}{path}", data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())


def new_tournament(server: Server, organiser: str, name: str, **changes: Any) -> str:
    """A tournament made through the API: an 8-place double elimination starting in an
    hour, unless `changes` say otherwise; its id."""
    settings = {
        "name": name,
        "format": "double",
        "cap": 8,
        "seeding": "random",
        "starts_at": int(time.time() * 1000) + 3_600_000,
        "races": {"winners": 2, "losers": 1, "final": 3},
        **changes,
    }
    return str(call(server, "POST", "/api/tournaments", settings, organiser)["id"])


def confirm(page: Any, action: str | None = None) -> str:
    """Answers the page's own "are you sure?" with its confirming button (worded `action`,
    when given); the question asked."""
    page.wait_for_selector("#tour-confirm[open]")
    if action is not None:
        assert page.inner_text("#tour-confirm-yes") == action
    question = str(page.inner_text("#tour-confirm-text"))
    page.click("#tour-confirm-yes")
    page.wait_for_selector("#tour-confirm", state="hidden")
    return question


#: A single elimination's races: no losers' bracket.
SINGLE = {"format": "single", "races": {"winners": 1, "final": 1}}


@pytest.fixture(scope="module")
def tournaments(server: Server) -> dict[str, Any]:
    organiser = session_token(server, "Organiser")
    running = new_tournament(server, organiser, "Kup Zagreba")
    for name in ("Ana", "Boris", "Cvita", "Dario", "Ema"):
        call(
            server,
            "POST",
            f"/api/tournaments/{running}/register",
            {"name": name},
            session_token(server, name),
        )
    call(server, "POST", f"/api/tournaments/{running}/start", token=organiser)
    # Until the bracket is drawn and every match that can be played has its room: the byes
    # done, the first round's one match and the winners' match of two byes playing, nothing
    # left `ready` (a room about to open).
    for _ in range(400):
        view = call(server, "GET", f"/api/tournaments/{running}")
        statuses = [m["status"] for m in view["matches"]]
        if "playing" in statuses and "ready" not in statuses:
            break
        time.sleep(0.05)
    else:
        raise AssertionError(f"the tournament's matches never got their rooms: {statuses}")
    open_one = new_tournament(server, organiser, "Open Friday")
    return {"running": running, "open": open_one, "view": view}


#: A slot to come, named by the match it waits for, in each language.
FROM = {
    "en": {"winner": "Winner of {}\u00a0– {}", "loser": "Loser of {}\u00a0– {}"},
    "hr": {"winner": "Pobjednik meča {}\u00a0– {}", "loser": "Gubitnik meča {}\u00a0– {}"},
    "ru": {"winner": "Победитель матча {}\u00a0– {}", "loser": "Проигравший в матче {}\u00a0– {}"},
}


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_the_bracket_renders_live_in_every_language(
    page_at: Any, tournaments: dict[str, Any], lang: str
) -> None:
    tournament_id = tournaments["running"]
    client = page_at(f"/tournament/{tournament_id}", lang)
    page = client.page
    page.wait_for_selector("#tour-view:not([hidden]) .tour-match")
    winners, losers, watch = LANGUAGES[lang]
    headings = page.locator(".tour-bracket h2").all_inner_texts()
    assert headings[:2] == [winners, losers]
    # Five players in an eight-place bracket: three byes to the top seeds, one match
    # being played, its room linked to watch and to sit down in.
    assert page.locator(".tour-match").count() == len(tournaments["view"]["matches"])
    room = next(m["room"] for m in tournaments["view"]["matches"] if m["status"] == "playing")
    # Every link to another page keeps the page's language: the table's, the lobby's, the list's.
    link = page.locator(f'a[href="/?lang={lang}#/room/{room}"]')
    assert link.inner_text() == watch
    assert page.get_attribute("a.brand", "href") == f"/?lang={lang}"
    assert page.get_attribute("#tour-all", "href") == f"/tournaments?lang={lang}"
    assert page.get_attribute("#tour-new", "href") == f"/tournament/new?lang={lang}"
    # Nobody has sat down yet: the card names who the table waits for; a seat is
    # offered only to the match's own players, which this reader is not.
    playing = next(m for m in tournaments["view"]["matches"] if m["status"] == "playing")
    state = page.locator(f'.tour-match[data-match="{playing["id"]}"] .tour-state').inner_text()
    assert all(name in state for name in playing["players"]), state
    assert page.locator(f'a[href*="#/play/{room}"]').count() == 0
    # The slot its winner goes to is named by it, not "to be decided" (its loser's too).
    a, b = playing["players"]
    for kind, words in FROM[lang].items():
        waits = next(
            m for m in tournaments["view"]["matches"] if [kind, playing["id"]] in m["feeds"]
        )
        card = page.locator(f'.tour-match[data-match="{waits["id"]}"]').inner_text()
        assert words.format(a, b) in card, card
    cut = page.locator(".tour-empty .tour-name").evaluate_all(CUT_TEXTS)
    assert cut == [], cut  # a slot to come wraps whole ("Pobjednik meča Emily …" was cut)
    assert page.locator("html").get_attribute("lang") == lang
    assert page.locator("#tour-name").inner_text() == "Kup Zagreba"
    # Every word on the page is the language's: no key left untranslated.
    body = page.locator("body").inner_text()
    assert "tour." not in body
    save(client, f"tournament-{lang}.png", full_page=True)
    page.wait_for_timeout(2500)  # one refresh of the bracket, still without a problem
    assert client.problems() == []


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_registering_from_the_page(
    page_at: Any, server: Server, tournaments: dict[str, Any], lang: str
) -> None:
    """Register, withdraw, and a refusal (a name another player registered) worded in the
    page's language; registered, the page offers only withdrawing."""
    tournament_id = tournaments["open"]
    path = f"/api/tournaments/{tournament_id}"
    call(
        server, "POST", f"{path}/register", {"name": f"Taken {lang}"}, session_token(server, "Tea")
    )
    token = session_token(server, f"Reg {lang}")
    client = page_at(f"/tournament/{tournament_id}", lang, token, name="Igrač-3819")
    page = client.page
    page.wait_for_selector("#tour-form:not([hidden])")
    assert page.locator("#tour-leave").is_hidden()
    # The game's name is offered; a click and typing replaces it, not adds to it.
    assert page.input_value("#tour-player-name") == "Igrač-3819"
    page.click("#tour-player-name")
    page.keyboard.type(f"Igrac {lang}")
    assert page.input_value("#tour-player-name") == f"Igrac {lang}"
    page.click("#tour-join")
    entrants = "[...document.querySelectorAll('#tour-entrants li')]"
    page.wait_for_function(f"{entrants}.some(li => li.dataset.name === 'Igrac {lang}')")
    assert "ok" in (page.locator("#tour-answer").get_attribute("class") or "")
    # The reader's own entry is marked, in the page's language; the other player's is not.
    mine = page.locator(f'#tour-entrants li[data-name="Igrac {lang}"]')
    assert mine.locator(".tour-you").inner_text() == {"en": "you", "hr": "vi", "ru": "вы"}[lang]
    assert page.locator(f'#tour-entrants li[data-name="Taken {lang}"] .tour-you').count() == 0
    page.wait_for_selector("#tour-leave:visible")
    assert page.locator("#tour-join").is_hidden()
    assert page.locator("#tour-player-name").is_hidden()
    page.click("#tour-leave")
    page.wait_for_function(f"!{entrants}.some(li => li.dataset.name === 'Igrac {lang}')")
    page.wait_for_selector("#tour-join:visible")
    page.fill("#tour-player-name", f"Taken {lang}")
    page.click("#tour-join")  # refused, in the page's language
    page.wait_for_function("!document.querySelector('#tour-answer').classList.contains('ok')")
    refusal = page.locator("#tour-answer").inner_text()
    assert (
        refusal
        == {
            "en": "Another player has registered with that name.",
            "hr": "Drugi se igrač već prijavio pod tim imenom.",
            "ru": "Другой игрок уже записался под этим именем.",
        }[lang]
    )
    page.fill("#tour-player-name", f"Igrac {lang}")
    page.click("#tour-join")
    page.wait_for_function(f"{entrants}.some(li => li.dataset.name === 'Igrac {lang}')")
    view = call(server, "GET", path, token=token)
    assert f"Igrac {lang}" in [e["name"] for e in view["entrants"]] and view["entered"]
    # The answer is said again in the language the page is switched to.
    other = "ru" if lang == "hr" else "hr"
    page.select_option("#lang", other)
    said = {"hr": "Prijavljeni ste.", "ru": "Вы записаны."}[other]
    page.wait_for_function(f"document.getElementById('tour-answer').textContent === {said!r}")
    # A refused request is logged by Chromium as a failed resource load: the only
    # console line allowed, and only for the refusal asked for here.
    problems = [p for p in client.problems() if "status of 409" not in p]
    assert problems == []


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_the_list_of_tournaments_from_the_lobby(
    page_at: Any, server: Server, tournaments: dict[str, Any], lang: str
) -> None:
    """The lobby links to `/tournaments`, which lists them (name, start, format, places,
    state) in the reader's language, each linked to its page."""
    client = page_at("/", "en")
    page = client.page
    page.wait_for_selector("#lobby:not([hidden])")
    page.select_option("#lang", lang)  # the reader's choice, kept for the next page
    page.click("#tournaments")
    page.wait_for_selector("#tour-list:not([hidden]) #tour-list-table:not([hidden])")
    assert page.url.split("?")[0].endswith("/tournaments")
    running = page.locator(f'tr[data-tournament="{tournaments["running"]}"]')
    cells = running.locator("td").all_inner_texts()
    double, statuses = {
        "en": ("Double elimination", {"running": "Under way", "finished": "Finished"}),
        "hr": ("Ispadanje nakon dva poraza", {"running": "U tijeku", "finished": "Završen"}),
        "ru": ("До двух поражений", {"running": "Идёт турнир", "finished": "Завершён"}),
    }[lang]
    # Its state as the API has it now (its no-shows may have played it out meanwhile).
    status = next(
        t["status"]
        for t in call(server, "GET", "/api/tournaments")
        if t["id"] == tournaments["running"]
    )
    # (a finished one's state names its champion after it)
    assert cells[0] == "Kup Zagreba" and cells[2] == double, cells
    assert cells[4].startswith(statuses[status]), cells
    assert "5" in cells[3] and "8" in cells[3]
    body = page.locator("body").inner_text()
    assert "tour." not in body
    save(client, f"tournaments-{lang}.png", full_page=True)
    page.click(f'tr[data-tournament="{tournaments["open"]}"] a')
    page.wait_for_selector("#tour-view:not([hidden])")
    assert page.locator("#tour-name").inner_text() == "Open Friday"
    assert client.problems() == []


def test_the_organiser_starts_it_from_the_page(page_at: Any, server: Server) -> None:
    """Only the organiser sees "Start now"; it waits for two players, then starts the
    tournament at once (after asking); nobody else is offered it."""
    organiser = session_token(server, "Starter")
    tournament_id = new_tournament(server, organiser, "Subota")
    path = f"/api/tournaments/{tournament_id}"
    client = page_at(f"/tournament/{tournament_id}", "hr", organiser)
    page = client.page
    page.wait_for_selector("#tour-organiser:not([hidden])")
    assert page.locator("#tour-start").is_disabled()
    assert page.inner_text("#tour-start-help") == (
        "Da bi turnir mogao početi, moraju se prijaviti barem dva igrača."
    )
    onlooker = page_at(f"/tournament/{tournament_id}", "hr")
    onlooker.page.wait_for_selector("#tour-view:not([hidden])")
    for name in ("Iva", "Luka", "Trol"):
        call(server, "POST", f"{path}/register", {"name": name}, session_token(server, name))
    page.wait_for_selector("#tour-start:enabled")
    asked: list[str] = []
    # The organiser takes an entrant off the list; nobody else is offered to. "Not now"
    # changes nothing.
    assert onlooker.page.locator("[data-remove]").count() == 0
    # The organiser's own entry is theirs to withdraw, not to remove.
    call(server, "POST", f"{path}/register", {"name": "Orga"}, organiser)
    page.wait_for_selector('#tour-entrants li[data-name="Orga"] .tour-you')
    assert page.locator('#tour-entrants li[data-name="Orga"] [data-remove]').count() == 0
    assert page.locator("[data-remove]").count() == 3
    call(server, "POST", f"{path}/unregister", None, organiser)
    page.wait_for_selector('#tour-entrants li[data-name="Orga"]', state="detached")
    page.click('[data-remove="Trol"]')
    page.click("#tour-confirm-no")
    assert page.is_hidden("#tour-confirm") and page.inner_text("#tour-organiser-answer") == ""
    assert [e["name"] for e in call(server, "GET", path)["entrants"]] == ["Iva", "Luka", "Trol"]
    page.click('[data-remove="Trol"]')
    asked.append(confirm(page, "Ukloni"))
    page.wait_for_selector('#tour-entrants li[data-name="Trol"]', state="detached")
    assert page.inner_text("#tour-organiser-answer") == "Igrač Trol uklonjen je s popisa."
    assert [e["name"] for e in call(server, "GET", path)["entrants"]] == ["Iva", "Luka"]
    page.click("#tour-start")
    asked.append(confirm(page, "Pokreni odmah"))
    page.wait_for_selector("#tour-start", state="hidden")  # the start taken: called off only
    assert page.is_visible("#tour-cancel")
    assert asked == [
        "Ukloniti s popisa: Trol? Taj se igrač više neće moći prijaviti.",
        "Pokrenuti turnir odmah? Prijave se zatvaraju.",
    ]
    assert call(server, "GET", path)["status"] in ("running", "finished")
    page.wait_for_selector(".tour-match")
    assert "U tijeku" in page.inner_text("#tour-facts")
    assert "Počinje" not in page.inner_text("#tour-facts")  # it began: no "starts at"
    assert "Počeo je" in page.inner_text("#tour-facts")
    assert onlooker.page.locator("#tour-organiser").is_hidden()
    assert client.problems() == [] and onlooker.problems() == []


def test_the_start_says_computers_will_fill_the_empty_places(page_at: Any, server: Server) -> None:
    """A tournament whose empty places computers fill: the organiser's question before an
    early start says they will (it said only that registration closes)."""
    organiser = session_token(server, "Org bots")
    tournament_id = new_tournament(server, organiser, "Srijeda", cap=4, bots=True, **SINGLE)
    path = f"/api/tournaments/{tournament_id}"
    call(server, "POST", f"{path}/register", {"name": "Org bots"}, organiser)
    call(server, "POST", f"{path}/register", {"name": "Ema"}, session_token(server, "Ema"))
    client = page_at(f"/tournament/{tournament_id}", "ru", organiser)
    page = client.page
    page.wait_for_selector("#tour-start:not([hidden])")
    page.click("#tour-start")
    asked = confirm(page, "Начать сейчас")
    assert asked == (
        "Начать турнир сейчас? Регистрация закроется, а 2 свободных места займут"
        " компьютерные игроки."
    ), asked
    page.wait_for_selector("#tour-start", state="hidden")  # the start is taken
    assert call(server, "GET", path)["status"] in ("running", "finished")
    assert client.problems() == []


def test_an_entrant_is_shown_the_way_to_their_match(page_at: Any, server: Server) -> None:
    """Once the table of their match is open, an entrant's bracket page says so above
    everything, links to their seat, and marks their name in the bracket."""
    organiser = session_token(server, "Org mine")
    tournament_id = new_tournament(server, organiser, "Utorak", cap=2, **SINGLE)
    path = f"/api/tournaments/{tournament_id}"
    marta = session_token(server, "Marta")
    call(server, "POST", f"{path}/register", {"name": "Marta"}, marta)
    call(server, "POST", f"{path}/register", {"name": "Nina"}, session_token(server, "Nina"))
    call(server, "POST", f"{path}/start", token=organiser)
    for _ in range(400):
        matches = call(server, "GET", path)["matches"]
        if matches and matches[0]["room"]:
            break
        time.sleep(0.05)
    match = matches[0]
    client = page_at(f"/tournament/{tournament_id}", "ru", marta)
    page = client.page
    page.wait_for_selector("#tour-mine:not([hidden])")
    assert page.inner_text("#tour-mine").startswith(
        "Стол для вашего матча открыт (соперник: Nina)."
    )
    assert page.get_attribute("#tour-mine-sit", "href") == f"/?lang=ru#/play/{match['room']}"
    assert page.locator(".tour-slot.mine").inner_text().count("Marta") == 1
    assert page.locator(f'.tour-match a[href="/?lang=ru#/play/{match["room"]}"]').count() == 1
    save(client, "tournament-mine-ru.png")
    onlooker = page_at(f"/tournament/{tournament_id}", "ru")
    onlooker.page.wait_for_selector(".tour-match")
    assert onlooker.page.locator("#tour-mine").is_hidden()
    assert onlooker.page.locator(".tour-slot.mine").count() == 0
    assert onlooker.page.locator(f'a[href*="#/play/{match["room"]}"]').count() == 0
    assert client.problems() == [] and onlooker.problems() == []


def _frames(ws: Any, until: Any) -> dict[str, Any]:
    """Reads a scripted player's frames until one that `until` accepts (returned)."""
    while True:
        frame = msgpack.unpackb(ws.recv(timeout=20))
        if until(frame):
            return dict(frame)


def test_from_a_won_match_to_the_next_ones_table(page_at: Any, server: Server) -> None:
    """A player wins a first-round match at the table (the opponent concedes), goes back to
    the bracket from the result, and its link to their final's table seats them there, not
    in the room of the match won. The page's `?lang=` goes with them to the table and back."""
    organiser = session_token(server, "Org next")
    tournament_id = new_tournament(server, organiser, "Četvrtak", cap=4, **SINGLE)
    path = f"/api/tournaments/{tournament_id}"
    tokens = {name: session_token(server, name) for name in ("Pia", "Rok", "Sara")}
    for name, token in tokens.items():
        call(server, "POST", f"{path}/register", {"name": name}, token)
    call(server, "POST", f"{path}/start", token=organiser)
    first: dict[str, Any] = {}
    for _ in range(400):
        drawn = [m for m in call(server, "GET", path)["matches"] if m["id"] == "W1-2"]
        if drawn and drawn[0]["room"]:
            first = drawn[0]
            break
        time.sleep(0.05)
    assert first, "the first round's match never got its room"
    # Three players in four places: the top seed's bye, the other two meet (W1-2).
    winner, loser = first["players"]
    client = page_at(f"/tournament/{tournament_id}", "hr", tokens[winner])
    page = client.page
    page.wait_for_selector("#tour-mine:not([hidden])")
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, origin=server.url) as ws:  # type: ignore[arg-type]
        hello = {"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": loser}
        ws.send(msgpack.packb({**hello, "token": tokens[loser]}))
        _frames(ws, lambda f: f["t"] == "welcome")
        ws.send(msgpack.packb({"t": "join", "id": 2, "room": first["room"], "role": "player"}))
        assert _frames(ws, lambda f: f.get("id") == 2)["t"] == "joined"
        ws.send(msgpack.packb({"t": "ready", "id": 3, "ready": True}))
        page.click("#tour-mine-sit")  # the winner sits down (the game readies them)
        page.wait_for_url("**/?lang=hr#/play/*")
        draw = _frames(ws, lambda f: f["t"] == "lag_result")
        if draw["winner"] == 1:
            ws.send(msgpack.packb({"t": "lag_choice", "id": 4, "choice": "break"}))
        else:
            page.locator("#lag-dialog").wait_for(state="visible")
            page.click("#lag-break")
        _frames(ws, lambda f: f["t"] == "ruling" and f.get("action") == "lag_choice")
        ws.send(msgpack.packb({"t": "concede", "id": 5, "what": "match"}))
        _frames(ws, lambda f: f["t"] == "match_over")
    page.locator("#result-dialog").wait_for(state="visible", timeout=20_000)
    # The final's seat is offered on the result too (behind it, its no-show time ran out).
    page.locator("#result-next-match[href*='#/play/']").wait_for(timeout=20_000)
    assert page.inner_text("#result-next-match") == "Sjedni za stol"
    page.click("#result-tournament")  # the game's page is left for the bracket's
    page.wait_for_url(f"**/tournament/{tournament_id}*")
    final = page.locator("#tour-mine-sit")
    final.wait_for(state="visible")
    assert page.url.endswith("?lang=hr") and page.inner_text("#tour-mine-sit") == "Sjedni za stol"
    # The won match's card says who conceded it (a bare "Won" read as a win to the loser).
    foot = page.locator("[data-match='W1-2'] .tour-foot")
    assert f"Predaja meča: {loser}" in foot.inner_text(), foot.inner_text()
    # ...and leads to its replay, every game of it (a tab opened there says no hello).
    replay = foot.locator("a.tour-replay")
    assert replay.inner_text() == "Snimka"
    assert replay.get_attribute("href") == f"/?lang=hr#/replay/{first['room']}"
    room = call(server, "GET", path)["matches"][-1]["room"]
    assert room and room != first["room"]
    assert final.get_attribute("href") == f"/?lang=hr#/play/{room}"
    final.click()
    client.wait(f"a.room === {room!r} && a.role === 'player'", timeout=20_000)
    assert page.url.endswith(f"#/room/{room}")
    assert client.problems() == []


def test_a_list_seeded_by_rating_shows_the_ratings(page_at: Any, server: Server) -> None:
    """Seeded by rating, the entrants list shows each entrant's rating (what the seeds come
    from); a short list reads down one column."""
    organiser = session_token(server, "Seeder")
    tournament_id = new_tournament(server, organiser, "By rating", seeding="rating")
    path = f"/api/tournaments/{tournament_id}"
    for name in ("Iva", "Luka"):
        call(server, "POST", f"{path}/register", {"name": name}, session_token(server, name))
    client = page_at(f"/tournament/{tournament_id}", "en")
    page = client.page
    page.wait_for_selector('#tour-entrants li[data-name="Luka"]')
    assert all(e["guest"] for e in call(server, "GET", path)["entrants"])
    for name in ("Iva", "Luka"):
        # Guests have no rating (their starting one, "500?", read as one of their own).
        text = page.inner_text(f'#tour-entrants li[data-name="{name}"]')
        assert text == f"{name} (guest)", text
    # The mark says how a guest is seeded (not "provisional until 30 rated games", which a
    # guest never plays), on a click or a tap as well as on hover.
    page.click('#tour-entrants li[data-name="Iva"] .tour-rating')
    page.locator("#tip").wait_for(state="visible")
    assert page.inner_text("#tip").startswith("A guest has no rating: a guest is seeded"), (
        page.inner_text("#tip")
    )
    assert (
        page.evaluate("getComputedStyle(document.getElementById('tour-entrants')).columnCount")
        == "auto"
    )
    assert client.problems() == []


def test_the_organiser_cancels_it_and_the_page_says_so(page_at: Any, server: Server) -> None:
    organiser = session_token(server, "Canceller")
    tournament_id = new_tournament(server, organiser, "Nedjelja")
    client = page_at(f"/tournament/{tournament_id}", "en", organiser)
    page = client.page
    page.wait_for_selector("#tour-organiser:not([hidden])")
    page.click("#tour-cancel")
    confirm(page)
    page.wait_for_selector("#tour-note:not([hidden])")
    assert page.inner_text("#tour-note") == "Cancelled by the organiser."
    # Said once: the note, not the note and the answer to the organiser's request.
    page.wait_for_timeout(500)  # the page has read the tournament again after its answer
    assert page.locator("body").inner_text().count("Cancelled by the organiser.") == 1
    assert page.locator("#tour-organiser").is_hidden()
    assert call(server, "GET", f"/api/tournaments/{tournament_id}")["status"] == "cancelled"
    # The list keeps it for its organiser (and its entrants), not for everyone else.
    row = f'tr[data-tournament="{tournament_id}"]'
    page.click("#tour-all")
    page.wait_for_selector(row)
    other = page_at("/tournaments", "en", session_token(server, "Passer-by")).page
    other.wait_for_selector("#tour-list:not([hidden])")
    other.wait_for_timeout(300)
    assert other.locator(row).count() == 0
    assert client.problems() == []


def test_a_tournament_cancelled_for_want_of_players_says_why(page_at: Any, server: Server) -> None:
    organiser = session_token(server, "Early")
    # Starting a second ago: within the API's minute of slack.
    starts_at = int(time.time() * 1000) - 1000
    tournament_id = new_tournament(
        server, organiser, "Prazno", cap=4, starts_at=starts_at, **SINGLE
    )
    client = page_at(f"/tournament/{tournament_id}", "ru")
    client.page.wait_for_selector("#tour-note:not([hidden])", timeout=20_000)
    assert client.page.inner_text("#tour-note") == (
        "Отменён: к началу записалось меньше двух игроков."
    )
    assert client.problems() == []


def test_a_logged_in_player_registers_as_their_account(
    page_at: Any, server: Server, tournaments: dict[str, Any]
) -> None:
    """While logged in, the page registers the account (its token), not the browser's
    guest session: the seat of the match will be kept for the id the player sits with.
    The name it offers is the account's, not the one the browser played under as a guest."""
    credentials = {"name": "Dunja", "password": "correct horse battery"}
    call(server, "POST", "/api/accounts", credentials)
    account = call(server, "POST", "/api/login", credentials)["token"]
    guest = session_token(server, "Gost Dunja")
    client = page_at(f"/tournament/{tournaments['open']}", "hr", guest, name="Gost Dunja")
    page = client.page
    page.wait_for_selector("#tour-form:not([hidden])")
    assert page.input_value("#tour-player-name") == "Gost Dunja"  # a guest's own name
    # The top bar says whose page it is, as the lobby's does.
    assert page.inner_text(".topbar .me") == "Gost Dunja"
    page.evaluate(f"localStorage.setItem('ninepool.account', {account!r})")
    page.reload()
    page.wait_for_selector("#tour-form:not([hidden])")
    assert page.input_value("#tour-player-name") == "Dunja"
    assert page.inner_text(".topbar .me") == "Dunja"
    path = f"/api/tournaments/{tournaments['open']}"
    assert call(server, "GET", path, token=account)["account"] == "Dunja"
    assert call(server, "GET", path, token=guest)["account"] is None
    page.fill("#tour-player-name", "Dunja")
    page.click("#tour-join")
    page.wait_for_selector("#tour-leave:visible")
    view = call(server, "GET", f"/api/tournaments/{tournaments['open']}", token=account)
    assert view["entered"] and view["entrants"][view["me"] - 1]["name"] == "Dunja"
    assert not call(server, "GET", f"/api/tournaments/{tournaments['open']}", token=guest)[
        "entered"
    ]
    assert client.problems() == []


def test_the_api_refuses_a_bad_body(server: Server) -> None:
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(server, "POST", "/api/tournaments", {"name": 5}, session_token(server, "Xena"))
    assert refused.value.code == 400


#: "The tournament is full" as each language says it.
FULL = {
    "en": "The tournament is full: every place is taken.",
    "hr": "Turnir je popunjen: sva su mjesta zauzeta.",
    "ru": "Турнир заполнен: свободных мест нет.",
}


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_a_full_tournament_offers_no_registration(page_at: Any, server: Server, lang: str) -> None:
    """Every place taken: the page says so and offers no name field and no "Register" (the
    API would refuse it); an entrant may still withdraw."""
    organiser = session_token(server, f"Org full {lang}")
    tournament_id = new_tournament(server, organiser, f"Full {lang}", cap=2, **SINGLE)
    path = f"/api/tournaments/{tournament_id}"
    entrant = session_token(server, f"Vesna {lang}")
    call(server, "POST", f"{path}/register", {"name": f"Vesna {lang}"}, entrant)
    call(
        server, "POST", f"{path}/register", {"name": f"Zoran {lang}"}, session_token(server, "Zoe")
    )
    client = page_at(f"/tournament/{tournament_id}", lang, session_token(server, f"Late {lang}"))
    page = client.page
    page.wait_for_selector("#tour-register:not([hidden]) #tour-entrants li")
    assert page.inner_text("#tour-full") == FULL[lang]
    # The facts above say it too, not "Registration open" beside it.
    facts = {"en": "Full: waiting", "hr": "Popunjen, čeka", "ru": "Мест больше нет"}[lang]
    assert facts in page.inner_text("#tour-facts")
    assert page.locator("#tour-join").is_hidden() and page.locator("#tour-player-name").is_hidden()
    assert page.locator("#tour-leave").is_hidden()
    save(client, f"tournament-full-{lang}.png", full_page=True)
    # Without a session either: nothing to open the game for.
    stranger = page_at(f"/tournament/{tournament_id}", lang)
    stranger.page.wait_for_selector("#tour-register:not([hidden]) #tour-full:not([hidden])")
    assert stranger.page.locator("#tour-session").is_hidden()
    registered = page_at(f"/tournament/{tournament_id}", lang, entrant)
    registered.page.wait_for_selector("#tour-leave:visible")
    assert registered.page.locator("#tour-full").is_hidden()
    assert client.problems() == [] and stranger.problems() == [] and registered.problems() == []


def play_out(server: Server, match: dict[str, Any], tokens: dict[str, str], loser: str) -> None:
    """Both players of `match` sit down at its table over the WebSocket, the draw's winner
    breaks, and `loser` concedes the match."""
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    names = match["players"]
    with (
        connect(ws_url, origin=server.url) as first,  # type: ignore[arg-type]
        connect(ws_url, origin=server.url) as second,  # type: ignore[arg-type]
    ):
        seats = [first, second]  # by slot: the match's first player sits in seat 0
        for request, (ws, name) in enumerate(zip(seats, names, strict=True)):
            hello = {"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": name}
            ws.send(msgpack.packb({**hello, "token": tokens[name]}))
            _frames(ws, lambda f: f["t"] == "welcome")
            join = {"t": "join", "id": 2, "room": match["room"], "role": "player"}
            ws.send(msgpack.packb(join))
            assert _frames(ws, lambda f: f.get("id") == 2)["t"] == "joined", request
            ws.send(msgpack.packb({"t": "ready", "id": 3, "ready": True}))
        drawn = seats[_frames(first, lambda f: f["t"] == "lag_result")["winner"]]
        drawn.send(msgpack.packb({"t": "lag_choice", "id": 4, "choice": "break"}))
        conceding = seats[names.index(loser)]
        _frames(conceding, lambda f: f["t"] == "ruling" and f.get("action") == "lag_choice")
        conceding.send(msgpack.packb({"t": "concede", "id": 5, "what": "match"}))
        _frames(conceding, lambda f: f["t"] == "match_over")


#: A bracket of two's one race (to 1), as each language says it.
FINAL_RACE = {
    "en": "The final is a race to 1",
    "hr": "Finale se igra do 1",
    "ru": "Финал — игра до 1",
}
EARLIER_RACES = {"en": "Races to 1,", "hr": "Igra se do 1,", "ru": "Игра до 1,"}

#: "The tournament has begun." as each language says it.
BEGUN = {"en": "The tournament has begun.", "hr": "Turnir je počeo.", "ru": "Турнир начался."}


@pytest.mark.parametrize("lang", ["en", "hr", "ru"])
def test_a_finished_tournament_says_who_won_not_that_it_began(
    page_at: Any, server: Server, lang: str
) -> None:
    """The organiser starts it from the page ("has begun" while it runs); once its one
    match is played the page names the champion and no longer says it has begun."""
    organiser = session_token(server, f"Org done {lang}")
    tournament_id = new_tournament(server, organiser, f"Done {lang}", cap=2, **SINGLE)
    path = f"/api/tournaments/{tournament_id}"
    tokens = {name: session_token(server, name) for name in (f"Jan {lang}", f"Kim {lang}")}
    for name, token in tokens.items():
        call(server, "POST", f"{path}/register", {"name": name}, token)
    client = page_at(f"/tournament/{tournament_id}", lang, organiser)
    page = client.page
    page.wait_for_selector("#tour-start:enabled")
    # Two places make the final alone: its race, and no other.
    facts = page.inner_text("#tour-facts")
    assert FINAL_RACE[lang] in facts and EARLIER_RACES[lang] not in facts, facts
    page.click("#tour-start")
    confirm(page)
    page.wait_for_selector("#tour-start", state="hidden")
    assert page.inner_text("#tour-organiser-answer") == BEGUN[lang]
    assert FINAL_RACE[lang] in page.inner_text("#tour-facts")
    match: dict[str, Any] = {}
    for _ in range(400):
        match = call(server, "GET", path)["matches"][0]
        if match["room"]:
            break
        time.sleep(0.05)
    assert match["room"], "the final never got its room"
    play_out(server, match, tokens, loser=match["players"][1])
    page.wait_for_selector("#tour-champion:not([hidden])", timeout=20_000)
    assert match["players"][0] in page.inner_text("#tour-champion")
    assert BEGUN[lang] not in page.locator("body").inner_text()
    # The bracket follows the champion's line, no empty answers' 60 px between them.
    box = "(s) => document.querySelector(s).getBoundingClientRect()"
    gap = page.evaluate(f"({box})('#tour-brackets').top - ({box})('#tour-champion').bottom")
    assert gap < 40, gap
    save(client, f"tournament-finished-{lang}.png", full_page=True)
    # The list names the champion, and marks the organiser's own tournament; the way to
    # the game is in the top bar, in the page's language.
    game = page.locator("#tour-game")
    assert game.inner_text() == TO_GAME[lang] and game.get_attribute("href") == f"/?lang={lang}"
    page.click("#tour-all")
    row = page.locator(f'tr[data-tournament="{tournament_id}"]')
    row.wait_for()
    champion = match["players"][0]
    name, status = row.locator("td").nth(0).inner_text(), row.locator("td").nth(4).inner_text()
    assert (name, status) == (f"Done {lang} {YOURS[lang]}", WON[lang].format(champion)), row
    save(client, f"tournaments-finished-{lang}.png", full_page=True)
    # A player's list marks the tournaments they entered, this one over with their place.
    loser = match["players"][1]
    for who, place in ((champion, FIRST), (loser, SECOND)):
        player = page_at("/tournaments", lang, tokens[who]).page
        row = player.locator(f'tr[data-tournament="{tournament_id}"] td').first
        row.wait_for()
        assert row.inner_text() == f"Done {lang} {PLACE[lang].format(place[lang])}"
    assert client.problems() == []


#: The top bar's way back to the game, the organiser's and an entrant's marks in the list,
#: and a finished tournament's state there, as each language says them.
TO_GAME = {"en": "Back to the game", "hr": "Natrag u igru", "ru": "Назад в игру"}
YOURS = {"en": "your tournament", "hr": "vaš turnir", "ru": "ваш турнир"}
PLACE = {"en": "your place: {}", "hr": "vaše mjesto: {}", "ru": "ваше место: {}"}
FIRST, SECOND = {"en": "1st", "hr": "1.", "ru": "1-е"}, {"en": "2nd", "hr": "2.", "ru": "2-е"}
WON = {
    "en": "Finished — won by {}",
    "hr": "Završen — pobjednik: {}",
    "ru": "Завершён — победитель: {}",
}


def test_the_language_goes_from_the_lobby_through_the_pages(
    page_at: Any, server: Server, tournaments: dict[str, Any]
) -> None:
    """A lobby opened with `?lang=hr` (nothing chosen in this browser before) leads to the
    list, a bracket and back to the lobby in Croatian; a language picked on the way goes
    on from there."""
    client = page_at("/", "hr")
    page = client.page
    page.wait_for_selector("#lobby:not([hidden])")
    page.click("#tournaments")
    page.wait_for_selector("#tour-list:not([hidden]) #tour-list-table:not([hidden])")
    assert page.url.endswith("/tournaments?lang=hr")
    assert page.get_attribute("html", "lang") == "hr"
    assert page.inner_text("#tour-list h1") == "Turniri"
    page.click(f'tr[data-tournament="{tournaments["open"]}"] a')
    page.wait_for_selector("#tour-view:not([hidden])")
    assert page.url.endswith(f"/tournament/{tournaments['open']}?lang=hr")
    assert page.get_attribute("html", "lang") == "hr"
    page.select_option("#lang", "ru")  # the reader's pick, from here on
    assert page.url.endswith("?lang=ru")
    page.click("#tour-all")
    page.wait_for_selector("#tour-list:not([hidden])")
    assert page.url.endswith("/tournaments?lang=ru")
    assert page.inner_text("#tour-list h1") == "Турниры"
    page.click("a.brand")
    page.wait_for_selector("#lobby:not([hidden])")
    assert page.url.split("#")[0].endswith("/?lang=ru")
    assert page.get_attribute("html", "lang") == "ru"
    assert client.problems() == []


def test_the_organisers_buttons_take_a_finger(page_at: Any, server: Server) -> None:
    """On a touch phone the organiser's "Remove" beside an entrant was 20 px tall, jammed
    against the name, and "Start now" a grey button beside a red "Cancel" as large: every
    button of the page is a finger's size, and starting is the page's main action."""
    organiser = session_token(server, "Starter")
    tournament_id = new_tournament(server, organiser, "Petak")
    path = f"/api/tournaments/{tournament_id}"
    for name in ("Iva", "Luka"):
        call(server, "POST", f"{path}/register", {"name": name}, session_token(server, name))
    phone = page_at(
        f"/tournament/{tournament_id}", "hr", organiser, width=390, height=844, touch=True
    )
    page = phone.page
    page.wait_for_selector("#tour-start:enabled")
    page.wait_for_selector('[data-remove="Luka"]')
    small = page.evaluate(
        """() => [...document.querySelectorAll('main :is(button, input:not([type=checkbox]))')]
          .filter((b) => b.offsetParent !== null && b.getBoundingClientRect().height < 44)
          .map((b) => `${b.id || b.textContent} ${Math.round(b.getBoundingClientRect().height)}`)"""
    )
    assert small == [], small
    assert "primary" in (page.get_attribute("#tour-start", "class") or "")
    name = page.locator('#tour-entrants li[data-name="Luka"] span').first.bounding_box()
    remove = page.locator('[data-remove="Luka"]').bounding_box()
    assert name is not None and remove is not None
    assert remove["x"] - (name["x"] + name["width"]) >= 12, (name, remove)
    save(phone, "tournament-organiser-phone-hr.png")
    assert phone.problems() == []


def test_a_tap_on_the_offered_name_and_typing_replaces_it(page_at: Any, server: Server) -> None:
    """On a touch phone, the name offered for registering is typed over after a tap, as
    after a click (a tap and typing wrote "Игрок-3819Дмитрий"), from the first letter."""
    organiser = session_token(server, "Org tap")
    tournament_id = new_tournament(server, organiser, "Tap")
    token = session_token(server, "Tapper")
    phone = page_at(
        f"/tournament/{tournament_id}",
        "ru",
        token,
        name="Игрок-3819",
        width=390,
        height=844,
        touch=True,
    )
    page = phone.page
    page.wait_for_selector("#tour-form:not([hidden])")
    assert page.input_value("#tour-player-name") == "Игрок-3819"
    page.locator("#tour-player-name").tap()
    page.keyboard.type("Дмитрий")
    assert page.input_value("#tour-player-name") == "Дмитрий"
    # A second tap inside the name being typed places the caret, as anywhere else.
    page.locator("#tour-player-name").tap()
    page.keyboard.type("ч")
    assert page.input_value("#tour-player-name").count("ч") == 1
    assert phone.problems() == []
