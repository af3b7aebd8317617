"""Leases and the bus against a real redis-server of each test's own."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import pytest
import redis.asyncio as aioredis

from server.app import GameServer
from server.rooms.simulation import PhysicsPool
from server.store.redis import connect
from tests.redis_server import RedisServer, own_redis
from tests.server.support import make_config

__all__ = ["own_redis"]


@pytest.fixture
async def client(own_redis: RedisServer) -> AsyncIterator[aioredis.Redis]:
    opened = connect(own_redis.url)
    yield opened
    await opened.aclose()


@contextlib.asynccontextmanager
async def two_nodes(
    redis: RedisServer, **settings: Any
) -> AsyncIterator[tuple[GameServer, GameServer]]:
    """Nodes a and b in this process on `redis`, sharing one physics thread, with
    `settings` (Config fields) on both; stopped on the way out."""
    async with nodes_at(redis.url, **settings) as started:
        yield started


@contextlib.asynccontextmanager
async def nodes_at(url: str, **settings: Any) -> AsyncIterator[tuple[GameServer, GameServer]]:
    """`two_nodes` on the Redis (or Redis Cluster, `redis+cluster://`) that `url` names."""
    pool = PhysicsPool(workers=0)
    await pool.start()
    started = []
    try:
        for name in ("a", "b"):
            config = make_config(redis_url=url, store=url, node_id=name, **settings)
            server = GameServer(config, pool=pool)
            await server.start()
            started.append(server)
        yield started[0], started[1]
    finally:
        for server in started:
            await server.stop()
        pool.close()
