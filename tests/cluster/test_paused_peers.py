"""Nodes that were only paused, on a real redis-server.

- A relay's `rejoin` right after a move can reach only the previous owner: paused, not
  dead, it is still subscribed to the room's action channel, so Redis counts it as heard
  while the next owner has not subscribed yet. The relay sends it again until a snapshot
  answers it.
- A node that lets go of a client because the client's node was found dead tells that
  node (`rehome`): if it was only paused, it registers the client again once it runs; and
  nothing else goes out for that client.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import msgspec

from protocol import messages as m
from protocol.codec import encode
from server.cluster import wire
from server.cluster.bus import Bus
from server.cluster.lease import Leases
from server.cluster.proxy import REJOIN_PATIENCE, RoomProxy
from server.cluster.remote import Links, RemoteClient
from server.cluster.wire import Delivery
from server.edge.client import Client
from server.rooms.actor import Room
from server.rooms.seams import Command, Member
from server.store.redis import connect
from tests.cluster.test_bus import Node, eventually
from tests.redis_server import RedisServer


class Relay:
    """The node a relay lives on (`RelayHost`), with real Redis behind its bus and leases."""

    def __init__(self, node: Node, leases: Leases) -> None:
        self.node = node
        self.leases = leases
        self.id = "relay"

    @property
    def bus(self) -> Bus:
        return self.node.bus

    def conn_id(self, client: Member) -> int:
        return 7

    def forget(self, client: Member) -> None:
        pass

    def local_room(self, room_id: str) -> Room | None:
        return None

    async def adopt(self, room_id: str) -> Room | None:
        return None  # the lease is held by a live node

    def repost(self, room_id: str, command: Command) -> None:
        raise AssertionError("nothing is posted after the relay ends")

    def drop_proxy(self, proxy: RoomProxy) -> None:
        pass

    def node_dead(self, node: str) -> bool:
        return False


def rejoins(received: list[bytes]) -> list[wire.Action]:
    return [a for a in map(wire.decode_action, received) if a.kind == "rejoin" and a.conn == 7]


def snapshot_frame(seq: int) -> bytes:
    """A minimal `snapshot` for the relay's peek (what it reads of one: type, seq, seats)."""
    return msgspec.msgpack.encode({"t": "snapshot", "seq": seq, "view": {"seats": [None, None]}})


async def test_a_rejoin_heard_only_by_the_paused_owner_is_sent_again(
    own_redis: RedisServer,
) -> None:
    redis = connect(own_redis.url)
    paused, next_owner, relay_node = (Node(own_redis.url, n) for n in ("n1", "n2", "relay"))
    for node in (paused, next_owner, relay_node):
        await node.bus.start()
    # The previous owner froze while subscribed: Redis counts it as hearing the room.
    heard_by_paused: list[bytes] = []
    await paused.bus.serve_actions("r1", heard_by_paused.append)
    # The next owner holds the lease but serves the actions only a moment later.
    lease = await Leases(redis, node="n2", ttl=30.0).acquire("r1")
    assert lease is not None
    proxy = RoomProxy(Relay(relay_node, Leases(redis, node="relay", ttl=30.0)), "r1")
    try:
        cleo = Client(None)
        cleo.player, cleo.name = "p-cleo", "Cleo"
        # Cleo was in the room while this node owned it; another node owns it now.
        proxy.carry_over(cleo, 7, 5, "spectator")

        async def news_of_the_owner() -> None:
            # As the node's watch says it, every third of a lease: more often than the
            # relay's naps last once they have grown.
            while True:
                await asyncio.sleep(0.2)
                proxy.owner_is("n2", lease.epoch)

        news = asyncio.get_running_loop().create_task(news_of_the_owner())
        await eventually(lambda: rejoins(heard_by_paused), "the first rejoin, to the paused owner")
        heard_by_next: list[bytes] = []
        await next_owner.bus.serve_actions("r1", heard_by_next.append)
        # No snapshot answered it: within the patience and a probe, it goes again, and
        # this time the next owner hears it.
        await eventually(lambda: rejoins(heard_by_next), "the rejoin sent again")
        assert cleo in proxy.moving

        # The next owner's snapshot arrives: the table is back, and nothing more is sent.
        proxy.delivered(cleo, Delivery(snapshot_frame(5)), own=True)
        assert cleo not in proxy.moving
        count = len(rejoins(heard_by_next))
        await asyncio.sleep(2 * REJOIN_PATIENCE)
        assert len(rejoins(heard_by_next)) == count
        news.cancel()
    finally:
        proxy.closed = True
        proxy.probe_idle()
        for node in (paused, next_owner, relay_node):
            await node.close()
        await redis.aclose()


@dataclass
class StandInRoom:
    """What a `RemoteClient` reads of its room."""

    id: str = "r1"
    fence: int | None = 3
    seq: int = 12


async def test_a_client_let_go_of_is_sent_home_and_nothing_else(own_redis: RedisServer) -> None:
    owner, paused = Node(own_redis.url, "owner"), Node(own_redis.url, "paused")
    for node in (owner, paused):
        await node.bus.start()
    links = Links(owner.bus, "owner")
    try:
        cleo = RemoteClient(links, "paused", 7, "p-cleo", "Cleo")
        room = StandInRoom()
        cleo.bind(room)  # type: ignore[arg-type]
        cleo.let_go()
        # What the room does next, as it takes the client out: none of it reaches the node.
        cleo.send_message(m.Notice(room="r1", kind="moving", msg="late"))
        cleo.send_event(encode(m.Notice(room="r1", kind="moving", msg="late")))
        cleo.unbind(room)  # type: ignore[arg-type]
        cleo.close(1000, "replaced by a newer connection")
        await links.flush(5.0)

        def kinds() -> list[tuple[str, str, int]]:
            return [
                (item.kind, item.room, item.epoch)
                for data in paused.inbox
                for item in wire.decode_batch(data).items
            ]

        await eventually(lambda: len(kinds()) >= 2, "the batches")
        await asyncio.sleep(0.2)
        assert kinds() == [("member", "r1", 3), ("rehome", "r1", 3)]
        assert not cleo.open and cleo.room is None
    finally:
        await links.close()
        for node in (owner, paused):
            await node.close()
