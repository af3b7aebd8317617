"""What a TCP connection may cost before its request is known.

Every per-address limit of `server.edge.limits` runs in `process_request`, on a complete
request: what a connection does before that — how much it sends, how long it takes, how
many such connections one address holds, how many the process holds in all — was
unbounded. websockets reads up to 128 header lines of 8 KiB each (1 MiB) per connection:
600 connections that sent that much and never finished took a server from 43 MB to
1 GB, and 1,100 half-open sockets from one address took every file descriptor of a
1,024-descriptor process (`/healthz` failed, players waited seconds, and asyncio wrote a
traceback for every failed `accept()`).

So every connection passes the `Door` the moment it is accepted (`GuardedConnection`, the
connection class websockets is given):

- its request head (request line and headers) may take `--max-header-bytes` bytes (else
  **431**) and `--header-timeout` seconds (else **408**);
- one TCP peer may hold `--pending-per-address` connections whose head is not complete
  (the next gets **429**; a trusted proxy is not counted per address, as its clients are
  many); the process holds at most `--pending-handshakes` of them, and past that the
  oldest is closed to make room: a browser's head arrives in one round trip, so the
  oldest unfinished head is a slowloris, never a player;
- the process holds at most `--max-connections` TCP connections, and never more than its
  descriptor limit less `RESERVED_DESCRIPTORS` (its store, workers and logs need some, and
  so do health probes): `accept()` never runs out, nothing waits in the kernel's backlog.
  Past the cap, `OVERFLOW` more connections may still ask `/healthz` and `/readyz` (a load
  balancer must see a node that is full, not a dead one); anything else gets **503**, and
  connections past those are refused at once.

Refusals are counted (`ninepool_limit_hits_total`) and logged at most once a minute with
how many there were (`ThrottledLog`), so a flood cannot fill the disk. `raise_descriptor_limit`
lifts the soft RLIMIT_NOFILE to the hard one at start; `quiet_accept_errors` turns
asyncio's traceback per failed `accept()` into that one line a minute.
"""

from __future__ import annotations

import asyncio
import dataclasses
import errno
import http
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response
from websockets.protocol import Event

from server.edge.limits import (
    CONNECTION_CAP,
    DESCRIPTORS,
    HEADER_SIZE,
    HEADER_TIMEOUT,
    PENDING_ADDRESS,
    PENDING_EVICTED,
    IPNetwork,
    Limits,
    ProcessRequest,
    address_key,
    is_trusted,
)
from server.edge.scrape import METRICS_PATH, ops_route, public_metrics

if TYPE_CHECKING:
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

#: How many connections asyncio may accept in one go, before any of them is counted: it
#: takes up to the listening socket's backlog (100, `loop.create_server`'s default) each
#: time the socket is ready, so a flood can overshoot the cap by that many at once.
ACCEPT_BURST = 100
#: Descriptors kept free of client connections: the store, the physics workers' pipes,
#: Redis, logs, the listening sockets, the health probes of `OVERFLOW` — and one burst
#: of accepts past the cap (with 64 and no room for the burst, a flood of a 256-descriptor
#: process once found `accept()` out of descriptors).
RESERVED_DESCRIPTORS = 64 + ACCEPT_BURST
#: Connections past the cap that may still ask /healthz or /readyz.
OVERFLOW = 16
#: Seconds such a connection has to send its request.
OVERFLOW_TIMEOUT = 2.0
#: The paths a connection past the cap may ask for.
HEALTH_PATHS = ("/healthz", "/readyz")
#: How often a kind of refusal is logged at most (seconds).
LOG_INTERVAL = 60.0


def descriptor_limit() -> int | None:
    """The soft RLIMIT_NOFILE of this process (None: unlimited or unknown)."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_descriptor_limit() -> int | None:
    """Lift the soft RLIMIT_NOFILE to the hard limit where allowed (the usual soft limit of
    1,024 is a few hundred players); returns the soft limit in force afterwards."""
    try:
        import resource
    except ImportError:  # pragma: no cover - not on POSIX
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
        except (ValueError, OSError) as exc:
            log.warning("could not raise the descriptor limit from %d: %s", soft, exc)
    return descriptor_limit()


def connection_cap(limits: Limits, descriptors: int | None) -> int:
    """How many TCP connections the process takes at once (0: no cap)."""
    caps = [limits.max_connections] if limits.max_connections > 0 else []
    if descriptors is not None:
        caps.append(max(1, descriptors - RESERVED_DESCRIPTORS))
    return min(caps) if caps else 0


class ThrottledLog:
    """One warning per `interval` for a kind of event, saying how many there were since: a
    flood of refusals is one line a minute, not a line (or a traceback) per connection."""

    def __init__(
        self, text: str, interval: float = LOG_INTERVAL, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.text = text
        self.interval = interval
        self.clock = clock
        self.count = 0
        self.last: float | None = None

    def hit(self, **fields: Any) -> bool:
        """Count one; True when a line was written."""
        self.count += 1
        now = self.clock()
        if self.last is not None and now - self.last < self.interval:
            return False
        log.warning(self.text, extra={**fields, "count": self.count})
        self.last = now
        self.count = 0
        return True


def _raw_response(status: http.HTTPStatus, retry_after: int | None = None) -> bytes:
    """A whole HTTP response, for a connection whose request is not (or not yet) known."""
    body = f"{status.phrase}\n".encode()
    head = [
        f"HTTP/1.1 {status.value} {status.phrase}",
        "Content-Type: text/plain; charset=utf-8",
        f"Content-Length: {len(body)}",
        "Connection: close",
    ]
    if retry_after is not None:
        head.append(f"Retry-After: {retry_after}")
    return ("\r\n".join(head) + "\r\n\r\n").encode() + body


class GuardedConnection(ServerConnection):
    """websockets' server connection, held to the `Door` from its first byte. A subclass
    bound to one door is made by `Door.connection_class` (websockets builds the
    connections itself, from a class)."""

    door: ClassVar[Door]
    #: Bytes of the request head received so far.
    head_bytes: int = 0
    #: The request head is complete (websockets has parsed the request).
    head_done: bool = False
    #: Past the connection cap: only /healthz and /readyz are answered.
    overflow: bool = False
    #: Refused before its request: nothing more it sends is read.
    refused: bool = False
    #: Counted among the connections whose head is not complete.
    pending: bool = False
    peer_key: str = ""
    deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(transport)
        self.door.opened(self)

    def data_received(self, data: bytes) -> None:
        if self.refused:
            return
        if not self.head_done:
            self.head_bytes += len(data)
            if self.head_bytes > self.door.limits.max_header_bytes:
                self.door.too_large(self)
                return
        super().data_received(data)

    def process_event(self, event: Event) -> None:
        if self.request is None and isinstance(event, Request):  # the head, complete
            self.head_done = True
            self.door.head_received(self)
        super().process_event(event)

    def connection_lost(self, exc: Exception | None) -> None:
        self.door.closed(self)
        super().connection_lost(exc)

    def refuse(self, status: http.HTTPStatus, retry_after: int | None = None) -> None:
        """Answer `status` and close, before any request was parsed."""
        if self.refused:
            return
        self.refused = True
        transport = self.transport
        if transport.is_closing():
            return
        transport.write(_raw_response(status, retry_after))
        transport.close()


class Door:
    """Counts every TCP connection of the server and what it may still cost (see the
    module's docstring)."""

    def __init__(
        self,
        limits: Limits,
        trusted: tuple[IPNetwork, ...],
        metrics: Metrics | None = None,
        descriptors: int | None = None,
    ) -> None:
        self.limits = limits
        self.trusted = trusted
        self.metrics = metrics
        self.cap = connection_cap(limits, descriptors)
        #: Every TCP connection accepted and not yet lost.
        self.open = 0
        #: Connections past the cap that may still ask for health, oldest first.
        self.overflowing: OrderedDict[GuardedConnection, None] = OrderedDict()
        #: Connections whose request head is not complete, oldest first.
        self.pending: OrderedDict[GuardedConnection, None] = OrderedDict()
        self.pending_by_peer: dict[str, int] = {}
        self._logs = {
            CONNECTION_CAP: ThrottledLog(
                "connections refused: the server holds its most connections (--max-connections"
                " or the descriptor limit)"
            ),
            PENDING_ADDRESS: ThrottledLog(
                "connections refused: an address holds too many unfinished handshakes"
            ),
            PENDING_EVICTED: ThrottledLog(
                "unfinished handshakes closed to make room for new connections"
            ),
            DESCRIPTORS: ThrottledLog("accept() failed: no file descriptor left"),
        }

    def connection_class(self) -> type[GuardedConnection]:
        """The connection class to give websockets (`serve(create_connection=…)`)."""

        class DoorConnection(GuardedConnection):
            pass

        DoorConnection.door = self
        return DoorConnection

    def _hit(self, kind: str, **fields: Any) -> None:
        if self.metrics is not None:
            self.metrics.limit_hits.labels(kind).inc()
        throttled = self._logs.get(kind)
        if throttled is not None:
            throttled.hit(**fields)
        else:
            log.debug("connection refused: %s", kind, extra=fields)

    # --- the life of a connection -------------------------------------------------------

    def opened(self, conn: GuardedConnection) -> None:
        self.open += 1
        remote: Any = conn.transport.get_extra_info("peername")
        peer = str(remote[0]) if isinstance(remote, tuple) and remote else None
        loop = asyncio.get_running_loop()
        timeout = self.limits.header_timeout
        if self.cap and self.open > self.cap:
            self._hit(CONNECTION_CAP, address=peer)
            if not self._overflow_room():
                conn.refuse(http.HTTPStatus.SERVICE_UNAVAILABLE, retry_after=5)
                return
            conn.overflow = True
            self.overflowing[conn] = None
            timeout = min(timeout, OVERFLOW_TIMEOUT) if timeout > 0 else OVERFLOW_TIMEOUT
        key = address_key(peer) if peer is not None else "unknown"
        conn.peer_key = "" if peer is not None and is_trusted(peer, self.trusted) else key
        per_peer = self.limits.pending_per_address
        if conn.peer_key and per_peer > 0 and self.pending_by_peer.get(key, 0) >= per_peer:
            self._hit(PENDING_ADDRESS, address=key)
            conn.refuse(http.HTTPStatus.TOO_MANY_REQUESTS, retry_after=1)
            return
        most = self.limits.pending_handshakes
        while most > 0 and len(self.pending) >= most:
            oldest = next(iter(self.pending))
            self._forget_pending(oldest)
            self._hit(PENDING_EVICTED)
            oldest.refuse(http.HTTPStatus.REQUEST_TIMEOUT)
        conn.pending = True
        self.pending[conn] = None
        if conn.peer_key:
            self.pending_by_peer[key] = self.pending_by_peer.get(key, 0) + 1
        if timeout > 0:
            conn.deadline = loop.call_later(timeout, self._overdue, conn)

    def _overflow_room(self) -> bool:
        """Room for one more connection past the cap: the oldest of those still sending
        their head is closed if need be (a health probe's head comes in one round trip, so
        a flood cannot keep a probe out by holding these places)."""
        if len(self.overflowing) < OVERFLOW:
            return True
        oldest = next((conn for conn in self.overflowing if not conn.head_done), None)
        if oldest is None:
            return False
        self._forget_pending(oldest)
        self._forget_overflow(oldest)
        oldest.refuse(http.HTTPStatus.SERVICE_UNAVAILABLE, retry_after=5)
        return True

    def _forget_overflow(self, conn: GuardedConnection) -> None:
        if conn.overflow:
            conn.overflow = False
            self.overflowing.pop(conn, None)

    def _forget_pending(self, conn: GuardedConnection) -> None:
        if not conn.pending:
            return
        conn.pending = False
        self.pending.pop(conn, None)
        if conn.peer_key:
            left = self.pending_by_peer.get(conn.peer_key, 0) - 1
            if left > 0:
                self.pending_by_peer[conn.peer_key] = left
            else:
                self.pending_by_peer.pop(conn.peer_key, None)
        if conn.deadline is not None:
            conn.deadline.cancel()
            conn.deadline = None

    def head_received(self, conn: GuardedConnection) -> None:
        self._forget_pending(conn)

    def too_large(self, conn: GuardedConnection) -> None:
        self._forget_pending(conn)
        self._hit(HEADER_SIZE)
        conn.refuse(http.HTTPStatus.REQUEST_HEADER_FIELDS_TOO_LARGE)

    def _overdue(self, conn: GuardedConnection) -> None:
        conn.deadline = None
        if conn.head_done:
            return
        self._forget_pending(conn)
        self._hit(HEADER_TIMEOUT)
        conn.refuse(http.HTTPStatus.REQUEST_TIMEOUT)

    def closed(self, conn: GuardedConnection) -> None:
        self._forget_pending(conn)
        self._forget_overflow(conn)
        self.open -= 1

    # --- past the cap, and out of descriptors ---------------------------------------------

    def chain(self, then: ProcessRequest, public: bool = True) -> ProcessRequest:
        """A connection past the cap gets /healthz and /readyz from `then`, 503 otherwise.
        On the `public` port `/metrics` is answered here (`server.edge.scrape`)."""

        async def process_request(
            connection: ServerConnection, request: Request
        ) -> Response | None:
            path = request.path.split("?", 1)[0]
            full = isinstance(connection, GuardedConnection) and connection.overflow
            if public and path == METRICS_PATH:  # not for the public: see server/edge/scrape.py
                return public_metrics(connection, request, self.metrics, self.limits.metrics_token)
            if full and path not in HEALTH_PATHS:
                response = connection.respond(
                    http.HTTPStatus.SERVICE_UNAVAILABLE, "The server is full; try again\n"
                )
                response.headers["Retry-After"] = "5"
                return response
            return await then(connection, request)

        return process_request

    def out_of_descriptors(self, exc: BaseException | None) -> None:
        self._hit(DESCRIPTORS, error=str(exc) if exc is not None else "")


async def serve_ops(
    metrics: Metrics, is_ready: Callable[[], bool], limits: Limits, port: int | None = None
) -> Server:
    """The listener of `--metrics-port` (or `port`) on `--metrics-host`: `/metrics`,
    `/healthz` and `/readyz` (`server.edge.scrape.ops_route`), behind a small door of its
    own, so a flood of the public port cannot keep Prometheus or a probe out."""
    door = Door(
        dataclasses.replace(
            limits, pending_handshakes=16, pending_per_address=8, max_connections=16
        ),
        (),
        metrics,
    )

    async def routes(connection: ServerConnection, request: Request) -> Response:
        return ops_route(connection, request, metrics, is_ready, limits.metrics_token)

    async def no_websocket(connection: ServerConnection) -> None:  # pragma: no cover
        await connection.close(1008, "no WebSocket here")

    return await serve(
        no_websocket,
        limits.metrics_host,
        limits.metrics_port if port is None else port,
        process_request=door.chain(routes, public=False),
        create_connection=door.connection_class(),
        compression=None,
        open_timeout=5,
        max_size=1024,
    )


_RESOURCE_ERRORS = (errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM)


def quiet_accept_errors(loop: asyncio.AbstractEventLoop, door: Door) -> None:
    """asyncio reports every `accept()` that finds no descriptor with a traceback, and
    retries a second later for ever: one line a minute, counted, instead. Anything else
    goes to the handler that was there before."""
    previous = loop.get_exception_handler()

    def handler(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in _RESOURCE_ERRORS:
            door.out_of_descriptors(exc)
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handler)
