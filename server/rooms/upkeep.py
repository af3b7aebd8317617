"""Which stored rooms may run again: each one checked before a restart brings it back.

A lone node's restart runs every open room the store holds (`Lobby.restore`). Before one
runs, its record must decode, every entry of its log must be a room event, and the record
must not be behind its log (see `server.store.integrity`). A room that fails is
**quarantined** — moved aside in the store with its bytes and the reason, logged as an
error naming the room, the store and the check — and never runs: its players find no
seat to come back to, and its replay answers that it is damaged, instead of the room
answering `ok` to every move and then failing to store any of them.

A closed room still among the live ones (finished before this version retired rooms) is
retired now, so it leaves the rooms a restart walks through and joins the retention.

If the store cannot be read at all (a SQLite page the file check missed, Redis gone),
the `StoreError` goes up: the server refuses to start, with the store's own message.
"""

from __future__ import annotations

import logging

import msgspec

from server.rooms.model import RoomRecord, decode_record
from server.store import DamagedRoom, Store
from server.store.integrity import check_agreement, check_entries, where_of

log = logging.getLogger(__name__)


async def restorable(store: Store, room_id: str) -> RoomRecord | None:
    """The record to run `room_id` from, checked; None if it is not to run: gone, closed
    (retired now) or damaged (quarantined now, and logged)."""
    where = where_of(store)
    data = await store.load(room_id)
    if data is None:
        return None
    try:
        try:
            record = decode_record(data)
        except (msgspec.DecodeError, msgspec.ValidationError) as exc:
            raise DamagedRoom(room_id, f"its record does not decode ({exc})", where) from exc
        if record.closed:
            await store.retire(room_id)
            return None
        entries = await store.log(room_id, after=-1)
        check_entries(room_id, entries, where)
        check_agreement(room_id, record.seq, entries[-1].seq if entries else None, where)
    except DamagedRoom as damage:
        await store.quarantine(room_id, damage.check)
        log.error(
            "%s: moved aside (quarantined), not restored; its players have no seat to "
            "return to (server/store/README.md, Damage)",
            damage,
        )
        return None
    return record
