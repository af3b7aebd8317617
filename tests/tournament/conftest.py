"""The tournament-store contract runs against SQLite (a real file), a real redis-server and a
real three-shard Redis Cluster (`redis+cluster://`, every key under the `{tn}` tag)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from server.store.redis import connect
from server.tournament.redis import RedisTournamentStore
from server.tournament.sqlite import SqliteTournamentStore
from server.tournament.store import TournamentStore
from server.tournament.stores import open_tournament_store
from tests.redis_cluster import RedisCluster
from tests.redis_server import RedisServer, own_redis

__all__ = ["own_redis"]


def store_source(kind: str, request: pytest.FixtureRequest) -> RedisServer | RedisCluster | None:
    """The Redis a store of `kind` lives in (emptied, for a cluster), or None for SQLite."""
    if kind == "redis":
        server: RedisServer = request.getfixturevalue("own_redis")
        return server
    if kind == "redis-cluster":
        cluster: RedisCluster = request.getfixturevalue("tournaments_cluster")
        return cluster
    return None


def open_store(
    kind: str, tmp_path: Path, redis: RedisServer | RedisCluster | None
) -> TournamentStore:
    if kind == "sqlite":
        return SqliteTournamentStore(tmp_path / "var" / "tournaments.db")
    assert redis is not None
    if isinstance(redis, RedisCluster):
        url = redis.url.replace("redis://", "redis+cluster://", 1)
        return open_tournament_store("memory://", url)
    return RedisTournamentStore(connect(redis.url))


@pytest.fixture(scope="session")
def tournaments_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    cluster = RedisCluster(tmp_path_factory.mktemp("tournaments-cluster"))
    cluster.start()
    yield cluster
    cluster.kill()


@pytest.fixture(params=["sqlite", "redis", "redis-cluster"])
def store_kind(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
async def tournament_store(
    store_kind: str, request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[TournamentStore]:
    source = store_source(store_kind, request)
    if isinstance(source, RedisCluster):
        source.flush()
    store = open_store(store_kind, tmp_path, source)
    yield store
    await store.close()
