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
from collections.abc import Sequence
from typing import NamedTuple


class LogEntry(NamedTuple):
    """One room event: its per-room sequence number and the encoded message."""

    seq: int
    data: bytes


class StoreError(Exception):
    """The store refused an operation (a corrupt call, or the backend failed)."""


class FencedError(StoreError):
    """The save carried a stale fencing epoch: another owner has the room now."""


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
        """Ids of every room with a snapshot, in no particular order."""

    @abc.abstractmethod
    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        """The room's log entries with `seq > after`, in order (empty for an unknown room)."""

    @abc.abstractmethod
    async def delete(self, room: str) -> None:
        """Forget the room: snapshot and log. Deleting an unknown room is not an error."""

    async def retire(self, room: str) -> None:  # noqa: B027 - optional hook
        """The room has closed for good and is kept only for its replay. A store may
        forget retired rooms by its own retention policy (the in-memory store keeps a
        bounded number for a bounded time); the disk stores keep them."""

    async def close(self) -> None:  # noqa: B027 - optional hook, most stores need nothing
        """Release connections or files; the store is not used afterwards."""
