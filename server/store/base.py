"""Where rooms live between events: a small async interface with several backends.

A room keeps two things in the store:

- its **snapshot**: everything needed to bring the room back (opaque bytes the room
  writes and reads; the store never looks inside), replaced on every change;
- its **event log**: every room event, in `seq` order, appended and never rewritten.
  Replays (`GET /replay/<room>`) read it.

`save` replaces the snapshot and appends log entries *atomically*: after a crash a
reader sees either both or neither. The room awaits `save` before it tells anyone about
the change, so nothing a client was told is ever lost.

Implementations must be safe to call from one event loop by many rooms at once. They
must keep entries in the order given and must refuse (raise `StoreError`) an entry whose
`seq` is not greater than the last one stored for the room.

**Fencing.** When rooms are owned through leases (several nodes, `server.cluster`), each
owner holds a fencing epoch that grows with every new owner of the room. It passes that
epoch as `save(..., fence=epoch)`; a save whose fence is stale raises `FencedError` and
changes nothing, so an owner that was paused past its lease can never overwrite the
newer owner's work. A store with a lease service (Redis) checks the fence against the
lease's current epoch; a store without one refuses a fence lower than the highest fence
it has already accepted for the room (kept even after `delete`). `fence=None` (a lone
node) skips the check.
"""

from __future__ import annotations

import abc
from collections.abc import AsyncGenerator, Sequence
from typing import NamedTuple


class LogEntry(NamedTuple):
    """One room event: its per-room sequence number and the encoded message."""

    seq: int
    data: bytes


class StoreError(Exception):
    """The store refused an operation (a corrupt call, or the backend failed)."""


class FencedError(StoreError):
    """The save carried a stale fencing epoch: another owner has the room now."""


class DamagedRoom(StoreError):
    """What the store holds of a room cannot be what was written: a snapshot or log entry
    that does not decode, a record behind its log, an archive whose checksum fails.

    Raised instead of handing the bytes on, so that nobody serves (or runs) a room nobody
    can read; `check` says which check failed and `where` which store (a file, a URL)."""

    def __init__(self, room: str, check: str, where: str = "") -> None:
        self.room, self.check, self.where = room, check, where
        place = f" in {where}" if where else ""
        super().__init__(f"room {room}{place} is damaged: {check}")


class Store(abc.ABC):
    """Snapshots and event logs of rooms."""

    @abc.abstractmethod
    async def save(
        self,
        room: str,
        snapshot: bytes,
        entries: Sequence[LogEntry] = (),
        *,
        fence: int | None = None,
    ) -> None:
        """Atomically replace `room`'s snapshot and append `entries` to its log.

        With `fence`, raise `FencedError` (and change nothing) if that epoch is stale."""

    @abc.abstractmethod
    async def load(self, room: str) -> bytes | None:
        """The room's latest snapshot, or None if the store has no such room."""

    @abc.abstractmethod
    async def rooms(self) -> list[str]:
        """Ids of every room with a live snapshot (not retired, not quarantined), in no
        particular order: the rooms a restart may have to bring back."""

    @abc.abstractmethod
    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with `seq > after`, in order (empty for an unknown room)."""

    async def log_page(self, room: str, after: int, limit: int) -> list[LogEntry]:
        """At most `limit` of the room's log entries with `seq > after`, in order: how a
        replay reads a long log, a page at a time. This default reads the whole log and
        keeps a page; a store overrides it to read no more than the page."""
        return (await self.log(room, after))[: max(0, limit)]

    async def log_pages(
        self, room: str, after: int, page: int
    ) -> AsyncGenerator[list[LogEntry], None]:
        """The room's log entries with `seq > after`, in order, `page` at a time, each read
        once the one before has been taken: how a replay walks a long log while holding a
        page. This default asks `log_page` for each; a store whose log may be packed (an
        archive) overrides it to unpack as it goes, once per walk."""
        while True:
            entries = await self.log_page(room, after, page)
            if not entries:
                return
            yield entries
            after = entries[-1].seq

    @abc.abstractmethod
    async def delete(self, room: str) -> None:
        """Forget the room: snapshot and log. Deleting an unknown room is not an error."""

    @abc.abstractmethod
    async def retire(self, room: str) -> None:
        """The room has closed for good and is kept only for its replay: it leaves
        `rooms()`, `load` and `log` still answer, and no save is taken for it any more.
        The disk stores pack snapshot and log into one compressed archive and drop the
        live structures; each store forgets retired rooms by its retention (`trim`)."""

    @abc.abstractmethod
    async def trim(self, retired_before: float) -> int:
        """Forget the rooms retired before `retired_before` (wall-clock seconds, as
        `time.time()`): snapshot, log and all. Returns how many were forgotten."""

    @abc.abstractmethod
    async def quarantine(self, room: str, reason: str) -> None:
        """Move a damaged room aside: it leaves `rooms()`, `load` and `log` no longer
        answer for it, and its bytes are kept as they were (with `reason`) for whoever
        investigates. An unknown room is not an error."""

    @abc.abstractmethod
    async def quarantined(self, room: str) -> str | None:
        """Why the room was quarantined, or None if it was not."""

    async def close(self) -> None:  # noqa: B027 - optional hook, most stores need nothing
        """Release connections or files; the store is not used afterwards."""
