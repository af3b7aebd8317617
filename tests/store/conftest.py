"""Every store test runs against the three stores: memory, SQLite and a real Redis — one
redis-server, and a real three-shard Redis Cluster (the tagged layout)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store import Store
from tests.redis_cluster import redis_cluster
from tests.redis_server import own_redis
from tests.store.backends import (
    Backend,
    MemoryBackend,
    RedisBackend,
    RedisClusterBackend,
    SqliteBackend,
)

__all__ = ["own_redis", "redis_cluster"]


@pytest.fixture(params=["memory", "sqlite", "redis", "redis-cluster"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    chosen: Backend
    if request.param == "memory":
        chosen = MemoryBackend()
    elif request.param == "sqlite":
        chosen = SqliteBackend(tmp_path / "var" / "rooms.db")
    elif request.param == "redis-cluster":
        chosen = RedisClusterBackend(request.getfixturevalue("redis_cluster"))
    else:
        chosen = RedisBackend(request.getfixturevalue("own_redis"))
    yield chosen
    await chosen.close()


@pytest.fixture
async def store(backend: Backend) -> Store:
    return await backend.open()
