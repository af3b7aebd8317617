"""A guest who makes an account mid-match through another node of a cluster: the room,
owned by node a, hears the new name from node b's relay (the `reattach` carries it) and
renames the seat in its own step; the opponent on a, a spectator and a lobby subscriber
on b hear it at once. Real redis-server, two nodes in this process, the real HTTP API.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from protocol import messages as m
from server.app import GameServer
from tests.cluster.conftest import two_nodes
from tests.players.test_renamed_mid_match import listed, seat_names, sign_up_and_come_back
from tests.redis_server import RedisServer
from tests.server.support import Peer, decide_first_break


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[tuple[GameServer, GameServer]]:
    async with two_nodes(own_redis, update_interval=0.0) as started:
        yield started


async def test_a_guest_who_signs_up_through_another_node_is_named_anew_at_once(
    nodes: tuple[GameServer, GameServer],
) -> None:
    a, b = nodes
    ana = await Peer.connect(a, "Ana")
    ben = await Peer.connect(a, "Ben")
    eve = await Peer.connect(b, "Eve")
    lou = await Peer.connect(b, "Lou")
    peers = [ana, ben, eve, lou]
    try:
        created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
        assert isinstance(created, m.Joined)
        assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
        watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(watching, m.Joined)
        assert isinstance(await ana.request({"t": "ready"}), m.Ok)
        assert isinstance(await ben.request({"t": "ready"}), m.Ok)
        await decide_first_break(await ben.expect(m.LagResult), (ana, ben))
        assert isinstance(await lou.request({"t": "lobby", "on": True}), m.Rooms)

        # Signed up and back through node b, which relays the room node a owns.
        anastasia = await sign_up_and_come_back(b, ana, "Anastasia")
        peers.append(anastasia)
        assert a.lobby.room(created.room) is not None and b.lobby.room(created.room) is None
        own = await seat_names(anastasia, ["Anastasia", "Ben"])
        assert own.view.status == "playing"

        for peer in (ben, eve):
            renamed = await seat_names(peer, ["Anastasia", "Ben"])
            assert not renamed.view.settings.rated
        await listed(lou, created.room, ["Anastasia", "Ben"])
        # She speaks under it, through node b.
        assert isinstance(await anastasia.request({"t": "chat", "text": "it's me"}), m.Ok)
        said = await ben.expect(m.ChatRelay)
        assert (said.seat, said.name) == (0, "Anastasia")
    finally:
        for peer in peers:
            await peer.close()
