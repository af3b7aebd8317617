"""The tournament-store contract runs against SQLite (a real file) and a real redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from server.store.redis import connect
from server.tournament.redis import RedisTournamentStore
from server.tournament.sqlite import SqliteTournamentStore
from server.tournament.store import TournamentStore
from tests.redis_server import RedisServer, own_redis

__all__ = ["own_redis"]


def open_store(kind: str, tmp_path: Path, redis: RedisServer | None) -> TournamentStore:
    if kind == "sqlite":
        return SqliteTournamentStore(tmp_path / "var" / "tournaments.db")
    assert redis is not None
    return RedisTournamentStore(connect(redis.url))


@pytest.fixture(params=["sqlite", "redis"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def tournament_store(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[TournamentStore]:
    redis = request.getfixturevalue("own_redis") if store_kind == "redis" else None
    store = open_store(store_kind, tmp_path, redis)
    yield store
    await store.close()
