"""The store on a real three-shard Redis Cluster: a room's keys share a slot (its hash tag),
rooms spread over the shards, leases fence saves across them, and the walks of the whole
data set (rooms, trim, epochs) visit every shard. The contract suite runs here too
(`conftest.py`'s `redis-cluster` backend)."""

from __future__ import annotations

import time

import pytest

from server.cluster.lease import Leases
from server.store import FencedError, LogEntry
from server.store.redis import EPOCH_KEPT_MS, RedisKeys, RedisStore, connect_cluster
from tests.redis_cluster import RedisCluster


def entry(seq: int) -> LogEntry:
    return LogEntry(seq, b"event %d" % seq)


@pytest.fixture
def cluster(redis_cluster: RedisCluster) -> RedisCluster:
    redis_cluster.flush()
    return redis_cluster


async def test_a_rooms_keys_share_a_slot_and_rooms_spread_over_the_shards(
    cluster: RedisCluster,
) -> None:
    store = RedisStore(connect_cluster(cluster.url), tagged=True)
    rooms = [f"r{n}" for n in range(60)]
    for room in rooms:
        await store.save(room, b"snap", [entry(1)])
    await store.retire("r0")
    for room in ("r1", "r2", "r3"):
        kinds = ("state", "log", "epoch", "lease", "archive", "quarantine")
        slots = {
            cluster.cli(cluster.ports[0], "cluster", "keyslot", getattr(store.keys, k)(room))
            for k in kinds
        }
        assert len(slots) == 1, slots
    assert all(cluster.dbsize(port) > 0 for port in cluster.ports)  # every shard holds rooms
    assert sorted(await store.rooms()) == sorted(rooms[1:])  # a walk of every shard
    assert await store.log("r0") == [entry(1)]
    await store.close()


async def test_leases_fence_saves_on_the_cluster(cluster: RedisCluster) -> None:
    client = connect_cluster(cluster.url)
    keys = RedisKeys(tagged=True)
    store = RedisStore(client, tagged=True, owns_client=False)
    first = Leases(client, node="n1", ttl=5.0, keys=keys)  # type: ignore[arg-type]
    second = Leases(client, node="n2", ttl=5.0, keys=keys)  # type: ignore[arg-type]
    try:
        old = await first.acquire("r1")
        assert old is not None
        await store.save("r1", b"first owner", [entry(1)], fence=old.epoch)
        assert await second.acquire("r1") is None  # held
        assert await first.renew(old)
        await first.release(old)
        new = await second.acquire("r1")
        assert new is not None and new.epoch == old.epoch + 1
        await store.save("r1", b"second owner", [entry(2)], fence=new.epoch)
        with pytest.raises(FencedError):
            await store.save("r1", b"stale owner", [entry(3)], fence=old.epoch)
        assert await store.load("r1") == b"second owner"
    finally:
        await store.close()
        await client.aclose()


async def test_walks_of_the_whole_data_set_cover_every_shard(cluster: RedisCluster) -> None:
    store = RedisStore(connect_cluster(cluster.url), tagged=True)
    raw = connect_cluster(cluster.url)
    try:
        for n in range(30):
            await store.save(f"done{n}", b"s", [entry(1)])
            await store.retire(f"done{n}")
            await raw.set(f"room:{{gone{n}}}:epoch", 5)  # an older version's epoch
        assert await store.archived() == 30
        assert await store.expire_orphan_epochs() == 30
        assert await store.trim(time.time() + 1) == 30
        assert await store.archived() == 0
        ttls = [await raw.pttl(f"room:{{gone{n}}}:epoch") for n in range(30)]
        assert all(0 < ttl <= EPOCH_KEPT_MS for ttl in ttls)
    finally:
        await raw.aclose()
        await store.close()


def test_the_cluster_needs_the_tagged_layout(cluster: RedisCluster) -> None:
    with pytest.raises(ValueError, match="tagged"):
        RedisStore(connect_cluster(cluster.url))
