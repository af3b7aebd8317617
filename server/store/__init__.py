"""Room stores behind one small interface (`Store`), opened from a URL."""

from __future__ import annotations

from server.store.base import LogEntry, Store, StoreError
from server.store.memory import MemoryStore

__all__ = ["LogEntry", "MemoryStore", "Store", "StoreError", "open_store"]


def open_store(url: str) -> Store:
    """The store a URL names. `memory://` keeps everything in this process."""
    scheme = url.partition("://")[0] if "://" in url else url
    if scheme == "memory":
        return MemoryStore()
    raise StoreError(f"unsupported store {url!r}; supported: memory://")
