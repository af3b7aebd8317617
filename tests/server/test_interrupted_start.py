"""An interrupt while the server starts ends it, even when the cancellation it brings is
swallowed on the way.

Until `run` puts its own signal handlers in place, SIGINT cancels the task that runs it
(asyncio's runner). Python 3.11's `wait_for` and `asyncio.timeout` can each lose such a
cancellation when it lands as their own wait ends (why `cancel_requested` exists); the
interrupt must still stand. Here the start itself swallows the cancellation, as such a
wait can. (An interrupt that never reaches the task, SIGINT inherited ignored, is
`tests/cluster_e2e/test_node_start.py`.)"""

from __future__ import annotations

import asyncio
import contextlib
import socket
from urllib.parse import urlsplit

import pytest

from server import app
from server.app import GameServer, run
from tests.server.support import make_config


async def test_a_swallowed_interrupt_during_start_still_stops_the_server(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    real_start = GameServer.start
    started: asyncio.Future[GameServer] = asyncio.get_running_loop().create_future()

    async def start_losing_the_interrupt(self: GameServer) -> None:
        await real_start(self)
        started.set_result(self)
        # The interrupt lands in this sleep, and a library's wait swallows it.
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.sleep(30)

    monkeypatch.setattr(GameServer, "start", start_losing_the_interrupt)
    caplog.set_level("INFO", logger=app.__name__)
    task = asyncio.get_running_loop().create_task(run(make_config()))
    server = await asyncio.wait_for(started, 30)
    address = urlsplit(server.url)
    assert address.hostname is not None and address.port is not None
    with socket.create_connection((address.hostname, address.port), timeout=5):
        pass  # it listens

    task.cancel()  # what SIGINT does before `run` has handlers of its own
    await asyncio.wait_for(task, 30)  # ends, instead of serving until stopped again

    assert "interrupted while starting" in caplog.text
    with pytest.raises(OSError):
        socket.create_connection((address.hostname, address.port), timeout=5).close()
