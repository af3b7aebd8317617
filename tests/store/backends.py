"""The three stores behind one test-side handle, so one suite runs against all of them."""

from __future__ import annotations

import itertools
from pathlib import Path

from server.cluster.lease import Leases
from server.store import MemoryStore, Store
from server.store.redis import RedisKeys, RedisStore, connect, connect_cluster
from server.store.sqlite import SqliteStore
from tests.redis_cluster import RedisCluster
from tests.redis_server import RedisServer


class Backend:
    """Opens stores on one body of data, and can restart what sits under them."""

    name = ""

    def __init__(self) -> None:
        self._epochs: dict[str, int] = {}
        self._opened: list[Store] = []

    async def open(self) -> Store:
        store = self._make()
        self._opened.append(store)
        return store

    async def restart(self) -> None:
        """Close every store, and restart the server behind them if there is one."""
        for store in self._opened:
            await store.close()

    async def next_epoch(self, room: str) -> int:
        """A new owner's fencing epoch for `room` (higher than every earlier one)."""
        self._epochs[room] = self._epochs.get(room, 0) + 1
        return self._epochs[room]

    async def close(self) -> None:
        for store in self._opened:
            await store.close()

    def _make(self) -> Store:
        raise NotImplementedError


class MemoryBackend(Backend):
    name = "memory"

    def __init__(self) -> None:
        super().__init__()
        self._store = MemoryStore()

    def _make(self) -> Store:
        return self._store


class SqliteBackend(Backend):
    name = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = path

    def _make(self) -> Store:
        return SqliteStore(self.path)


class RedisBackend(Backend):
    name = "redis"

    def __init__(self, server: RedisServer) -> None:
        super().__init__()
        self.server = server
        self._nodes = itertools.count(1)

    def _make(self) -> Store:
        return RedisStore(connect(self.server.url))

    async def restart(self) -> None:
        await super().restart()
        self.server.restart()

    async def next_epoch(self, room: str) -> int:
        # A real new owner: another node acquires the room's lease (and lets it go).
        client = connect(self.server.url)
        try:
            leases = Leases(client, node=f"node-{next(self._nodes)}", ttl=5.0)
            lease = await leases.acquire(room)
            assert lease is not None
            await leases.release(lease)
            return lease.epoch
        finally:
            await client.aclose()


class RedisClusterBackend(Backend):
    """A real three-shard Redis Cluster (shared by the tests of a session, emptied for
    each), the store in the tagged layout on a cluster client."""

    name = "redis-cluster"

    def __init__(self, cluster: RedisCluster) -> None:
        super().__init__()
        self.cluster = cluster
        self._nodes = itertools.count(1)
        cluster.flush()

    def _make(self) -> Store:
        return RedisStore(connect_cluster(self.cluster.url), tagged=True)

    async def restart(self) -> None:
        await super().restart()
        self.cluster.restart()

    async def next_epoch(self, room: str) -> int:
        client = connect_cluster(self.cluster.url)
        try:
            keys = RedisKeys(tagged=True)
            leases = Leases(client, node=f"node-{next(self._nodes)}", ttl=5.0, keys=keys)  # type: ignore[arg-type]
            lease = await leases.acquire(room)
            assert lease is not None
            await leases.release(lease)
            return lease.epoch
        finally:
            await client.aclose()
