"""One connected client as rooms and the lobby see it: who it is and how to reach it.

Sending never waits: a frame is written straight into the connection's buffer (as
`websockets.broadcast` does), so a room fans a shot out to every member in one pass and
one slow reader cannot hold the room up. What waits to be sent to one connection — the
kernel's socket buffer (`SO_SNDBUF`, set from `--send-buffer` when the connection opens)
and the process's own — is its send queue, and it is bounded; what happens at the bound
depends on the frame:

- a broadcast (room events, aim relays, lobby updates: `send_event`) to a connection that
  is behind (the process holds more than half of `--send-buffer` for it, the kernel's half
  being full) is skipped, and so is every broadcast after it while it stays behind. Once
  it has caught up (the process holds nothing more for it), its room sends it a fresh
  snapshot: it skips ahead to the room as it is now instead of replaying what it missed.
  A spectator that falls behind more than `--lag-limit` times in ten minutes is closed
  (1013); a player is always resynced (its seat is worth more than a slow minute, and the
  keepalive closes a connection that is truly gone). Which one it is, the room says
  (`is_spectator`), the relay of a room another node owns included: the node a client is
  connected to applies the same policy whoever owns its room;
- a frame for this client alone (a reply, its own snapshot: `send`) is never skipped; past
  four times the bound the connection is not reading at all and is closed (1008).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import socket
from collections import deque
from collections.abc import Iterator
from typing import TYPE_CHECKING

import msgspec
from websockets.asyncio.server import ServerConnection, broadcast
from websockets.protocol import State

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server.edge.answers import Answers
from server.edge.limits import (
    CHAT_RATE,
    LAG_CLOSE,
    SEND_LAG,
    SILENT,
    SLOW_CLOSE,
    AddressBook,
    FrameBudget,
    Limits,
    address_key,
)
from server.rooms.seams import Request, RoomPort

if TYPE_CHECKING:
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

_connection_ids = itertools.count(1)

#: How often a connection that is behind is looked at again (seconds).
CATCH_UP_POLL = 0.2
#: How long a connection that caught up waits for its fresh snapshot before broadcasts
#: flow again anyway (the room may have closed meanwhile); seconds.
SNAPSHOT_WAIT = 5.0
#: The window in which a spectator's lags are counted against `--lag-limit` (seconds).
LAG_WINDOW = 600.0
#: How every snapshot and error frame starts: msgspec writes the tag first.
_SNAPSHOT_HEAD = b"\xa1t\xa8snapshot"
_ERROR_HEAD = b"\xa1t\xa5error"
#: The request id of the resync a connection that caught up asks its room for on its own
#: behalf. It must be a valid id (in a cluster the request travels to the room's node and
#: is decoded there like any client's); the answer leaves here with `id` null.
SKIP_AHEAD_ID = 2**31 - 1


class Client:
    def __init__(
        self,
        ws: ServerConnection | None,
        metrics: Metrics | None = None,
        limits: Limits | None = None,
        address: str = "unknown",
        book: AddressBook | None = None,
    ) -> None:
        self.ws = ws
        self.metrics = metrics
        #: This connection in the logs (`c1`, `c2`, … per process).
        self.conn_id = f"c{next(_connection_ids)}"
        self.limits = limits if limits is not None else Limits()
        #: Where the connection comes from (through trusted proxies), for per-address limits.
        self.address = address
        #: Per-address state shared by every connection (wrong invite guesses).
        self.book = book
        self.player: str | None = None
        self.name = ""
        #: Said `hello` with an account token: plays as the account (rated play allowed).
        self.account = False
        #: The room this connection is in (bound when a join is posted, unbound on leave).
        self._room: RoomPort | None = None
        self.budget = FrameBudget(self.limits, on_chat_refused=self._chat_refused)
        #: Recent request ids and their answers: a request sent twice is carried out once
        #: (the session's, shared across reconnects, when its hello asked for that).
        self.answers = Answers()
        self._closing: set[asyncio.Task[None]] = set()
        self.closed = False
        #: Broadcasts are being skipped until the connection catches up.
        self.behind = False
        #: Caught up, waiting (until this loop time) for the snapshot that skips it ahead.
        self.resync_until: float | None = None
        #: Skip-ahead resyncs asked for and not answered yet.
        self._skip_aheads = 0
        #: Broadcast frames skipped so far.
        self.skipped = 0
        self._lags: deque[float] = deque()
        self._catch_up: asyncio.TimerHandle | None = None
        #: When a frame last came in (loop time), and the silence this connection promised
        #: not to exceed (`ping.expect`; None: no promise), checked by `_silence_check`.
        self.heard_at = 0.0
        self._promised: float | None = None
        self._silence: asyncio.TimerHandle | None = None
        #: Frames of this connection being handled over an await (`handling`).
        self._handling = 0

    @property
    def room_id(self) -> str | None:
        room = self.room
        return None if room is None else str(getattr(room, "id", "")) or None

    @property
    def room(self) -> RoomPort | None:
        """The room this connection is in (bound when a join is posted, unbound on leave)."""
        return self._room

    def bind(self, room: RoomPort) -> None:
        """`room` holds this connection now (see `server.rooms.seams.Member`)."""
        self._room = room

    def entering(self, room: RoomPort) -> None:
        """This connection is handed to `room`, which decides on it (a refusal unbinds)."""
        self._room = room

    def unbind(self, room: RoomPort) -> None:
        """`room` is done with this connection; a binding to another room stays."""
        if self._room is room:
            self._room = None

    def may_chat(self) -> bool:
        """Take one chat message from the connection's allowance."""
        return self.budget.chat.take()

    #: A promise (`ping.expect`) is taken as broken past this many times the seconds
    #: promised, plus `SILENCE_SLACK`: a slow network or a busy page is not a lost one.
    SILENCE_FACTOR = 3
    SILENCE_SLACK = 3.0

    def heard(self, now: float) -> None:
        """A frame came in (any: the promise is of a frame, not of a `ping`)."""
        self.heard_at = now

    @contextlib.contextmanager
    def handling(self) -> Iterator[None]:
        """A frame handled over an await (a store's read, which may take seconds in an
        outage): the frames after it wait unread meanwhile, so that silence is the
        server's, not the peer's; the promise counts again from its end."""
        self._handling += 1
        try:
            yield
        finally:
            self._handling -= 1
            self.heard_at = asyncio.get_running_loop().time()

    def promise(self, seconds: int | None, now: float) -> None:
        """`ping.expect`: the next frame within `seconds` (None withdraws the promise)."""
        if self._silence is not None:
            self._silence.cancel()
            self._silence = None
        if seconds is None:
            self._promised = None
            return
        self._promised = seconds * self.SILENCE_FACTOR + self.SILENCE_SLACK
        self.heard_at = now
        self._arm_silence(now + self._promised)

    def _arm_silence(self, at: float) -> None:
        loop = asyncio.get_running_loop()
        self._silence = loop.call_at(at, self._silence_check, at)

    def _silence_check(self, due: float) -> None:
        """Silent past the promise: the connection is taken for dropped, and aborted (no
        closing handshake with a peer that is not there: the room hears `Gone` at once).
        A check that ran late (a busy loop) looks again instead: frames may be waiting
        unread behind it."""
        self._silence = None
        limit = self._promised
        if limit is None or self.closed or self.ws is None:
            return
        now = asyncio.get_running_loop().time()
        if self._handling or now - due > 1.0:
            self._arm_silence(now + 1.0)  # (a look again in a moment)
            return
        if now - self.heard_at < limit:
            self._arm_silence(self.heard_at + limit)
            return
        self.hit(SILENT)
        log.info("a connection broke its ping promise: taken for dropped", extra=self.log_fields())
        self.closed = True
        self.ws.transport.abort()

    def forget_silence(self) -> None:
        """The connection is over: nothing more to watch."""
        if self._silence is not None:
            self._silence.cancel()
            self._silence = None

    def hit(self, kind: str) -> None:
        """Count one limit met (`server.edge.limits` kinds)."""
        if self.metrics is not None:
            self.metrics.limit_hits.labels(kind).inc()

    def _chat_refused(self) -> None:
        self.hit(CHAT_RATE)

    @property
    def open(self) -> bool:
        return not self.closed and self.ws is not None and self.ws.state is State.OPEN

    def bound_socket_buffer(self) -> None:
        """Cap the kernel's share of this connection's send queue (see the module doc)."""
        transport = self.ws.transport if self.ws is not None else None
        sock = transport.get_extra_info("socket") if transport is not None else None
        if sock is None:
            return
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.limits.socket_send_buffer)

    def pending(self) -> int:
        """Bytes written for this connection and not yet taken by the network."""
        transport = self.ws.transport if self.ws is not None else None
        return transport.get_write_buffer_size() if transport is not None else 0

    def send(self, data: bytes) -> None:
        """A frame for this client alone (a reply, its own snapshot): never skipped. An
        answer to a request is kept for its id, even when the connection is gone (a
        session that reconnects may send the request again)."""
        for _ in range(1 + self.answers.sent(data)):
            self._write(data, skippable=False)

    def send_event(self, data: bytes) -> None:
        """A frame of a broadcast: skipped while the connection is behind, as the snapshot
        it gets once it has caught up replaces what it missed. (Outside a room there is no
        snapshot to catch up with, so a lobby update is never skipped.)"""
        self._write(data, skippable=self.room is not None)

    def _write(self, data: bytes, skippable: bool) -> None:
        if not self.open or self.ws is None:
            return
        pending = self.pending()
        if pending > self.limits.hard_send_cap:
            log.info("closing a connection that does not read", extra=self.log_fields(pending))
            self.hit(SLOW_CLOSE)
            self.close(1008, "too slow")
            return
        if skippable:
            if self.behind or self._awaiting_snapshot():
                self.skipped += 1
                return
            if pending > self.limits.behind_at:
                self.skipped += 1
                self._fall_behind()
                return
        else:
            if self._skip_aheads:
                answer = self._skip_ahead_answer(data)
                if answer is None:
                    return
                data = answer
            if self.resync_until is not None and _SNAPSHOT_HEAD in data[:16]:
                self.resync_until = None  # the room as it is now: broadcasts follow from it
        broadcast([self.ws], data)
        if self.metrics is not None:
            self.metrics.frames_out.inc()

    def log_fields(self, pending: int | None = None) -> dict[str, object]:
        """Who this is, for a log line written from another task (a room's)."""
        fields: dict[str, object] = {"conn": self.conn_id, "address": self.address}
        if self.player is not None:
            fields["player"] = self.player
        if pending is not None:
            fields["pending"] = pending
        if self._lags:
            fields["lags"] = len(self._lags)
        return fields

    def _skip_ahead_answer(self, data: bytes) -> bytes | None:
        """The room's answer to a skip-ahead resync goes out as a snapshot nobody asked for
        (`id` null); its refusal (the room closed meanwhile) does not go out at all."""
        head = data[:16]
        if _SNAPSHOT_HEAD in head:
            snapshot = msgspec.msgpack.decode(data, type=m.Snapshot)
            if snapshot.id == SKIP_AHEAD_ID:
                self._skip_aheads -= 1
                return encode(msgspec.structs.replace(snapshot, id=None))
        elif _ERROR_HEAD in head:
            error = msgspec.msgpack.decode(data, type=m.Error)
            if error.id == SKIP_AHEAD_ID:
                self._skip_aheads -= 1
                self.resync_until = None
                return None
        return data

    def _awaiting_snapshot(self) -> bool:
        if self.resync_until is None:
            return False
        if asyncio.get_running_loop().time() < self.resync_until:
            return True
        self.resync_until = None
        return False

    def _is_spectator(self) -> bool:
        """Whether this connection's room holds it as a spectator. The room says: a room
        of this node, or the relay of a room another node owns (which knows each member's
        role from what the owner told it), so the policy is the same on every node."""
        room = self.room
        return room is not None and room.is_spectator(self)

    def _fall_behind(self) -> None:
        loop = asyncio.get_running_loop()
        now = loop.time()
        self._lags.append(now)
        while self._lags and self._lags[0] < now - LAG_WINDOW:
            self._lags.popleft()
        self.hit(SEND_LAG)
        if self._is_spectator() and len(self._lags) > self.limits.lag_limit:
            self.hit(LAG_CLOSE)
            log.info("closing a spectator that keeps falling behind", extra=self.log_fields())
            self.close(1013, "too slow")
            return
        log.info(
            "a connection fell behind: skipping its room events until it catches up",
            extra=self.log_fields(),
        )
        self.behind = True
        self._catch_up = loop.call_later(CATCH_UP_POLL, self._check_caught_up)

    def _check_caught_up(self) -> None:
        self._catch_up = None
        if not self.open:
            return
        if self.pending() > 0:  # caught up once the rest is the kernel's (≤ half the bound)
            loop = asyncio.get_running_loop()
            self._catch_up = loop.call_later(CATCH_UP_POLL, self._check_caught_up)
            return
        self.behind = False
        room = self.room
        if room is None:
            return
        # Skip ahead: the room answers with its snapshot as it is now (latest seq), sent
        # to this client alone; broadcasts resume once it has gone out.
        self.resync_until = asyncio.get_running_loop().time() + SNAPSHOT_WAIT
        self._skip_aheads += 1
        room.post(Request(self, m.Resync(id=SKIP_AHEAD_ID)))

    def send_message(self, message: msgspec.Struct) -> None:
        self.send(encode(message))

    def ok(self, request_id: int) -> None:
        self.send_message(m.Ok(id=request_id))

    def error(self, request_id: int | None, code: str, message: str) -> None:
        if self.metrics is not None:
            self.metrics.errors.labels(code).inc()
        if code == errors.BAD_INVITE:  # a wrong guess, charged to the connection and address
            self.budget.invites.spend()
            if self.book is not None:
                self.book.guessed_wrong(address_key(self.address))
        self.send_message(m.Error(id=request_id, code=code, msg=message))

    def close(self, code: int, reason: str) -> None:
        if self.closed or self.ws is None:
            return
        self.closed = True
        if self._catch_up is not None:
            self._catch_up.cancel()
        task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


def fan_out(clients: list[Client], data: bytes) -> None:
    """Send one encoded frame to many clients (a broadcast: see `Client.send_event`)."""
    for client in clients:
        client.send_event(data)
