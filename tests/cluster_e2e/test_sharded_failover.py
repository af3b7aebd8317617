"""Three real nodes on a real three-shard Redis Cluster (`redis+cluster://`), nginx in
front: a match played by players on different nodes (Ana on the owner n1, Ben on n2, Cleo
watching on n3), the owner killed with kill -9 and the room adopted by another node, play
resumed and the match finished with every shot anyone saw, each once; and the same with a
SIGTERM of the owner. The scenarios are those of `test_failover.py`, run on the cluster."""

from __future__ import annotations

import asyncio

from redis.cluster import RedisCluster as SyncRedisCluster

from tests.cluster_e2e.conftest import Cluster
from tests.cluster_e2e.test_failover import (
    test_owner_killed_mid_match_the_room_moves_and_the_match_finishes as killed_mid_match,
)
from tests.cluster_e2e.test_failover import (
    test_owner_stopped_gracefully_hands_its_rooms_over_at_once as stopped_mid_match,
)
from tests.redis_cluster import RedisCluster


def shards(cluster: Cluster) -> RedisCluster:
    assert isinstance(cluster.redis, RedisCluster)
    return cluster.redis


def cluster_keys(cluster: Cluster) -> list[str]:
    client = SyncRedisCluster.from_url(shards(cluster).url)
    try:
        return sorted(key.decode() for key in client.scan_iter(target_nodes="primaries"))
    finally:
        client.close()


async def test_kill_of_the_owner_on_a_redis_cluster(sharded_cluster: Cluster) -> None:
    await sharded_cluster.settled()
    await killed_mid_match(sharded_cluster)
    keys = await asyncio.to_thread(cluster_keys, sharded_cluster)
    # The room lives in its hash-tagged keys; the directory in one slot of its own.
    assert any(key.startswith("room:{") and key.endswith("}:log") for key in keys), keys
    assert "{dir}:nodes" in keys
    assert not any(key.startswith(("dir:", "rooms")) for key in keys), keys
    assert all(key.startswith("room:{") for key in keys if key.startswith("room:")), keys


async def test_sigterm_of_the_owner_on_a_redis_cluster(sharded_cluster: Cluster) -> None:
    await sharded_cluster.settled()
    await stopped_mid_match(sharded_cluster)
