"""What one table, one shot, one spectator and one aim preview cost Redis; and where one
redis-server saturates under that traffic.

    .venv/bin/python bench/redis_capacity.py costs                 # 60 tables, 4 watching each
    .venv/bin/python bench/redis_capacity.py costs --tables 100 --window 30 --json
    .venv/bin/python bench/redis_capacity.py saturate              # one Redis, pushed to the top

**costs.** A real `redis-server` (append-only, `appendfsync always`, as production runs
it) and two `python -m server` nodes on it. Each table is a room created on n1 (its
owner) by a bot there, joined by a bot on n2, so a player's actions cross the bus;
spectators alternate between the nodes. The bench goes through phases, each measured
over `--window` seconds from Redis's own counters (`INFO commandstats`, `INFO stats`,
`INFO cpu`) and a `MONITOR` of the window (publishes by channel; each publish's
deliveries are its channel's subscribers, `PUBSUB NUMSUB`):

1. `nodes`: two nodes, no rooms (heartbeats, the directory);
2. `idle`: `--tables` tables playing, nobody shooting (leases renewed, …);
3. `shots`: the players shoot, one shot per table per `--pace` seconds;
4. `watched_idle`: `--spectators` per table join, nobody shooting;
5. `watched_shots`: shooting again, watched;
6. `aim`: the shooters aim (ten previews a second, as the browser client sends them).

Per unit — an idle table for a second, a shot, a spectator for a second and per shot,
an aim preview — the differences between phases give Redis CPU (µs), commands, bytes in
and out, publishes and deliveries. `MONITOR` itself costs Redis CPU: the CPU figures are
taken from the windows without it (each phase is measured twice, once with, once
without).

**saturate.** The same traffic, without game servers: `redis-benchmark` (C, pipelined,
several connections) replays the command mix `costs` measured — the store's own save
script, lease renewals, publishes to node channels with their payload sizes, directory
writes — against a fresh `redis-server` configured as production, at growing
concurrency, until its throughput stops growing. Reported: shots/s, Redis CPU, and the
commands/s at the top, and what that is in tables at a given pace.

Nothing here asserts a time. Only ever starts its own servers on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import re
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import redis  # noqa: E402

from bench.botclient import Client, aim  # noqa: E402
from bench.botclient import open_client as botclient_open  # noqa: E402
from bench.load import BOT_FLAGS  # noqa: E402
from protocol import messages as m  # noqa: E402
from tests.cluster_e2e.processes import Node  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

#: Bots on one address, without an Origin, as fast as they like: the limits are lifted.
LIFTED = [
    *BOT_FLAGS,
    *("--rate", "0", "--chat-rate", "0", "--aim-rate", "0", "--log-level", "WARNING"),
    *("--secret", "redis-capacity-bench", "--grace", "600"),
]


# --- Redis's own counters ------------------------------------------------------------------


@dataclass
class Counters:
    at: float
    cpu: float
    commands: dict[str, int]
    usec: dict[str, int]
    net_in: int
    net_out: int
    processed: int


def read_counters(client: redis.Redis) -> Counters:
    stats = client.info("stats")
    cpu = client.info("cpu")
    commands: dict[str, int] = {}
    usec: dict[str, int] = {}
    for key, value in client.info("commandstats").items():
        name = key.removeprefix("cmdstat_")
        commands[name] = int(value["calls"])
        usec[name] = int(value["usec"])
    return Counters(
        at=time.perf_counter(),
        cpu=float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        commands=commands,
        usec=usec,
        net_in=int(stats["total_net_input_bytes"]),
        net_out=int(stats["total_net_output_bytes"]),
        processed=int(stats["total_commands_processed"]),
    )


def _channel_kind(channel: str) -> str:
    if channel.startswith("node:"):
        return "node:<id>"
    if channel.startswith("room:") and channel.endswith(":actions"):
        return "room:<id>:actions"
    if channel.startswith("room:"):
        return "room:<id>"
    return channel


class Listener:
    """A subscriber to every channel (PSUBSCRIBE *) in a thread: the true size of what
    is published, by kind of channel (MONITOR shows payloads escaped, several times
    longer). Its own deliveries are not counted as the nodes'."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.count: Counter[str] = Counter()
        self.bytes: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Listener:
        self._thread.start()
        time.sleep(0.2)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        client = redis.Redis.from_url(self.url)
        pubsub = client.pubsub()
        pubsub.psubscribe("*")
        while not self._stop.is_set():
            message = pubsub.get_message(timeout=0.2)
            if message is None or message["type"] != "pmessage":
                continue
            kind = _channel_kind(message["channel"].decode())
            self.count[kind] += 1
            self.bytes[kind] += len(message["data"])
        pubsub.close()
        client.close()

    def sizes(self) -> dict[str, float]:
        return {kind: self.bytes[kind] / n for kind, n in self.count.items() if n}


class Monitor:
    """`MONITOR` in a thread: every command Redis runs, counted by name (and by channel
    for PUBLISH). Commands run by scripts are counted apart."""

    _LINE = re.compile(r'^[\d.]+ \[\d+ (?P<source>[^\]]+)\] "(?P<cmd>[^"]+)"(?P<rest>.*)$')

    def __init__(self, url: str) -> None:
        self.url = url
        self.commands: Counter[str] = Counter()
        self.scripted: Counter[str] = Counter()
        self.publishes: Counter[str] = Counter()
        self.published_bytes: Counter[str] = Counter()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> Monitor:
        self._thread.start()
        time.sleep(0.2)
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join(timeout=10)

    def _run(self) -> None:
        client = redis.Redis.from_url(self.url)
        with client.monitor() as monitor:
            connection = monitor.connection
            assert connection is not None
            while not self._stop.is_set():
                with contextlib.suppress(Exception):
                    if not connection.can_read(timeout=0.2):
                        continue
                raw = connection.read_response()
                text = raw.decode(errors="replace") if isinstance(raw, bytes) else str(raw)
                match = self._LINE.match(text)
                if match is None:
                    continue
                name = match["cmd"].lower()
                if match["source"] == "lua":
                    self.scripted[name] += 1
                    continue
                self.commands[name] += 1
                if name in ("publish", "spublish"):
                    args = re.findall(r'"((?:[^"\\]|\\.)*)"', match["rest"])
                    if args:
                        kind = _channel_kind(args[0])
                        self.publishes[kind] += 1
                        self.published_bytes[kind] += len(args[1]) if len(args) > 1 else 0


def numsub(client: redis.Redis) -> dict[str, float]:
    """Subscribers per kind of channel now (node channels: one each; `dir`: every node)."""
    channels = [c.decode() for c in client.pubsub_channels()]
    counts = dict(client.pubsub_numsub(*channels)) if channels else {}
    per_kind: dict[str, list[int]] = {}
    for channel, subscribers in counts.items():
        name = channel.decode() if isinstance(channel, bytes) else channel
        per_kind.setdefault(_channel_kind(name), []).append(int(subscribers))
    return {kind: sum(v) / len(v) for kind, v in per_kind.items() if v}


@dataclass
class Window:
    name: str
    seconds: float
    cpu_s: float
    commands: dict[str, float]
    usec: dict[str, float]
    processed: float
    net_in: float
    net_out: float
    publishes: dict[str, float] = field(default_factory=dict)
    published_bytes: dict[str, float] = field(default_factory=dict)
    deliveries: float = 0.0
    scripted: dict[str, float] = field(default_factory=dict)
    shots: int = 0
    aims: int = 0

    def per_second(self) -> dict[str, Any]:
        s = self.seconds
        return {
            "redis_cpu_pct": 100 * self.cpu_s / s,
            "commands_per_s": self.processed / s,
            "net_in_bytes_per_s": self.net_in / s,
            "net_out_bytes_per_s": self.net_out / s,
            "publishes_per_s": sum(self.publishes.values()) / s,
            "deliveries_per_s": self.deliveries / s,
            "shots_per_s": self.shots / s,
            "aims_per_s": self.aims / s,
            "by_command_per_s": {k: v / s for k, v in sorted(self.commands.items()) if v},
            "scripted_per_s": {k: v / s for k, v in sorted(self.scripted.items()) if v},
            "publishes_by_channel_per_s": {k: v / s for k, v in self.publishes.items()},
            "publish_payload_bytes": dict(self.published_bytes),
            "usec_per_call": {
                k: self.usec[k] / self.commands[k]
                for k in sorted(self.commands)
                if self.commands[k] and k in self.usec
            },
        }


def difference(name: str, before: Counters, after: Counters) -> Window:
    names = set(after.commands)
    return Window(
        name=name,
        seconds=after.at - before.at,
        cpu_s=after.cpu - before.cpu,
        commands={k: after.commands[k] - before.commands.get(k, 0) for k in names},
        usec={k: after.usec[k] - before.usec.get(k, 0) for k in names},
        processed=after.processed - before.processed,
        net_in=after.net_in - before.net_in,
        net_out=after.net_out - before.net_out,
    )


def stored_sizes(url: str, rooms: list[str]) -> dict[str, float]:
    """What one save carries: a room's snapshot, and a log entry (bytes, on average)."""
    client = redis.Redis.from_url(url)
    try:
        snapshots = [client.hstrlen(f"room:{room}:state", "snapshot") for room in rooms]
        entries = [
            len(fields[b"d"])
            for room in rooms[:20]
            for _, fields in client.xrevrange(f"room:{room}:log", count=50)
        ]
        xadds = client.info("commandstats").get("cmdstat_xadd", {}).get("calls", 0)
        saves = sum(int(client.hget(f"room:{room}:state", "seq") or 0) for room in rooms)
        return {
            "snapshot_bytes": sum(snapshots) / max(len(snapshots), 1),
            "entry_bytes": sum(entries) / max(len(entries), 1),
            "entries_stored": float(xadds),
            "events_in_logs": float(saves),
        }
    finally:
        client.close()


# --- the tables ------------------------------------------------------------------------------


@dataclass
class Tally:
    shots: int = 0
    aims: int = 0
    refused: Counter[str] = field(default_factory=Counter)


class Table:
    """Ana on n1 (the owner), Ben on n2, spectators alternating between the nodes."""

    def __init__(self, index: int, tally: Tally) -> None:
        self.index = index
        self.tally = tally
        self.players: list[Client] = []
        self.watchers: list[Client] = []
        self.room = ""
        self.mode = "idle"

    async def setup(self, n1: Node, n2: Node) -> None:
        ana = await botclient_open(n1.ws_url, f"Ana{self.index}")
        ben = await botclient_open(n2.ws_url, f"Ben{self.index}")
        self.players = [ana, ben]
        settings = {"race_to": 21, "first_break": "draw", "name": f"cap {self.index}"}
        await ana.send({"t": "create", "settings": settings})
        self.room = (await ana.wait_for(m.Joined)).room
        await ben.send({"t": "join", "room": self.room})
        await ben.wait_for(m.Joined)
        await ana.send({"t": "ready"})
        await ben.send({"t": "ready"})
        draw = await ana.wait_for(m.LagResult)
        if draw.table is None and draw.winner is not None:
            await self.players[draw.winner].send({"t": "lag_choice", "choice": "break"})
            await ana.wait_for(m.Ruling)

    async def watch(self, nodes: list[Node], count: int) -> None:
        for number in range(count):
            node = nodes[number % len(nodes)]
            watcher = await botclient_open(node.ws_url, f"W{self.index}.{number}")
            await watcher.send({"t": "join", "room": self.room, "role": "spectator"})
            await watcher.wait_for(m.Joined)
            watcher.pending.clear()
            self.watchers.append(watcher)

    async def run(self, pace: float, stop: asyncio.Event, rng_offset: float) -> None:
        await asyncio.sleep(rng_offset)
        ana = self.players[0]
        while not stop.is_set():
            if self.mode == "idle":
                await asyncio.sleep(0.2)
                continue
            table = ana.table
            assert table is not None
            if table.match_over:
                for player in self.players:
                    await player.send({"t": "rematch"})
                draw = await ana.wait_for(m.LagResult)
                if draw.table is None and draw.winner is not None:
                    await self.players[draw.winner].send({"t": "lag_choice", "choice": "break"})
                    await ana.wait_for(m.Ruling)
                continue
            assert table.turn is not None
            shooter = self.players[table.turn]
            if table.choice_pending:
                await shooter.send({"t": "choose", "choice": "shoot"})
                await ana.wait_for(m.Ruling)
                continue
            angle, speed = aim(table)
            if self.mode == "aim":
                started = time.perf_counter()
                while time.perf_counter() - started < pace and not stop.is_set():
                    wobble = math.sin(time.perf_counter() * 3) * 2
                    await shooter.send(
                        {"t": "aim", "angle": (angle + wobble) % 360, "speed": speed}
                    )
                    self.tally.aims += 1
                    await asyncio.sleep(0.1)
                continue
            started = time.perf_counter()
            await shooter.send({"t": "shot", "angle": angle, "speed": speed})
            reply = await shooter.wait_for((m.Ok, m.Error))
            if isinstance(reply, m.Error):
                self.tally.refused[reply.code] += 1
                await asyncio.sleep(pace)
                continue
            await ana.wait_for(m.ShotResult)
            for client in [*self.players, *self.watchers]:
                client.pending = [p for p in client.pending if not isinstance(p, m.ShotResult)]
            self.tally.shots += 1
            await asyncio.sleep(max(0.0, pace - (time.perf_counter() - started)))

    async def close(self) -> None:
        for client in [*self.watchers, *self.players]:
            with contextlib.suppress(Exception):
                await client.close()


async def gated(coroutines: list[Any], at_once: int = 16) -> None:
    gate = asyncio.Semaphore(at_once)

    async def one(coroutine: Any) -> None:
        async with gate:
            await coroutine

    await asyncio.gather(*(one(c) for c in coroutines))


async def measure(name: str, url: str, seconds: float, tally: Tally, monitored: bool) -> Window:
    client = redis.Redis.from_url(url)
    try:
        shots0, aims0 = tally.shots, tally.aims
        if not monitored:
            before = await asyncio.to_thread(read_counters, client)
            await asyncio.sleep(seconds)
            after = await asyncio.to_thread(read_counters, client)
            window = difference(name, before, after)
        else:
            subscribers = await asyncio.to_thread(numsub, client)
            monitor, listener = Monitor(url), Listener(url)
            await asyncio.to_thread(monitor.__enter__)
            await asyncio.to_thread(listener.__enter__)
            before = await asyncio.to_thread(read_counters, client)
            await asyncio.sleep(seconds)
            after = await asyncio.to_thread(read_counters, client)
            await asyncio.to_thread(listener.__exit__)
            await asyncio.to_thread(monitor.__exit__)
            window = difference(name, before, after)
            window.publishes = dict(monitor.publishes)
            window.published_bytes = listener.sizes()
            window.scripted = dict(monitor.scripted)
            window.deliveries = sum(
                n * subscribers.get(k, 1.0) for k, n in monitor.publishes.items()
            )
        window.shots = tally.shots - shots0
        window.aims = tally.aims - aims0
        return window
    finally:
        client.close()


async def costs(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    server = RedisServer(folder / "redis")
    server.start()
    common = [*LIFTED, "--workers", str(args.workers), "--redis-url", server.url]
    n1 = Node("n1", folder / "nodes", [*common, "--node-id", "n1"])
    n2 = Node("n2", folder / "nodes", [*common, "--node-id", "n2"])
    tally = Tally()
    tables = [Table(i, tally) for i in range(args.tables)]
    stop = asyncio.Event()
    runners: list[asyncio.Task[None]] = []
    phases: dict[str, dict[str, Any]] = {}

    async def phase(name: str) -> None:
        await asyncio.sleep(args.settle)
        plain = await measure(name, server.url, args.window, tally, monitored=False)
        seen = await measure(name, server.url, args.window, tally, monitored=True)
        figures = seen.per_second()
        # CPU and the per-call times come from the window without MONITOR.
        for key in ("redis_cpu_pct", "commands_per_s", "net_in_bytes_per_s", "shots_per_s"):
            figures[key] = plain.per_second()[key]
        figures["usec_per_call"] = plain.per_second()["usec_per_call"]
        figures["aims_per_s"] = plain.per_second()["aims_per_s"] or figures["aims_per_s"]
        phases[name] = figures
        print(
            f"  {name:14s} redis cpu {figures['redis_cpu_pct']:5.1f} %  "
            f"{figures['commands_per_s']:8.0f} cmd/s  {figures['deliveries_per_s']:7.0f} deliv/s  "
            f"{figures['shots_per_s']:5.1f} shots/s  {figures['aims_per_s']:6.0f} aims/s",
            file=sys.stderr,
            flush=True,
        )

    try:
        for node in (n1, n2):
            node.launch()
        for node in (n1, n2):
            node.wait_ready()
        await phase("nodes")
        await gated([t.setup(n1, n2) for t in tables])
        loop = asyncio.get_running_loop()
        runners = [
            loop.create_task(t.run(args.pace, stop, args.pace * i / len(tables)))
            for i, t in enumerate(tables)
        ]
        await phase("idle")
        for t in tables:
            t.mode = "shots"
        await phase("shots")
        for t in tables:
            t.mode = "idle"
        await asyncio.sleep(args.pace + 2)
        await gated([t.watch([n1, n2], args.spectators) for t in tables])
        await phase("watched_idle")
        for t in tables:
            t.mode = "shots"
        await phase("watched_shots")
        for t in tables:
            t.mode = "aim"
        await phase("aim")
        stop.set()
        trouble = n1.trouble() + n2.trouble()
        stored = await asyncio.to_thread(stored_sizes, server.url, [t.room for t in tables])
    finally:
        stop.set()
        for task in runners:
            task.cancel()
        await asyncio.gather(*runners, return_exceptions=True)
        for t in tables:
            await t.close()
        n1.kill()
        n2.kill()
        server.kill()
    return {
        "tables": args.tables,
        "spectators_per_table": args.spectators,
        "pace_s": args.pace,
        "window_s": args.window,
        "phases": phases,
        "units": units(phases, args.tables, args.spectators),
        "stored": stored,
        "refused": dict(tally.refused),
        "server_trouble": trouble[:5],
    }


_MEASURES = {
    "redis_cpu_us": ("redis_cpu_pct", 1e4),  # % of a core -> µs per second
    "commands": ("commands_per_s", 1.0),
    "net_in_bytes": ("net_in_bytes_per_s", 1.0),
    "net_out_bytes": ("net_out_bytes_per_s", 1.0),
    "publishes": ("publishes_per_s", 1.0),
    "deliveries": ("deliveries_per_s", 1.0),
}


def units(phases: dict[str, dict[str, Any]], tables: int, spectators: int) -> dict[str, Any]:
    """What each unit of traffic adds, from the differences between phases."""

    def delta(a: str, b: str, key: str, scale: float) -> float:
        return (phases[a][key] - phases[b][key]) * scale

    out: dict[str, dict[str, float]] = {}
    shots = phases["shots"]["shots_per_s"]
    watched_shots = phases["watched_shots"]["shots_per_s"]
    aims = phases["aim"]["aims_per_s"]
    watchers = tables * spectators
    for unit in ("idle_table_per_s", "shot", "spectator_per_s", "spectator_per_shot", "aim"):
        out[unit] = {}
    for name, (key, scale) in _MEASURES.items():
        out["idle_table_per_s"][name] = delta("idle", "nodes", key, scale) / tables
        out["shot"][name] = delta("shots", "idle", key, scale) / max(shots, 1e-9)
        out["spectator_per_s"][name] = delta("watched_idle", "idle", key, scale) / max(watchers, 1)
        per_watched_shot = delta("watched_shots", "watched_idle", key, scale) / max(
            watched_shots, 1e-9
        )
        out["spectator_per_shot"][name] = (per_watched_shot - out["shot"][name]) / max(
            spectators, 1
        )
        out["aim"][name] = delta("aim", "watched_idle", key, scale) / max(aims, 1e-9)
    return out


def show_costs(result: dict[str, Any]) -> None:
    print(
        f"\n{result['tables']} tables, {result['spectators_per_table']} spectators each, "
        f"a shot per table every {result['pace_s']} s; windows of {result['window_s']} s"
    )
    columns = ("redis CPU µs", "commands", "bytes in", "bytes out", "publishes", "deliveries")
    print(f"{'unit':22s} " + " ".join(f"{c:>12s}" for c in columns))
    for unit, figures in result["units"].items():
        print(
            f"{unit:22s} {figures['redis_cpu_us']:12.1f} {figures['commands']:12.2f} "
            f"{figures['net_in_bytes']:12.0f} {figures['net_out_bytes']:12.0f} "
            f"{figures['publishes']:12.2f} {figures['deliveries']:12.2f}"
        )
    shots = result["phases"]["watched_shots"]
    print("commands per second while shooting, watched:", json.dumps(shots["by_command_per_s"]))
    print("of which run by scripts:", json.dumps(shots["scripted_per_s"]))
    print("publishes per second by channel:", json.dumps(shots["publishes_by_channel_per_s"]))
    print(
        "publish payload bytes by channel:",
        json.dumps({k: round(v) for k, v in shots["publish_payload_bytes"].items()}),
    )
    print("µs per call:", json.dumps({k: round(v, 1) for k, v in shots["usec_per_call"].items()}))
    if result["refused"]:
        print("refused:", result["refused"])
    if result["server_trouble"]:
        print("server log trouble:", *result["server_trouble"], sep="\n  ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    c = sub.add_parser("costs")
    c.add_argument("--tables", type=int, default=60)
    c.add_argument("--spectators", type=int, default=4, help="per table")
    c.add_argument("--pace", type=float, default=5.0, help="seconds between a table's shots")
    c.add_argument("--window", type=float, default=20.0, help="seconds per measured window")
    c.add_argument("--settle", type=float, default=3.0)
    c.add_argument("--workers", type=int, default=1, help="physics workers per node")
    c.add_argument("--json", action="store_true")
    s = sub.add_parser("saturate")
    s.add_argument("--costs", type=Path, help="a `costs --json` result to take the mix from")
    s.add_argument("--seconds", type=float, default=10.0, help="measured, per step")
    s.add_argument("--pace", type=float, default=15.0, help="seconds between a table's shots")
    s.add_argument("--aim-seconds", type=float, default=5.0, help="of them aiming")
    s.add_argument("--connections", type=int, nargs="+", default=[8, 32, 128])
    s.add_argument("--fsync", nargs="+", default=["always", "everysec"])
    s.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="redis-capacity-") as folder:
        if args.mode == "costs":
            result = asyncio.run(costs(args, Path(folder)))
            print(json.dumps(result, indent=2)) if args.json else show_costs(result)
        else:
            from bench.redis_saturate import saturate, show_saturation

            result = saturate(args, Path(folder))
            print(json.dumps(result, indent=2)) if args.json else show_saturation(result)
    return 0


if __name__ == "__main__":
    sys.exit(main())
