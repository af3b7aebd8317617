"""What the latency benchmarks share: a recording bot client, the bots' aim, percentiles.

`shot_latency.py` (one node) and `cluster_bench.py` (three nodes) time the same thing —
a shot sent until its `shot_result` reaches every client — so they use one client that
stamps each arrival, one way of aiming, and one way of summarising.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import msgpack
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from protocol import messages as m
from protocol.codec import decode_server


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100.0 * len(ordered)) - 1))
    return ordered[k]


def summary(values: list[float]) -> dict[str, float]:
    """Seconds in, milliseconds out: n, p50, p95, p99, max and mean."""
    return {
        "n": len(values),
        "p50_ms": percentile(values, 50) * 1000,
        "p95_ms": percentile(values, 95) * 1000,
        "p99_ms": percentile(values, 99) * 1000,
        "max_ms": max(values) * 1000,
        "mean_ms": statistics.fmean(values) * 1000,
    }


@dataclass
class Client:
    """A bot connection that keeps every message and stamps shot results and chats."""

    ws: ClientConnection
    name: str
    next_id: int = 1
    table: m.TableView | None = None
    arrivals: dict[int, float] = field(default_factory=dict)
    chats: dict[str, float] = field(default_factory=dict)
    pending: list[m.ServerMessage] = field(default_factory=list)
    got: asyncio.Event = field(default_factory=asyncio.Event)
    task: asyncio.Task[None] | None = None

    async def send(self, message: dict[str, Any]) -> None:
        self.next_id += 1
        await self.ws.send(msgpack.packb({**message, "id": self.next_id}))

    async def reader(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            async for frame in self.ws:
                now = time.perf_counter()
                try:
                    message = decode_server(frame)  # type: ignore[arg-type]
                except msgspec.ValidationError as exc:
                    print(
                        f"{self.name}: a server frame does not match the schema: {exc}: "
                        f"{msgpack.unpackb(frame)}",
                        file=sys.stderr,
                    )
                    raise
                if isinstance(message, m.ShotResult):
                    self.arrivals[message.seq] = now
                elif isinstance(message, m.ChatRelay):
                    self.chats[message.text] = now
                    continue  # counted, not kept
                table = getattr(message, "table", None)
                if isinstance(table, m.TableView):
                    self.table = table
                if isinstance(message, m.Snapshot) and message.view.table is not None:
                    self.table = message.view.table
                self.pending.append(message)
                self.got.set()

    async def wait_for(self, kind: type | tuple[type, ...], timeout: float = 60.0) -> Any:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            for index, message in enumerate(self.pending):
                if isinstance(message, kind):
                    del self.pending[index]
                    return message
            self.got.clear()
            await asyncio.wait_for(self.got.wait(), max(0.01, deadline - loop.time()))

    async def close(self) -> None:
        await self.ws.close()
        if self.task is not None:
            self.task.cancel()


async def open_client(url: str, name: str) -> Client:
    """Connect to a WebSocket URL, start reading, and say hello."""
    ws = await connect(url, compression=None, max_size=2**22)
    client = Client(ws, name)
    client.task = asyncio.get_running_loop().create_task(client.reader())
    await client.send({"t": "hello", "v": m.PROTOCOL_VERSION, "name": name})
    await client.wait_for(m.Welcome)
    return client


def aim(table: m.TableView) -> tuple[float, float]:
    """Straight at the lowest ball; a hard break when the cue ball is in the kitchen."""
    cue = table.balls[0]
    target = table.balls[table.lowest] if table.lowest is not None else None
    if cue is None or target is None:
        return 0.0, 2.0
    angle = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0]))
    return angle, 10.0 if table.ball_in_hand == "kitchen" else 3.0
