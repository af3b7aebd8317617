"""The limits on new connections, through nginx rendered from `deploy/nginx.conf`: a node's
abuse cooldown answers 429 with its Retry-After through the proxy (the node counts the
client's address, from X-Forwarded-For), and nginx's own `limit_req` caps how fast one
address opens WebSockets for the whole cluster, while plain HTTP requests pass uncounted."""

from __future__ import annotations

import asyncio
import contextlib
import urllib.request
from pathlib import Path

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from tests.cluster_e2e.processes import Nginx, Node
from tests.deploy.nginx_support import NGINX

WAIT = 20.0
#: `limit_req ... burst=60` and `rate=2r/s` in deploy/nginx.conf.
EDGE_BURST = 60
EDGE_RATE = 2.0


async def open_ws(nginx: Nginx) -> ClientConnection:
    origin = Origin(f"http://127.0.0.1:{nginx.port}")  # the page nginx serves
    return await connect(nginx.ws_url, origin=origin, compression=None, open_timeout=WAIT)


async def refusal(nginx: Nginx) -> tuple[int, str, str]:
    """Status, Retry-After and body of a refused handshake."""
    with pytest.raises(InvalidStatus) as refused:
        await open_ws(nginx)
    response = refused.value.response
    return response.status_code, response.headers.get("Retry-After", ""), response.body.decode()


async def test_cooldown_through_the_proxy_and_the_edge_rate_limit(tmp_path: Path) -> None:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (make test installs it)")
    # No per-node handshake rate: what refuses the flood below is nginx.
    flags = ["--store", "memory://", "--workers", "0", "--handshake-rate", "0"]
    flags += ["--trusted-proxies", "127.0.0.1"]  # nginx, on loopback
    node = Node("edge", tmp_path / "node", [*flags, "--abuse-cooldown", "1"])
    node.start()
    nginx = Nginx(tmp_path / "nginx", [node.port])
    try:
        nginx.start()
        # A run of invalid frames: closed 1008, and the node's cooldown refuses the address
        # (the client behind nginx, not nginx itself) with its Retry-After.
        ws = await open_ws(nginx)
        for _ in range(8):
            with contextlib.suppress(ConnectionClosed):
                await ws.send(b"\xc1")
        with contextlib.suppress(ConnectionClosed):
            while True:
                await asyncio.wait_for(ws.recv(), WAIT)
        assert (ws.close_code, ws.close_reason) == (1008, "too many invalid frames")
        status, retry_after, body = await refusal(nginx)
        assert (status, retry_after) == (429, "1") and "closed for abuse" in body
        await asyncio.sleep(1.2)
        # Cooled down. Now open WebSockets as fast as possible: nginx lets a burst through,
        # then refuses (429) at the edge, before any node sees the request.
        started = asyncio.get_running_loop().time()
        opened = 0  # (the two handshakes above were refunded during the sleep)
        refused: tuple[int, str, str] | None = None
        while refused is None and opened < 4 * EDGE_BURST:
            try:
                ws = await open_ws(nginx)
            except InvalidStatus as exc:
                response = exc.response
                refused = (response.status_code, "", response.body.decode())
                break
            opened += 1
            await ws.close()
        elapsed = asyncio.get_running_loop().time() - started
        assert refused is not None, f"nginx let {opened} WebSockets through"
        status, _, body = refused
        assert status == 429 and "nginx" in body  # nginx's own page, not the node's
        # (nginx lets the burst through on top of the request that finds the bucket full.)
        assert EDGE_BURST <= opened <= EDGE_BURST + 2 + EDGE_RATE * elapsed
        # Plain HTTP (the page, replays, health) is not counted.
        for _ in range(3 * EDGE_BURST):
            with urllib.request.urlopen(f"http://127.0.0.1:{nginx.port}/healthz", timeout=5) as r:
                assert r.status == 200
        assert node.trouble() == []
    finally:
        nginx.stop()
        node.kill()
