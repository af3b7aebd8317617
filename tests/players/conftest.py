"""The player-store contract runs against SQLite (a real file) and a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.players.redis import RedisPlayerStore
from server.players.sqlite import SqlitePlayerStore
from server.players.store import PlayerStore
from server.store.redis import connect
from tests.redis_server import own_redis

__all__ = ["own_redis"]


@pytest.fixture(params=["sqlite", "redis"])
async def player_store(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[PlayerStore]:
    store: PlayerStore
    if request.param == "sqlite":
        store = SqlitePlayerStore(tmp_path / "var" / "players.db")
    else:
        store = RedisPlayerStore(connect(request.getfixturevalue("own_redis").url))
    yield store
    await store.close()
