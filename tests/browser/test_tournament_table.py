"""A tournament's match at the table, in Croatian: the lobby tells a player that the table
of their match is open and seats them; the empty seats name the players they wait for;
the table counts down to a no-show's forfeit; the player who came waits at the table
(told for whom, with no invite link), the opponent never comes, and when the no-show
time is up (`--tournament-no-show`, 12 s here: long enough for a player on a slow machine
to reach the table from the lobby first) the player is told there that the match is
theirs, with the way back to the bracket and no rematch; a spectator is never offered a
seat kept for a player."""

from __future__ import annotations

import re
import time
from typing import Any

import msgpack
import pytest
from websockets.sync.client import connect

from protocol.messages import PROTOCOL_VERSION
from tests.browser.support import Client, Server, save
from tests.browser.test_client import assert_quiet
from tests.browser.test_firstminute import OpenClient
from tests.browser.test_tournament_page import _frames, call, new_tournament, session_token


@pytest.fixture(scope="module")
def server_flags() -> list[str]:
    return ["--tournament-no-show", "12"]


def running_match(server: Server, organiser: str, tournament: str) -> dict[str, Any]:
    call(server, "POST", f"/api/tournaments/{tournament}/start", token=organiser)
    for _ in range(400):
        view = call(server, "GET", f"/api/tournaments/{tournament}")
        playing = [m for m in view["matches"] if m["status"] == "playing" and m["room"]]
        if playing:
            return dict(playing[0])
        time.sleep(0.05)
    raise AssertionError("the match never got its room")


def ana_in_a_tournament(server: Server, ana: Client, title: str = "Saturday") -> str:
    """Ana (the browser `ana`, under her session) and Luka entered in a final of two named
    `title`; started, its room made. The room's id."""
    token = ana.page.evaluate("localStorage.getItem('ninepool.token')")
    organiser = session_token(server, "Organiser")
    tournament = new_tournament(
        server, organiser, title, format="single", cap=2, races={"winners": 2, "final": 2}
    )
    path = f"/api/tournaments/{tournament}/register"
    call(server, "POST", path, {"name": "Ana"}, token)
    call(server, "POST", path, {"name": "Luka"}, session_token(server, "Luka"))
    return str(running_match(server, organiser, tournament)["room"])


def test_the_player_who_came_is_told_the_match_is_theirs(
    open_client: OpenClient, open_page: Any, server: Server
) -> None:
    ana = open_client("Ana", lang="hr")
    ana.wait("!!a.welcome")
    token = ana.page.evaluate("localStorage.getItem('ninepool.token')")
    organiser = session_token(server, "Organiser")
    races = {"winners": 2, "final": 2}
    tournament = new_tournament(
        server, organiser, "Petak navečer", format="single", cap=2, races=races
    )
    path = f"/api/tournaments/{tournament}/register"
    call(server, "POST", path, {"name": "Ana"}, token)
    luka_token = session_token(server, "Luka")
    call(server, "POST", path, {"name": "Luka"}, luka_token)
    match = running_match(server, organiser, tournament)
    room = match["room"]

    # A spectator is offered no seat: each is kept for its player.
    eve = open_client("Eve", lang="hr", hash=f"#/room/{room}")
    eve.wait(f"a.room === {room!r} && a.role === 'spectator'")
    assert eve.page.locator("#seat0 .sit, #seat1 .sit").count() == 0
    # Each empty seat names the player it waits for (the room knows only their ids).
    eve.page.wait_for_function(
        "['Ana', 'Luka'].every(n => document.querySelector('.scoreboard').textContent.includes(n))"
    )
    assert "još nije tu" in eve.page.inner_text("#seat0")
    # The table counts down to the no-show's forfeit (12 s here).
    clock = eve.page.inner_text("#clock")
    assert re.fullmatch(r"Nedolazak: poraz bez borbe za 0:(0[0-9]|1[0-2]) min", clock), clock
    assert "Prazno" not in eve.page.inner_text(".scoreboard")
    # The menu links the tournament's bracket, to spectators too (in a tab of its own).
    eve.page.click("#more summary")
    bracket = eve.page.locator("#more-tournament")
    assert bracket.is_visible() and bracket.inner_text() == "Turnirsko stablo"
    assert bracket.get_attribute("href") == f"/tournament/{tournament}?lang=hr"
    assert bracket.get_attribute("target") == "_blank"
    eve.page.click("#more summary")
    assert eve.page.inner_text("#status .prompt") in (
        "Čeka se da Ana i Luka sjednu za stol.",
        "Čeka se da Luka i Ana sjednu za stol.",
    )

    # Ana, in the lobby, is told her match's table is open, and sits down from there.
    banner = ana.page.locator("#my-match")
    banner.wait_for(state="visible")
    ana.page.wait_for_function(
        "document.getElementById('my-match-text').textContent"
        " === 'Vaš turnirski meč je spreman: Petak navečer · Finale, protivnik: Luka.'"
    )
    due = ana.page.inner_text("#my-match-due")
    said = r"Sjednite za stol u roku od 0:\d\d min, inače ćete izgubiti meč zbog nedolaska\."
    assert re.fullmatch(said, due), due
    # A tab in the background says it in its title.
    assert ana.page.title() == "● Vaš je stol otvoren — ninepool — devetka", ana.page.title()
    save(ana, "tournament-my-match-hr.png")
    ana.page.click("#my-match-sit")
    ana.wait(f"a.room === {room!r} && a.role === 'player'")
    # The no-show's clock at the table is Luka's, named (bare, she read it as her own).
    ana.page.wait_for_function(
        "document.getElementById('clock').textContent.includes('za 0:')"
        " || document.getElementById('result-dialog').open"
    )
    if not ana.page.is_visible("#result-dialog"):
        clock = ana.page.inner_text("#clock")
        assert re.fullmatch(r"Luka: nedolazak, poraz bez borbe za 0:\d\d min", clock), clock
    ana.page.wait_for_function("document.title === 'ninepool — devetka'")  # at the table
    # At the table she is told whom she waits for, and offered no invite link.
    ana.page.wait_for_function(
        "document.querySelector('#status .prompt')?.textContent.startsWith('Čeka se da Luka')"
        " || document.getElementById('result-dialog').open"
    )
    if not ana.page.is_visible("#result-dialog"):
        assert ana.page.is_hidden("#invite")
    ana.page.locator("#result-dialog").wait_for(state="visible", timeout=30_000)
    assert ana.page.inner_text("#result-title") == "Dobili ste meč!"
    assert ana.page.inner_text("#result-text") == (
        "Protivnik nije došao za stol: pobjeda bez borbe."
    )
    assert ana.page.is_hidden("#result-rematch") and ana.page.is_hidden("#result-replay")
    assert ana.page.is_hidden("#result-replay-match")  # (no replay of a match never played)
    # The match is over: its result closes ("Nastavi", continue, read as playing on).
    assert ana.page.inner_text("#result-close") == "Zatvori"
    # The final: the result says the tournament is hers, and Eve's that Ana won it.
    ana.page.wait_for_function(
        "document.getElementById('result-next').textContent === 'Osvojili ste turnir!'"
    )
    assert ana.page.is_visible("#result-next")
    # The title won stands out, not in the grey of a footnote.
    assert ana.page.evaluate(
        "getComputedStyle(document.getElementById('result-next')).color"
        " === getComputedStyle(document.getElementById('result-title')).color"
    )
    eve.page.wait_for_function(
        "document.getElementById('result-next').textContent === 'Ana osvaja turnir!'"
    )
    # No score against an empty seat ("Mjesto 2 0 : 0").
    assert ana.page.inner_text("#result-score") == ""
    back = ana.page.locator("#result-tournament")
    assert back.is_visible() and back.inner_text() == "Natrag na turnir"
    # The page was opened in Croatian (?lang=hr): the way back keeps it.
    assert back.get_attribute("href") == f"/tournament/{tournament}?lang=hr"
    save(ana, "tournament-walkover-hr.png")
    # Dismissed, the result leaves the way back on the table, where the rematch would be.
    ana.page.click("#result-close")
    # The table's own words: Luka never came (not "away too long").
    verdict = ana.page.inner_text("#status .verdict")
    assert verdict.startswith("Luka gubi zbog nedolaska za stol"), verdict
    table_back = ana.page.locator("#tournament-back")
    table_back.wait_for(state="visible")
    assert table_back.inner_text() == "Natrag na turnir"
    assert ana.page.is_hidden("#rematch")
    table_back.click()
    ana.page.wait_for_url(f"**/tournament/{tournament}*")
    ana.page.wait_for_function("document.body.textContent.includes('Ana')", timeout=10_000)
    # The page tells her where she stands, not only the champion's name.
    ana.page.locator("#tour-where").wait_for(state="visible")
    assert ana.page.inner_text("#tour-where") == "Osvojili ste turnir!"
    # Luka, who never came, reads his place on the same page.
    luka = open_page(
        "Luka", f"/tournament/{tournament}?lang=hr", storage={"ninepool.token": luka_token}
    )
    luka.page.locator("#tour-where").wait_for(state="visible")
    assert luka.page.inner_text("#tour-where") == "Završili ste na 2. mjestu."
    row = luka.page.inner_text("#tour-standings-rows tr:nth-child(2)")
    # His row marked as his; the place as Croatian writes it ("2.", as the line above).
    assert row.split() == ["2.", "Luka", "vi"]
    save(luka, "tournament-place-hr.png")
    view = call(server, "GET", f"/api/tournaments/{tournament}")
    assert view["champion"] == "Ana" and view["matches"][0]["decided"] == "forfeit"
    assert_quiet(ana, eve)


def test_a_phone_keeps_the_way_back_to_the_bracket_on_the_table(
    open_client: OpenClient, server: Server
) -> None:
    """On a phone the table's actions are in the closed sheet: once the match's result
    is dismissed, the card on the table that offers a rematch after a match offers a
    tournament's player the way back to the bracket instead (there is no rematch)."""
    ana = open_client("Ana", lang="ru", width=390, height=844, touch=True)
    ana.wait("!!a.welcome")
    room = ana_in_a_tournament(server, ana, "Воскресенье")
    ana.page.evaluate(f"location.hash = '#/play/{room}'")
    ana.wait(f"a.room === {room!r} && a.role === 'player'")
    ana.page.locator("#result-dialog").wait_for(state="visible", timeout=30_000)
    assert ana.page.is_hidden("#over-controls")  # the result offers it meanwhile
    ana.page.tap("#result-close")
    card = ana.page.locator("#over-controls")
    card.wait_for(state="visible")
    assert ana.page.is_hidden("#over-rematch")
    # How the match ended is said once, above the table, not again on the card.
    assert "Матч окончен" in ana.page.inner_text("#status")
    assert "Матч окончен" not in card.inner_text()
    back = ana.page.locator("#over-tournament")
    assert back.is_visible() and back.inner_text() == "К турниру"
    box = card.bounding_box()
    assert box is not None and box["y"] + box["height"] <= 844  # on the screen, not below it
    save(ana, "tournament-over-card-ru-phone.png")
    back.tap()
    ana.page.wait_for_url("**/tournament/*")
    assert "lang=ru" in ana.page.url
    ana.page.locator("#tour-where").wait_for(state="visible")
    assert ana.page.inner_text("#tour-where") == "Вы выиграли турнир!"
    assert_quiet(ana)


def test_a_player_at_another_table_is_shown_the_way_to_their_match(
    open_client: OpenClient, server: Server
) -> None:
    """Away from the lobby (at a finished match's table, or any other) the lobby's banner
    is out of sight, and a toast of four seconds was all a tournament's player heard of
    their next match while its no-show clock ran: the table says it, with the way there,
    for as long as it is open."""
    ana = open_client("Ana", lang="hr")
    ana.wait("!!a.welcome")
    # At a table of her own when the match opens.
    ana.page.click("#create-form button[type=submit]")
    ana.wait("!!a.view && a.role === 'player'")
    assert ana.page.is_hidden("#next-match")
    room = ana_in_a_tournament(server, ana, "Subota")
    ana.page.locator("#next-match").wait_for(state="visible")
    assert (
        ana.page.inner_text("#next-match-text") == "Vaš turnirski meč je spreman: Subota · Finale."
    )
    save(ana, "tournament-next-match-at-a-table-hr.png")
    ana.page.click("#next-match-sit")
    ana.wait(f"a.room === {room!r} && a.role === 'player'")
    assert ana.page.is_hidden("#next-match"), "at the match's own table it is not said"
    assert_quiet(ana)


def test_conceding_or_leaving_a_tournament_match_says_what_losing_it_costs(
    open_client: OpenClient, server: Server
) -> None:
    """A double elimination of two's first match: the concede question and the leave
    question say that losing it leaves the player the grand final (there is no losers'
    bracket to go to; at any other table they say only that it gives the opponent the
    match); conceded, the result says so; leaving takes her to the bracket."""
    ana = open_client("Ana", lang="ru")
    ana.wait("!!a.welcome")
    token = ana.page.evaluate("localStorage.getItem('ninepool.token')")
    organiser = session_token(server, "Organiser 3")
    tournament = new_tournament(server, organiser, "Среда", cap=2)  # double elimination
    luka_token = session_token(server, "Luka")
    path = f"/api/tournaments/{tournament}/register"
    call(server, "POST", path, {"name": "Ana"}, token)
    call(server, "POST", path, {"name": "Luka"}, luka_token)
    room = str(running_match(server, organiser, tournament)["room"])
    ws_url = server.url.replace("http://", "ws://") + "/ws"
    with connect(ws_url, origin=server.url) as luka:  # type: ignore[arg-type]
        hello = {"t": "hello", "id": 1, "v": PROTOCOL_VERSION, "name": "Luka"}
        luka.send(msgpack.packb({**hello, "token": luka_token}))
        _frames(luka, lambda f: f["t"] == "welcome")
        luka.send(msgpack.packb({"t": "join", "id": 2, "room": room, "role": "player"}))
        assert _frames(luka, lambda f: f.get("id") == 2)["t"] == "joined"
        luka.send(msgpack.packb({"t": "ready", "id": 3, "ready": True}))
        ana.page.evaluate(f"location.hash = '#/play/{room}'")
        ana.wait(f"a.room === {room!r} && a.role === 'player'")
        if _frames(luka, lambda f: f["t"] == "lag_result")["winner"] == ana.state("a.seat"):
            ana.page.locator("#lag-dialog").wait_for(state="visible")
            ana.page.click("#lag-break")
        else:
            luka.send(msgpack.packb({"t": "lag_choice", "id": 4, "choice": "break"}))
        ana.wait("a.view.status === 'playing' && !!a.table")
        ana.page.click("#more summary")
        ana.page.click("#concede")
        ana.page.locator("#concede-dialog").wait_for(state="visible")
        assert ana.page.inner_text("#concede-stake") == (
            "Это матч турнира: проиграв его, вы сыграете в гранд-финале."
        )
        save(ana, "tournament-concede-ru.png")
        ana.page.click("#concede-cancel")
        ana.page.click("#more summary")
        ana.page.click("#leave")
        ana.page.locator("#leave-dialog").wait_for(state="visible")
        assert ana.page.inner_text("#leave-stake") == (
            "Это матч турнира: проиграв его, вы сыграете в гранд-финале."
        )
        ana.page.click("#leave-cancel")
        assert ana.state("a.view.status") == "playing"
        # Conceded, the result says what it cost her, not only who won.
        ana.page.click("#more summary")
        ana.page.click("#concede")
        ana.page.click("#concede-match")
        ana.page.locator("#result-dialog").wait_for(state="visible")
        assert ana.page.inner_text("#result-next") == "Вы сыграете в гранд-финале."
        save(ana, "tournament-conceded-result-ru.png")
        ana.page.click("#result-close")
        # Leaving the finished table takes her to the bracket, not the lobby: there she
        # reads where she stands now.
        ana.page.click("#more summary")
        ana.page.click("#leave")
        ana.page.wait_for_url(f"**/tournament/{tournament}?lang=ru")
        ana.page.wait_for_selector("#tour-view:not([hidden])")
    assert_quiet(ana)
