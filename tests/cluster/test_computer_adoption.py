"""A room with a computer player moves to another node of a cluster (its owner stops and
another adopts it from the shared store): the bot is back in its seat there and plays
its turn; the person reconnects through the other node to the seat they held."""

from __future__ import annotations

import msgspec

from protocol import messages as m
from server.app import GameServer
from server.ops.computers import Computers
from server.rooms.simulation import PhysicsPool
from tests.redis_server import RedisServer
from tests.server import scripting
from tests.server.support import WAIT, Peer, make_config
from tests.server.test_computer_restart import play_to_the_table

#: The bot takes a few seconds a shot, so the owner stops while the bot is to play.
PACED = Computers(bot_pause=3.0, bot_tables=0, quick_computer_after=0.0)


async def test_a_computer_room_adopted_by_another_node_plays_on(
    own_redis: RedisServer,
) -> None:
    pool = PhysicsPool(workers=0, thinkers=0)
    await pool.start()
    started: list[GameServer] = []
    try:
        for name in ("a", "b"):
            config = make_config(
                redis_url=own_redis.url, store=own_redis.url, node_id=name, computers=PACED
            )
            node = GameServer(config, pool=pool)
            await node.start()
            started.append(node)
        a, b = started
        ana = await Peer.connect(a, "Ana")
        joined = await ana.request({"t": "computer", "level": 1, "race_to": 3})
        assert isinstance(joined, m.Joined)
        assert joined.room in a.lobby.rooms, "the room runs where Ana asked for it"
        table = await play_to_the_table(ana)
        if table.turn == 0:
            plan = scripting.plan_foul(table)
            assert isinstance(await ana.request(plan.message()), m.Ok)
            table = (await ana.expect(m.ShotResult)).table
        assert table.turn == 1, "the bot is to play"
        stopped_at = ana.seq
        assert stopped_at is not None
        await a.stop()  # the rooms are saved and handed over; Ana's connection closes

        again = await Peer.connect(b, "Ana", token=ana.token)
        back = await again.expect(m.Snapshot, timeout=WAIT)
        assert back.room == joined.room and joined.room in b.lobby.rooms
        person, computer = back.view.seats
        assert person is not None and person.player == ana.player and person.connected
        assert computer is not None and computer.computer == 1 and computer.connected
        if back.view.table is not None and back.view.table.turn == 1:
            result = await again.expect(m.ShotResult)
        else:
            replay = await b.lobby.replay(joined.room)
            assert replay is not None
            document = msgspec.msgpack.decode(replay, type=m.Replay)
            shots = [
                msgspec.msgpack.decode(raw, type=m.ShotResult)
                for raw in document.events
                if msgspec.msgpack.decode(raw).get("t") == "shot_result"
            ]
            result = shots[-1]
        assert result.room == joined.room
        assert result.shooter == 1 and result.seq > stopped_at
        await again.close()
    finally:
        for node in started:
            if node.ready:
                await node.stop()
        pool.close()
