"""F3: a node whose port is taken exits with a non-zero status, at once, and never joins
the cluster: it binds its port before it subscribes, beats or reads anything (it used to
join first, and then hang on a task that ignored its cancellation). And a node stopped
while it is still starting exits."""

from __future__ import annotations

import asyncio
import signal
import socket
import time
from pathlib import Path

import pytest
import redis

from tests.cluster_e2e.conftest import node_args
from tests.cluster_e2e.processes import Node
from tests.redis_server import RedisServer

WAIT = 60.0


async def test_a_node_whose_port_is_taken_exits_without_joining(tmp_path: Path) -> None:
    server = RedisServer(tmp_path / "redis")
    server.start()
    taken = socket.socket()
    try:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        node = Node("late", tmp_path / "nodes", node_args(server.url, "late"))
        node.port = taken.getsockname()[1]
        client = redis.Redis.from_url(server.url)
        node.launch()
        assert node.process is not None
        deadline = time.monotonic() + WAIT
        seen = []
        while node.process.poll() is None:
            assert time.monotonic() < deadline, "the node did not exit"
            seen.append(client.zscore("dir:nodes", "late"))
            await asyncio.sleep(0.02)
        assert node.process.returncode != 0
        assert seen == [None] * len(seen) and client.zscore("dir:nodes", "late") is None
        assert "cannot start the server" in node.log()
        # Nothing else of it either: no subscription, nothing written under its name.
        assert client.pubsub_numsub("node:late") == [(b"node:late", 0)]
        client.close()
    finally:
        taken.close()
        server.kill()


@pytest.mark.parametrize("sigint", ["inherited", "ignored"])
async def test_a_node_stopped_while_it_waits_for_redis_exits(tmp_path: Path, sigint: str) -> None:
    """Starting waits for Redis; an interrupt meanwhile ends the process all the same,
    whatever its cluster tasks were doing, and even when it was started with SIGINT
    ignored (a script's background job: it once went on to serve, deaf to the interrupt)."""
    nowhere = RedisServer(tmp_path / "redis")  # never started: nothing answers there
    node = Node("waiting", tmp_path / "nodes", node_args(nowhere.url, "waiting"))
    node.launch(sigint_ignored=sigint == "ignored")
    try:
        assert node.process is not None
        # Once the server has taken SIGINT (an interrupt before that is the starting
        # interpreter's, or lost to the ignored disposition a background job gives it):
        # then subscribing, beating, reading the directory, all waiting for Redis.
        deadline = time.monotonic() + WAIT
        while not node.catches_sigint():
            assert node.process.poll() is None, node.log()[-2000:]
            assert time.monotonic() < deadline, "the server never took SIGINT"
            await asyncio.sleep(0.05)
        await asyncio.sleep(3.0)
        node.signal(signal.SIGINT)
        code = await asyncio.to_thread(node.wait_exit, WAIT)
        assert code == 0, node.log()[-2000:]
    finally:
        node.kill()  # one that did not stop is not left running
