"""Soak: rooms created, played and closed, over and over; is the server's memory flat?

    .venv/bin/python bench/soak.py                    # 30 minutes, 20 rooms at a time
    .venv/bin/python bench/soak.py --minutes 2 --every 5
    .venv/bin/python bench/soak.py --minutes 10 --concurrent 40 --server-args "--workers 2"

The server runs as `python -m server` on 127.0.0.1 (with `--grace 2`, so the seats of
players who vanish are freed quickly; override with `--server-args`). `--concurrent`
room lives run side by side, each one, again and again:

  two players connect, say hello and create a room (public or private, joined by id or
  invite code), zero to two spectators join, both get ready (the break by draw), they play
  one to six real shots, and the room ends one of four ways: a concession and both leave;
  a player leaves mid-match (O4) and the other follows; everybody just disconnects (the
  grace period, O5, frees the seats and the room closes); or a rematch is asked for, then
  everybody leaves. Spectators leave or disconnect.

Every `--every` seconds the server process is sampled: resident memory (main process and
physics workers apart), open file descriptors, and its `ninepool_connections` /
`ninepool_rooms` gauges. At the end the room lives stop, the server is given the grace
period to settle, and a last sample is taken. The slope of RSS and fds (least squares,
after the first fifth of the run as warm-up) is printed per minute with a verdict: flat,
or growing — growing when the fitted line gains more than max(2 MB, 3 %) of RSS, or more
than 5 fds, over the run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import random
import shlex
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
from websockets.asyncio.client import ClientConnection  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from bench.load import (  # noqa: E402
    BOT_FLAGS,
    ProcessProbe,
    decode,
    open_ws,
    raise_fd_limit,
    scrape,
)
from protocol import messages as m  # noqa: E402
from tests.fuzz.liveserver import LiveServer  # noqa: E402

WAIT = 60.0


@dataclass
class Tally:
    rooms: int = 0
    shots: int = 0
    endings: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)
    failures: Counter[str] = field(default_factory=Counter)


class Client:
    """A bot connection: requests with replies, and the latest table it was shown."""

    def __init__(self, name: str, tally: Tally) -> None:
        self.name = name
        self.tally = tally
        self.ws: ClientConnection | None = None
        self.next_id = 0
        self.replies: dict[int, asyncio.Future[m.ServerMessage]] = {}
        self.table: m.TableView | None = None
        self.results: asyncio.Queue[m.ShotResult] = asyncio.Queue()
        self.started = asyncio.Event()
        self.reader: asyncio.Task[None] | None = None
        self.choice: asyncio.Task[m.ServerMessage] | None = None

    def _choose_breaker(self, view: m.RoomView) -> None:
        """R3/O6: when this bot wins the draw it chooses to break (once per match)."""
        if view.lag_choice is None:
            self.choice = None
            return
        seat = view.seats[view.lag_choice]
        if seat is not None and seat.name == self.name and self.choice is None:
            request = self.request({"t": "lag_choice", "choice": "break"})
            self.choice = asyncio.get_running_loop().create_task(request)

    async def open(self, url: str) -> None:
        self.ws = await open_ws(url)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        await self.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": self.name})

    async def request(self, message: dict[str, Any]) -> m.ServerMessage:
        self.next_id += 1
        future: asyncio.Future[m.ServerMessage] = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        assert self.ws is not None
        await self.ws.send(msgpack.packb({**message, "id": self.next_id}))
        reply = await asyncio.wait_for(future, WAIT)
        if isinstance(reply, m.Error):
            self.tally.errors[reply.code] += 1
        return reply

    async def _read(self) -> None:
        assert self.ws is not None
        with contextlib.suppress(ConnectionClosed):
            async for raw in self.ws:
                assert isinstance(raw, bytes)
                message = decode(raw)
                request_id = getattr(message, "id", None)
                if request_id is not None and request_id in self.replies:
                    future = self.replies.pop(request_id)
                    if not future.done():
                        future.set_result(message)
                if isinstance(message, m.Snapshot):
                    self._choose_breaker(message.view)
                    if message.view.table is not None:
                        self.table = message.view.table
                    if message.view.status == "playing":
                        self.started.set()
                elif isinstance(message, m.LagResult) and message.table is not None:
                    self.table = message.table
                    self.started.set()
                elif isinstance(message, m.ShotResult):
                    self.table = message.table
                    await self.results.put(message)

    async def drop(self) -> None:
        """Vanish without a word (the socket is closed, no `leave`)."""
        if self.ws is not None:
            await self.ws.close()


async def room_life(url: str, rng: random.Random, tally: Tally, serial: int) -> None:
    ana, ben = Client(f"Soak{serial}a", tally), Client(f"Soak{serial}b", tally)
    watchers = [Client(f"Soak{serial}w{i}", tally) for i in range(rng.randint(0, 2))]
    everyone = [ana, ben, *watchers]
    try:
        for client in everyone:
            await client.open(url)
        private = rng.random() < 0.3
        settings = {"first_break": "draw", "race_to": 1, "private": private}
        created = await ana.request({"t": "create", "settings": settings})
        assert isinstance(created, m.Joined), created
        tally.rooms += 1
        by = {"code": created.code} if private else {"room": created.room}
        assert isinstance(await ben.request({"t": "join", **by}), m.Joined)
        for watcher in watchers:
            await watcher.request({"t": "join", **by, "role": "spectator"})
        await ana.request({"t": "ready"})
        await ben.request({"t": "ready"})
        await asyncio.wait_for(ana.started.wait(), WAIT)
        for _ in range(rng.randint(1, 6)):
            table = ana.table
            if table is None or table.match_over or table.turn is None:
                break
            shooter = (ana, ben)[table.turn]
            cue = table.balls[0]
            target = table.balls[table.lowest if table.lowest is not None else 9]
            assert cue is not None and target is not None
            angle = math.degrees(math.atan2(target[1] - cue[1], target[0] - cue[0]))
            reply = await shooter.request({"t": "shot", "angle": angle, "speed": 3.5})
            if not isinstance(reply, m.Ok):
                break
            await asyncio.wait_for(ana.results.get(), WAIT)
            tally.shots += 1
            await asyncio.sleep(rng.uniform(0.05, 0.3))
        ending = rng.choice(["concede", "leave", "vanish", "rematch"])
        tally.endings[ending] += 1
        if ending == "concede":
            await ana.request({"t": "concede", "what": "match"})
        elif ending == "rematch":
            await ana.request({"t": "concede", "what": "match"})
            await ana.request({"t": "rematch"})
        if ending == "vanish":
            for client in everyone:
                await client.drop()
        else:
            for client in [ben, ana, *watchers]:
                if rng.random() < 0.8:
                    await client.request({"t": "leave"})
    except Exception as exc:  # counted, reported, and the soak goes on
        tally.failures[type(exc).__name__] += 1
    finally:
        for client in everyone:
            await client.drop()
            if client.reader is not None:
                with contextlib.suppress(Exception):
                    await client.reader


@dataclass
class Sample:
    t: float
    rss_mb: float
    workers_mb: float
    fds: int
    connections: float
    rooms: float


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least-squares slope and intercept."""
    n = len(points)
    if n < 2:
        return 0.0, points[0][1] if points else 0.0
    mx = sum(p[0] for p in points) / n
    my = sum(p[1] for p in points) / n
    sxx = sum((p[0] - mx) ** 2 for p in points)
    slope = sum((p[0] - mx) * (p[1] - my) for p in points) / sxx if sxx else 0.0
    return slope, my - slope * mx


async def soak(args: argparse.Namespace, server: LiveServer) -> dict[str, Any]:
    probe = ProcessProbe(server.pid)
    tally = Tally()
    rng = random.Random(args.seed)
    samples: list[Sample] = []
    started = time.monotonic()
    deadline = started + args.minutes * 60

    def sample() -> Sample:
        gauges = scrape(server.http_url)
        rss, workers = probe.rss()
        s = Sample(
            t=time.monotonic() - started,
            rss_mb=rss,
            workers_mb=workers,
            fds=probe.fds(),
            connections=gauges.get("ninepool_connections", math.nan),
            rooms=gauges.get("ninepool_rooms", math.nan),
        )
        samples.append(s)
        print(
            f"  t={s.t:6.0f} s  RSS {s.rss_mb:7.1f} MB  workers {s.workers_mb:6.1f} MB  "
            f"fds {s.fds:5d}  connections {s.connections:5.0f}  rooms {s.rooms:5.0f}  "
            f"(rooms made {tally.rooms}, shots {tally.shots})",
            flush=True,
        )
        return s

    async def sampler() -> None:
        while time.monotonic() < deadline:
            sample()
            await asyncio.sleep(args.every)

    serial = 0

    async def lives(lane: int) -> None:
        nonlocal serial
        lane_rng = random.Random(rng.random())
        while time.monotonic() < deadline:
            serial += 1
            await room_life(server.ws_url, lane_rng, tally, serial)

    sampling = asyncio.get_running_loop().create_task(sampler())
    await asyncio.gather(*(lives(i) for i in range(args.concurrent)))
    await sampling
    await asyncio.sleep(args.settle)
    settled = sample()
    warm = [s for s in samples[:-1] if s.t >= 0.2 * args.minutes * 60] or samples
    rss_slope, _ = fit([(s.t / 60, s.rss_mb) for s in warm])
    fd_slope, _ = fit([(s.t / 60, float(s.fds)) for s in warm])
    minutes = args.minutes
    mean_rss = sum(s.rss_mb for s in warm) / len(warm)
    rss_growing = rss_slope * minutes > max(2.0, 0.03 * mean_rss)
    fd_growing = fd_slope * minutes > 5
    return {
        "rooms": tally.rooms,
        "shots": tally.shots,
        "endings": dict(tally.endings),
        "errors": dict(tally.errors),
        "failures": dict(tally.failures),
        "rss_slope_mb_per_min": rss_slope,
        "fd_slope_per_min": fd_slope,
        "rss_first_mb": warm[0].rss_mb,
        "rss_last_mb": warm[-1].rss_mb,
        "fds_first": warm[0].fds,
        "fds_last": warm[-1].fds,
        "settled": vars(settled),
        "verdict_rss": "growing" if rss_growing else "flat",
        "verdict_fds": "growing" if fd_growing else "flat",
        "samples": [vars(s) for s in samples],
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=10.0, help="seconds between samples")
    parser.add_argument("--concurrent", type=int, default=20, help="room lives at a time")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before the last sample")
    parser.add_argument("--server-args", default="--grace 2", help="flags for python -m server")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    raise_fd_limit()
    server = LiveServer(
        ["--log-level", "WARNING", *BOT_FLAGS, *shlex.split(args.server_args)]
    ).start()
    print(f"server pid {server.pid} on 127.0.0.1:{server.port}; soak {args.minutes} min")
    try:
        result = asyncio.run(soak(args, server))
    finally:
        server.stop()
    trouble = server.trouble()
    r = result
    print(
        f"rooms {r['rooms']}, shots {r['shots']}, endings {r['endings']}, "
        f"errors {r['errors']}, failed room lives {r['failures']}"
    )
    print(
        f"RSS {r['rss_first_mb']:.1f} → {r['rss_last_mb']:.1f} MB, slope "
        f"{r['rss_slope_mb_per_min']:+.2f} MB/min: {r['verdict_rss']}"
    )
    print(
        f"fds {r['fds_first']} → {r['fds_last']}, slope {r['fd_slope_per_min']:+.2f}/min: "
        f"{r['verdict_fds']}"
    )
    settled = r["settled"]
    print(
        f"after settling: connections {settled['connections']:.0f}, rooms "
        f"{settled['rooms']:.0f}, fds {settled['fds']}, RSS {settled['rss_mb']:.1f} MB"
    )
    print(f"server log lines with a traceback or an error: {len(trouble)}")
    for line in trouble[:10]:
        print(f"    {line}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(r, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
