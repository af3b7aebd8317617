"""Requests to `/api/` on the WebSocket port, read whole — bodies included.

websockets reads a request's head for its opening handshake and refuses any request
with a body (`Content-Length` other than 0) before `process_request` sees it, so the
JSON API cannot be one of its routes. Instead the connection looks at its first bytes:
a request line of `<method> /api…` makes it an API exchange, read here (head, then a
body of at most `MAX_BODY` bytes), answered by `server.edge.api.ApiRoutes` and closed;
anything else goes on to websockets unchanged, byte for byte, as if nothing had looked.

An API exchange is held to what the `Door` (server/edge/handshakes.py) holds every
connection to: the head must come within `--header-timeout` (the door's own timer) and
`--max-header-bytes` (**431**), it is counted among the unfinished heads until complete,
and past the connection cap it gets **503**. The body then has `--header-timeout` of its
own (**408**); a body longer than `MAX_BODY` is refused from its `Content-Length` alone
(**413**), before it is read.
"""

from __future__ import annotations

import asyncio
import http
import json
import logging
from dataclasses import dataclass, field
from typing import ClassVar, Protocol

from server.edge.handshakes import Door, GuardedConnection

log = logging.getLogger(__name__)

#: Largest request body the API reads (bytes).
MAX_BODY = 4096
_METHODS = (b"GET", b"HEAD", b"POST", b"PUT", b"PATCH", b"DELETE", b"OPTIONS")
_PREFIXES = tuple(method + b" /api" for method in _METHODS)
#: Enough bytes to tell an API request from anything else.
_SNIFF = max(len(prefix) for prefix in _PREFIXES) + 1

_UNDECIDED, _PASS, _API = 0, 1, 2


def sniff(start: bytes) -> bool | None:
    """Whether a connection whose first bytes are `start` asks the API (True), does not
    (False), or cannot be told yet (None)."""
    for prefix in _PREFIXES:
        if start.startswith(prefix):
            if len(start) == len(prefix):
                return None
            return start[len(prefix) : len(prefix) + 1] in (b"/", b"?", b" ")
        if prefix.startswith(start):
            return None
    return False


@dataclass
class ApiRequest:
    method: str
    #: The path, not yet percent-decoded, without the query.
    path: str
    query: str
    #: Header names in lower case; a repeated header's values joined with ", ".
    headers: dict[str, str]
    body: bytes = b""
    #: The TCP peer's address (the client's is worked out with the trusted proxies).
    peer: str | None = None
    forwarded_for: list[str] = field(default_factory=list)


@dataclass
class ApiResponse:
    status: int
    body: bytes = b""
    content_type: str = "application/json"
    headers: dict[str, str] = field(default_factory=dict)

    def encode(self) -> bytes:
        phrase = http.HTTPStatus(self.status).phrase
        lines = [
            f"HTTP/1.1 {self.status} {phrase}",
            f"Content-Length: {len(self.body)}",
            "Cache-Control: no-store",
            "X-Content-Type-Options: nosniff",
            "Connection: close",
        ]
        if self.body:
            lines.append(f"Content-Type: {self.content_type}")
        lines += [f"{name}: {value}" for name, value in self.headers.items()]
        return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + self.body


class BadRequest(ValueError):
    pass


class ApiHandler(Protocol):
    """What answers API requests (`server.edge.api.ApiRoutes`)."""

    async def handle(self, request: ApiRequest) -> ApiResponse: ...


def json_response(status: int, value: object, headers: dict[str, str] | None = None) -> ApiResponse:
    body = json.dumps(value, ensure_ascii=False).encode()
    return ApiResponse(status, body, headers=headers or {})


def json_error(status: int, reason: str, headers: dict[str, str] | None = None) -> ApiResponse:
    """`{"error": reason}`: every refusal of the API says why in the same shape."""
    return json_response(status, {"error": reason}, headers)


def parse_head(head: bytes) -> tuple[str, str, str, dict[str, str], list[str]]:
    """Method, path, query, headers and X-Forwarded-For values of a request head."""
    try:
        text = head.decode("latin-1")
        request_line, *header_lines = text.split("\r\n")
        method, target, version = request_line.split(" ")
    except ValueError:
        raise BadRequest("malformed request line") from None
    if version not in ("HTTP/1.1", "HTTP/1.0") or not target.startswith("/"):
        raise BadRequest("malformed request line")
    headers: dict[str, str] = {}
    forwarded: list[str] = []
    for line in header_lines:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip() or " " in name:
            raise BadRequest("malformed header")
        key, value = name.lower(), value.strip()
        if key == "x-forwarded-for":
            forwarded.append(value)
        headers[key] = f"{headers[key]}, {value}" if key in headers else value
    path, _, query = target.partition("?")
    return method, path, query, headers, forwarded


class ApiConnection(GuardedConnection):
    """websockets' server connection, which serves `/api/` requests itself (see the
    module's docstring). `api_connection_class` binds it to a door and the routes."""

    api: ClassVar[ApiHandler]
    _mode: int = _UNDECIDED
    _buffer: bytes = b""
    _request: ApiRequest | None = None
    _length: int = 0
    _body_deadline: asyncio.TimerHandle | None = None
    _serving: asyncio.Task[None] | None = None

    def data_received(self, data: bytes) -> None:
        if self._mode == _PASS:
            super().data_received(data)
            return
        if self.refused or self._serving is not None:
            return
        self._buffer += data
        if self._mode == _UNDECIDED:
            verdict = sniff(self._buffer[:_SNIFF])
            if verdict is None:
                return
            if not verdict:
                self._mode = _PASS
                held, self._buffer = self._buffer, b""
                super().data_received(held)
                return
            self._mode = _API
        self._read()

    def eof_received(self) -> bool | None:  # type: ignore[override]  # asyncio allows True
        if self._mode == _API:
            return True  # the client may half-close after its request: answer it still
        super().eof_received()
        return None

    def connection_lost(self, exc: Exception | None) -> None:
        if self._body_deadline is not None:
            self._body_deadline.cancel()
        super().connection_lost(exc)

    def _read(self) -> None:
        limits = self.door.limits
        if self._request is None:
            end = self._buffer.find(b"\r\n\r\n")
            if end < 0:
                if len(self._buffer) > limits.max_header_bytes:
                    self.door.too_large(self)
                return
            if end + 4 > limits.max_header_bytes:
                self.door.too_large(self)
                return
            head, self._buffer = self._buffer[:end], self._buffer[end + 4 :]
            self.head_done = True
            self.door.head_received(self)
            try:
                method, path, query, headers, forwarded = parse_head(head)
            except BadRequest as exc:
                self._answer(_plain(400, str(exc)))
                return
            if self.overflow and path not in ("/healthz", "/readyz"):
                self._answer(_plain(503, "The server is full; try again", {"Retry-After": "5"}))
                return
            remote = self.transport.get_extra_info("peername")
            peer = str(remote[0]) if isinstance(remote, tuple) and remote else None
            self._request = ApiRequest(method, path, query, headers, b"", peer, forwarded)
            refusal = self._body_length(headers)
            if refusal is not None:
                self._answer(refusal)
                return
            if self._length and limits.header_timeout > 0:
                loop = asyncio.get_running_loop()
                self._body_deadline = loop.call_later(limits.header_timeout, self._too_slow)
        if len(self._buffer) < self._length:
            return
        if self._body_deadline is not None:
            self._body_deadline.cancel()
            self._body_deadline = None
        self._request.body, self._buffer = self._buffer[: self._length], b""
        self._serving = asyncio.get_running_loop().create_task(self._serve(self._request))

    def _body_length(self, headers: dict[str, str]) -> ApiResponse | None:
        if "transfer-encoding" in headers:
            return _plain(411, "send the body with a Content-Length")
        text = headers.get("content-length", "0")
        if not text.isdigit() or not text.isascii():
            return _plain(400, "bad Content-Length")
        self._length = int(text)
        if self._length > MAX_BODY:
            return _plain(413, f"a request body has at most {MAX_BODY} bytes")
        return None

    def _too_slow(self) -> None:
        self._body_deadline = None
        if self._serving is None:
            self._answer(_plain(408, "the request body took too long"))

    async def _serve(self, request: ApiRequest) -> None:
        try:
            response = await self.api.handle(request)
        except Exception:
            log.exception("API request failed", extra={"path": request.path})
            response = _plain(500, "internal error")
        self._answer(response)

    def _answer(self, response: ApiResponse) -> None:
        if self.refused:
            return
        self.refused = True  # nothing more is read from this connection
        if not self.transport.is_closing():
            self.transport.write(response.encode())
            self.transport.close()


_plain = json_error


def api_connection_class(door: Door, api: ApiHandler) -> type[GuardedConnection]:
    """The connection class to give websockets: the door's, which also serves `api`."""

    class DoorApiConnection(ApiConnection):
        pass

    DoorApiConnection.door = door
    DoorApiConnection.api = api
    return DoorApiConnection
