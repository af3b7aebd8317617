"""A rated room against the computer, on a real server (port 0) with its players in a real
SQLite file: an account holder asks for `computer` with `rated`, plays a race to 1 against
a level-1 computer to its end (fouling at every turn, so the rack ends at the table: the
computer's 9 or the person's third foul), and the person's rating moves exactly once,
against the computer's fixed rating; the computer's never moves and it is on no
leaderboard. A guest may not ask for a rated room; `computer` is unrated by default."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.ops.computers import Computers
from server.players.ratings import START, Side, bot_player_id, bot_rating, rate_rack
from server.players.results import RackResult
from server.rooms.simulation import PhysicsPool
from tests.players.test_rated_play import account, profile, until
from tests.server.support import Peer, make_config
from tests.server.test_computer_match import Script, _read

FAST = Computers(bot_workers=0, bot_pause=0.0, bot_tables=0, quick_computer_after=0.0)


@pytest.fixture(scope="module")
def physics_pool() -> Any:
    pool = PhysicsPool(workers=0, thinkers=0)
    asyncio.run(pool.start())
    yield pool
    pool.close()


@pytest.fixture
async def server(physics_pool: PhysicsPool, tmp_path: Path) -> AsyncIterator[GameServer]:
    config = make_config(
        store=f"sqlite://{tmp_path / 'rooms.db'}",
        players_store=f"sqlite://{tmp_path / 'players.db'}",
        computers=FAST,
    )
    game_server = GameServer(config, pool=physics_pool)
    await game_server.start()
    yield game_server
    if game_server.ready:
        await game_server.stop()


async def play_to_the_end(server: GameServer, peer: Peer, room: str) -> m.MatchOver:
    """The person's side (seat 0): the lag, the break if theirs, a foul at every turn."""
    script = Script(peer, server, room, fouls_wanted=1000)
    lagged = chose = False
    while True:
        message = await _read(peer)
        if isinstance(message, m.MatchOver):
            return message
        if isinstance(message, m.Snapshot) and message.view.status == "lag":
            view = message.view
            # Once: another snapshot sent before the choice was made (a seat's rating
            # looked up meanwhile) still shows it open.
            if view.lag_choice == 0 and not chose:
                chose = True
                chosen = await peer.request({"t": "lag_choice", "choice": "break"})
                assert isinstance(chosen, m.Ok), chosen
            elif view.lag_choice is None and 0 not in view.lagged and not lagged:
                lagged = True
                assert isinstance(await peer.request({"t": "lag", "speed": 1.9}), m.Ok)
            continue
        if isinstance(message, m.LagResult) and message.winner is None:
            lagged = False
            continue
        table = getattr(message, "table", None)
        if isinstance(table, m.TableView) and table.turn == 0 and not table.match_over:
            await script.turn(table)


async def test_a_rated_race_against_the_computer_moves_the_person_once(
    server: GameServer,
) -> None:
    guest = await Peer.connect(server, "Lurker")
    refused = await guest.request({"t": "computer", "level": 1, "rated": True})
    assert isinstance(refused, m.Error) and refused.code == errors.ACCOUNT_REQUIRED
    assert not server.lobby.rooms, "a refusal makes no room"
    # Unrated by default, for anyone.
    unrated = await guest.request({"t": "computer", "level": 1})
    assert isinstance(unrated, m.Joined)
    assert not server.lobby.rooms[unrated.room].settings.rated
    assert isinstance(await guest.request({"t": "leave"}), m.Ok)
    await guest.close()

    token = await account(server, "Ana")
    ana = await Peer.connect(server, "Ana", token=token)
    assert ana.player is not None
    # Before a rated rack an account shows the starting rating, provisional; a guest none.
    before = await server.players.rating(ana.player)
    assert before is not None and (before.rating, before.provisional) == (round(START), True)
    assert guest.player is not None and await server.players.rating(guest.player) is None
    joined = await ana.request({"t": "computer", "level": 1, "race_to": 1, "rated": True})
    assert isinstance(joined, m.Joined) and joined.seat == 0, joined
    assert server.lobby.rooms[joined.room].settings.rated
    snapshot = await ana.expect(m.Snapshot)
    computer = snapshot.view.seats[1]
    assert computer is not None and computer.computer == 1
    assert computer.rating == round(bot_rating(1)), "the computer shows its fixed rating"

    over = await play_to_the_end(server, ana, joined.room)
    assert sorted(over.score) == [0, 1]
    won = over.winner == 0

    async def counted() -> bool:
        return bool((await profile(server, "Ana"))["racks"] == 1)

    await until(counted, "the rack counted")
    await server.lobby.reporter.drain()
    await server.players.drain()
    after = await profile(server, "Ana")
    me, bot = Side(START, 0), Side(bot_rating(1), 0, fixed=True)
    expected = rate_rack(me, bot)[0] if won else rate_rack(bot, me)[1]
    assert after["rating"] == round(expected) and after["rating"] != START
    assert after["racks"] == 1 and after["won"] + after["lost"] == 1
    (line,) = after["matches"]
    assert line["opponent"] == "Bot (level 1)" and line["rated"]
    assert line["won"] is won and line["replay"] == f"/replay/{joined.room}"

    # The computer's rating never moves; it has no record and is on no leaderboard.
    rating = await server.players.rating(bot_player_id(1))
    assert rating is not None and rating.rating == round(bot_rating(1))
    assert await server.players.store.stats(bot_player_id(1)) is None
    for period in ("", "&period=month"):
        board = await server.players.leaderboard(50, monthly=bool(period))
        assert all(not row["name"].startswith("Bot") for row in board)

    # The room's report again (as a restored room hands it over) changes nothing.
    reports = server.lobby.rooms[joined.room].state.reports
    racks = [r for r in reports if isinstance(r, RackResult)]
    (rack,) = racks
    assert {rack.winner, rack.loser} == {ana.player, bot_player_id(1)}
    assert (rack.winner == ana.player) is won
    assert await server.players.rack_finished(rack) is None
    assert await profile(server, "Ana") == after
    # A computer named by its seat (never its level) moves nobody.
    seat_named = RackResult("elsewhere", 1, 1, ana.player, "computer:1", True, ana.player)
    assert await server.players.rack_finished(seat_named) is None
    assert await profile(server, "Ana") == after
    await ana.close()
