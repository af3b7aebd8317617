"""The tournament-store contract runs against SQLite (a real file), a real redis-server and a
real three-shard Redis Cluster (`redis+cluster://`, every key under the `{tn}` tag). Games
through a real server on port 0 share one physics pool per module, servers started by the
test and the peers it opened, all closed after it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest

from server.app import GameServer
from server.ops.tournaments import TournamentSettings
from server.rooms.simulation import PhysicsPool
from server.store.redis import connect
from server.tournament.redis import RedisTournamentStore
from server.tournament.sqlite import SqliteTournamentStore
from server.tournament.store import TournamentStore
from server.tournament.stores import open_tournament_store
from tests.redis_cluster import RedisCluster, redis_cluster
from tests.redis_server import RedisServer, own_redis
from tests.server.support import Peer, make_config
from tests.tournament.support import Factory

__all__ = ["own_redis", "redis_cluster"]


def store_source(kind: str, request: pytest.FixtureRequest) -> RedisServer | RedisCluster | None:
    """The Redis a store of `kind` lives in (emptied, for a cluster), or None for SQLite."""
    if kind == "redis":
        server: RedisServer = request.getfixturevalue("own_redis")
        return server
    if kind == "redis-cluster":
        cluster: RedisCluster = request.getfixturevalue("redis_cluster")
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


@pytest.fixture(scope="module")
def thinkers() -> int:
    """Worker processes of the physics pool for computer players' decisions: one, as a
    server has by default (a module whose computers think in a thread says 0)."""
    return 1


@pytest.fixture(scope="module")
def physics_pool(thinkers: int) -> Iterator[PhysicsPool]:
    """The shots of a module's servers are simulated in-process (no physics workers)."""
    pool = PhysicsPool(workers=0, thinkers=thinkers)
    asyncio.run(pool.start())
    yield pool
    pool.close()


@pytest.fixture
async def make_server(physics_pool: PhysicsPool) -> AsyncIterator[Factory]:
    """Start servers whose tournaments forfeit a no-show after `no_show` seconds and are
    looked at every 50 ms (other settings as keywords); all are stopped afterwards."""
    started: list[GameServer] = []

    async def factory(no_show: float = 600.0, **overrides: Any) -> GameServer:
        config = make_config(tournaments=TournamentSettings(no_show), **overrides)
        server = GameServer(config, pool=physics_pool)
        await server.start()
        server.tournaments.tick = 0.05
        started.append(server)
        return server

    yield factory
    for server in reversed(started):
        if server.ready:
            await server.stop()


@pytest.fixture
async def opened() -> AsyncIterator[list[Peer]]:
    """Peers the test connected: closed at its end."""
    peers: list[Peer] = []
    yield peers
    for peer in peers:
        await peer.close()
