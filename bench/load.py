"""Load: N tables of two bot players shooting at a steady pace, M spectators watching.

    .venv/bin/python bench/load.py                                  # 500 tables, 2,000 spectators
    .venv/bin/python bench/load.py --rooms 100 --spectators 400 --pace 15 --duration 60
    .venv/bin/python bench/load.py --rooms 800 --spectators 3200 --server-args "--workers 2"
    .venv/bin/python bench/load.py --no-baseline --json bench/.scratch/load.json
    .venv/bin/python bench/load.py --bot-tables 2 --no-baseline       # with bot tables running

The game server runs as `python -m server` in its own process (the real physics pool, the
in-memory store) on 127.0.0.1, and this process plays every client over loopback with
asyncio: each table's players hello, create/join, get ready (the first break by draw),
then the player to shoot plays one shot every `--pace` seconds per table (tables start at
random offsets so shots spread evenly), aimed at the lowest ball; matches that end are
rematched. Spectators are spread over the tables.

Measured over `--duration` seconds, after a warm-up of one pace:

- connections (open at the client, and the server's own `ninepool_connections` gauge);
- shots/s, and the shot → result latency: from the shooter sending `shot` to the
  `shot_result` reaching the shooter (p50/p95/p99/max) and reaching each member of the
  table (every delivery counted);
- the server's event-loop lag, from its `/metrics` histogram (bucket upper bounds), and a
  ping round trip measured by a probe connection every 0.2 s;
- the server's CPU (main process, and physics workers) and RSS, per connection, with
  psutil; the load generator's own CPU, since on two cores it competes with the server.

Then, unless `--no-baseline`, a plain websockets echo server (`bench/echo_baseline.py`)
gets the same number of connections and the same message rate — every frame the game
server delivered per second, with the same average size, echoed back — and the same
figures are printed side by side with the ratio game/echo.

`--bot-tables N` runs the server with N bot tables (exhibitions of two computer players,
`server/rooms/exhibitions.py`) going through the whole run: a watcher opens the lobby
before any table is made (so the server starts them: the lobby is empty) and watches
each, so they play on (an exhibition nobody watches ends with its match). Their shots in
the window are counted. Without it the server runs with `--bot-tables 0`.

Nothing here asserts a time. Never point it at anything but this machine: it only ever
starts its own servers on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import re
import resource
import shlex
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import msgpack  # noqa: E402
import msgspec  # noqa: E402
import psutil  # noqa: E402
from websockets.asyncio.client import ClientConnection, connect  # noqa: E402
from websockets.exceptions import ConnectionClosed  # noqa: E402

from protocol import messages as m  # noqa: E402
from protocol.codec import decode_server  # noqa: E402
from server.ops import gc_policy  # noqa: E402
from tests.fuzz.liveserver import LiveServer  # noqa: E402
from tests.fuzz.storm import clamp_positions  # noqa: E402

HOST = "127.0.0.1"
CONNECT_AT_ONCE = 64
WAIT = 60.0


def raise_fd_limit() -> tuple[int, int]:
    """Many sockets from one process: the soft limit of open files up to the hard one."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)


def percentile(values: list[float], q: float) -> float:
    if not values:
        return math.nan
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100.0 * len(ordered)) - 1))
    return ordered[k]


def spread(values: list[float], scale: float = 1000.0) -> dict[str, float]:
    return {
        "n": len(values),
        "p50": percentile(values, 50) * scale,
        "p95": percentile(values, 95) * scale,
        "p99": percentile(values, 99) * scale,
        "max": (max(values) * scale) if values else math.nan,
    }


class Head(msgspec.Struct):
    """The few fields a bot reads from every frame (the rest is skipped, not decoded)."""

    t: str
    id: int | None = None
    seq: int | None = None


_head = msgspec.msgpack.Decoder(Head)
_loose = msgspec.msgpack.Decoder()
#: Server frames the protocol's own schema refuses, by the reason (see `decode`).
SCHEMA_ERRORS: Counter[str] = Counter()


def decode(raw: bytes) -> m.ServerMessage:
    """`decode_server`, except that a frame the schema refuses is counted and read anyway
    with ball positions clamped to the table (a ball resting over a pocket's edge can lie
    a few millimetres outside the documented bounds)."""
    try:
        return decode_server(raw)
    except msgspec.ValidationError as exc:
        SCHEMA_ERRORS[str(exc)] += 1
        return msgspec.convert(clamp_positions(_loose.decode(raw)), m.AnyServerMessage)


#: The load generator's clients are bots on one address without an Origin header, which the
#: server's default limits refuse (see "Limits" in server/README.md).
BOT_FLAGS = [
    *("--allow-no-origin", "--conns-per-address", "0", "--handshake-rate", "0"),
    # Thousands of bots from one address: no per-address caps on rooms or unfinished heads.
    *("--rooms-per-address", "0", "--max-rooms", "0", "--pending-per-address", "0"),
    *("--metrics-token", "bench-scrape"),  # /metrics is not public without it
]


async def open_ws(url: str, source: str | None = None) -> ClientConnection:
    extra: dict[str, Any] = {}
    if source is not None:
        extra["local_addr"] = (source, 0)
    return await connect(
        url,
        compression=None,
        max_size=2**22,
        ping_interval=None,
        open_timeout=WAIT,
        close_timeout=2,
        **extra,
    )


# --- the game ----------------------------------------------------------------------------


@dataclass
class Stats:
    shooter_latency: list[float] = field(default_factory=list)
    delivery_latency: list[float] = field(default_factory=list)
    shots: int = 0
    missed_slots: int = 0
    frames_in: int = 0
    bytes_in: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    closed: int = 0
    measuring: bool = False


class Member:
    """One connection at a table (a player or a spectator)."""

    def __init__(self, table: Table, name: str, player: bool) -> None:
        self.table = table
        self.name = name
        self.player = player
        self.ws: ClientConnection | None = None
        self.replies: dict[int, asyncio.Future[Any]] = {}
        self.next_id = 0
        self.reader: asyncio.Task[None] | None = None
        self.choice: asyncio.Task[Any] | None = None

    def _choose_breaker(self, view: m.RoomView) -> None:
        """R3/O6: when this bot wins the draw it chooses to break (once per match)."""
        if view.lag_choice is None:
            self.choice = None
            return
        seat = view.seats[view.lag_choice]
        if seat is not None and seat.name == self.name and self.choice is None:
            request = self.request({"t": "lag_choice", "choice": "break"})
            self.choice = asyncio.get_running_loop().create_task(request)

    async def open(self, url: str, source: str | None) -> None:
        self.ws = await open_ws(url, source)
        self.reader = asyncio.get_running_loop().create_task(self._read())
        await self.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": self.name})

    async def request(self, message: dict[str, Any]) -> Any:
        self.next_id += 1
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self.replies[self.next_id] = future
        assert self.ws is not None
        await self.ws.send(msgpack.packb({**message, "id": self.next_id}))
        return await asyncio.wait_for(future, WAIT)

    async def _read(self) -> None:
        assert self.ws is not None
        stats = self.table.stats
        try:
            async for raw in self.ws:
                now = time.perf_counter()
                assert isinstance(raw, bytes)
                if stats.measuring:
                    stats.frames_in += 1
                    stats.bytes_in += len(raw)
                head = _head.decode(raw)
                if head.t == "shot_result":
                    self.table.delivered(self, now, raw if self.player else None)
                elif head.t in ("lag_result", "snapshot") and self.player:
                    message = decode(raw)
                    self.table.update(message)
                    if isinstance(message, m.Snapshot):
                        self._choose_breaker(message.view)
                elif head.t == "match_over" and self.player:
                    self.table.finished = True
                if head.id is not None and head.t != "snapshot":
                    if head.t == "error":
                        stats.errors[msgspec.msgpack.decode(raw)["code"]] += 1
                    future = self.replies.pop(head.id, None)
                    if future is not None and not future.done():
                        future.set_result(raw)
        except ConnectionClosed:
            stats.closed += 1


class Table:
    def __init__(self, index: int, stats: Stats, rng: random.Random) -> None:
        self.index = index
        self.stats = stats
        self.rng = rng
        self.players = [Member(self, f"P{index}a", True), Member(self, f"P{index}b", True)]
        self.spectators: list[Member] = []
        self.view: m.TableView | None = None
        self.room = ""
        self.shot_sent: float | None = None
        self.shot_seq = 0
        self.finished = False
        self.started = asyncio.Event()
        self.result_in = asyncio.Event()
        self.shooter = 0

    @property
    def members(self) -> list[Member]:
        return [*self.players, *self.spectators]

    def update(self, message: m.ServerMessage) -> None:
        if isinstance(message, m.Snapshot) and message.view.table is not None:
            self.view = message.view.table
            if message.view.status == "playing":
                self.finished = False
                self.started.set()
        elif isinstance(message, m.LagResult) and message.table is not None:
            self.view = message.table
            self.finished = False
            self.started.set()

    def delivered(self, member: Member, now: float, raw: bytes | None) -> None:
        """A `shot_result` reached `member` (`raw` is given to players only)."""
        sent = self.shot_sent
        if sent is not None and self.stats.measuring:
            self.stats.delivery_latency.append(now - sent)
        if raw is None or member is not self.players[self.shooter]:
            return
        result = decode(raw)
        assert isinstance(result, m.ShotResult)
        self.view = result.table
        if result.table.match_over:
            self.finished = True
        if sent is not None and self.stats.measuring:
            self.stats.shooter_latency.append(now - sent)
        self.result_in.set()

    async def setup(self, url: str, sources: list[str | None]) -> None:
        ana, ben = self.players
        for member in self.members:
            await member.open(url, self.rng.choice(sources))
        created = decode(
            await ana.request(
                {
                    "t": "create",
                    "settings": {"name": f"load{self.index}", "race_to": 9, "first_break": "draw"},
                }
            )
        )
        assert isinstance(created, m.Joined), created
        self.room = created.room
        await ben.request({"t": "join", "room": self.room})
        for spectator in self.spectators:
            await spectator.request({"t": "join", "room": self.room, "role": "spectator"})
        await ana.request({"t": "ready"})
        await ben.request({"t": "ready"})
        await asyncio.wait_for(self.started.wait(), WAIT)

    async def play(self, pace: float, stop: asyncio.Event) -> None:
        await asyncio.sleep(self.rng.uniform(0, pace))
        next_slot = time.perf_counter()
        shots = 0
        while not stop.is_set():
            if self.finished:
                self.started.clear()
                for player in self.players:
                    await player.request({"t": "rematch"})
                await asyncio.wait_for(self.started.wait(), WAIT)
            view = self.view
            assert view is not None and view.turn is not None
            balls = view.balls
            target = view.lowest if view.lowest is not None else 9
            cue, obj = balls[0], balls[target]
            assert cue is not None and obj is not None
            angle = math.degrees(math.atan2(obj[1] - cue[1], obj[0] - cue[0]))
            speed = (2.0, 3.0, 4.5, 6.0)[shots % 4]
            self.shooter = view.turn
            self.result_in.clear()
            self.shot_sent = time.perf_counter()
            shooter = self.players[view.turn]
            reply = await shooter.request({"t": "shot", "angle": angle, "speed": speed})
            if _head.decode(reply).t != "ok":
                self.shot_sent = None
                await asyncio.sleep(pace)
                continue
            await asyncio.wait_for(self.result_in.wait(), WAIT)
            shots += 1
            if self.stats.measuring:
                self.stats.shots += 1
            next_slot += pace
            delay = next_slot - time.perf_counter()
            if delay < 0:
                if self.stats.measuring:
                    self.stats.missed_slots += 1
                next_slot = time.perf_counter()
            else:
                await asyncio.sleep(delay)

    async def close(self) -> None:
        for member in self.members:
            if member.ws is not None:
                await member.ws.close()


# --- measuring the server ---------------------------------------------------------------


def scrape(url: str) -> dict[str, float]:
    request = urllib.request.Request(
        f"{url}/metrics", headers={"Authorization": "Bearer bench-scrape"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    out: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            try:
                out[name] = float(value)
            except ValueError:
                continue
    return out


def histogram_quantiles(
    before: dict[str, float], after: dict[str, float], name: str
) -> dict[str, float]:
    """p50/p99 (bucket upper bounds, ms) of a Prometheus histogram between two scrapes."""
    pattern = re.compile(rf'^{name}_bucket\{{le="([^"]+)"\}}$')
    buckets = []
    for key, value in after.items():
        match = pattern.match(key)
        if match:
            bound = math.inf if match.group(1) == "+Inf" else float(match.group(1))
            buckets.append((bound, value - before.get(key, 0.0)))
    buckets.sort()
    total = buckets[-1][1] if buckets else 0.0
    out = {"n": total}
    for q in (50, 99):
        bound = math.nan
        for upper, count in buckets:
            if total and count >= total * q / 100.0:
                bound = upper
                break
        out[f"p{q}"] = bound * 1000.0
    return out


class ProcessProbe:
    """CPU and memory of a server process and its children (the physics workers)."""

    def __init__(self, pid: int) -> None:
        self.main = psutil.Process(pid)

    def _procs(self) -> list[psutil.Process]:
        return [self.main, *self.main.children(recursive=True)]

    def cpu(self) -> tuple[float, float]:
        main = sum(self.main.cpu_times()[:2])
        children = 0.0
        for child in self.main.children(recursive=True):
            try:
                children += sum(child.cpu_times()[:2])
            except psutil.NoSuchProcess:
                continue
        return main, children

    def rss(self) -> tuple[float, float]:
        main = self.main.memory_info().rss / 2**20
        children = 0.0
        for child in self.main.children(recursive=True):
            try:
                children += child.memory_info().rss / 2**20
            except psutil.NoSuchProcess:
                continue
        return main, children

    def fds(self) -> int:
        return self.main.num_fds()


async def ping_probe(url: str, stop: asyncio.Event, out: list[float], measuring: Stats) -> None:
    ws = await open_ws(url)
    await ws.send(msgpack.packb({"t": "hello", "id": 1, "v": 1, "name": "probe"}))
    await ws.recv()
    request_id = 1
    while not stop.is_set():
        request_id += 1
        started = time.perf_counter()
        await ws.send(msgpack.packb({"t": "ping", "id": request_id}))
        while True:
            head = _head.decode(await ws.recv())
            if head.t == "pong" and head.id == request_id:
                break
        if measuring.measuring:
            out.append(time.perf_counter() - started)
        await asyncio.sleep(0.2)
    await ws.close()


@dataclass
class Window:
    wall: float = 0.0
    cpu_main: float = 0.0
    cpu_children: float = 0.0
    client_cpu: float = 0.0
    rss_idle: tuple[float, float] = (0.0, 0.0)
    rss_loaded: tuple[float, float] = (0.0, 0.0)
    fds: int = 0


async def connect_all(coroutines: list[Any]) -> None:
    gate = asyncio.Semaphore(CONNECT_AT_ONCE)

    async def gated(coroutine: Any) -> None:
        async with gate:
            await coroutine

    await asyncio.gather(*(gated(c) for c in coroutines))


async def watch_exhibitions(
    url: str, count: int, stats: Stats, bot_shots: list[int]
) -> list[tuple[ClientConnection, asyncio.Task[None]]]:
    """Open the lobby before any table is made, so the server starts `count` bot tables,
    and watch each (one spectator apiece), counting their shots in the window."""
    if count <= 0:
        return []
    lobby = await open_ws(url)
    await lobby.send(msgpack.packb({"t": "hello", "id": 1, "v": 1, "name": "lobby"}))
    await lobby.send(msgpack.packb({"t": "lobby", "id": 2}))
    exhibitions: set[str] = set()
    while len(exhibitions) < count:
        message = _loose.decode(await asyncio.wait_for(lobby.recv(), WAIT))
        info = message.get("info") if message.get("t") == "room" else None
        levels = info.get("computer", []) if info else []
        if len(levels) == 2 and None not in levels:
            exhibitions.add(info["room"])

    async def drain(ws: ClientConnection) -> None:
        async for frame in ws:
            shot = isinstance(frame, bytes) and _head.decode(frame).t == "shot_result"
            if shot and stats.measuring:
                bot_shots[0] += 1

    watchers = [(lobby, asyncio.get_running_loop().create_task(drain(lobby)))]
    for index, room in enumerate(sorted(exhibitions)):
        ws = await open_ws(url)
        await ws.send(msgpack.packb({"t": "hello", "id": 1, "v": 1, "name": f"Watcher{index}"}))
        join = {"t": "join", "id": 2, "room": room, "role": "spectator"}
        await ws.send(msgpack.packb(join))
        watchers.append((ws, asyncio.get_running_loop().create_task(drain(ws))))
    print(f"  {len(exhibitions)} bot tables started and watched", flush=True)
    return watchers


async def run_game(args: argparse.Namespace, server: LiveServer) -> dict[str, Any]:
    url = server.ws_url
    probe = ProcessProbe(server.pid)
    me = psutil.Process()
    stats = Stats()
    rng = random.Random(args.seed)
    sources: list[str | None] = (
        [f"127.0.0.{i}" for i in range(2, 2 + args.source_ips)] if args.source_ips else [None]
    )
    tables = [Table(i, stats, random.Random(rng.random())) for i in range(args.rooms)]
    for index in range(args.spectators):
        table = tables[index % len(tables)]
        table.spectators.append(Member(table, f"Spectator{index}", False))
    window = Window(rss_idle=probe.rss())
    bot_shots = [0]
    watchers = await watch_exhibitions(url, args.bot_tables, stats, bot_shots)
    ramp_started = time.perf_counter()
    await connect_all([t.setup(url, sources) for t in tables])
    ramp = time.perf_counter() - ramp_started
    connections = sum(len(t.members) for t in tables)
    print(f"  {connections} connections, {len(tables)} tables started in {ramp:.1f} s", flush=True)
    stop = asyncio.Event()
    pings: list[float] = []
    loop = asyncio.get_running_loop()
    players = [loop.create_task(t.play(args.pace, stop)) for t in tables]
    prober = loop.create_task(ping_probe(url, stop, pings, stats))
    await asyncio.sleep(min(args.pace, 20.0))  # warm-up: every table has shot once
    before = scrape(server.http_url)
    cpu0, client0, t0 = probe.cpu(), sum(me.cpu_times()[:2]), time.perf_counter()
    stats.measuring = True
    await asyncio.sleep(args.duration)
    stats.measuring = False
    cpu1, client1, t1 = probe.cpu(), sum(me.cpu_times()[:2]), time.perf_counter()
    after = scrape(server.http_url)
    window.wall = t1 - t0
    window.cpu_main = cpu1[0] - cpu0[0]
    window.cpu_children = cpu1[1] - cpu0[1]
    window.client_cpu = client1 - client0
    window.rss_loaded = probe.rss()
    window.fds = probe.fds()
    stop.set()
    for task in players:
        task.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    await asyncio.gather(prober, return_exceptions=True)
    failures = [p for p in players if p.done() and not p.cancelled() and p.exception()]
    for table in tables:
        await table.close()
    for ws, task in watchers:
        task.cancel()
        await ws.close()
    frames_out = after.get("ninepool_frames_out_total", 0.0) - before.get(
        "ninepool_frames_out_total", 0.0
    )
    return {
        "connections": connections,
        "server_connections_gauge": after.get("ninepool_connections", math.nan),
        "ramp_s": ramp,
        "window_s": window.wall,
        "shots": stats.shots,
        "bot_tables": args.bot_tables,
        "bot_shots": bot_shots[0],
        "shots_per_s": stats.shots / window.wall,
        "target_shots_per_s": args.rooms / args.pace,
        "missed_slots": stats.missed_slots,
        "shooter_latency_ms": spread(stats.shooter_latency),
        "delivery_latency_ms": spread(stats.delivery_latency),
        "server_shot_seconds_ms": histogram_quantiles(before, after, "ninepool_shot_seconds"),
        "loop_lag_ms": histogram_quantiles(before, after, "ninepool_event_loop_lag_seconds"),
        "ping_rtt_ms": spread(pings),
        "frames_delivered_per_s": stats.frames_in / window.wall,
        "frames_out_per_s_server": frames_out / window.wall,
        "avg_frame_bytes": stats.bytes_in / max(stats.frames_in, 1),
        "server_cpu_pct": 100 * window.cpu_main / window.wall,
        "physics_cpu_pct": 100 * window.cpu_children / window.wall,
        "client_cpu_pct": 100 * window.client_cpu / window.wall,
        "server_rss_mb": window.rss_loaded[0],
        "server_rss_idle_mb": window.rss_idle[0],
        "workers_rss_mb": window.rss_loaded[1],
        "rss_kb_per_connection": 1024
        * (window.rss_loaded[0] - window.rss_idle[0])
        / max(connections, 1),
        "server_cpu_us_per_connection_s": 1e6 * window.cpu_main / window.wall / connections,
        "server_fds": window.fds,
        "errors": dict(stats.errors),
        "dropped_connections": stats.closed,
        "table_failures": [repr(p.exception())[:200] for p in failures[:5]],
        "server_frames_refused_by_schema": dict(SCHEMA_ERRORS),
    }


# --- the echo baseline ------------------------------------------------------------------


async def run_echo(
    args: argparse.Namespace, connections: int, rate: float, size: int
) -> dict[str, Any]:
    command = [sys.executable, str(ROOT / "bench" / "echo_baseline.py"), "--port", "0"]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    port = int(line.rsplit(":", 1)[1])
    url = f"ws://{HOST}:{port}/"
    probe = ProcessProbe(proc.pid)
    me = psutil.Process()
    rss_idle = probe.rss()[0]
    sockets: list[ClientConnection] = []
    sources: list[str | None] = (
        [f"127.0.0.{i}" for i in range(2, 2 + args.source_ips)] if args.source_ips else [None]
    )

    async def one(i: int) -> None:
        sockets.append(await open_ws(url, sources[i % len(sources)]))

    started = time.perf_counter()
    await connect_all([one(i) for i in range(connections)])
    ramp = time.perf_counter() - started
    rtts: list[float] = []
    measuring = False
    stop = asyncio.Event()
    per_socket = rate / connections
    payload = os.urandom(max(1, size))

    async def talk(ws: ClientConnection, offset: float) -> None:
        await asyncio.sleep(offset)
        interval = 1.0 / per_socket if per_socket > 0 else 3600.0
        while not stop.is_set():
            began = time.perf_counter()
            await ws.send(payload)
            await ws.recv()
            if measuring:
                rtts.append(time.perf_counter() - began)
            await asyncio.sleep(max(0.0, interval - (time.perf_counter() - began)))

    interval = 1.0 / per_socket if per_socket > 0 else 1.0
    tasks = [
        asyncio.get_running_loop().create_task(talk(ws, random.uniform(0, interval)))
        for ws in sockets
    ]
    await asyncio.sleep(min(interval, 20.0))
    cpu0, client0, t0 = probe.cpu()[0], sum(me.cpu_times()[:2]), time.perf_counter()
    measuring = True
    await asyncio.sleep(args.duration)
    measuring = False
    cpu1, client1, t1 = probe.cpu()[0], sum(me.cpu_times()[:2]), time.perf_counter()
    rss = probe.rss()[0]
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    for ws in sockets:
        await ws.close()
    proc.terminate()
    proc.wait(10)
    wall = t1 - t0
    return {
        "connections": len(sockets),
        "ramp_s": ramp,
        "messages_per_s": len(rtts) / wall,
        "rtt_ms": spread(rtts),
        "server_cpu_pct": 100 * (cpu1 - cpu0) / wall,
        "client_cpu_pct": 100 * (client1 - client0) / wall,
        "server_rss_mb": rss,
        "rss_kb_per_connection": 1024 * (rss - rss_idle) / max(len(sockets), 1),
        "server_cpu_us_per_connection_s": 1e6 * (cpu1 - cpu0) / wall / max(len(sockets), 1),
    }


# --- report ---------------------------------------------------------------------------


def show(result: dict[str, Any], echo: dict[str, Any] | None) -> None:
    g = result
    lat, dlv = g["shooter_latency_ms"], g["delivery_latency_ms"]
    print(
        f"connections {g['connections']} (server gauge {g['server_connections_gauge']:.0f}), "
        f"ramp {g['ramp_s']:.1f} s, window {g['window_s']:.0f} s"
    )
    print(
        f"shots/s {g['shots_per_s']:.1f} (target {g['target_shots_per_s']:.1f}), "
        f"shots {g['shots']}, missed pace slots {g['missed_slots']}; bot tables "
        f"{g['bot_tables']} ({g['bot_shots']} bot shots in the window)"
    )
    print(
        f"shot→result at the shooter   p50 {lat['p50']:.1f}  p95 {lat['p95']:.1f}  "
        f"p99 {lat['p99']:.1f}  max {lat['max']:.1f} ms  (n={lat['n']})"
    )
    print(
        f"shot→result at every member  p50 {dlv['p50']:.1f}  p95 {dlv['p95']:.1f}  "
        f"p99 {dlv['p99']:.1f}  max {dlv['max']:.1f} ms  (n={dlv['n']})"
    )
    srv = g["server_shot_seconds_ms"]
    print(f"server's own shot histogram  p50 ≤ {srv['p50']:.0f}  p99 ≤ {srv['p99']:.0f} ms")
    lag, rtt = g["loop_lag_ms"], g["ping_rtt_ms"]
    print(
        f"event-loop lag (histogram)   p50 ≤ {lag['p50']:.1f}  p99 ≤ {lag['p99']:.1f} ms;  "
        f"ping RTT p50 {rtt['p50']:.1f}  p99 {rtt['p99']:.1f} ms"
    )
    print(
        f"server CPU {g['server_cpu_pct']:.0f}% (+ physics workers {g['physics_cpu_pct']:.0f}%), "
        f"load generator CPU {g['client_cpu_pct']:.0f}%"
    )
    print(
        f"server RSS {g['server_rss_mb']:.0f} MB (idle {g['server_rss_idle_mb']:.0f} MB, "
        f"workers {g['workers_rss_mb']:.0f} MB), {g['rss_kb_per_connection']:.1f} KB and "
        f"{g['server_cpu_us_per_connection_s']:.0f} µs CPU/s per connection, "
        f"{g['server_fds']} fds"
    )
    print(
        f"frames delivered {g['frames_delivered_per_s']:.0f}/s, avg {g['avg_frame_bytes']:.0f} "
        f"B; errors {g['errors']}; dropped {g['dropped_connections']}; "
        f"table failures {g['table_failures']}"
    )
    if g["server_frames_refused_by_schema"]:
        print(f"server frames its own schema refuses: {g['server_frames_refused_by_schema']}")
    if echo is not None:
        e = echo
        print(
            f"echo baseline: {e['connections']} connections, {e['messages_per_s']:.0f} msg/s, "
            f"RTT p50 {e['rtt_ms']['p50']:.1f} p99 {e['rtt_ms']['p99']:.1f} ms, "
            f"CPU {e['server_cpu_pct']:.0f}%, RSS {e['server_rss_mb']:.0f} MB "
            f"({e['rss_kb_per_connection']:.1f} KB/conn), load generator CPU "
            f"{e['client_cpu_pct']:.0f}%"
        )
        cpu_ratio = g["server_cpu_pct"] / max(e["server_cpu_pct"], 1e-9)
        rss_ratio = g["rss_kb_per_connection"] / max(e["rss_kb_per_connection"], 1e-9)
        p99_ratio = dlv["p99"] / max(e["rtt_ms"]["p99"], 1e-9)
        print(
            f"game/echo: CPU ×{cpu_ratio:.1f}, RSS per connection ×{rss_ratio:.1f}, "
            f"p99 latency ×{p99_ratio:.1f}"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=500)
    parser.add_argument("--spectators", type=int, default=2000)
    parser.add_argument("--pace", type=float, default=15.0, help="seconds between shots per table")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--server-args", default="", help="extra flags for python -m server")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--source-ips",
        type=int,
        default=0,
        help="spread client sockets over 127.0.0.2 … (for per-address connection limits)",
    )
    parser.add_argument("--no-baseline", action="store_true", help="skip the echo baseline")
    parser.add_argument(
        "--bot-tables", type=int, default=0, help="bot tables running through the run"
    )
    parser.add_argument("--json", type=Path, help="write every figure to this file")
    args = parser.parse_args(argv)
    # This process holds thousands of connections too: with the collector's defaults its
    # own pauses (up to half a second) would be measured as the server's latency. It runs
    # with the server's policy (server/ops/gc_policy.py).
    gc_policy.tune_for_serving()
    soft, hard = raise_fd_limit()
    needed = args.rooms * 2 + args.spectators + 100
    print(f"open-files limit {soft} (hard {hard}); this process and the server each need {needed}")
    print(f"load average before: {os.getloadavg()[0]:.1f} (other work on this machine)")
    server_args = ["--log-level", "WARNING", *BOT_FLAGS, "--bot-tables", str(args.bot_tables)]
    server_args += shlex.split(args.server_args)
    server = LiveServer(server_args).start()
    print(f"game server pid {server.pid} on {HOST}:{server.port} ({' '.join(server_args)})")
    try:
        game = asyncio.run(run_game(args, server))
    finally:
        server.stop()
    trouble = server.trouble()
    echo = None
    if not args.no_baseline:
        rate = game["frames_delivered_per_s"]
        echo = asyncio.run(run_echo(args, game["connections"], rate, int(game["avg_frame_bytes"])))
    show(game, echo)
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    print(f"server log lines with a traceback or an error: {len(trouble)}")
    for line in trouble[:10]:
        print(f"    {line}")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(
            json.dumps(
                {"args": vars(args) | {"json": str(args.json)}, "game": game, "echo": echo},
                indent=2,
                default=str,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
