"""The in-memory store: the default for one process, and the reference for the others."""

from __future__ import annotations

from collections.abc import Sequence

from server.store.base import FencedError, LogEntry, Store, StoreError


class MemoryStore(Store):
    def __init__(self) -> None:
        self._snapshots: dict[str, bytes] = {}
        self._logs: dict[str, list[LogEntry]] = {}
        # Highest fencing epoch accepted per room; outlives `delete` so a stale owner
        # cannot bring a deleted room back.
        self._fences: dict[str, int] = {}

    async def save(
        self,
        room: str,
        snapshot: bytes,
        entries: Sequence[LogEntry] = (),
        *,
        fence: int | None = None,
    ) -> None:
        if fence is not None and fence < self._fences.get(room, fence):
            raise FencedError(f"room {room}: fence {fence} is stale ({self._fences[room]})")
        log = self._logs.setdefault(room, [])
        last = log[-1].seq if log else -1
        for entry in entries:
            if entry.seq <= last:
                raise StoreError(f"room {room}: log entry {entry.seq} does not follow {last}")
            last = entry.seq
        # Checked first, then applied in one step with no await between: atomic for readers.
        if fence is not None:
            self._fences[room] = fence
        self._snapshots[room] = bytes(snapshot)
        log.extend(LogEntry(e.seq, bytes(e.data)) for e in entries)

    async def load(self, room: str) -> bytes | None:
        return self._snapshots.get(room)

    async def rooms(self) -> list[str]:
        return list(self._snapshots)

    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        return [entry for entry in self._logs.get(room, ()) if entry.seq > after]

    async def delete(self, room: str) -> None:
        self._snapshots.pop(room, None)
        self._logs.pop(room, None)
