"""Room stores behind one small interface (`Store`), opened from a URL.

- `memory://`                  in this process only (tests, throwaway servers)
- `sqlite:///abs/path/rooms.db` one embedded file; `sqlite://var/rooms.db` is relative to
                               the working folder. The lone node's default: nothing to install.
- `redis://host:port/db`       shared by every node of a cluster (`server.cluster` adds the
                               room leases and the pub/sub fan-out on the same Redis).
- `redis+cluster://host:port/0` the same on a Redis Cluster (one node named; the client
                               learns the others): every room's keys hash-tagged into its slot.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from server.store.base import DamagedRoom, FencedError, LogEntry, Store, StoreError
from server.store.memory import MemoryStore

__all__ = [
    "DamagedRoom",
    "FencedError",
    "LogEntry",
    "MemoryStore",
    "Store",
    "StoreError",
    "monitor_health",
    "open_store",
    "store_healthy",
    "store_ready",
    "trim_forever",
]

log = logging.getLogger(__name__)

#: How often a server forgets the rooms retired longer ago than the retention.
TRIM_INTERVAL = 3600.0

SUPPORTED = (
    "memory://, sqlite:///path/to/file.db, sqlite://relative/file.db, redis://host:port/db, "
    "redis+cluster://host:port/0"
)


def open_store(url: str, *, retention: float = 0.0) -> Store:
    """The store a URL names. Raises `StoreError` for an unknown scheme or an unusable
    SQLite file (Redis is only reached at the first call, and retried while it is down).

    `retention`: seconds a retired room is kept for its replay (0: until deleted). Redis
    expires its archives by itself; the other stores forget them in `trim_forever`."""
    scheme, separator, rest = url.partition("://")
    if not separator:
        scheme, rest = url, ""
    if scheme == "memory":
        return MemoryStore()
    if scheme == "sqlite":
        if not rest:
            raise StoreError(f"store {url!r} names no file; e.g. sqlite://var/rooms.db")
        from server.store.sqlite import SqliteStore

        return SqliteStore(rest)
    if scheme in ("redis", "rediss", "unix", "redis+cluster") and rest:
        from server.store.redis import RedisStore

        return RedisStore.from_url(url, retention=retention)
    raise StoreError(f"unsupported store {url!r}; supported: {SUPPORTED}")


async def store_healthy(store: Store) -> bool:
    """Whether the store can take writes now: asks Redis or SQLite (and updates what
    `store_ready` says); always true for the in-memory store."""
    ping = getattr(store, "ping", None)
    if ping is None:
        return True
    with contextlib.suppress(StoreError):
        return bool(await ping())
    return False


def store_ready(store: Store) -> bool:
    """What the store last knew of its backend, without waiting (for a synchronous
    `/readyz`): False from a failed Redis call until one succeeds again."""
    return bool(getattr(store, "healthy", True))


async def monitor_health(store: Store, interval: float = 1.0) -> None:
    """Ping the store every `interval` seconds, forever, so that `store_ready` notices an
    outage even while no room is writing. Run it as a task; cancel it at shutdown."""
    while True:
        await store_healthy(store)
        await asyncio.sleep(interval)


async def trim_forever(store: Store, retention: float, interval: float = TRIM_INTERVAL) -> None:
    """Forget the rooms retired more than `retention` seconds ago, now and every
    `interval` seconds, forever (a task; cancel it at shutdown). Not for Redis with a
    retention: its archives expire by themselves, and walking every key hourly from
    every node would cost Redis more than it saves."""
    if retention <= 0 or getattr(store, "retention", 0) > 0:
        return
    while True:
        try:
            forgotten = await store.trim(time.time() - retention)
        except StoreError as exc:
            log.warning("trimming retired rooms failed: %s", exc)
        else:
            if forgotten:
                log.info("forgot %d rooms retired over %g days ago", forgotten, retention / 86400)
        await asyncio.sleep(interval)
