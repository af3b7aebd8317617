"""The player-store contract runs against SQLite (a real file), a real redis-server and a
real three-shard Redis Cluster (`redis+cluster://`, every key under the `{pl}` tag)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.players.redis import RedisPlayerStore
from server.players.sqlite import SqlitePlayerStore
from server.players.store import PlayerStore
from server.players.stores import open_player_store
from server.rooms.simulation import PhysicsPool
from server.store.redis import connect
from tests.redis_cluster import RedisCluster, redis_cluster
from tests.redis_server import own_redis

__all__ = ["own_redis", "redis_cluster"]


@pytest.fixture(params=["sqlite", "redis", "redis-cluster"])
async def player_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[PlayerStore]:
    store: PlayerStore
    if request.param == "sqlite":
        store = SqlitePlayerStore(tmp_path / "var" / "players.db")
    elif request.param == "redis-cluster":
        cluster: RedisCluster = request.getfixturevalue("redis_cluster")
        cluster.flush()
        store = open_player_store(cluster.url.replace("redis://", "redis+cluster://", 1))
    else:
        store = RedisPlayerStore(connect(request.getfixturevalue("own_redis").url))
    yield store
    await store.close()


@pytest.fixture(scope="module")
def physics_pool() -> Iterator[PhysicsPool]:
    """A module's game servers share one pool, its physics in the process (a module that
    needs workers or thinkers has its own)."""
    pool = PhysicsPool(workers=0)
    asyncio.run(pool.start())
    yield pool
    pool.close()
