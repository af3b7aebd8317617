"""F2: health probes through nginx must never take healthy nodes out.

During a Redis outage every node answers `/readyz` with 503 while it keeps serving its
WebSockets (rooms run on, saves wait). The configuration before the fix counted a 503 as a
failed attempt (`proxy_next_upstream … http_503` with `max_fails=2`): each poll of
`/readyz` through nginx was tried on every node and counted against all but the last one,
so a few polls within 5 s (three with three nodes, four with two) marked every
node down, and every new WebSocket got a 502 until 5 s after the last poll.

A real nginx, rendered from `deploy/nginx.conf` (and from the copy of the old one in
`data/`, to show that this test catches the failure), in front of stand-in nodes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.deploy.nginx_support import DEPLOY, Nginx, StandInNode, get, have_nginx

pytestmark = pytest.mark.skipif(not have_nginx(), reason="nginx is not installed (make test)")

BEFORE_F2 = Path(__file__).parent / "data" / "nginx-before-f2.conf"
#: Enough opens that least_conn walks over every node several times.
OPENS = 9
#: A monitor polling `/readyz` through nginx once a second does this within fail_timeout.
POLLS = 5


async def open_status(nginx: Nginx) -> int | str:
    """101 (as the stand-in's name) or the HTTP status nginx answered the upgrade with."""
    try:
        async with connect(nginx.ws_url, compression=None, open_timeout=10) as ws:
            return str(await asyncio.wait_for(ws.recv(), 10))
    except InvalidStatus as exc:
        return exc.response.status_code


async def poll_readyz(nginx: Nginx, times: int) -> list[int]:
    """Blocking GETs from a thread: the stand-ins answer on this event loop."""
    return [await asyncio.to_thread(get, f"{nginx.http_url}/readyz") for _ in range(times)]


@pytest.fixture
async def nodes() -> AsyncIterator[list[StandInNode]]:
    started = [StandInNode(name) for name in ("n1", "n2", "n3")]
    for node in started:
        await node.start()
    yield started
    for node in started:
        await node.stop()


def start_nginx(tmp_path: Path, config: Path, nodes: list[StandInNode]) -> Nginx:
    nginx = Nginx(tmp_path / "nginx", config.read_text(), [node.port for node in nodes])
    nginx.start()
    return nginx


async def test_the_old_config_turns_every_websocket_into_a_502(
    tmp_path: Path, nodes: list[StandInNode]
) -> None:
    nginx = await asyncio.to_thread(start_nginx, tmp_path, BEFORE_F2, nodes)
    try:
        assert await open_status(nginx) in {"n1", "n2", "n3"}  # healthy before the probes
        polls = await poll_readyz(nginx, POLLS)
        assert polls[:2] == [503, 503] and polls[-1] == 502, polls  # "no live upstreams"
        statuses = [await open_status(nginx) for _ in range(OPENS)]
        assert statuses == [502] * OPENS, statuses
    finally:
        await asyncio.to_thread(nginx.stop)


async def test_readyz_polls_during_a_redis_outage_take_no_node_out(
    tmp_path: Path, nodes: list[StandInNode]
) -> None:
    nginx = await asyncio.to_thread(start_nginx, tmp_path, DEPLOY / "nginx.conf", nodes)
    try:
        # Twice as many polls, as fast as they come: each is the answer of one node.
        assert await poll_readyz(nginx, 2 * POLLS) == [503] * (2 * POLLS)
        assert await asyncio.to_thread(get, f"{nginx.http_url}/healthz") == 200
        statuses = [await open_status(nginx) for _ in range(OPENS)]
        assert all(status in {"n1", "n2", "n3"} for status in statuses), statuses
        assert {node.name for node in nodes if node.opened} == {"n1", "n2", "n3"}
        # Redis is back: the probe says so at once.
        for node in nodes:
            node.ready = True
        assert await poll_readyz(nginx, 3) == [200] * 3
    finally:
        await asyncio.to_thread(nginx.stop)


async def test_a_node_that_cannot_be_reached_is_still_skipped(
    tmp_path: Path, nodes: list[StandInNode]
) -> None:
    """The fix keeps the passive health check for what it is for: a dead node."""
    nginx = await asyncio.to_thread(start_nginx, tmp_path, DEPLOY / "nginx.conf", nodes)
    try:
        await nodes[0].stop()  # connection refused from now on
        statuses = [await open_status(nginx) for _ in range(OPENS)]
        assert all(status in {"n2", "n3"} for status in statuses), statuses
        assert await asyncio.to_thread(get, f"{nginx.http_url}/healthz") == 200
    finally:
        await asyncio.to_thread(nginx.stop)
