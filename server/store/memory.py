"""The in-memory store: the default for one process, and the reference for the others."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable, Sequence

from server.store.base import FencedError, LogEntry, Store, StoreError

#: Retired (closed) rooms kept for replays, and for how long, unless told otherwise.
DEFAULT_KEEP_RETIRED = 1000
DEFAULT_RETIRED_MAX_AGE = 86400.0


class MemoryStore(Store):
    """Everything in dictionaries of this process.

    Open rooms are kept as long as they are open. A retired room (closed, kept only for
    its replay; see `Store.retire`) is kept until `keep_retired` newer rooms have retired
    or it has been retired for `retired_max_age` seconds, whichever comes first: a
    long-running process does not grow with every room ever played."""

    def __init__(
        self,
        *,
        keep_retired: int = DEFAULT_KEEP_RETIRED,
        retired_max_age: float = DEFAULT_RETIRED_MAX_AGE,
        clock: Callable[[], float] = time.monotonic,
        wall: Callable[[], float] = time.time,
    ) -> None:
        if keep_retired < 0 or not retired_max_age >= 0:
            raise ValueError("keep_retired and retired_max_age must be 0 or more")
        self._snapshots: dict[str, bytes] = {}
        self._logs: dict[str, list[LogEntry]] = {}
        # Highest fencing epoch accepted per room; outlives `delete` so a stale owner
        # cannot bring a deleted room back.
        self._fences: dict[str, int] = {}
        self._keep_retired = keep_retired
        self._retired_max_age = retired_max_age
        self._clock = clock
        self._wall = wall
        #: Retired rooms, oldest first, with when they retired (`clock`, then `wall`).
        self._retired: OrderedDict[str, tuple[float, float]] = OrderedDict()
        #: Quarantined rooms: why, and their bytes as they were.
        self._quarantined: dict[str, tuple[str, bytes | None, list[LogEntry]]] = {}

    async def save(
        self,
        room: str,
        snapshot: bytes,
        entries: Sequence[LogEntry] = (),
        *,
        fence: int | None = None,
    ) -> None:
        if room in self._retired:
            raise StoreError(f"room {room} is retired: its log is closed")
        if room in self._quarantined:
            raise StoreError(f"room {room} is quarantined: {self._quarantined[room][0]}")
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
        self._prune()

    async def load(self, room: str) -> bytes | None:
        self._prune()
        return self._snapshots.get(room)

    async def rooms(self) -> list[str]:
        self._prune()
        return [room for room in self._snapshots if room not in self._retired]

    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        self._prune()
        return [entry for entry in self._logs.get(room, ()) if entry.seq > after]

    async def delete(self, room: str) -> None:
        self._snapshots.pop(room, None)
        self._logs.pop(room, None)
        self._retired.pop(room, None)

    async def retire(self, room: str) -> None:
        if room not in self._snapshots:
            return
        self._retired.pop(room, None)
        self._retired[room] = (self._clock(), self._wall())
        self._prune()

    async def trim(self, retired_before: float) -> int:
        old = [room for room, (_, wall) in self._retired.items() if wall < retired_before]
        for room in old:
            await self.delete(room)
        return len(old)

    async def quarantine(self, room: str, reason: str) -> None:
        if room not in self._snapshots and room not in self._logs:
            return
        snapshot = self._snapshots.pop(room, None)
        self._quarantined[room] = (reason, snapshot, self._logs.pop(room, []))
        self._retired.pop(room, None)

    async def quarantined(self, room: str) -> str | None:
        held = self._quarantined.get(room)
        return None if held is None else held[0]

    @property
    def retired(self) -> list[str]:
        """Retired rooms still kept, oldest first."""
        self._prune()
        return list(self._retired)

    def _prune(self) -> None:
        cutoff = self._clock() - self._retired_max_age
        while self._retired:
            room, (since, _) = next(iter(self._retired.items()))
            if len(self._retired) <= self._keep_retired and since > cutoff:
                break
            del self._retired[room]
            self._snapshots.pop(room, None)
            self._logs.pop(room, None)
