"""One connected client as rooms and the lobby see it: who it is and how to reach it.

Sending never waits: a frame is written straight into the connection's buffer (as
`websockets.broadcast` does), so a room fans a shot out to every member in one pass and
one slow reader cannot hold the room up. A reader that falls too far behind is
disconnected instead of growing the buffer without bound.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import msgspec
from websockets.asyncio.server import ServerConnection, broadcast
from websockets.protocol import State

from protocol import messages as m
from protocol.codec import encode
from server.limits import CHAT_RATE, SLOW_CLOSE, FrameBudget, Limits, TokenBucket

if TYPE_CHECKING:
    from server.metrics import Metrics
    from server.room import Room

log = logging.getLogger(__name__)


class Client:
    def __init__(
        self,
        ws: ServerConnection | None,
        metrics: Metrics | None = None,
        limits: Limits | None = None,
        address: str = "unknown",
    ) -> None:
        self.ws = ws
        self.metrics = metrics
        self.limits = limits if limits is not None else Limits()
        #: Where the connection comes from (through trusted proxies), for per-address limits.
        self.address = address
        self.player: str | None = None
        self.name = ""
        #: The room this connection is in (set when a join is posted, cleared on leave).
        self.room: Room | None = None
        self.budget = FrameBudget(self.limits, on_chat_refused=self._chat_refused)
        self._closing: set[asyncio.Task[None]] = set()
        self.closed = False

    @property
    def chat_bucket(self) -> TokenBucket:
        """Chat messages (the room takes one per message)."""
        return self.budget.chat

    def hit(self, kind: str) -> None:
        """Count one limit met (`server.limits` kinds)."""
        if self.metrics is not None:
            self.metrics.limit_hits.labels(kind).inc()

    def _chat_refused(self) -> None:
        self.hit(CHAT_RATE)

    @property
    def open(self) -> bool:
        return not self.closed and self.ws is not None and self.ws.state is State.OPEN

    def send(self, data: bytes) -> None:
        if not self.open or self.ws is None:
            return
        transport = self.ws.transport
        if transport is not None and transport.get_write_buffer_size() > self.limits.hard_send_cap:
            log.info("closing a connection that does not keep up")
            self.hit(SLOW_CLOSE)
            self.close(1008, "too slow")
            return
        broadcast([self.ws], data)
        if self.metrics is not None:
            self.metrics.frames_out.inc()

    def send_message(self, message: msgspec.Struct) -> None:
        self.send(encode(message))

    def ok(self, request_id: int) -> None:
        self.send_message(m.Ok(id=request_id))

    def error(self, request_id: int | None, code: str, message: str) -> None:
        if self.metrics is not None:
            self.metrics.errors.labels(code).inc()
        self.send_message(m.Error(id=request_id, code=code, msg=message))

    def close(self, code: int, reason: str) -> None:
        if self.closed or self.ws is None:
            return
        self.closed = True
        task = asyncio.get_running_loop().create_task(self.ws.close(code, reason))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)


def fan_out(clients: list[Client], data: bytes) -> None:
    """Send one encoded frame to many clients."""
    for client in clients:
        client.send(data)
