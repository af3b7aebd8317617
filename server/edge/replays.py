"""`GET /replay/<room>`: a room's replay, written to the reader as fast as it reads it.

A replay may be tens of megabytes and its reader may never read: built whole in memory,
thirty such readers took a server to 2 GB and stalled the matches it ran. So a replay is
never held whole anywhere:

- The document is written from the store's log a page at a time
  (`server.rooms.replays`): the next page is read only once the socket has taken the
  last (its buffer below 64 KiB, the kernel's bounded to 64 KiB as well), so a reader
  that stops reading stops the reading of the log, and holds one page.
- It ends at `--replay-max-bytes` (the document then says `truncated`), and a stream
  lasts `--replay-timeout` seconds at most: a reader slower than that is cut off.
- An address may read `--replays-per-address` replays at once (**429**), the process
  sends `--replay-streams` at once (**503**).

A private room's replay is answered only with its invite code (`?code=`) or a session
token of a player who held one of its seats (`Authorization: Bearer <token>`); to anyone
else it is answered as a room that does not exist (**404**, the same bytes), and a wrong
code or token is charged to the address as a wrong invite guess (the budget `join`
spends), so codes cannot be tried here faster than there.

How: websockets answers plain HTTP from `process_request` with a whole body, before any
handshake and within `--open-timeout`. A replay instead takes the connection's socket
over: it duplicates the socket, lets websockets drop its own (websockets then sends
nothing: the connection is closed for it), and writes the response on the duplicate with
a transport of its own, in a task of its own with its own time limit. Each stream holds a
file descriptor, at most `--replay-streams` of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import logging
import socket
import time
import urllib.parse
from dataclasses import dataclass
from email.utils import formatdate
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request, Response

from server.edge.limits import AddressBook, IPNetwork, address_key, client_address
from server.edge.sessions import Sessions
from server.rooms.replays import ReplayBook, ReplayDamaged, ReplayError, ReplayHead, ReplayPlan

log = logging.getLogger(__name__)

#: Bytes waiting in the process for one reader before it is asked for more, and the
#: kernel's send buffer of the socket (Linux doubles what it is given).
HIGH_WATER = 64 * 1024
#: Seconds a refused reader is told to wait (`Retry-After`).
RETRY_AFTER = 5
NOT_FOUND = "no such room\n"
#: The answer for a room the store holds damaged (410: it was there and will not be again).
DAMAGED = "this room's replay is damaged in the store and cannot be sent\n"


@dataclass(frozen=True)
class ReplayLimits:
    max_bytes: int = 16 * 2**20
    per_address: int = 2
    streams: int = 32
    timeout: float = 120.0


class _Sink(asyncio.Protocol):
    """The protocol of a taken-over socket: it only writes, and waits while the reader
    has not taken what was written."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.transport: asyncio.WriteTransport | None = None
        self.paused = False
        self.lost: asyncio.Future[None] = loop.create_future()
        self._resumed: asyncio.Future[None] | None = None
        self._loop = loop

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        # The request was read; anything after it is not answered. Reading goes on only
        # so that a reader who goes away (a reset) is noticed while the log is counted.
        return None

    def eof_received(self) -> bool:
        return True  # a reader that closed its side may still read the answer

    def pause_writing(self) -> None:
        self.paused = True

    def resume_writing(self) -> None:
        self.paused = False
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_result(None)

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.lost.done():
            self.lost.set_result(None)
        if self._resumed is not None and not self._resumed.done():
            self._resumed.set_exception(ConnectionError("the reader went away"))

    async def drain(self) -> None:
        if self.lost.done():
            raise ConnectionError("the reader went away")
        if self.paused:
            self._resumed = self._loop.create_future()
            await self._resumed


class ReplayStreams:
    """Answers `GET /replay/<room>` (see the module's docstring)."""

    def __init__(
        self,
        book: ReplayBook,
        sessions: Sessions,
        addresses: AddressBook,
        trusted: tuple[IPNetwork, ...],
        limits: ReplayLimits,
    ) -> None:
        self.book = book
        self.sessions = sessions
        self.addresses = addresses
        self.trusted = trusted
        self.limits = limits
        self._per_address: dict[str, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Replays being written now (their places are taken before the first await).
        self.active = 0
        #: Streams waiting for their reader to take what was written.
        self.waiting = 0

    async def respond(
        self, connection: ServerConnection, request: Request, room_id: str
    ) -> Response:
        remote = connection.remote_address
        peer = str(remote[0]) if isinstance(remote, tuple) and remote else None
        address = client_address(peer, request.headers.get_all("X-Forwarded-For"), self.trusted)
        key = address_key(address)
        code, player, offered = self._credentials(request)
        if offered and not self.addresses.may_guess(key):
            return _refusal(connection, 429, "Too many wrong codes from this address")
        try:
            head = await self.book.head(room_id)
        except ReplayDamaged as exc:
            log.warning("replay refused: %s", exc)
            return _plain(connection, 410, DAMAGED)
        if head is None or not head.admits(code, player):
            if offered:
                self.addresses.guessed_wrong(key)
            return _plain(connection, 404, NOT_FOUND)
        limits = self.limits
        if limits.per_address and self._per_address.get(key, 0) >= limits.per_address:
            return _refusal(connection, 429, "Too many replays from this address at once")
        if limits.streams and self.active >= limits.streams:
            return _refusal(connection, 503, "Too many replays being sent; try again soon")
        sock = _take_over(connection)
        if sock is None:  # the connection is gone already
            return _plain(connection, 404, NOT_FOUND)
        self.active += 1
        self._per_address[key] = self._per_address.get(key, 0) + 1
        task = asyncio.get_running_loop().create_task(
            self._stream(sock, head), name=f"replay-{room_id}"
        )
        self._tasks.add(task)
        task.add_done_callback(lambda done: self._finished(done, key))
        await asyncio.sleep(0)  # websockets sees its connection closed: it sends nothing
        return _plain(connection, 500, "")  # never sent: the connection is closed for it

    def _credentials(self, request: Request) -> tuple[str | None, str | None, bool]:
        """The invite code and the player of the session token the request carries, and
        whether it carried either."""
        query = urllib.parse.urlsplit(request.path).query
        codes = urllib.parse.parse_qs(query, keep_blank_values=True).get("code", [])
        code = codes[0] if codes else None
        authorization = request.headers.get("Authorization", "")
        scheme, _, token = authorization.partition(" ")
        player = None
        if scheme.lower() == "bearer" and token.strip():
            player = self.sessions.verify(token.strip())
        return code or None, player, bool(code) or bool(authorization)

    def _finished(self, task: asyncio.Task[None], key: str) -> None:
        self._tasks.discard(task)
        self.active -= 1
        left = self._per_address.get(key, 0) - 1
        if left > 0:
            self._per_address[key] = left
        else:
            self._per_address.pop(key, None)

    async def _stream(self, sock: socket.socket, head: ReplayHead) -> None:
        loop = asyncio.get_running_loop()
        sink = _Sink(loop)
        transport: asyncio.Transport | None = None
        try:
            async with asyncio.timeout(self.limits.timeout):
                transport, _ = await loop.connect_accepted_socket(lambda: sink, sock=sock)
                assert isinstance(transport, asyncio.Transport)
                assert sink.transport is not None
                sink.transport.set_write_buffer_limits(high=HIGH_WATER)
                await self._write(sink, head)
                sink.transport.close()  # once everything written is sent
                await sink.lost
        except (TimeoutError, ConnectionError, ReplayError) as exc:
            log.debug("replay of %s cut short: %s", head.room, exc)
        except Exception:
            log.exception("replay of %s failed", head.room)
        finally:
            if transport is None:
                sock.close()
            elif not sink.lost.done():
                # Only a transport still open is cut: one that has closed (its last
                # bytes sent) is gone, and asyncio's abort of it fails on a dead loop.
                transport.abort()

    async def _write(self, sink: _Sink, head: ReplayHead) -> None:
        assert sink.transport is not None
        # Worked out while watching the reader: one that went away stops waiting for it.
        planning = asyncio.ensure_future(self.book.plan(head))
        watched: set[asyncio.Future[Any]] = {planning, sink.lost}
        await asyncio.wait(watched, return_when=asyncio.FIRST_COMPLETED)
        if not planning.done():
            planning.cancel()
            raise ConnectionError("the reader went away")
        try:
            plan = planning.result()
        except ReplayDamaged as exc:
            log.warning("replay refused: %s", exc)
            body = DAMAGED.encode()
            sink.transport.write(
                _head_bytes(410, "text/plain; charset=utf-8", len(body), True) + body
            )
            return
        except Exception:
            log.exception("replay of %s: the log could not be read", head.room)
            sink.transport.write(_head_bytes(503, "text/plain; charset=utf-8", 0, public=True))
            return
        preamble = self.book.preamble(head, plan)
        length = len(preamble) + plan.size
        sink.transport.write(
            _head_bytes(200, "application/msgpack", length, public=not head.settings.private)
            + preamble
        )
        await self._write_body(sink, head, plan)

    async def _write_body(self, sink: _Sink, head: ReplayHead, plan: ReplayPlan) -> None:
        assert sink.transport is not None
        async for chunk in self.book.body(head, plan):
            sink.transport.write(chunk)
            if sink.paused:
                self.waiting += 1
                try:
                    await sink.drain()
                finally:
                    self.waiting -= 1
            elif sink.lost.done():
                raise ConnectionError("the reader went away")

    async def close(self) -> None:
        """Stop every stream (the server is stopping)."""
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError):
                await task


def _take_over(connection: ServerConnection) -> socket.socket | None:
    """A duplicate of the connection's socket, its own transport dropped."""
    transport = connection.transport
    if transport.is_closing():
        return None
    original = transport.get_extra_info("socket")
    if original is None:
        return None
    sock: socket.socket = original.dup()
    sock.setblocking(False)
    with contextlib.suppress(OSError):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, HIGH_WATER // 2)
    transport.abort()
    return sock


def _head_bytes(status: int, content_type: str, length: int, public: bool) -> bytes:
    phrase = http.HTTPStatus(status).phrase
    lines = [
        f"HTTP/1.1 {status} {phrase}",
        f"Date: {formatdate(time.time(), usegmt=True)}",
        f"Content-Type: {content_type}",
        f"Content-Length: {length}",
        "Cache-Control: no-store",
        "X-Content-Type-Options: nosniff",
        "Connection: close",
    ]
    if public:
        lines.append("Access-Control-Allow-Origin: *")
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def _plain(connection: ServerConnection, status: int, text: str) -> Response:
    response = connection.respond(status, text)
    response.headers["Cache-Control"] = "no-store"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Connection"] = "close"
    return response


def _refusal(connection: ServerConnection, status: int, text: str) -> Response:
    response = _plain(connection, status, text + "\n")
    response.headers["Retry-After"] = str(RETRY_AFTER)
    return response
