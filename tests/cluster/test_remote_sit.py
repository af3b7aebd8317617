"""`sit` through another node: a spectator connected to node b takes the empty seat of a
room node a owns; the relay learns its new role from the `joined` answer, and the chat,
the past and the seat invite reach it as on one node. Real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.cluster.conftest import two_nodes
from tests.redis_server import RedisServer
from tests.server.support import Peer


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[tuple[GameServer, GameServer]]:
    async with two_nodes(own_redis) as started:
        yield started


async def test_a_spectator_on_another_node_sits_down(
    nodes: tuple[GameServer, GameServer],
) -> None:
    a, b = nodes
    ana = await Peer.connect(a, "Ana")
    bea = await Peer.connect(b, "Bea")
    try:
        created = await ana.request({"t": "create"})
        assert isinstance(created, m.Joined) and created.invite
        assert isinstance(await ana.request({"t": "chat", "text": "come and play"}), m.Ok)
        watching = await bea.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(watching, m.Joined) and watching.seat is None
        snapshot = await bea.expect(m.Snapshot)
        assert snapshot.recent is not None
        assert [line.text for line in snapshot.recent.chat] == ["come and play"]
        wrong = await bea.request({"t": "sit", "invite": "s" + "0" * 20})
        assert isinstance(wrong, m.Error) and wrong.code == errors.BAD_SEAT_INVITE
        sat = await bea.request({"t": "sit", "invite": created.invite})
        assert isinstance(sat, m.Joined) and sat.role == "player" and sat.seat == 1
        assert sat.invite == created.invite
        seated = await ana.expect(m.Snapshot)
        while seated.view.seats[1] is None:
            seated = await ana.expect(m.Snapshot)
        seat = seated.view.seats[1]
        assert seat is not None and seat.name == "Bea"
        # Bea plays now: her ready goes through her node to the owner and starts the match.
        assert isinstance(await bea.request({"t": "ready"}), m.Ok)
        assert isinstance(await ana.request({"t": "ready"}), m.Ok)
        started = await ana.expect(m.Snapshot)
        while started.view.status == "waiting":
            started = await ana.expect(m.Snapshot)
        assert started.view.status == "lag"
    finally:
        for peer in (ana, bea):
            await peer.close()
