"""Argument checks shared by the stores that talk to a backend (SQLite, Redis).

Checked before anything is sent, so a bad call raises `StoreError` and changes nothing,
whatever the backend would have made of it.
"""

from __future__ import annotations

from collections.abc import Sequence

from server.store.base import LogEntry, StoreError

#: Sequence numbers must be exact in every backend: Redis Lua numbers are doubles.
MAX_SEQ = 2**53 - 1


def check_room(room: object) -> str:
    if not isinstance(room, str) or not room:
        raise StoreError(f"room id must be a non-empty string, not {room!r}")
    return room


def check_fence(fence: object) -> int | None:
    if fence is None:
        return None
    if isinstance(fence, bool) or not isinstance(fence, int) or not 0 <= fence <= MAX_SEQ:
        raise StoreError(f"fence must be an integer in 0..{MAX_SEQ}, not {fence!r}")
    return fence


def check_save(
    room: object, snapshot: object, entries: Sequence[LogEntry], fence: object
) -> tuple[str, bytes, list[LogEntry], int | None]:
    """The arguments of `save`, normalised to plain types; `StoreError` if any is wrong,
    including entries whose `seq` does not grow strictly within the batch."""
    room_id = check_room(room)
    if not isinstance(snapshot, bytes | bytearray | memoryview):
        raise StoreError(f"room {room_id}: snapshot must be bytes, not {type(snapshot).__name__}")
    checked: list[LogEntry] = []
    previous: int | None = None
    for entry in entries:
        if not isinstance(entry, tuple) or len(entry) != 2:
            raise StoreError(f"room {room_id}: log entries must be LogEntry(seq, data)")
        seq, data = entry
        if isinstance(seq, bool) or not isinstance(seq, int) or not 0 <= seq <= MAX_SEQ:
            raise StoreError(f"room {room_id}: seq must be an integer in 0..{MAX_SEQ}")
        if not isinstance(data, bytes | bytearray | memoryview):
            raise StoreError(f"room {room_id}: log entry {seq} data must be bytes")
        if previous is not None and seq <= previous:
            raise StoreError(f"room {room_id}: log entry {seq} does not follow {previous}")
        previous = seq
        checked.append(LogEntry(seq, bytes(data)))
    return room_id, bytes(snapshot), checked, check_fence(fence)


def check_after(after: object) -> int:
    """The `after` of `log`: an integer, clamped to the range sequence numbers use."""
    if isinstance(after, bool) or not isinstance(after, int):
        raise StoreError(f"after must be an integer, not {after!r}")
    return max(-1, min(after, MAX_SEQ))
