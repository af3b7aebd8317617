"""Leases and the bus against a real redis-server of each test's own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from server.store.redis import connect
from tests.redis_server import RedisServer, own_redis

__all__ = ["own_redis"]


@pytest.fixture
async def client(own_redis: RedisServer) -> AsyncIterator[aioredis.Redis]:
    opened = connect(own_redis.url)
    yield opened
    await opened.aclose()
