"""Checks that what a store holds of a room is what a room wrote: before a room is run
again or its replay is served.

A store keeps bytes; a disk can flip some, an operator can edit a file, a bug can write a
record behind its log. Served as they are, such bytes become a replay nobody can decode,
an HTTP 500, or a room restored at a `seq` its log has passed, which then fails every
change after answering `ok`. These checks raise `DamagedRoom` instead, naming the room,
the store and what failed, so the caller can refuse clearly or move the room aside
(`Store.quarantine`).

They read two things of the bytes, and nothing else:

- a snapshot is a room's record (`server.rooms.model.RoomRecord`): a MessagePack map
  whose `seq` is the last event's and whose `closed` says the room has ended. Every
  record version has had both fields; the rest is the room's business (the rooms layer
  decodes it whole, `RecordFacts` only these two);
- a log entry is a room event: a MessagePack map whose `seq` is the entry's own.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from server.store.base import DamagedRoom, LogEntry, Store


class RecordFacts(msgspec.Struct):
    """The two fields of a room's record a store may read (others are skipped, not
    decoded); see the module's docstring."""

    seq: int
    closed: bool = False


class _EventHead(msgspec.Struct):
    seq: int


_record_facts = msgspec.msgpack.Decoder(RecordFacts)
_event_head = msgspec.msgpack.Decoder(_EventHead)


def record_facts(room: str, snapshot: bytes, where: str = "") -> RecordFacts:
    """The `seq` and `closed` of a room's snapshot; `DamagedRoom` if it is not a record."""
    try:
        return _record_facts.decode(snapshot)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise DamagedRoom(room, f"its snapshot is not a room record ({exc})", where) from exc


def check_entries(room: str, entries: Sequence[LogEntry], where: str = "") -> None:
    """Each entry is one whole MessagePack room event carrying its own `seq`, and the
    seqs grow; `DamagedRoom` at the first that is not (about 1 µs an entry)."""
    previous = -1
    for entry in entries:
        try:
            head = _event_head.decode(entry.data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise DamagedRoom(
                room, f"log entry {entry.seq} is not a room event ({exc})", where
            ) from exc
        if head.seq != entry.seq:
            raise DamagedRoom(room, f"log entry {entry.seq} says it is event {head.seq}", where)
        if entry.seq <= previous:
            raise DamagedRoom(room, f"log entry {entry.seq} does not follow {previous}", where)
        previous = entry.seq


def check_agreement(room: str, record_seq: int, last_seq: int | None, where: str = "") -> None:
    """The record was saved with its log's last entry (`Store.save` writes both at once),
    so it is never behind its log: one that is would restart the room at a `seq` already
    used, and every change of it would be refused after its members were told `ok`.
    (A record ahead of its log is a room whose later events were not kept for its replay:
    it runs on.) `last_seq` is None for an empty log."""
    if last_seq is not None and record_seq < last_seq:
        raise DamagedRoom(
            room, f"its record (seq {record_seq}) is behind its log (seq {last_seq})", where
        )


def where_of(store: Store) -> str:
    """The store, as messages name it: a file, a Redis address, or nothing."""
    path = getattr(store, "path", None)
    if path is not None:
        return str(path)
    return str(getattr(store, "where", ""))


async def check_room(store: Store, room: str) -> RecordFacts | None:
    """Check a live room before it runs again: its snapshot is a record, every entry of
    its log is a room event, and the record is not behind its log. Returns the
    record's facts (None: the store has no such room); `DamagedRoom` otherwise. Reads the
    whole log once (a room's log is hundreds of entries, a millisecond)."""
    where = where_of(store)
    snapshot = await store.load(room)
    if snapshot is None:
        return None
    facts = record_facts(room, snapshot, where)
    entries = await store.log(room, after=-1)
    check_entries(room, entries, where)
    check_agreement(room, facts.seq, entries[-1].seq if entries else None, where)
    return facts


async def checked_replay(store: Store, room: str) -> tuple[bytes, list[LogEntry]] | None:
    """A room's snapshot and whole log, each checked as `check_room` does; None: no such
    room; `DamagedRoom` if damaged or quarantined, saying which. For tools and tests; a
    server reads a replay a page at a time and checks each page (`check_entries`)."""
    where = where_of(store)
    snapshot = await store.load(room)
    if snapshot is None:
        reason = await store.quarantined(room)
        if reason is not None:
            raise DamagedRoom(room, f"it was quarantined: {reason}", where)
        return None
    record_facts(room, snapshot, where)
    entries = await store.log(room, after=-1)
    check_entries(room, entries, where)
    return snapshot, entries
