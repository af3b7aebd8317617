"""`/metrics` is not public (`server/edge/scrape.py`): 404 on the public port, unless the
scrape carries `--metrics-token`; or served by a listener of its own (`--metrics-port`)."""

from __future__ import annotations

import asyncio
import dataclasses
import http.client

from server.app import GameServer
from server.edge.handshakes import serve_ops
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.test_http import fetch


async def test_the_public_port_does_not_serve_metrics(server: GameServer) -> None:
    status, _, body = await fetch(server, "/metrics")
    assert status == 404 and b"ninepool" not in body
    # Not with a token either, when none is set.
    status, _, _ = await fetch(server, "/metrics", {"Authorization": "Bearer "})
    assert status == 404


async def test_with_a_token_the_public_port_serves_metrics_to_its_bearer(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=Limits(metrics_token="s3cret-scrape"))
    for headers in ({}, {"Authorization": "Bearer wrong"}, {"Authorization": "Basic s3cret"}):
        status, _, body = await fetch(server, "/metrics", headers)
        assert status == 404 and b"ninepool" not in body, headers
    status, headers, body = await fetch(
        server, "/metrics", {"Authorization": "Bearer s3cret-scrape"}
    )
    assert status == 200 and headers["content-type"].startswith("text/plain")
    assert b"ninepool_connections" in body


async def test_a_listener_of_its_own_serves_metrics_and_health(server: GameServer) -> None:
    limits = dataclasses.replace(server.config.limits, metrics_port=0)
    ops = await serve_ops(server.metrics, server._ready, limits)
    try:
        port = ops.sockets[0].getsockname()[1]
        status, body = await _get(port, "/metrics")
        assert status == 200 and b"ninepool_limit_hits_total" in body
        assert (await _get(port, "/healthz"))[0] == 200
        assert (await _get(port, "/readyz"))[0] == 200
        assert (await _get(port, "/"))[0] == 404
        assert (await fetch(server, "/metrics"))[0] == 404  # still not on the public port
    finally:
        ops.close()
        await ops.wait_closed()


async def _get(port: int, path: str) -> tuple[int, bytes]:
    def get() -> tuple[int, bytes]:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        try:
            connection.request("GET", path)
            response = connection.getresponse()
            return response.status, response.read()
        finally:
            connection.close()

    return await asyncio.to_thread(get)
