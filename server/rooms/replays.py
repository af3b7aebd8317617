"""A room's replay as the store holds it, read a page at a time and never whole.

The replay document is one MessagePack map, `m.Replay`: `room`, `settings`, `players`,
`truncated` and `events`, every stored room event in order. A long room's log may run to
tens of megabytes, and whoever asks for it may read slowly or not at all, so the document
is never built in memory: `plan` reads the log once in pages to count what fits under the
size cap, and `body` reads it again, page by page, as the caller asks for the next one
(the HTTP side asks when the reader has taken the previous page). Holding a page costs at
most `PAGE` entries, whatever the room; a retired room's archive is inflated as it is
read (`Store.log_pages`). A finished room's log no longer changes, so its plan is kept
(the last `PLANS_KEPT`) and worked out once however many read it at once.

A private room's replay is for those who joined it: `ReplayHead.admits` asks for its
invite code or the id of a player who held one of its seats.

Each page is checked as it is read (`server.store.integrity.check_entries`): a damaged
log raises `DamagedRoom` instead of becoming a document nobody can decode.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
from collections import OrderedDict
from collections.abc import AsyncIterator
from dataclasses import dataclass

import msgspec

from protocol import messages as m
from server.rooms.model import decode_record
from server.store import DamagedRoom, LogEntry, Store
from server.store.integrity import check_entries, where_of

#: Log entries read from the store at once.
PAGE = 64
#: Plans of finished rooms kept (a few numbers each).
PLANS_KEPT = 256
#: The longest MessagePack array header (`array 32`): room for it is kept under the cap.
_ARRAY_HEADER_MAX = 5


class ReplayError(Exception):
    """The room's log changed under a replay being written (it was forgotten meanwhile)."""


class ReplayDamaged(Exception):
    """What the store holds of the room cannot be sent as its replay: damaged bytes, a
    record that does not decode, a room quarantined as damaged (`server.store.integrity`).
    The message says which room and what is wrong, for the log; the reader is told only
    that the replay is damaged."""


@dataclass(frozen=True)
class ReplayHead:
    """What a replay says of its room before its events, and who may read it."""

    room: str
    settings: m.RoomSettings
    players: list[str]
    code: str | None
    #: Players who have held a seat.
    seated: frozenset[str]
    #: The room's last event: the replay holds none after it, even if the room goes on.
    last_seq: int
    #: The room has ended: its log will not change any more.
    closed: bool = False
    #: Beside `players`: a computer player's level, None for a person.
    computer: tuple[int | None, ...] = ()

    def admits(self, code: str | None, player: str | None) -> bool:
        """A public room's replay is anyone's; a private room's needs its invite code or a
        player who held one of its seats."""
        if not self.settings.private:
            return True
        right_code = (
            code is not None
            and self.code is not None
            and hmac.compare_digest(code.encode(), self.code.encode())
        )
        return right_code or (player is not None and player in self.seated)


@dataclass(frozen=True)
class ReplayPlan:
    """What of the log the document holds: its first `count` entries, up to `last`."""

    count: int
    last: int
    #: Bytes of those entries together.
    size: int
    truncated: bool


def _array_header(count: int) -> bytes:
    if count < 16:
        return bytes([0x90 | count])
    if count < 2**16:
        return b"\xdc" + count.to_bytes(2, "big")
    return b"\xdd" + count.to_bytes(4, "big")


class ReplayBook:
    """Replays of the rooms a store holds."""

    def __init__(self, store: Store, max_bytes: int) -> None:
        self.store = store
        self.max_bytes = max_bytes
        self._plans: OrderedDict[tuple[str, int], asyncio.Task[ReplayPlan]] = OrderedDict()

    async def head(self, room_id: str) -> ReplayHead | None:
        """None: no such room; `ReplayDamaged`: the store holds it damaged."""
        try:
            data = await self.store.load(room_id)
            if data is None:
                reason = await self.store.quarantined(room_id)
                if reason is not None:
                    raise DamagedRoom(room_id, f"it was quarantined: {reason}")
                return None
            try:
                record = decode_record(data)
            except (msgspec.DecodeError, msgspec.ValidationError) as exc:
                raise DamagedRoom(room_id, f"its record does not decode ({exc})") from exc
        except DamagedRoom as exc:
            raise ReplayDamaged(str(exc)) from exc
        return ReplayHead(
            room=room_id,
            settings=record.settings,
            players=[s.name for s in record.seats if s is not None],
            code=record.code,
            seated=frozenset(record.seated) | {s.player for s in record.seats if s is not None},
            last_seq=record.seq,
            closed=record.closed,
            computer=tuple(s.bot for s in record.seats if s is not None),
        )

    async def _pages(self, head: ReplayHead, last: int) -> AsyncIterator[list[LogEntry]]:
        """The log entries up to `last`, a page at a time, each checked to be a room event
        (`DamagedRoom` if one is not: nobody is sent a replay nobody can decode)."""
        if last <= 0:
            return
        where = where_of(self.store)
        try:
            async with contextlib.aclosing(self.store.log_pages(head.room, 0, PAGE)) as pages:
                async for page in pages:
                    check_entries(head.room, page, where)
                    kept = [entry for entry in page if entry.seq <= last]
                    if kept:
                        yield kept
                    if len(kept) < len(page) or page[-1].seq >= last:
                        return
        except DamagedRoom as exc:
            raise ReplayDamaged(str(exc)) from exc

    def preamble(self, head: ReplayHead, plan: ReplayPlan) -> bytes:
        """The document up to its events: a map of six, `events` last, whose array
        header announces `plan.count` entries."""
        fields: tuple[tuple[str, object], ...] = (
            ("room", head.room),
            ("settings", head.settings),
            ("players", head.players),
            ("computer", list(head.computer)),
            ("truncated", plan.truncated),
        )
        encode = msgspec.msgpack.encode
        parts = [bytes([0x80 | (len(fields) + 1)])]
        for name, value in fields:
            parts += [encode(name), encode(value)]
        parts += [encode("events"), _array_header(plan.count)]
        return b"".join(parts)

    async def plan(self, head: ReplayHead) -> ReplayPlan:
        """Count the entries that fit under the size cap: one pass over the log, or none
        for a finished room planned before (a plan being worked out is waited for)."""
        if not head.closed:
            return await self._plan(head)
        key = (head.room, head.last_seq)
        known = self._plans.get(key)
        if known is None:
            # Worked out by a task of its own: a reader who leaves does not stop it for
            # the others, and the plan is kept for the next ones.
            known = asyncio.get_running_loop().create_task(self._plan(head))
            known.add_done_callback(lambda done: self._planned(key, done))
            self._plans[key] = known
            while len(self._plans) > PLANS_KEPT:
                self._plans.popitem(last=False)
        else:
            self._plans.move_to_end(key)
        return await asyncio.shield(known)

    def _planned(self, key: tuple[str, int], done: asyncio.Future[ReplayPlan]) -> None:
        """A failed plan is not kept: the next reader works it out again."""
        failed = done.cancelled() or done.exception() is not None
        if failed and self._plans.get(key) is done:
            del self._plans[key]

    async def _plan(self, head: ReplayHead) -> ReplayPlan:
        room = self.preamble(head, ReplayPlan(0, 0, 0, False))
        budget = self.max_bytes - len(room) - _ARRAY_HEADER_MAX
        count = size = last = 0
        full = False
        async for page in self._pages(head, head.last_seq):
            for entry in page:
                if size + len(entry.data) > budget:
                    full = True
                    break
                count, size, last = count + 1, size + len(entry.data), entry.seq
            if full:
                break
        return ReplayPlan(count, last, size, truncated=full or last < head.last_seq)

    async def body(self, head: ReplayHead, plan: ReplayPlan) -> AsyncIterator[bytes]:
        """The events of the plan, a page's worth of bytes at a time."""
        written = 0
        async for page in self._pages(head, plan.last):
            written += len(page)
            if written > plan.count:
                raise ReplayError(f"room {head.room}: its log grew under its replay")
            yield b"".join(entry.data for entry in page)
        if written != plan.count:
            raise ReplayError(f"room {head.room}: its log shrank under its replay")

    async def document(self, room_id: str) -> bytes | None:
        """The whole document at once, for those who hold it anyway (tests, tools); the
        server streams it (`server.edge.replays`)."""
        head = await self.head(room_id)
        if head is None:
            return None
        plan = await self.plan(head)
        parts = [self.preamble(head, plan)]
        async for chunk in self.body(head, plan):
            parts.append(chunk)
        return b"".join(parts)
