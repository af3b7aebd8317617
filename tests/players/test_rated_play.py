"""Rated play on a real server (port 0), real WebSocket clients and the real HTTP API,
its players in a real SQLite file or on a real redis-server.

A guest claims the name they play under, a second player signs up, both log in on new
connections with their account tokens, and a rated race to 1 is played to its end (the
rack won on three fouls, R13: a rated ending). Ratings, statistics, the match list and
the leaderboard move once; the server is then stopped and started again on the same
stores — the room comes back and hands its results over again — and nothing moves twice.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from server.app import GameServer
from server.ops.computers import Computers
from server.players.results import RackResult
from server.players.tokens import AccountTokens
from server.rooms.simulation import PhysicsPool
from tests.players.test_api import call
from tests.redis_server import RedisServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break, make_config

PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def physics_pool() -> Any:
    pool = PhysicsPool(workers=1)
    asyncio.run(pool.start())
    yield pool
    pool.close()


@pytest.fixture(params=["sqlite", "redis"])
def players_store(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite://{tmp_path / 'players.db'}"
    redis: RedisServer = request.getfixturevalue("own_redis")
    return redis.url


@pytest.fixture
async def servers(
    physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> AsyncIterator[list[GameServer]]:
    """Servers started by the test (same stores), all stopped at the end."""
    started: list[GameServer] = []
    yield started
    for server in reversed(started):
        if server.ready:
            await server.stop()


async def start(
    servers: list[GameServer], pool: PhysicsPool, store: str, tmp: Path, **settings: Any
) -> GameServer:
    config = make_config(
        store=f"sqlite://{tmp / 'rooms.db'}", players_store=store, grace=600.0, **settings
    )
    server = GameServer(config, pool=pool)
    await server.start()
    servers.append(server)
    return server


async def account(server: GameServer, name: str, guest: str | None = None) -> str:
    """Claim `name` (as the guest of that session token, if given) and log in."""
    status, _, body = await call(
        server, "POST", "/api/accounts", {"name": name, "password": PASSWORD}, token=guest
    )
    assert (status, body) == (201, {"name": name}), body
    status, _, body = await call(server, "POST", "/api/login", {"name": name, "password": PASSWORD})
    assert status == 200
    return str(body["token"])


async def hello(server: GameServer, name: str, token: str | None = None) -> m.ServerMessage:
    peer = await Peer.connect_raw(server, name)
    try:
        return await peer.request(
            {"t": "hello", "v": m.PROTOCOL_VERSION, "name": name, "token": token}
        )
    finally:
        await peer.close()


def follow_ups(verdict: m.VerdictView) -> int:
    return sum((verdict.warned is not None, verdict.game_over, verdict.match_over))


async def settle(players: tuple[Peer, Peer], seq: int) -> None:
    for peer in players:
        await peer.catch_up(seq)
        peer.inbox = [msg for msg in peer.inbox if isinstance(msg, m.Snapshot)]


async def shoot(players: tuple[Peer, Peer], shooter: Peer, message: dict[str, Any]) -> m.ShotResult:
    reply = await shooter.request(message)
    assert isinstance(reply, m.Ok), reply
    result = await shooter.expect(m.ShotResult)
    await settle(players, result.seq + follow_ups(result.verdict))
    return result


async def place(players: tuple[Peer, Peer], shooter: Peer) -> None:
    table = shooter.table
    assert table is not None
    spot = scripting.free_spot(table, kitchen=table.ball_in_hand == "kitchen")
    reply = await shooter.request({"t": "place", "pos": list(spot)})
    assert isinstance(reply, m.Ok), reply
    placed = await shooter.expect(m.Placed)
    await settle(players, placed.seq)


async def race_to_one_on_three_fouls(players: tuple[Peer, Peer]) -> Peer:
    """The breaker's opponent fouls three times in a row (R13), the breaker plays safe in
    between: the rack and the match go to the breaker. Returns the fouler."""
    first = players[0].table
    assert first is not None
    breaker = players[first.turn or 0]
    await shoot(players, breaker, scripting.break_shot(first))
    fouler: Peer | None = None
    for _ in range(30):
        table = players[0].table
        assert table is not None
        if table.match_over:
            break
        assert table.turn is not None
        shooter = players[table.turn]
        if table.choice_pending:
            reply = await shooter.request({"t": "choose", "choice": "shoot"})
            assert isinstance(reply, m.Ok)
            ruling = await shooter.expect(m.Ruling)
            extra = follow_ups(ruling.verdict) if ruling.verdict is not None else 0
            await settle(players, ruling.seq + extra)
            continue
        if fouler is None:
            fouler = shooter
        if table.ball_in_hand is not None:
            await place(players, shooter)
            table = shooter.table
            assert table is not None
        if shooter is fouler:
            plan = scripting.plan_foul(table)
        else:
            plan = scripting.plan_legal(table, "miss")
        await shoot(players, shooter, plan.message())
    else:
        raise AssertionError("the match did not end")
    assert fouler is not None
    return fouler


async def profile(server: GameServer, name: str) -> dict[str, Any]:
    status, _, body = await call(server, "GET", f"/api/players/{name}")
    assert status == 200, body
    return dict(body)


async def until(check: Any, what: str) -> None:
    """Poll (the hand-over runs beside the room) until `check()` holds."""
    for _ in range(400):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"never happened: {what}")


async def test_claim_log_in_play_a_rated_match_counted_exactly_once(
    servers: list[GameServer], physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> None:
    server = await start(servers, physics_pool, players_store, tmp_path)
    guest = await Peer.connect(server, "Ana")  # a guest, as everyone starts
    assert guest.token is not None and guest.player is not None
    ana_token = await account(server, "Ana", guest=guest.token)  # claims the name
    bo_token = await account(server, "Boris")
    await guest.close()

    # Established players (30 rated racks each, seeded through the service) so that the
    # leaderboard lists them.
    ana_id = guest.player
    bo_account = await server.players.store.account_by_name("boris")
    assert bo_account is not None
    bo_id = bo_account.player
    for number in range(30):
        winner, loser = (ana_id, bo_id) if number % 2 else (bo_id, ana_id)
        seeded = RackResult("seed", 1, number + 1, winner, loser, True, winner, at=None)
        assert await server.players.rack_finished(seeded) is not None
    before = {name: await profile(server, name) for name in ("Ana", "Boris")}
    assert before["Ana"]["racks"] == 30 and not before["Ana"]["provisional"]

    # Names: an account's name is not a guest's, in any case or look; a bad token is refused.
    for name in ("ana", "ANA", "\u0410na"):  # the last with a Cyrillic А
        refused = await hello(server, name)
        assert isinstance(refused, m.Error) and refused.code == "name_taken", refused
    # Nor the computer players' names, nor the service's voice (a guest's default is fine).
    for name in ("Bot 2", "Бот 2", "Referee"):
        refused = await hello(server, name)
        assert isinstance(refused, m.Error) and refused.code == "name_taken", refused
    assert isinstance(await hello(server, "Player-4821"), m.Welcome)
    forged = ana_token[:-4] + ("AAAA" if not ana_token.endswith("AAAA") else "BBBB")
    refused = await hello(server, "Someone", forged)
    assert isinstance(refused, m.Error) and refused.code == "bad_token"
    lurker = await Peer.connect(server, "Lurker")
    rated = {"t": "create", "settings": {"rated": True}}
    refusal = await lurker.request(rated)
    assert isinstance(refusal, m.Error) and refusal.code == "account_required"
    refusal = await lurker.request({"t": "quick", "rated": True})
    assert isinstance(refusal, m.Error) and refusal.code == "account_required"

    # Log in on new connections: the account's name and id, a fresh account token.
    ana = await Peer.connect_raw(server, "whatever")
    welcome = await ana.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "whatever", "token": ana_token}
    )
    assert isinstance(welcome, m.Welcome) and welcome.account
    assert (welcome.name, welcome.player) == ("Ana", ana_id) and welcome.token != ana_token
    bo = await Peer.connect(server, "Boris", token=bo_token)
    assert bo.player == bo_id

    settings = {"race_to": 1, "first_break": "draw", "rated": True}
    created = await ana.request({"t": "create", "settings": settings})
    assert isinstance(created, m.Joined), created
    refusal = await lurker.request({"t": "join", "room": created.room})
    assert isinstance(refusal, m.Error) and refusal.code == "account_required"
    assert isinstance(await bo.request({"t": "join", "room": created.room}), m.Joined)
    await lurker.close()
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await bo.request({"t": "ready"}), m.Ok)
    draw = await bo.expect(m.LagResult)
    players = (ana, bo)
    chosen = await decide_first_break(draw, players)
    await settle(players, chosen.seq + 1)

    fouler = await race_to_one_on_three_fouls(players)
    loser, winner = ("Ana", "Boris") if fouler is ana else ("Boris", "Ana")
    over = ana.table
    assert over is not None and over.match_over

    async def counted() -> bool:
        return bool((await profile(server, winner))["racks"] == 31)

    await until(counted, "the rack counted")
    await server.lobby.reporter.drain()
    after = {name: await profile(server, name) for name in ("Ana", "Boris")}
    assert after[winner]["rating"] > before[winner]["rating"]
    assert after[loser]["rating"] < before[loser]["rating"]
    assert after[winner]["won"] == before[winner]["won"] + 1
    assert after[loser]["fouls"] == before[loser]["fouls"] + 3
    assert after[loser]["lost"] == before[loser]["lost"] + 1
    (line,) = after[winner]["matches"]
    assert line["won"] and line["opponent"] == loser and line["rated"]
    assert line["opponent_level"] is None
    assert line["replay"] == f"/replay/{created.room}" and line["score"] == [1, 0]
    status, _, board = await call(server, "GET", "/api/leaderboard?limit=10")
    assert status == 200
    assert {row["name"]: row["racks"] for row in board} == {"Ana": 31, "Boris": 31}
    assert board[0]["name"] == winner

    # The table shows the ratings next to the names, as they are after the rack.
    async def shown() -> bool:
        await ana.send({"t": "resync"})
        view = (await ana.expect(m.Snapshot)).view
        ratings = {s.name: s.rating for s in view.seats if s is not None}
        return ratings == {name: after[name]["rating"] for name in ("Ana", "Boris")}

    await until(shown, "the new ratings at the table")

    # A restart on the same stores: the room comes back and hands its results over
    # again; the players service counts each once.
    await ana.close()
    await bo.close()
    await servers[0].stop()
    again = await start(servers, physics_pool, players_store, tmp_path)
    assert created.room in again.lobby.rooms
    assert again.lobby.rooms[created.room].state.reports  # handed over again at start
    await again.lobby.reporter.drain()
    for name in ("Ana", "Boris"):
        assert await profile(again, name) == after[name]
    _, _, board_again = await call(again, "GET", "/api/leaderboard?limit=10")
    assert board_again == board


async def test_rated_quick_match_pairs_accounts_by_rating(
    servers: list[GameServer], physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> None:
    server = await start(servers, physics_pool, players_store, tmp_path)
    tokens = {name: await account(server, name) for name in ("Cleo", "Dario", "Ema")}
    cleo = await Peer.connect(server, "x", token=tokens["Cleo"])
    dario = await Peer.connect(server, "x", token=tokens["Dario"])
    ema = await Peer.connect(server, "x", token=tokens["Ema"])
    try:
        # Waiting, then cancelled: the queue forgets Cleo.
        assert isinstance(await cleo.request({"t": "quick", "rated": True, "race_to": 5}), m.Ok)
        again = await cleo.request({"t": "quick", "rated": True, "race_to": 5})
        assert isinstance(again, m.Error) and again.code == "already_queued"
        assert isinstance(await cleo.request({"t": "quick", "on": False}), m.Ok)
        assert not server.lobby.rated_waiting
        # An unrated quick match never meets a rated one.
        assert isinstance(await ema.request({"t": "quick", "race_to": 5}), m.Ok)
        assert isinstance(await cleo.request({"t": "quick", "rated": True, "race_to": 5}), m.Ok)
        # Dario (the same 500 as Cleo: within the first window) is paired with Cleo at once.
        joined = await dario.request({"t": "quick", "rated": True, "race_to": 5})
        assert isinstance(joined, m.Joined), joined  # the one answer: paired at once
        other = await cleo.expect(m.Joined)
        assert joined.room == other.room
        snapshot = await dario.expect(m.Snapshot)
        assert snapshot.view.settings.rated and snapshot.view.settings.race_to == 5
        assert {s.name for s in snapshot.view.seats if s is not None} == {"Cleo", "Dario"}

        async def rated_seats() -> bool:
            await dario.send({"t": "resync"})
            view = (await dario.expect(m.Snapshot)).view
            return all(s is not None and s.rating == 500 and s.provisional for s in view.seats)

        await until(rated_seats, "the ratings at the quick match's table")
        assert isinstance(await ema.request({"t": "quick", "on": False}), m.Ok)
    finally:
        for peer in (cleo, dario, ema):
            await peer.close()


async def test_a_rated_quick_match_nobody_takes_offers_the_computer(
    servers: list[GameServer], physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> None:
    """Nobody rated may come to a quiet server: after `--quick-computer-after`, a rated
    wait is offered the computer, as an unrated one is. Taking the offer ends the wait
    (it had been refused as "already queued"); the game is unrated unless asked."""
    offering = Computers(bot_pause=1.0, bot_tables=0, quick_computer_after=0.2)
    server = await start(servers, physics_pool, players_store, tmp_path, computers=offering)
    token = await account(server, "Ivana")
    ivana = await Peer.connect(server, "x", token=token)
    try:
        assert isinstance(await ivana.request({"t": "quick", "rated": True}), m.Ok)
        offer = await ivana.expect(m.ComputerOffer)
        assert offer.level == offering.quick_computer_level
        joined = await ivana.request({"t": "computer", "level": offer.level})
        assert isinstance(joined, m.Joined), joined
        assert not server.lobby.rated_waiting
        snapshot = await ivana.expect(m.Snapshot)
        assert not snapshot.view.settings.rated
        assert [s.computer for s in snapshot.view.seats if s is not None] == [None, 2]
    finally:
        await ivana.close()


async def test_rated_quick_match_widens_the_window_while_players_wait(
    servers: list[GameServer], physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> None:
    server = await start(servers, physics_pool, players_store, tmp_path)
    tokens = {name: await account(server, name) for name in ("Fran", "Goran")}
    fran = await Peer.connect(server, "x", token=tokens["Fran"])
    goran = await Peer.connect(server, "x", token=tokens["Goran"])
    try:
        # Two rated racks apart: a gap of more than the first window (50), within the
        # second (100, after 5 s of waiting).
        assert fran.player is not None and goran.player is not None
        for number in (1, 2):
            rack = RackResult("past", 1, number, fran.player, goran.player, True, fran.player)
            assert await server.players.rack_finished(rack) is not None
        gap = (await profile(server, "Fran"))["rating"] - (await profile(server, "Goran"))["rating"]
        assert 50 < gap <= 100, gap
        assert isinstance(await fran.request({"t": "quick", "rated": True}), m.Ok)
        assert isinstance(await goran.request({"t": "quick", "rated": True}), m.Ok)
        assert len(server.lobby.rated_waiting) == 2  # not paired at once
        first = await fran.expect(m.Joined)
        second = await goran.expect(m.Joined)
        assert first.room == second.room
        snapshot = await goran.expect(m.Snapshot)
        assert snapshot.view.settings.rated and snapshot.view.settings.name == "Rated quick match"
        assert not server.lobby.rated_waiting
    finally:
        await fran.close()
        await goran.close()


async def test_bad_inputs_at_hello_and_in_rated_play_change_nothing(
    servers: list[GameServer], physics_pool: PhysicsPool, players_store: str, tmp_path: Path
) -> None:
    server = await start(servers, physics_pool, players_store, tmp_path)
    phone = await account(server, "Hana")
    status, _, body = await call(
        server, "POST", "/api/login", {"name": "Hana", "password": PASSWORD}
    )
    tablet = str(body["token"])
    assert status == 200

    async def refused(token: str, name: str = "Hana") -> str:
        reply = await hello(server, name, token)
        assert isinstance(reply, m.Error), reply
        return reply.code

    # Logged out: this token no longer opens a connection; the other still does.
    assert (await call(server, "POST", "/api/logout", token=phone))[0] == 204
    assert await refused(phone) == "bad_token"
    welcome = await hello(server, "x", tablet)
    assert isinstance(welcome, m.Welcome) and welcome.account and welcome.name == "Hana"
    # Logged out everywhere: no older token of the account works.
    assert (await call(server, "POST", "/api/logout-all", token=tablet))[0] == 204
    assert await refused(tablet) == "bad_token"
    # Signed with another secret, or not a token at all.
    other = AccountTokens(b"another secret", 3600.0)
    assert await refused(other.issue(str(welcome.player), 0)[0]) == "bad_token"
    assert await refused("YWNjdHx4.eA") == "bad_token"
    # Wrong types and values in the new fields: refused by the protocol, nothing made.
    peer = await Peer.connect(server, "Ivo")
    try:
        for bad in (
            {"t": "create", "settings": {"rated": "yes"}},
            {"t": "quick", "rated": 1},
            {"t": "quick", "rated": True, "race_to": 0},
        ):
            reply = await peer.request(bad)
            assert isinstance(reply, m.Error) and reply.code == "bad_message", (bad, reply)
        assert not server.lobby.rooms and not server.lobby.rated_waiting
    finally:
        await peer.close()
    # Once the account is deleted, its name is free for a guest again.
    _, _, body = await call(server, "POST", "/api/login", {"name": "Hana", "password": PASSWORD})
    assert (await call(server, "DELETE", "/api/accounts/me", token=body["token"]))[0] == 204
    assert await refused(str(body["token"])) == "bad_token"
    welcome = await hello(server, "Hana")
    assert isinstance(welcome, m.Welcome) and not welcome.account
