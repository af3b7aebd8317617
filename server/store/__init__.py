"""Room stores behind one small interface (`Store`), opened from a URL.

- `memory://`                  in this process only (tests, throwaway servers)
- `sqlite:///abs/path/rooms.db` one embedded file; `sqlite://var/rooms.db` is relative to
                               the working folder. The lone node's default: nothing to install.
- `redis://host:port/db`       shared by every node of a cluster (`server.cluster` adds the
                               room leases and the pub/sub fan-out on the same Redis).
"""

from __future__ import annotations

from server.store.base import FencedError, LogEntry, Store, StoreError
from server.store.memory import MemoryStore

__all__ = [
    "FencedError",
    "LogEntry",
    "MemoryStore",
    "Store",
    "StoreError",
    "open_store",
    "store_healthy",
]

SUPPORTED = "memory://, sqlite:///path/to/file.db, sqlite://relative/file.db, redis://host:port/db"


def open_store(url: str) -> Store:
    """The store a URL names. Raises `StoreError` for an unknown scheme or an unusable
    SQLite file (Redis is only reached at the first call, and retried while it is down)."""
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
    if scheme in ("redis", "rediss", "unix") and rest:
        from server.store.redis import RedisStore

        return RedisStore.from_url(url)
    raise StoreError(f"unsupported store {url!r}; supported: {SUPPORTED}")


async def store_healthy(store: Store) -> bool:
    """Whether the store can take writes now (for `/readyz`): asks Redis or SQLite, and
    is always true for the in-memory store."""
    ping = getattr(store, "ping", None)
    if ping is None:
        return True
    return bool(await ping())
