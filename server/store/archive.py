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
from collections.abc import Iterator, Sequence

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


#: Compressed bytes fed to the inflater at once, and the most it may give back at once.
_FEED = 64 * 1024
_GIVE = 256 * 1024


class _Inflating:
    """An archive's MessagePack, inflated as far as it is read (see `pages`)."""

    def __init__(self, data: bytes, room: str, where: str) -> None:
        self.data, self.room, self.where = data, room, where
        self.fed = len(MAGIC)
        self.inflater = zlib.decompressobj()
        self.buffer = bytearray()
        self.at = 0

    def damaged(self, what: str) -> DamagedRoom:
        return DamagedRoom(self.room, f"its archive {what}", self.where)

    def _need(self, count: int) -> None:
        while len(self.buffer) - self.at < count:
            if self.at > _GIVE:
                del self.buffer[: self.at]
                self.at = 0
            source = self.inflater.unconsumed_tail
            if not source:
                source = self.data[self.fed : self.fed + _FEED]
                self.fed += len(source)
            if not source:
                raise self.damaged("ends before its log does")
            try:
                self.buffer += self.inflater.decompress(source, _GIVE)
            except zlib.error as exc:
                raise self.damaged(f"fails to inflate ({exc})") from exc

    def take(self, count: int) -> bytes:
        self._need(count)
        out = bytes(self.buffer[self.at : self.at + count])
        self.at += count
        return out

    def byte(self) -> int:
        self._need(1)
        value = self.buffer[self.at]
        self.at += 1
        return value

    def number(self, size: int) -> int:
        return int.from_bytes(self.take(size), "big")

    def unsigned(self) -> int:
        lead = self.byte()
        if lead < 0x80:
            return lead
        sizes = {0xCC: 1, 0xCD: 2, 0xCE: 4, 0xCF: 8}
        if lead not in sizes:
            raise self.damaged(f"holds {lead:#x} where a seq should be")
        return self.number(sizes[lead])

    def bin_length(self) -> int:
        sizes = {0xC4: 1, 0xC5: 2, 0xC6: 4}
        lead = self.byte()
        if lead not in sizes:
            raise self.damaged(f"holds {lead:#x} where bytes should be")
        return self.number(sizes[lead])

    def array_length(self) -> int:
        lead = self.byte()
        if 0x90 <= lead <= 0x9F:
            return lead - 0x90
        if lead in (0xDC, 0xDD):
            return self.number(2 if lead == 0xDC else 4)
        raise self.damaged(f"holds {lead:#x} where a list should be")

    def finish(self) -> None:
        """Everything inflated, and zlib's checksum holds."""
        while not self.inflater.eof:
            source = self.inflater.unconsumed_tail or self.data[self.fed : self.fed + _FEED]
            self.fed += 0 if self.inflater.unconsumed_tail else len(source)
            if not source:
                raise self.damaged("ends early")
            try:
                self.inflater.decompress(source, _GIVE)
            except zlib.error as exc:
                raise self.damaged(f"fails to inflate ({exc})") from exc


def pages(
    data: bytes, room: str, after: int, page: int, where: str = ""
) -> Iterator[list[LogEntry]]:
    """The log of an archive with `seq` greater than `after`, `page` entries at a time,
    inflated as it is read: a replay of a long retired room holds the archive as stored
    (compressed), zlib's window and a page, never the whole log (`unpack` builds it all).
    `DamagedRoom` as `unpack` raises it, at the page where the damage is."""
    if not data.startswith(MAGIC):
        raise DamagedRoom(room, "its archive does not start with " + MAGIC.decode(), where)
    reader = _Inflating(data, room, where)
    if reader.array_length() != 2:
        raise reader.damaged("is not a snapshot and a log")
    reader.take(reader.bin_length())  # the snapshot
    out: list[LogEntry] = []
    for _ in range(reader.array_length()):
        if reader.array_length() != 2:
            raise reader.damaged("holds a log entry that is not a seq and its data")
        seq = reader.unsigned()
        data_of = reader.take(reader.bin_length())
        if seq > after:
            out.append(LogEntry(seq, data_of))
            if len(out) >= page:
                yield out
                out = []
    reader.finish()
    if out:
        yield out


def snapshot(data: bytes, room: str, where: str = "") -> bytes:
    """An archive's snapshot alone, inflating no further than it (it comes first): what
    `load` of a retired room needs, for every replay asked for, without the whole log
    (`DamagedRoom` if the archive does not start as one)."""
    if not data.startswith(MAGIC):
        raise DamagedRoom(room, "its archive does not start with " + MAGIC.decode(), where)
    reader = _Inflating(data, room, where)
    if reader.array_length() != 2:
        raise reader.damaged("is not a snapshot and a log")
    return reader.take(reader.bin_length())
