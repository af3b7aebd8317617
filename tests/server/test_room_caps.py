"""Rooms are capped (`--max-rooms` for the process, `--rooms-per-address` for one client
address): 49 addresses once made 3,381 rooms in 40 s and every match slowed down."""

from __future__ import annotations

import dataclasses

from websockets.asyncio.client import connect
from websockets.typing import Origin

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer


async def peer_from(server: GameServer, peers: list[Peer], name: str, address: str) -> Peer:
    """A client behind the proxy (loopback, named a trusted one), coming from `address`."""
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        additional_headers={"X-Forwarded-For": address},
        compression=None,
    )
    peer = Peer(ws, name)
    peers.append(peer)
    welcome = await peer.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": name})
    assert isinstance(welcome, m.Welcome)
    return peer


def capped(**changes: int) -> Limits:
    return dataclasses.replace(Limits(trusted_proxies=("127.0.0.1",)), **changes)


async def test_rooms_per_address_are_capped(make_server: ServerFactory, peers: list[Peer]) -> None:
    server = await make_server(limits=capped(rooms_per_address=2))
    bots = [await peer_from(server, peers, f"Capped{i}", "203.0.113.7") for i in range(4)]
    for bot in bots[:2]:
        assert isinstance(await bot.request({"t": "create"}), m.Joined)
    refused = await bots[2].request({"t": "create"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS
    # A quick match that would make a room is refused too, before the queue.
    queued = await bots[3].request({"t": "quick"})
    assert isinstance(queued, m.Error) and queued.code == errors.TOO_MANY_ROOMS
    # Another address is not charged for it.
    other = await peer_from(server, peers, "Ana", "203.0.113.8")
    assert isinstance(await other.request({"t": "create"}), m.Joined)
    # Once one of the address's rooms has closed, it may make another.
    assert isinstance(await bots[0].request({"t": "leave"}), m.Ok)
    assert isinstance(await bots[2].request({"t": "create"}), m.Joined)
    assert server.metrics.limit_hits.labels("room_cap")._value.get() == 2


async def test_quick_matches_count_for_the_address_that_made_the_pair(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=capped(rooms_per_address=1))
    ana = await peer_from(server, peers, "Ana", "203.0.113.7")
    ben = await peer_from(server, peers, "Ben", "203.0.113.7")
    assert isinstance(await ana.request({"t": "quick"}), m.Ok)
    assert isinstance(await ben.request({"t": "quick"}), m.Joined)
    cleo = await peer_from(server, peers, "Cleo", "203.0.113.7")
    refused = await cleo.request({"t": "create"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS


async def test_the_process_holds_at_most_max_rooms(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=capped(max_rooms=2))
    hosts = [await open_peer(server, peers, name) for name in ("Ana", "Ben", "Cleo")]
    for host in hosts[:2]:
        assert isinstance(await host.request({"t": "create"}), m.Joined)
    refused = await hosts[2].request({"t": "create"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS
    assert "as many rooms" in refused.msg
    # Joining the rooms there are still works.
    joined = await hosts[2].request({"t": "join", "room": (await hosts[0].expect(m.Snapshot)).room})
    assert isinstance(joined, m.Joined)


async def test_by_default_one_address_makes_at_most_sixteen_rooms(
    server: GameServer, peers: list[Peer]
) -> None:
    hosts = [await open_peer(server, peers, f"Host{i}") for i in range(17)]
    for host in hosts[:16]:
        assert isinstance(await host.request({"t": "create"}), m.Joined)
    refused = await hosts[16].request({"t": "create"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS


async def test_practice_tables_count_towards_the_address_cap(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=capped(rooms_per_address=2))
    bots = [await peer_from(server, peers, f"Cue{i}", "203.0.113.9") for i in range(4)]
    assert isinstance(await bots[0].request({"t": "practice"}), m.Joined)
    assert isinstance(await bots[1].request({"t": "create"}), m.Joined)
    # A third table of either kind is refused: practice and match rooms share the cap.
    refused = await bots[2].request({"t": "practice"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS
    refused = await bots[2].request({"t": "create"})
    assert isinstance(refused, m.Error) and refused.code == errors.TOO_MANY_ROOMS
    # Another address may still practise.
    other = await peer_from(server, peers, "Mia", "203.0.113.10")
    assert isinstance(await other.request({"t": "practice"}), m.Joined)
    # Once the practice table is left, the address may open another.
    assert isinstance(await bots[0].request({"t": "leave"}), m.Ok)
    assert isinstance(await bots[3].request({"t": "practice"}), m.Joined)
    assert server.metrics.limit_hits.labels("room_cap")._value.get() == 2
