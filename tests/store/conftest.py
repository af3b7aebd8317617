"""Every store test runs against the three stores: memory, SQLite and a real Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store import Store
from tests.redis_server import own_redis
from tests.store.backends import Backend, MemoryBackend, RedisBackend, SqliteBackend

__all__ = ["own_redis"]


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    chosen: Backend
    if request.param == "memory":
        chosen = MemoryBackend()
    elif request.param == "sqlite":
        chosen = SqliteBackend(tmp_path / "var" / "rooms.db")
    else:
        chosen = RedisBackend(request.getfixturevalue("own_redis"))
    yield chosen
    await chosen.close()


@pytest.fixture
async def store(backend: Backend) -> Store:
    return await backend.open()
