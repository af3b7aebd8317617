"""Plain HTTP on the WebSocket port: the browser client, health, metrics and replays.

websockets hands every request to `process_request` before the opening handshake; a
request that is not a WebSocket upgrade gets an HTTP response from here and never
becomes a connection.
"""

from __future__ import annotations

import hashlib
import http
import mimetypes
import re
from collections.abc import Callable
from email.utils import formatdate
from pathlib import Path

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.edge.bundle import ClientBundles
from server.edge.replays import ReplayStreams
from server.ops.metrics import CONTENT_TYPE as METRICS_CONTENT_TYPE
from server.ops.metrics import Metrics

CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
    ".txt": "text/plain; charset=utf-8",
    ".woff2": "font/woff2",
    ".wasm": "application/wasm",
}

#: Third-party files the browser may load, and nothing else of node_modules.
NODE_MODULES_ALLOWED = ("node_modules/@msgpack/msgpack/dist.esm/",)
#: Folders of client_web/ that are not part of the served client (`build/`: the bundler).
PRIVATE_PREFIXES = ("tests/", "build/", "node_modules/", ".")

_ROOM_PATH = re.compile(r"^/replay/([A-Za-z0-9_-]{1,32})$")
#: One rack of a match, as a page to share: the client's replay viewer opened on it. The
#: room's first match, or a later one (a rematch, whose racks count from 1 again) named
#: before the rack: `/replay/<room>/<match>/<rack>`.
_RACK_PATH = re.compile(r"^/replay/([A-Za-z0-9_-]{1,32})/(?:([1-9][0-9]{0,3})/)?([1-9][0-9]{0,2})$")
#: A transparent page for streaming software, following one room (or, as `/overlay/tv`,
#: the TV channel: no room id is two characters long).
_OVERLAY_PATH = re.compile(r"^/overlay/([A-Za-z0-9_-]{1,32})$")
_INVITE_CODE = re.compile(r"^[A-Z0-9]{4,32}$")
_PLAIN_QUERY = re.compile(r"^[A-Za-z0-9_.-]{1,32}=[A-Za-z0-9_.-]{0,64}$")
#: The page `/overlay/<room>` serves (it reads the room from its own address).
OVERLAY_PAGE = "/overlay.html"
#: A tournament's live bracket, the organiser's form (`/tournament/new`) and the list of
#: tournaments (`/tournaments`): one page of the client for them all.
_TOURNAMENT_PAGE = re.compile(r"^/tournament(?:/[A-Za-z0-9_-]{1,32}|s/?)$")
#: The rules of the game, told to players in their language (client_web/rules.html).
_RULES_PAGE = re.compile(r"^/rules/?$")


def _response(
    status: http.HTTPStatus,
    body: bytes,
    content_type: str,
    extra: dict[str, str] | None = None,
) -> Response:
    headers = Headers()
    headers["Date"] = formatdate(usegmt=True)
    headers["Content-Type"] = content_type
    headers["Content-Length"] = str(len(body))
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Connection"] = "close"
    for name, value in (extra or {}).items():
        headers[name] = value
    return Response(status.value, status.phrase, headers, body)


def text_response(status: http.HTTPStatus, text: str, cache: str = "no-store") -> Response:
    return _response(status, text.encode(), "text/plain; charset=utf-8", {"Cache-Control": cache})


def redirect(location: str) -> Response:
    """A page that lives in the client's own router (`#/…`), reached by a plain path so
    the link can be typed, shared and put into streaming software."""
    return _response(
        http.HTTPStatus.FOUND,
        b"",
        "text/plain; charset=utf-8",
        {"Location": location, "Cache-Control": "no-store"},
    )


def _query_code(target: str) -> str | None:
    """The `code` query parameter when it is an invite code's shape, else None."""
    _, _, query = target.partition("?")
    for pair in query.split("&"):
        name, _, value = pair.partition("=")
        if name == "code" and _INVITE_CODE.match(value):
            return value
    return None


def _page_query(target: str) -> str:
    """The query the client page reads (`lang`, `rate`, `linger`…), kept across the
    redirect to the page; only plain characters pass, the `code` moves into the route."""
    _, _, query = target.partition("?")
    kept = [
        pair
        for pair in query.split("&")
        if pair and not pair.startswith("code=") and _PLAIN_QUERY.match(pair)
    ]
    return "?" + "&".join(kept) if kept else ""


def _is_upgrade(request: Request) -> bool:
    upgrade = request.headers.get("Upgrade", "")
    return upgrade.lower() == "websocket"


class HttpRoutes:
    """Everything the port answers over plain HTTP."""

    def __init__(
        self,
        client_dir: Path,
        metrics: Metrics,
        replays: ReplayStreams,
        is_ready: Callable[[], bool],
        bundled: bool = True,
    ) -> None:
        self.client_dir = client_dir.resolve()
        #: A page's script as one file, while fresh (server/edge/bundle.py).
        self.bundles = ClientBundles(self.client_dir, enabled=bundled)
        self.metrics = metrics
        self.replays = replays
        self.is_ready = is_ready

    async def process_request(
        self, connection: ServerConnection, request: Request
    ) -> Response | None:
        if _is_upgrade(request):
            return None  # the WebSocket endpoint: any path
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return text_response(http.HTTPStatus.OK, "ok\n")
        if path == "/readyz":
            if self.is_ready():
                return text_response(http.HTTPStatus.OK, "ready\n")
            return text_response(http.HTTPStatus.SERVICE_UNAVAILABLE, "not ready\n")
        if path == "/metrics":
            return _response(
                http.HTTPStatus.OK,
                self.metrics.render(),
                METRICS_CONTENT_TYPE,
                {"Cache-Control": "no-store"},
            )
        match = _ROOM_PATH.match(path)
        if match:
            # Streamed from the store's log; private rooms only with their code or a
            # seat's token (server/edge/replays.py).
            return await self.replays.respond(connection, request, match.group(1))
        if path in ("/tv", "/tv/"):
            return redirect(f"/{_page_query(request.path)}#/tv")
        match = _RACK_PATH.match(path)
        if match:
            # The page checks nothing itself: the viewer fetches `/replay/<room>` (with
            # the code, for a private room) and the server decides there.
            code = _query_code(request.path)
            tail = f"/{code}" if code else ""
            query = _page_query(request.path)
            which = f"{match.group(2)}/{match.group(3)}" if match.group(2) else match.group(3)
            return redirect(f"/{query}#/replay/{match.group(1)}/{which}{tail}")
        if _OVERLAY_PATH.match(path):
            return self.static(OVERLAY_PAGE, request.headers.get("If-None-Match"))
        if _TOURNAMENT_PAGE.match(path):
            path = "/tournament.html"
        elif _RULES_PAGE.match(path):
            path = "/rules.html"
        return self.static(path, request.headers.get("If-None-Match"))

    def _resolve(self, path: str) -> Path | None:
        relative = path.lstrip("/")
        if relative == "" or relative.endswith("/"):
            relative += "index.html"
        if "\\" in relative or "\x00" in relative:
            return None
        parts = relative.split("/")
        if any(part in ("", ".", "..") for part in parts):
            return None
        if relative.startswith(PRIVATE_PREFIXES) and not relative.startswith(NODE_MODULES_ALLOWED):
            return None
        candidate = (self.client_dir / relative).resolve()
        if not candidate.is_relative_to(self.client_dir) or not candidate.is_file():
            return None
        return candidate

    def static(self, path: str, if_none_match: str | None) -> Response:
        file = self.bundles.script(path.lstrip("/")) or self._resolve(path)
        if file is None:
            return text_response(http.HTTPStatus.NOT_FOUND, "not found\n")
        suffix = file.suffix.lower()
        content_type = CONTENT_TYPES.get(suffix) or (
            mimetypes.guess_type(file.name)[0] or "application/octet-stream"
        )
        body = file.read_bytes()
        etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
        # Third-party files change only with an install; the client's own files must be
        # revalidated every time so a deploy reaches browsers at once.
        is_vendor = path.lstrip("/").startswith("node_modules/")
        cache = "public, max-age=86400" if is_vendor else "no-cache"
        headers = {"ETag": etag, "Cache-Control": cache}
        if if_none_match is not None and etag in [v.strip() for v in if_none_match.split(",")]:
            response = _response(http.HTTPStatus.NOT_MODIFIED, b"", content_type, headers)
            return response
        return _response(http.HTTPStatus.OK, body, content_type, headers)
