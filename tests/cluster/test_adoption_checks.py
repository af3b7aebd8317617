"""A node adopting a room checks its saved record against its log first, as a restart
does (`server.rooms.upkeep.restorable`): a record behind its log would run the room at a
`seq` already used, answer `ok` to every move and then fail to store any of them. Such a
room is quarantined, never adopted; an intact one is adopted as before. Real redis-server."""

from __future__ import annotations

import asyncio
import dataclasses
import logging

import msgspec
import pytest

from protocol import messages as m
from server.app import GameServer
from server.cluster.proxy import RoomGone
from server.rooms import snapshots
from server.rooms.model import Limits, new_room
from server.store import LogEntry
from server.store.redis import RedisStore
from tests.cluster.conftest import two_nodes
from tests.redis_server import RedisServer


def _event(room: str, seq: int) -> LogEntry:
    chat = m.ChatRelay(room=room, seq=seq, seat=None, name="Eve", text=f"line {seq}")
    return LogEntry(seq, msgspec.msgpack.encode(chat))


async def _store_room(store: RedisStore, room: str, record_seq: int, log_seq: int) -> None:
    """A waiting room whose record says `record_seq`, with a log of events 1..`log_seq`."""
    state = new_room(room, m.RoomSettings(), seed=7, code=None, limits=Limits())
    record = snapshots.record(dataclasses.replace(state, seq=record_seq), 0.0)
    entries = [_event(room, seq) for seq in range(1, log_seq + 1)]
    await store.save(room, msgspec.msgpack.encode(record), entries)


async def _can_judge(node: GameServer) -> None:
    cluster = node.cluster
    assert cluster is not None
    for _ in range(200):
        if cluster.directory.can_judge():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the node never heard Redis long enough to judge")


async def test_adoption_quarantines_a_record_behind_its_log_and_adopts_an_intact_one(
    own_redis: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    async with two_nodes(own_redis) as (_, b):
        cluster = b.cluster
        assert cluster is not None
        store = RedisStore.from_url(own_redis.url)
        try:
            await _store_room(store, "behind", record_seq=3, log_seq=4)
            await _store_room(store, "intact", record_seq=4, log_seq=4)
            await _can_judge(b)
            with (
                caplog.at_level(logging.ERROR, logger="server.rooms.upkeep"),
                pytest.raises(RoomGone),
            ):
                await cluster.adopt("behind")
            assert await store.quarantined("behind") == (
                "its record (seq 3) is behind its log (seq 4)"
            )
            assert "behind" not in b.lobby.rooms
            assert await store.load("behind") is None  # moved aside, not left to run
            assert "quarantined" in "\n".join(r.getMessage() for r in caplog.records)
            # The lease was given back: nobody holds a quarantined room.
            assert await store.client.get(store.keys.lease("behind")) is None

            room = await cluster.adopt("intact")
            assert room is not None and room.id == "intact" and room.seq == 4
            assert await store.quarantined("intact") is None
        finally:
            await store.close()
