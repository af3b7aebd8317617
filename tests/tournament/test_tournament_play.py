"""Tournaments through a real server on port 0: the API, and a 16-player double
elimination played to the end by scripted WebSocket clients, the server restarted on
its SQLite files mid-way."""

from __future__ import annotations

import asyncio
import random
import time
from pathlib import Path

from protocol import messages as m
from server.players import ratings
from server.players.results import RackResult
from tests.server.support import Peer
from tests.tournament.support import (
    Factory,
    api,
    expect_in,
    play_match,
    playing,
    settings,
    sit,
    until,
)


async def test_bad_requests_are_refused_and_change_nothing(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    opened.append(organiser)
    token = organiser.token
    assert await api(server, "POST", "/api/tournaments", settings()) == (
        401,
        {"error": "send your session token"},
    )
    for bad in (
        {"cap": 65},
        {"cap": "8"},
        {"cap": True},
        {"format": "swiss"},
        {"seeding": 3},
        {"name": ""},
        {"name": 5},
        {"races": {"winners": 0}},
        {"races": {"semis": 3}},
        {"bots": "yes"},
        {"bot_level": 3},
        {"bots": True, "bot_level": 9},
        {"starts_at": 5},
        {"colour": "red"},
    ):
        status, answer = await api(server, "POST", "/api/tournaments", settings(**bad), token)
        assert status == 400 and answer["error"], (bad, answer)
    status, _ = await api(server, "POST", "/api/tournaments", raw=b"{nope", token=token)
    assert status == 400
    status, _ = await api(
        server, "POST", "/api/tournaments", settings(), token, content_type="text/plain"
    )
    assert status == 415
    status, _ = await api(server, "POST", "/api/tournaments", raw=b"x" * 5000, token=token)
    assert status == 413
    assert await api(server, "GET", "/api/tournaments") == (200, [])

    status, made = await api(server, "POST", "/api/tournaments", settings(cap=2), token)
    assert status == 201 and made["status"] == "registering" and made["cap"] == 2
    assert (made["yours"], made["entered"]) == (True, False)
    path = f"/api/tournaments/{made['id']}"
    # Who asks is told what is theirs: the organiser, anyone else, nobody (no token, or a
    # token this server did not sign).
    for asking, yours in ((token, True), (None, False), ("forged", False)):
        status, seen = await api(server, "GET", path, token=asking)
        assert status == 200 and (seen["yours"], seen["entered"]) == (yours, False), asking
        assert seen["me"] is None
    ana, ben, cy = [await Peer.connect(server, name) for name in ("Ana", "Ben", "Cyril")]
    opened.extend([ana, ben, cy])
    assert (await api(server, "POST", f"{path}/register", {"name": "Ana"}))[0] == 401
    assert (await api(server, "POST", f"{path}/register", {"name": 7}, ana.token))[0] == 400
    assert (await api(server, "POST", f"{path}/register", {"name": "A?B"}, ana.token))[0] == 400
    # The bracket's computer players are "Bot N": nobody registers as one.
    status, answer = await api(server, "POST", f"{path}/register", {"name": "Bot 3"}, ana.token)
    assert (status, answer["code"]) == (409, "name_taken")
    assert (await api(server, "POST", f"{path}/register", {"name": "Ana", "x": 1}, ana.token))[
        0
    ] == 400
    status, view = await api(server, "POST", f"{path}/register", {"name": "Ana"}, ana.token)
    assert status == 200 and [e["name"] for e in view["entrants"]] == ["Ana"]
    assert (view["yours"], view["entered"], view["me"]) == (False, True, 1)
    assert (await api(server, "GET", path, token=ana.token))[1]["entered"] is True
    assert (await api(server, "GET", path, token=token))[1]["entered"] is False
    # A guest has no rating: seeded as a new account starts, not above every rated player.
    assert view["entrants"][0]["rating"] == 500
    for peer, name, code in ((ana, "Ana2", 409), (ben, "ana", 409)):
        status, answer = await api(server, "POST", f"{path}/register", {"name": name}, peer.token)
        assert status == code, answer
    assert (await api(server, "POST", f"{path}/register", {"name": "Ben"}, ben.token))[0] == 200
    status, answer = await api(server, "POST", f"{path}/register", {"name": "Cyril"}, cy.token)
    assert (status, answer) == (409, {"error": "registration is full (2 players)", "code": "full"})
    assert (await api(server, "POST", f"{path}/unregister", token=cy.token))[0] == 409
    assert (await api(server, "POST", f"{path}/start", token=ana.token))[0] == 403
    # The organiser alone takes an entrant off the list (by name), before the start.
    assert (await api(server, "POST", f"{path}/remove", {"name": "Ben"}, ana.token))[0] == 403
    for bad in ({}, {"name": 5}, {"name": ""}, {"name": "A?B"}, {"name": "Ben", "why": "x"}):
        assert (await api(server, "POST", f"{path}/remove", bad, token))[0] == 400, bad
    status, answer = await api(server, "POST", f"{path}/remove", {"name": "Nobody"}, token)
    assert (status, answer["code"]) == (409, "not_registered")
    status, view = await api(server, "POST", f"{path}/remove", {"name": "ben"}, token)
    assert status == 200 and [e["name"] for e in view["entrants"]] == ["Ana"]
    # Taken off for good: Ben may not come back, under his name or another, and his view
    # of the tournament says why (the removal is not undone by registering again).
    for name in ("Ben", "Benedikt"):
        status, answer = await api(server, "POST", f"{path}/register", {"name": name}, ben.token)
        assert (status, answer["code"]) == (409, "removed"), name
    _, seen = await api(server, "GET", path, token=ben.token)
    assert (seen["removed"], seen["entered"]) == (True, False)
    assert [e["name"] for e in seen["entrants"]] == ["Ana"]
    assert (await api(server, "GET", path, token=cy.token))[1]["removed"] is False
    assert (await api(server, "POST", f"{path}/register", {"name": "Cyril"}, cy.token))[0] == 200
    assert (await api(server, "GET", "/api/tournaments/nope"))[0] == 404
    assert (await api(server, "DELETE", path))[0] == 405
    assert (await api(server, "POST", f"{path}/launch", token=ana.token))[0] == 404
    _, listed = await api(server, "GET", "/api/tournaments")
    assert [(t["id"], t["players"], t["cap"]) for t in listed] == [(made["id"], 2, 2)]
    # The list marks the reader's own: entered, organised (nothing without a token).
    assert (listed[0]["entered"], listed[0]["yours"], listed[0]["champion"]) == (False, False, None)
    for asking, mine in (
        (ana.token, (True, False)),
        (token, (False, True)),
        (ben.token, (False, False)),
    ):
        _, listed = await api(server, "GET", "/api/tournaments", token=asking)
        assert (listed[0]["entered"], listed[0]["yours"]) == mine
    # Nobody but the match's players may take a seat in its room.
    assert (await api(server, "POST", f"{path}/start", token=token))[0] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)))
    # Started (the draw made on the driver's next round, not by the request): too late.
    assert (await api(server, "POST", f"{path}/cancel", token=token))[0] == 409
    room = playing(view)[0]["room"]
    refused = await ben.request({"t": "join", "room": room, "role": "player"})
    assert isinstance(refused, m.Error) and refused.code == "room_full"
    watching = await ben.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    for seat in (None, 0, 1):  # nor from the stands
        refused = await ben.request({"t": "sit", "seat": seat})
        assert isinstance(refused, m.Error) and refused.code == "room_full"
    refused = await ben.request({"t": "create", "settings": {"reserved": ["x", "y"]}})
    assert isinstance(refused, m.Error)


async def test_the_organiser_cancels_before_the_start(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server()
    organiser, ana = await Peer.connect(server, "Org"), await Peer.connect(server, "Ana")
    opened.extend([organiser, ana])
    _, made = await api(server, "POST", "/api/tournaments", settings(), organiser.token)
    path = f"/api/tournaments/{made['id']}"
    assert made["cancelled"] is None
    assert (await api(server, "POST", f"{path}/register", {"name": "Ana"}, ana.token))[0] == 200
    assert (await api(server, "POST", f"{path}/cancel", token=ana.token))[0] == 403
    assert (await api(server, "POST", f"{path}/cancel"))[0] == 401
    status, view = await api(server, "POST", f"{path}/cancel", token=organiser.token)
    assert status == 200 and (view["status"], view["cancelled"]) == ("cancelled", "organiser")
    status, answer = await api(server, "POST", f"{path}/cancel", token=organiser.token)
    assert (status, answer["code"]) == (409, "over")
    status, answer = await api(server, "POST", f"{path}/register", {"name": "Bora"}, ana.token)
    assert (status, answer["code"]) == (409, "closed")
    # Fewer than two entrants when the time comes: cancelled, and said why.
    soon = settings(starts_at=int(time.time() * 1000))
    _, lonely = await api(server, "POST", "/api/tournaments", soon, organiser.token)
    view = await until(server, lonely["id"], lambda v: v["status"] == "cancelled")
    assert view["cancelled"] == "too_few"


async def test_the_organiser_calls_off_a_tournament_under_way(
    make_server: Factory, opened: list[Peer]
) -> None:
    """Once it had started the organiser could not end it: an event called off, or half
    its players gone, ran on. A cancel that says so (`{"under_way": true}`) ends it: nobody
    wins it, a match still at its table plays on but counts for nothing, no one forfeits
    by not coming, and no room is made for the next round. A plain cancel is refused as
    before (`started`): one meant for the list must not end what began meanwhile."""
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    ana, ben = [await Peer.connect(server, name) for name in ("Ana", "Ben")]
    opened.extend([organiser, ana, ben])
    four = settings(format="single", cap=4, races={"winners": 1, "final": 1})
    _, made = await api(server, "POST", "/api/tournaments", four, organiser.token)
    path = f"/api/tournaments/{made['id']}"
    for peer in (ana, ben):
        body = {"name": peer.name}
        assert (await api(server, "POST", f"{path}/register", body, peer.token))[0] == 200
    assert (await api(server, "POST", f"{path}/start", token=organiser.token))[0] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)) and playing(v)[0]["live"])
    match = playing(view)[0]
    assert match["live"]["forfeit_at"] is not None
    status, answer = await api(server, "POST", f"{path}/cancel", token=organiser.token)
    assert (status, answer["code"]) == (409, "started")
    for bad in ({"under_way": "yes"}, {"under_way": 1}, {"now": True}, [True]):
        status, answer = await api(server, "POST", f"{path}/cancel", bad, organiser.token)
        assert status == 400, (bad, answer)
    status, _ = await api(server, "POST", f"{path}/cancel", {"under_way": True}, ana.token)
    assert status == 403
    assert (await api(server, "GET", path))[1]["status"] == "running"  # nothing changed
    status, off = await api(server, "POST", f"{path}/cancel", {"under_way": True}, organiser.token)
    assert status == 200 and (off["status"], off["cancelled"]) == ("cancelled", "organiser")
    status, answer = await api(
        server, "POST", f"{path}/cancel", {"under_way": True}, organiser.token
    )
    assert (status, answer["code"]) == (409, "over")
    # The match at its table plays on: no forfeit counted down, its end reported nowhere.
    _, seen = await api(server, "GET", path)
    mine = next(x for x in seen["matches"] if x["id"] == match["id"])
    assert mine["status"] == "playing" and mine["live"]["forfeit_at"] is None
    by_slot = (ana, ben) if match["players"][0] == "Ana" else (ben, ana)
    for peer in by_slot:
        assert isinstance(await sit(peer, match["room"]), m.Joined)
        assert isinstance(await peer.request({"t": "ready"}), m.Ok)
    draw = await expect_in(by_slot[0], m.LagResult, match["room"])
    assert draw.winner is not None
    chosen = await by_slot[draw.winner].request({"t": "lag_choice", "choice": "break"})
    assert isinstance(chosen, m.Ok), chosen
    assert isinstance(await by_slot[1].request({"t": "concede", "what": "match"}), m.Ok)
    await expect_in(by_slot[0], m.MatchOver, match["room"])
    await server.tournaments.drive()
    _, after = await api(server, "GET", path)
    assert after["status"] == "cancelled" and after["champion"] is None
    assert after["standings"] == []  # no places out of a tournament never finished
    _, listed = await api(server, "GET", "/api/tournaments", token=ana.token)
    assert [t["place"] for t in listed if t["id"] == made["id"]] == [None]
    assert [x["status"] for x in after["matches"]] == [x["status"] for x in seen["matches"]]
    assert [x["room"] for x in after["matches"]] == [x["room"] for x in seen["matches"]]


async def test_an_account_enters_under_its_own_id_and_keeps_its_name(
    make_server: Factory, opened: list[Peer]
) -> None:
    """A logged-in player registers with the account's token (as the page sends it), under
    the account's player id — the id the match's seat is then kept for; nobody else may
    register under the account's name, however it is spelt."""
    server = await make_server()
    organiser, guest = await Peer.connect(server, "Org"), await Peer.connect(server, "Gost")
    opened.extend([organiser, guest])
    password = {"name": "Vesna", "password": "correct horse battery"}
    status, _ = await api(server, "POST", "/api/accounts", password)
    assert status == 201
    status, login = await api(server, "POST", "/api/login", password)
    assert status == 200
    vesna = await Peer.connect(server, "Vesna", token=login["token"])
    opened.append(vesna)
    _, made = await api(server, "POST", "/api/tournaments", settings(), organiser.token)
    path = f"/api/tournaments/{made['id']}"
    for spelling in ("Vesna", "VESNA"):
        status, answer = await api(
            server, "POST", f"{path}/register", {"name": spelling}, guest.token
        )
        assert (status, answer["code"]) == (409, "name_taken"), spelling
    # Vesna's rating is a measure once she has her rated games: shown without a "?".
    bot = ratings.bot_player_id(2)
    for number in range(1, ratings.PROVISIONAL_RACKS + 1):
        rack = RackResult("r", 1, number, vesna.player, bot, True, vesna.player)
        assert await server.players.rack_finished(rack) is not None
    status, view = await api(server, "POST", f"{path}/register", {"name": "Vesna"}, login["token"])
    assert status == 200 and view["entered"] and view["me"] == 1
    assert view["entrants"][0]["player"] == vesna.player
    assert view["entrants"][0]["rating"] > ratings.START
    assert view["entrants"][0]["provisional"] is False
    assert view["entrants"][0]["guest"] is False
    # A guest has none: seeded where a new account starts, and marked so.
    status, view = await api(server, "POST", f"{path}/register", {"name": "Gost"}, guest.token)
    assert status == 200 and view["entrants"][1]["name"] == "Gost"
    assert (view["entrants"][1]["rating"], view["entrants"][1]["provisional"]) == (500, True)
    assert view["entrants"][1]["guest"] is True
    # A token no longer good names nobody.
    assert (await api(server, "POST", f"{path}/unregister", token=login["token"] + "x"))[0] == 401


async def test_no_shows_forfeit_after_the_setting(make_server: Factory, opened: list[Peer]) -> None:
    server = await make_server(no_show=3.0)
    ana, ben = [await Peer.connect(server, name) for name in ("Ana", "Ben")]
    opened.extend([ana, ben])
    status, made = await api(
        server, "POST", "/api/tournaments", settings(format="single", cap=2), ana.token
    )
    assert status == 201
    for peer in (ana, ben):
        path = f"/api/tournaments/{made['id']}/register"
        assert (await api(server, "POST", path, {"name": peer.name}, peer.token))[0] == 200
    assert (await api(server, "POST", f"/api/tournaments/{made['id']}/start", token=ana.token))[
        0
    ] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)))
    match = playing(view)[0]
    slot = match["players"].index("Ana")
    assert isinstance(await ana.request({"t": "join", "room": match["room"]}), m.Joined)
    view = await until(server, made["id"], lambda v: v["status"] == "finished")
    decided = view["matches"][0]
    assert decided["decided"] == "forfeit" and decided["winner"] == slot
    assert view["champion"] == "Ana"
    _, listed = await api(server, "GET", "/api/tournaments")
    assert [(t["status"], t["champion"]) for t in listed] == [("finished", "Ana")]
    assert view["standings"] == [
        {"place": "1", "name": "Ana", "bot": False, "level": None},
        {"place": "2", "name": "Ben", "bot": False, "level": None},
    ]
    # Ana, waiting at the table, is told there: the match is hers, Ben forfeits it.
    ruling = await ana.expect(m.Ruling)
    assert ruling.action == "forfeit" and ruling.by == 1 - slot
    over = await ana.expect(m.MatchOver)
    assert over.winner == slot and over.reason == "forfeit"
    snapshot = await ana.request({"t": "resync"})
    assert isinstance(snapshot, m.Snapshot) and snapshot.view.status == "finished"
    # A rematch is not for a tournament's match.
    refused = await ana.request({"t": "rematch"})
    assert isinstance(refused, m.Error)


async def test_the_bracket_shows_who_has_sat_down_and_the_score_so_far(
    make_server: Factory, opened: list[Peer]
) -> None:
    """A match being played carries its room's state: who holds their seat, whether play
    has begun, the racks won so far, and until it has when a no-show forfeits; a match
    not being played carries none."""
    server = await make_server()
    ana, ben = [await Peer.connect(server, name) for name in ("Ana", "Ben")]
    opened.extend([ana, ben])
    races = {"winners": 3, "losers": 3, "final": 3}
    _, made = await api(
        server, "POST", "/api/tournaments", settings(format="single", cap=2, races=races), ana.token
    )
    path = f"/api/tournaments/{made['id']}"
    assert made["matches"] == [] or all(match["live"] is None for match in made["matches"])
    for peer in (ana, ben):
        assert (await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token))[
            0
        ] == 200
    assert (await api(server, "POST", f"{path}/start", token=ana.token))[0] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)) and playing(v)[0]["live"])
    match = playing(view)[0]
    # Until play begins, when a player who has not come forfeits: the no-show time after
    # the room was made.
    forfeit_at = match["live"].pop("forfeit_at")
    left = forfeit_at - time.time() * 1000
    assert 0 < left <= server.tournaments.no_show_ms
    assert match["live"] == {"seated": [False, False], "started": False, "score": [0, 0]}
    by_slot = (ana, ben) if match["players"][0] == "Ana" else (ben, ana)
    room = match["room"]

    assert isinstance(await sit(by_slot[0], room), m.Joined)
    view = await until(server, made["id"], lambda v: v["matches"][0]["live"]["seated"][0])
    assert view["matches"][0]["live"] == {
        "seated": [True, False],
        "started": False,
        "score": [0, 0],
        "forfeit_at": forfeit_at,
    }

    assert isinstance(await sit(by_slot[1], room), m.Joined)
    for peer in by_slot:
        assert isinstance(await peer.request({"t": "ready"}), m.Ok)
    draw = await expect_in(by_slot[0], m.LagResult, room)
    assert draw.winner is not None
    chosen = await by_slot[draw.winner].request({"t": "lag_choice", "choice": "break"})
    assert isinstance(chosen, m.Ok), chosen
    # Slot 1 gives up the first rack: slot 0 leads 1–0, the match goes on.
    assert isinstance(await by_slot[1].request({"t": "concede", "what": "game"}), m.Ok)
    view = await until(server, made["id"], lambda v: v["matches"][0]["live"]["score"] == [1, 0])
    assert view["matches"][0]["live"] == {
        "seated": [True, True],
        "started": True,
        "score": [1, 0],
        "forfeit_at": None,
    }
    assert view["matches"][0]["status"] == "playing" and view["matches"][0]["score"] == [0, 0]

    assert isinstance(await by_slot[0].request({"t": "concede", "what": "match"}), m.Ok)
    view = await until(server, made["id"], lambda v: v["status"] == "finished")
    assert view["matches"][0]["live"] is None and view["matches"][0]["winner"] == 1


async def test_sixteen_players_double_elimination_to_the_end_across_a_restart(
    make_server: Factory, opened: list[Peer], tmp_path: Path
) -> None:
    store = f"sqlite://{tmp_path / 'var' / 'rooms.db'}"
    server = await make_server(store=store)
    organiser = await Peer.connect(server, "Org")
    names = [f"Player {n:02d}" for n in range(1, 17)]
    peers = {name: await Peer.connect(server, name) for name in names}
    opened.extend([organiser, *peers.values()])
    tokens = {name: peer.token for name, peer in peers.items()}
    status, made = await api(server, "POST", "/api/tournaments", settings(), organiser.token)
    assert status == 201
    tournament_id = made["id"]
    for name, peer in peers.items():
        path = f"/api/tournaments/{tournament_id}/register"
        assert (await api(server, "POST", path, {"name": name}, peer.token))[0] == 200
    path = f"/api/tournaments/{tournament_id}/start"
    assert (await api(server, "POST", path, token=organiser.token))[0] == 200

    chance = random.Random(18)
    results: dict[str, int] = {}
    restarted = False
    while True:
        view = await until(
            server,
            tournament_id,
            lambda v: (
                v["status"] == "finished" or any(match["id"] not in results for match in playing(v))
            ),
        )
        if view["status"] == "finished":
            break
        batch = [match for match in playing(view) if match["id"] not in results]
        for match in batch:
            # The losers' side wins the first grand final: the reset is played too.
            results[match["id"]] = 1 if match["id"] == "GF1" else chance.randrange(2)
        await asyncio.gather(
            *(
                play_match(
                    match["room"],
                    (peers[match["players"][0]], peers[match["players"][1]]),
                    results[match["id"]],
                )
                for match in batch
            )
        )
        if len(results) >= 12 and not restarted:
            # Stopped and started again on the same files: the tournament goes on.
            restarted = True
            # (once the matches just played are recorded as played: their rooms report
            # them a moment after their last shot, and under load the next matches' rooms
            # were not yet made when the matches still "playing" were these)
            waiting = await until(
                server,
                tournament_id,
                lambda v: (
                    bool(playing(v))
                    and all(m["status"] != "ready" for m in v["matches"])
                    and not any(m["id"] in results for m in playing(v))
                ),
            )
            unentered = {match["id"]: match["room"] for match in playing(waiting)}
            for peer in [organiser, *peers.values()]:
                await peer.close()
            await server.stop()
            server = await make_server(store=store)
            peers = {name: await Peer.connect(server, name, tokens[name]) for name in names}
            opened.extend(peers.values())
            # The rooms made for the next matches come back with the server (each room is
            # stored when it is made), kept for the same players.
            _, again = await api(server, "GET", f"/api/tournaments/{tournament_id}")
            assert unentered
            assert {m["id"]: m["room"] for m in playing(again)} == unentered

    assert restarted
    decided = [match for match in view["matches"] if match["decided"] in ("played",)]
    assert len(decided) == 2 * 16 - 1 == len(results)
    for match in decided:
        assert match["winner"] == results[match["id"]], match
        assert match["race"] == 1 and max(match["score"]) <= 1
    reset = view["matches"][-1]
    assert reset["id"] == "GF2" and reset["decided"] == "played"
    assert view["champion"] == reset["players"][reset["winner"]]
    places = [row["place"] for row in view["standings"]]
    assert places == ["1", "2", "3", "4"] + ["5–6"] * 2 + ["7–8"] * 2 + ["9–12"] * 4 + ["13–16"] * 4
    assert sorted(row["name"] for row in view["standings"]) == names


async def test_play_starts_by_itself_at_the_start_time(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server()
    ana, ben = [await Peer.connect(server, name) for name in ("Ana", "Ben")]
    opened.extend([ana, ben])
    soon = int(time.time() * 1000) + 1500
    _, full = await api(server, "POST", "/api/tournaments", settings(starts_at=soon), ana.token)
    _, empty = await api(server, "POST", "/api/tournaments", settings(starts_at=soon), ana.token)
    for peer in (ana, ben):
        path = f"/api/tournaments/{full['id']}/register"
        assert (await api(server, "POST", path, {"name": peer.name}, peer.token))[0] == 200
    path = f"/api/tournaments/{empty['id']}/register"
    assert (await api(server, "POST", path, {"name": "Ana"}, ana.token))[0] == 200
    view = await until(server, full["id"], lambda v: bool(playing(v)))
    assert view["status"] == "running" and len(view["entrants"]) == 2
    path = f"/api/tournaments/{full['id']}/register"
    status, answer = await api(server, "POST", path, {"name": "Late"}, ana.token)
    assert status == 409 and answer["code"] == "closed"
    # One entrant at the start: no tournament.
    cancelled = await until(server, empty["id"], lambda v: v["status"] != "registering")
    assert cancelled["status"] == "cancelled" and cancelled["matches"] == []


async def test_an_opponent_under_a_lookalike_name_cannot_lock_a_player_out(
    make_server: Factory, opened: list[Peer]
) -> None:
    """A seat kept for its player is theirs to take: an opponent who sat down under a name
    like theirs ("Асе" in Cyrillic for "Ace") got them refused as `name_confusable`, to lose the
    match as a no-show. (The opponent is now refused that name at the table instead.)"""
    server = await make_server()
    ana, ben = [await Peer.connect(server, name) for name in ("Ace", "Ben")]
    opened.extend([ana, ben])
    _, made = await api(
        server, "POST", "/api/tournaments", settings(format="single", cap=2), ana.token
    )
    path = f"/api/tournaments/{made['id']}"
    for peer in (ana, ben):
        assert (await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token))[
            0
        ] == 200
    assert (await api(server, "POST", f"{path}/start", token=ana.token))[0] == 200
    view = await until(server, made["id"], lambda v: bool(playing(v)) and playing(v)[0]["room"])
    room = playing(view)[0]["room"]
    lookalike = await Peer.connect(server, "\u0410\u0441\u0435", token=ben.token)
    opened.append(lookalike)
    refused = await sit(lookalike, room)
    assert isinstance(refused, m.Error) and refused.code == "name_confusable", refused
    assert isinstance(await sit(ana, room), m.Joined)
