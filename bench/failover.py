"""Failover: how long play stops when a room's owner is killed (kill -9) or stopped
(SIGTERM), over repeated rounds, at the server's default settings.

    .venv/bin/python bench/failover.py                      # 10 kills of each kind
    .venv/bin/python bench/failover.py --rounds 3 --mode kill --json out.json
    .venv/bin/python bench/failover.py --root /path/to/an/older/checkout   # "before"
    .venv/bin/python bench/failover.py --redis both --mode kill   # one Redis, then a cluster

Everything runs on loopback as production runs it: a real `redis-server` (append-only,
`appendfsync always`) and three `python -m server` nodes with their default settings
(`--lease-ttl`, `--node-timeout`: only ports, `--workers 1`, the key and the node names are
given). `--redis cluster` puts the nodes on a three-shard Redis Cluster instead
(`tests/redis_cluster.py`, the same persistence, nodes on `redis+cluster://`); `--redis
both` measures one Redis, then the cluster, in the same run, and reports their ratio.
`--root` runs the nodes from another checkout (its `.venv` if it has one): the
clients here speak the same protocol to either.

Each round: Ana creates a room on the owner node and Ben joins it from a second node, Cleo
watches from the third and Dan from the owner node itself; both players are ready and the
first break is drawn. Dan's connection then stops reading (a phone gone to sleep, say):
a stopping node that waits for every connection to close waits for his up to websockets'
close timeout. Then the owner is killed (or stopped), and the clock runs from the signal
until

- Ben and Cleo, whose nodes live on, have the room's snapshot from its next owner;
- Ana, whose connection died with the owner, has reconnected at once to Ben's node with
  her token and has her snapshot;

and play is **resumed** when all three have it: the round's figure. Also reported, for
the version that sends them: when each live client heard `notice` `moving`. The killed node
is started again before the next round, which opens a new room on it.

Reported: every round, and for each mode the median and the worst round. Nothing asserts
a time (the tests assert generous bounds: tests/cluster_e2e/test_failover_times.py).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from websockets.exceptions import ConnectionClosed  # noqa: E402

from protocol import messages as m  # noqa: E402
from tests.cluster_e2e.clients import Table, open_peer  # noqa: E402
from tests.redis_cluster import RedisCluster  # noqa: E402
from tests.redis_server import RedisServer, free_port  # noqa: E402
from tests.server.support import Peer  # noqa: E402

SECRET = "failover-bench-secret"
WAIT = 60.0
_READY = re.compile(r"ready: open http://\S+:(\d+)/")


class BenchNode:
    """`python -m server` from `root`, on a port of its own (kept across restarts)."""

    def __init__(self, name: str, root: Path, folder: Path, redis_url: str) -> None:
        self.name = name
        self.root = root
        self.folder = folder
        self.redis_url = redis_url
        self.port = free_port()
        self.starts = 0
        self.process: subprocess.Popen[bytes] | None = None
        venv = root / ".venv" / "bin" / "python"
        self.python = str(venv) if venv.exists() else sys.executable

    @property
    def url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def start(self) -> None:
        self.starts += 1
        banner = self.folder / f"{self.name}.{self.starts}.out"
        command = [
            self.python,
            "-m",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
            "--redis-url",
            self.redis_url,
            "--secret",
            SECRET,
            "--workers",
            "1",
            "--node-id",
            f"{self.name}-{self.starts}",
        ]
        env = {k: v for k, v in os.environ.items() if not k.startswith("NINEPOOL_")}
        env["PYTHONUNBUFFERED"] = "1"
        with banner.open("wb") as out, (self.folder / f"{self.name}.log").open("ab") as err:
            self.process = subprocess.Popen(
                command, cwd=self.root, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env
            )
        deadline = time.monotonic() + WAIT
        while not _READY.search(banner.read_text(errors="replace")):
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} did not start; see {self.folder}")
            time.sleep(0.05)

    def signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        self.process.send_signal(sig)

    def wait(self) -> None:
        if self.process is not None:
            self.process.wait(60)
            self.process = None

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
        self.wait()


@dataclass
class Round:
    mode: str
    #: `single` (one redis-server) or `cluster` (a three-shard Redis Cluster).
    redis: str = "single"
    #: Seconds from the signal until each client had the room again, by name.
    back: dict[str, float] = field(default_factory=dict)
    #: Seconds from the signal until each live client heard `notice` `moving`.
    moving: dict[str, float] = field(default_factory=dict)
    #: A client that did not have the room back within `WAIT` seconds.
    stuck: list[str] = field(default_factory=list)

    @property
    def resumed(self) -> float:
        """Seconds until every client had the room back (infinite: one never did)."""
        return float("inf") if self.stuck else max(self.back.values())


async def start_room(owner: BenchNode, other: BenchNode, third: BenchNode) -> list[Peer]:
    ana = await open_peer(owner.url, "Ana")
    ben = await open_peer(other.url, "Ben")
    cleo = await open_peer(third.url, "Cleo")
    dan = await open_peer(owner.url, "Dan")
    settings = {"race_to": 3, "first_break": "draw"}
    created = await ana.request({"t": "create", "settings": settings})
    assert isinstance(created, m.Joined), created
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    for watcher in (cleo, dan):
        watching = await watcher.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(watching, m.Joined), watching
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await ben.request({"t": "ready"}), m.Ok)
    draw = await cleo.expect(m.LagResult, WAIT)
    await Table(players=[ana, ben], watchers=[cleo]).begin(draw)
    for peer in (ana, ben, cleo, dan):
        await peer.drain(0.3)
    assert dan.ws.transport is not None
    dan.ws.transport.pause_reading()  # reads nothing more, the close frame included
    return [ana, ben, cleo, dan]


async def back_at(peer: Peer, started: float, out: Round) -> None:
    """Until `peer` has a snapshot of the room (from its next owner); notes when it heard
    that the table is moving, if it did, and if it never had the room back."""
    try:
        while True:
            message = await peer._read(max(0.01, started + WAIT - time.monotonic()))
            if isinstance(message, m.Notice) and message.kind == "moving":
                out.moving.setdefault(peer.name, time.monotonic() - started)
            if isinstance(message, m.Snapshot):
                out.back[peer.name] = time.monotonic() - started
                return
    except (TimeoutError, ConnectionClosed):
        out.stuck.append(peer.name)


async def reconnect(peer: Peer, url: str, started: float, out: Round) -> Peer:
    """The player whose node went away comes back at once through another node."""
    with contextlib.suppress(ConnectionClosed, TimeoutError):
        await peer.drain(WAIT)  # until its connection is closed
    with_token = await open_peer(url, peer.name, token=peer.token)
    await back_at(with_token, started, out)
    return with_token


async def one_round(mode: str, nodes: list[BenchNode], redis: str = "single") -> Round:
    owner, other, third = nodes
    ana, ben, cleo, dan = await start_room(owner, other, third)
    out = Round(mode, redis)
    started = time.monotonic()
    owner.signal(signal.SIGKILL if mode == "kill" else signal.SIGTERM)
    results = await asyncio.gather(
        back_at(ben, started, out),
        back_at(cleo, started, out),
        reconnect(ana, other.url, started, out),
    )
    peers = [ben, cleo, results[2]]
    await asyncio.to_thread(owner.wait)
    for peer in [*peers, ana]:
        await peer.close()
    assert dan.ws.transport is not None
    dan.ws.transport.abort()
    await asyncio.to_thread(owner.start)
    await asyncio.sleep(1.0)  # its heartbeat is heard before its next room is made
    return out


def _seconds(value: float) -> float | None:
    """Rounded; None for a round that never resumed (JSON has no infinity)."""
    return None if value == float("inf") else round(value, 2)


def report(rounds: list[Round]) -> dict[str, Any]:
    """Figures by mode (`kill`, `term`), and by mode on a cluster (`kill cluster`, …)."""
    figures: dict[str, Any] = {}
    for mode, redis in sorted({(r.mode, r.redis) for r in rounds}):
        mine = [r for r in rounds if r.mode == mode and r.redis == redis]
        times = [r.resumed for r in mine]
        moving = [max(r.moving.values()) for r in mine if r.moving]
        figures[mode if redis == "single" else f"{mode} {redis}"] = {
            "rounds": len(times),
            "never_resumed": sum(1 for t in times if t == float("inf")),
            "median_s": _seconds(statistics.median(times)),
            "worst_s": _seconds(max(times)),
            "best_s": _seconds(min(times)),
            "moving_notice_median_s": _seconds(statistics.median(moving)) if moving else None,
            "each_s": [_seconds(t) for t in times],
        }
    for mode in {r.mode for r in rounds}:
        single, cluster = figures.get(mode), figures.get(f"{mode} cluster")
        if single and cluster and single["median_s"] and cluster["median_s"]:
            cluster["median_ratio_to_single"] = round(cluster["median_s"] / single["median_s"], 2)
    return figures


async def run_on(
    redis: str, modes: list[str], args: argparse.Namespace, folder: Path
) -> list[Round]:
    """Every round of `modes` on one redis-server or on a three-shard Redis Cluster."""
    server: RedisServer | RedisCluster
    if redis == "cluster":
        server = RedisCluster(folder / "redis-cluster")
        url = server.url.replace("redis://", "redis+cluster://", 1)
    else:
        server = RedisServer(folder / "redis")
        url = server.url
    server.start()
    nodes = [BenchNode(name, args.root.resolve(), folder / redis, url) for name in "abc"]
    rounds: list[Round] = []
    try:
        for node in nodes:
            node.folder.mkdir(parents=True, exist_ok=True)
            node.start()
        await asyncio.sleep(1.0)
        for mode in modes:
            for number in range(args.rounds):
                done = await one_round(mode, nodes, redis)
                rounds.append(done)
                back = ", ".join(f"{k} {v:.2f}" for k, v in sorted(done.back.items()))
                stuck = f"; not back within {WAIT:g} s: {', '.join(done.stuck)}"
                print(
                    f"{redis} {mode} {number + 1}: resumed after {done.resumed:.2f} s ({back})"
                    + (stuck if done.stuck else ""),
                    flush=True,
                )
    finally:
        for node in nodes:
            node.kill()
        server.kill()
    return rounds


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=10, help="kills (or stops) of each mode")
    parser.add_argument("--mode", choices=("kill", "term", "both"), default="both")
    parser.add_argument(
        "--redis",
        choices=("single", "cluster", "both"),
        default="single",
        help="one redis-server, a three-shard Redis Cluster, or both in turn",
    )
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout the nodes run from")
    parser.add_argument("--json", type=Path, help="write every figure here")
    args = parser.parse_args()
    modes = ["kill", "term"] if args.mode == "both" else [args.mode]
    folder = Path(tempfile.mkdtemp(prefix="failover-bench-"))
    rounds: list[Round] = []
    for redis in ["single", "cluster"] if args.redis == "both" else [args.redis]:
        rounds += await run_on(redis, modes, args, folder)
    figures = report(rounds)
    for mode, figure in figures.items():
        print(
            f"{mode}: median {figure['median_s']} s, worst {figure['worst_s']} s "
            f"over {figure['rounds']} rounds ({figure['never_resumed']} never resumed)"
        )
    if args.json is not None:
        args.json.write_text(json.dumps({"root": str(args.root), "figures": figures}, indent=2))
    print(f"logs: {folder}")


if __name__ == "__main__":
    asyncio.run(main())
