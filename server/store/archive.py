"""A retired room packed into one value: its last snapshot and its whole log, compressed.

A room that has closed is only ever read again whole, for its replay. Kept as it was
played — a snapshot beside a log of small entries (a Redis stream, rows of SQLite) — it
costs the structures' overhead on every entry; packed, it is one value: MessagePack of
`[snapshot, [[seq, data], …]]`, deflated (zlib, whose Adler-32 checksum also tells a
damaged archive from a good one). The room events are MessagePack with much repetition
(field names, ball numbers, trajectories of resting balls), which deflate shrinks several
times over: the figures are in `bench/README.md` ("Redis memory").

The same packing (without compression) keeps a quarantined room's bytes as they were
(`pack_raw`), so that nothing is decoded on the way aside.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import msgspec

from server.store.base import DamagedRoom, LogEntry

#: What an archive starts with: a format name and version, so a later format can be told
#: apart (and an older one still read).
MAGIC = b"NPA1"
#: zlib's level: 6 (its default) packs a room's log within a few percent of 9, twice as fast.
LEVEL = 6

_Packed = tuple[bytes, list[tuple[int, bytes]]]
_decoder = msgspec.msgpack.Decoder(_Packed)


def pack_raw(snapshot: bytes, entries: Sequence[LogEntry]) -> bytes:
    """Snapshot and log as one MessagePack value, uncompressed."""
    return msgspec.msgpack.encode((snapshot, [(entry.seq, entry.data) for entry in entries]))


def unpack_raw(data: bytes, room: str, where: str = "") -> tuple[bytes, list[LogEntry]]:
    try:
        snapshot, entries = _decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise DamagedRoom(room, f"its packed log does not decode ({exc})", where) from exc
    return snapshot, [LogEntry(seq, data) for seq, data in entries]


def pack(snapshot: bytes, entries: Sequence[LogEntry]) -> bytes:
    """The archive of a retired room (CPU-bound: a room of 300 shots takes milliseconds,
    so callers on an event loop run it in a thread; zlib lets go of the GIL meanwhile)."""
    return MAGIC + zlib.compress(pack_raw(snapshot, entries), LEVEL)


def unpack(data: bytes, room: str, where: str = "") -> tuple[bytes, list[LogEntry]]:
    """Snapshot and log back from an archive; `DamagedRoom` if it is not one or its
    checksum fails."""
    if not data.startswith(MAGIC):
        raise DamagedRoom(room, "its archive does not start with " + MAGIC.decode(), where)
    try:
        raw = zlib.decompress(data[len(MAGIC) :])
    except zlib.error as exc:
        raise DamagedRoom(room, f"its archive fails to inflate ({exc})", where) from exc
    return unpack_raw(raw, room, where)


def after(entries: Sequence[LogEntry], seq: int) -> list[LogEntry]:
    """The entries with `seq` greater than `seq` (what `Store.log(room, after)` returns)."""
    return [entry for entry in entries if entry.seq > seq]
