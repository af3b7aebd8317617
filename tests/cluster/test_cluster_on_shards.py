"""Nodes on a real three-shard Redis Cluster (`redis+cluster://`): sharded pub/sub with
each room's channels in the room's slot and the shards sharing the channels, leases taken
over across slots (the room's keys on one shard, the directory's on another), and two
nodes in this process playing host and relay of one room through the cluster."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from protocol import messages as m
from server.app import GameServer
from server.cluster.bus import Bus
from server.cluster.channels import ShardedChannels, open_channels
from server.cluster.directory import DirectoryKeys
from server.cluster.lease import Leases
from server.store.redis import RedisKeys, RedisStore, connect_cluster
from tests.cluster.conftest import nodes_at
from tests.redis_cluster import RedisCluster
from tests.server.support import Peer

WAIT = 30.0


@pytest.fixture(scope="module")
def shards(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    cluster = RedisCluster(tmp_path_factory.mktemp("cluster-shards"))
    cluster.start()
    yield cluster
    cluster.kill()


@pytest.fixture
def cluster(shards: RedisCluster) -> RedisCluster:
    shards.flush()
    return shards


def cluster_url(cluster: RedisCluster) -> str:
    return cluster.url.replace("redis://", "redis+cluster://", 1)


async def eventually(condition: object, what: str) -> None:
    for _ in range(int(WAIT / 0.01)):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def test_sharded_bus_spreads_room_channels_over_the_shards(cluster: RedisCluster) -> None:
    keys = RedisKeys(tagged=True)
    clients = [connect_cluster(cluster.url) for _ in range(2)]
    got: dict[str, list[bytes]] = {}
    inbox: list[bytes] = []
    owner = Bus(clients[0], "a", keys=keys, channels=open_channels(clients[0]))
    watcher = Bus(
        clients[1],
        "b",
        keys=keys,
        channels=ShardedChannels(clients[1]),
        on_node_message=inbox.append,
    )
    try:
        await owner.start()
        await watcher.start()
        rooms = [f"r{n}" for n in range(24)]
        for room in rooms:
            got[room] = []
            await watcher.watch_room(room, got[room].append)
        assert watcher.connected
        # Each room's channel lies in the room's slot: on the shard of its keys.
        for room in rooms[:3]:
            slots = {
                cluster.cli(cluster.ports[0], "cluster", "keyslot", name)
                for name in (keys.room_channel(room), keys.action_channel(room), keys.state(room))
            }
            assert len(slots) == 1
        per_shard = [cluster.cli(port, "pubsub", "shardchannels").split() for port in cluster.ports]
        assert all(channels for channels in per_shard), per_shard  # every shard carries some
        assert sorted(c for channels in per_shard for c in channels if "room:" in c) == sorted(
            keys.room_channel(room) for room in rooms
        )
        for n in range(5):
            for room in rooms:
                assert await owner.publish_event(room, f"{room} {n}".encode()) == 1
        assert await owner.send_to_node("b", b"reply") == 1
        # A node's inbox has its listener, counted on the inbox's own shard.
        assert await owner.listeners(keys.node_channel("b")) == 1
        assert await owner.listeners(keys.node_channel("gone")) == 0
        assert await owner.send_action("r0", b"nobody") == 0  # no owner listens
        await eventually(
            lambda: all(len(got[room]) == 5 for room in rooms) and inbox, "every event"
        )
        for room in rooms:
            assert got[room] == [f"{room} {n}".encode() for n in range(5)]  # in order
        assert inbox == [b"reply"]
        await watcher.unwatch_room("r1")
        assert await owner.publish_event("r1", b"after") == 0
    finally:
        for bus in (owner, watcher):
            await bus.close()
        for client in clients:
            await client.aclose()


async def test_leases_are_taken_over_and_read_across_slots(cluster: RedisCluster) -> None:
    client = connect_cluster(cluster.url)
    keys = RedisKeys(tagged=True)
    directory = DirectoryKeys(tagged=True)
    dead = Leases(client, "dead", ttl=30.0, keys=keys)
    live = Leases(client, "live", ttl=30.0, keys=keys)
    try:
        rooms = [f"t{n}" for n in range(12)]
        for room in rooms:
            assert await dead.acquire(room) is not None
        await client.zadd(directory.nodes, {"dead": 0})  # its last beat: long ago
        assert {
            cluster.cli(cluster.ports[0], "cluster", "keyslot", keys.lease(room)) for room in rooms
        } != {cluster.cli(cluster.ports[0], "cluster", "keyslot", directory.nodes)}
        holders = await live.holders(rooms)  # one pipelined round over the shards
        assert {room: h.node if h else None for room, h in holders.items()} == dict.fromkeys(
            rooms, "dead"
        )
        taken = await live.take_over(
            "t0", nodes=directory.nodes, owners=directory.owners, timeout=5.0
        )
        assert taken is not None and taken.epoch == 2
        # A live holder keeps its room: `live` beats now.
        await client.zadd(directory.nodes, {"live": 10**15})
        assert (
            await dead.take_over("t0", nodes=directory.nodes, owners=directory.owners, timeout=5.0)
            is None
        )
        assert (await live.holder("t0")) == ("live", 2)
    finally:
        await client.aclose()


@pytest.fixture
async def nodes(cluster: RedisCluster) -> AsyncIterator[tuple[GameServer, GameServer]]:
    async with nodes_at(cluster_url(cluster)) as started:
        yield started


async def test_two_nodes_share_a_room_through_the_cluster(
    nodes: tuple[GameServer, GameServer], cluster: RedisCluster
) -> None:
    a, b = nodes
    assert isinstance(a.store, RedisStore) and a.store.keys.tagged
    ana = await Peer.connect(a, "Ana")
    bea = await Peer.connect(b, "Bea")
    listing = await bea.request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms) and listing.rooms == []
    created = await ana.request({"t": "create", "settings": {"name": "sharded"}})
    assert isinstance(created, m.Joined)
    while True:
        listed = await bea.expect(m.RoomChanged)
        if listed.info.room == created.room and listed.info.players == ["Ana"]:
            break
    joined = await bea.request({"t": "join", "room": created.room, "role": "player"})
    assert isinstance(joined, m.Joined) and joined.seat is not None
    await bea.expect(m.Snapshot)
    chat = await bea.request({"t": "chat", "text": "from the relay"})
    assert isinstance(chat, m.Ok)
    heard = await ana.expect(m.ChatRelay)
    assert heard.text == "from the relay"
    raw = connect_cluster(cluster.url)
    try:
        # The directory's keys share the `{dir}` slot; the room's keys carry its tag.
        assert await raw.hget("{dir}:open", created.room) is not None
        holder = await raw.get(f"room:{{{created.room}}}:lease")
        assert holder is not None and holder.decode().endswith(":a")
    finally:
        await raw.aclose()
    for peer in (ana, bea):
        await peer.close()
