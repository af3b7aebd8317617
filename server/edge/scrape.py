"""`/metrics` is for Prometheus, not for the public.

The metrics tell an outsider how many players and rooms a node has, how its shots are
timed and which limits are being met — the very figures a flood tunes itself with. The
public port therefore answers `/metrics` with 404 (as a path that does not exist), unless:

- `--metrics-token` is set and the request carries `Authorization: Bearer <token>`
  (compared in constant time) — for a deployment that scrapes through the public port;
- or the scrape goes to the separate listener of `--metrics-port` (on `--metrics-host`,
  loopback by default), which serves `/metrics`, `/healthz` and `/readyz` and nothing
  else, behind a small door of its own (`server.edge.handshakes`), so a flood of the
  public port cannot keep Prometheus or a health probe out. A token, when set, is asked
  there too.
"""

from __future__ import annotations

import hmac
import http
from collections.abc import Callable
from typing import TYPE_CHECKING

from websockets.asyncio.server import ServerConnection
from websockets.datastructures import Headers
from websockets.http11 import Request, Response

from server.ops.metrics import CONTENT_TYPE

if TYPE_CHECKING:
    from server.ops.metrics import Metrics

METRICS_PATH = "/metrics"


def authorized(request: Request, token: str | None) -> bool:
    """The request carries `Authorization: Bearer <token>` (no token set: nobody is)."""
    if not token:
        return False
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(given.strip(), token)


def metrics_response(metrics: Metrics) -> Response:
    body = metrics.render()
    headers = Headers()
    headers["Content-Type"] = CONTENT_TYPE
    headers["Content-Length"] = str(len(body))
    headers["Cache-Control"] = "no-store"
    headers["Connection"] = "close"
    return Response(http.HTTPStatus.OK.value, http.HTTPStatus.OK.phrase, headers, body)


def not_found(connection: ServerConnection) -> Response:
    return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")


def public_metrics(
    connection: ServerConnection, request: Request, metrics: Metrics | None, token: str | None
) -> Response:
    """`/metrics` on the public port: only with the token, else 404."""
    if metrics is not None and authorized(request, token):
        return metrics_response(metrics)
    return not_found(connection)


def ops_route(
    connection: ServerConnection,
    request: Request,
    metrics: Metrics,
    is_ready: Callable[[], bool],
    token: str | None,
) -> Response:
    """What the listener of `--metrics-port` answers: `/metrics` (with the token when one
    is set), `/healthz`, `/readyz`; 404 for anything else."""
    path = request.path.split("?", 1)[0]
    if path == "/healthz":
        return connection.respond(http.HTTPStatus.OK, "ok\n")
    if path == "/readyz":
        if is_ready():
            return connection.respond(http.HTTPStatus.OK, "ready\n")
        return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "not ready\n")
    if path == METRICS_PATH and (not token or authorized(request, token)):
        return metrics_response(metrics)
    return not_found(connection)
