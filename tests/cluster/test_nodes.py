"""Two nodes in one process on a real redis-server: the lobby list, spectators and
leaving work across nodes exactly as on one node."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from protocol import messages as m
from server.app import GameServer
from tests.cluster.conftest import two_nodes
from tests.redis_server import RedisServer
from tests.server.support import Peer


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[tuple[GameServer, GameServer]]:
    async with two_nodes(own_redis) as started:
        yield started


async def test_lobby_spectators_and_leaving_across_nodes(
    nodes: tuple[GameServer, GameServer], client: aioredis.Redis
) -> None:
    a, b = nodes
    ana = await Peer.connect(a, "Ana")
    bea = await Peer.connect(b, "Bea")
    listing = await bea.request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms) and listing.rooms == []

    created = await ana.request({"t": "create", "settings": {"name": "over there"}})
    assert isinstance(created, m.Joined)
    while True:  # the room, as it opens and as Ana sits down
        listed = await bea.expect(m.RoomChanged)
        assert listed.info.room == created.room
        if listed.info.players == ["Ana"]:
            break

    # Bea watches from node b: Ana (on the owner) sees the count, Bea gets the room.
    watching = await bea.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.seat is None
    snapshot = await bea.expect(m.Snapshot)
    assert snapshot.view.spectators == 1
    crowd = await ana.expect(m.Spectators)  # the count, not stored (no seq)
    assert crowd.count == 1
    chat = await ana.request({"t": "chat", "text": "hello b"})
    assert isinstance(chat, m.Ok)
    relayed = await bea.expect(m.ChatRelay)
    assert relayed.text == "hello b" and relayed.seq == snapshot.seq + 1

    # Bea leaves through her node; then Ana leaves and the room is gone everywhere.
    assert isinstance(await bea.request({"t": "leave"}), m.Ok)
    assert (await ana.expect(m.Spectators)).count == 0
    assert isinstance(await ana.request({"t": "leave"}), m.Ok)
    while True:
        update = await bea.expect(m.RoomGone)
        if update.room == created.room:
            break
    assert await client.hget("dir:open", created.room) is None
    assert await client.get(f"room:{created.room}:lease") is None  # given up
    for peer in (ana, bea):
        await peer.close()
