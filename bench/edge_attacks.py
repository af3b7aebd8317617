"""A running match under hostile outsiders: header floods, slowloris, room floods.

Starts `python -m server` from a source tree (`--root`, this one by default: point it at a
`git worktree` of an older commit to measure that one) under a soft limit of 1,024 file
descriptors, seats two players in a match, and while they keep asking their room for its
snapshot (`resync`, which goes through the room's inbox, ten times a second) runs, one
after the other:

- **header flood**: sockets from 20 loopback addresses that send header lines of 8 KB, up
  to 1 MB each, as fast as the server reads them, and never finish their request;
- **slowloris**: sockets from 40 addresses that send one header byte a second;
- **room flood**: 49 addresses, 30 workers each, each connecting, creating a room and
  hanging up, again and again: a seat whose player dropped is kept for the grace period
  (60 s), so the rooms pile up as fast as the addresses may connect.

For each phase it prints the match's resync round trip (p50, p95, max, failures), how
many `/healthz` probes (one a second) were answered, the server's resident memory at its
peak and ten seconds after the phase, and (room flood) how many rooms were made.
Traffic stays on loopback; every phase is bounded in time and stops by itself.

    .venv/bin/python bench/edge_attacks.py                          # this tree
    git worktree add /tmp/before <commit>
    .venv/bin/python bench/edge_attacks.py --root /tmp/before       # an older one
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

ROOT = Path(__file__).resolve().parents[1]
READY = re.compile(r"ready: open http://[^:/]+:(\d+)/")


@dataclass
class Phase:
    name: str
    rtts_ms: list[float] = field(default_factory=list)
    failures: int = 0
    health_ok: int = 0
    health_asked: int = 0
    rss_peak_mb: float = 0.0
    rss_after_mb: float = 0.0
    attack_sockets: int = 0
    rooms_made: int = 0
    #: The server's CPU time (user + system) during the phase, in seconds.
    cpu_s: float = 0.0
    #: The server's own event-loop lag during the phase (`ninepool_event_loop_lag_seconds`,
    #: a timer every 0.25 s): the bucket bounds holding 95 % and all of the observations.
    loop_lag_p95_ms: float | None = None
    loop_lag_max_ms: float | None = None

    def summary(self) -> dict[str, Any]:
        rtts = sorted(self.rtts_ms)
        pick = (lambda q: rtts[min(len(rtts) - 1, int(q * len(rtts)))]) if rtts else None
        return {
            "phase": self.name,
            "resync p50 ms": round(statistics.median(rtts), 1) if rtts else None,
            "resync p95 ms": round(pick(0.95), 1) if pick else None,
            "resync max ms": round(rtts[-1], 1) if rtts else None,
            "resync failed": self.failures,
            "healthz": f"{self.health_ok}/{self.health_asked}",
            "rss peak MB": round(self.rss_peak_mb),
            "rss after MB": round(self.rss_after_mb),
            "attack sockets": self.attack_sockets,
            "rooms made": self.rooms_made,
            "server cpu s": round(self.cpu_s, 1),
            "loop lag p95 ms (bucket)": self.loop_lag_p95_ms,
            "loop lag max ms (bucket)": self.loop_lag_max_ms,
            # What one attacking connection costs the server, whatever else the machine
            # runs (the latency columns move with the machine's load; this one much less).
            "cpu ms per attack socket": (
                round(1000 * self.cpu_s / self.attack_sockets, 2) if self.attack_sockets else None
            ),
        }


def rss_mb(pid: int) -> float:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def cpu_seconds(pid: int) -> float:
    """The process's user + system CPU time so far (`/proc/<pid>/stat`)."""
    with contextlib.suppress(OSError, IndexError, ValueError):
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return 0.0


def start_server(root: Path, args: list[str], log_dir: Path) -> tuple[subprocess.Popen[bytes], int]:
    def limit() -> None:
        _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        resource.setrlimit(resource.RLIMIT_NOFILE, (1024, hard))

    out = (log_dir / "server.out").open("wb")
    err = (log_dir / "server.err").open("wb")
    command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", "0"]
    proc = subprocess.Popen(
        [*command, "--store", "memory://", "--workers", "1", *args],
        cwd=root,
        stdout=out,
        stderr=err,
        stdin=subprocess.DEVNULL,
        preexec_fn=limit,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        match = READY.search((log_dir / "server.out").read_text(errors="replace"))
        if match:
            return proc, int(match.group(1))
        if proc.poll() is not None:
            raise SystemExit((log_dir / "server.err").read_text())
        time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.next_id = 1
        self.waiting: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self.reader = asyncio.get_running_loop().create_task(self._read())

    async def _read(self) -> None:
        with contextlib.suppress(Exception):
            async for frame in self.ws:
                message = msgpack.unpackb(frame)
                future = self.waiting.pop(message.get("id"), None) if "id" in message else None
                if future is not None and not future.done():
                    future.set_result(message)

    async def request(self, message: dict[str, Any], timeout: float = 5.0) -> dict[str, Any]:
        self.next_id += 1
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.waiting[self.next_id] = future
        await self.ws.send(msgpack.packb({**message, "id": self.next_id}))
        return await asyncio.wait_for(future, timeout)


async def player(port: int, name: str, source: str) -> Player:
    ws = await connect(
        f"ws://127.0.0.1:{port}/ws",
        origin=Origin(f"http://127.0.0.1:{port}"),
        compression=None,
        max_size=2**22,
        open_timeout=30,
        local_addr=(source, 0),
    )
    peer = Player(ws)
    await peer.request({"t": "hello", "v": 1, "name": name})
    return peer


async def probe(port: int, source: str, phase: Phase, stop: asyncio.Event) -> None:
    """One `/healthz` a second."""
    while not stop.is_set():
        phase.health_asked += 1
        with contextlib.suppress(Exception):
            reader, writer = await asyncio.wait_for(
                asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0)), 2
            )
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            head = await asyncio.wait_for(reader.read(64), 2)
            writer.close()
            if head.startswith(b"HTTP/1.1 200"):
                phase.health_ok += 1
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(stop.wait(), 1.0)


#: `--metrics-token` given to the server, so the bench may read its `/metrics`.
METRICS_TOKEN = "edge-attacks-bench"
_BUCKET = re.compile(r'^ninepool_event_loop_lag_seconds_bucket\{le="([^"]+)"\} (\S+)$', re.M)


async def loop_lag_buckets(port: int) -> dict[float, float]:
    """The server's cumulative event-loop lag histogram: upper bound -> count."""
    with contextlib.suppress(Exception):
        reader, writer = await asyncio.wait_for(
            asyncio.open_connection("127.0.0.1", port, local_addr=("127.0.9.2", 0)), 5
        )
        writer.write(
            b"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
            + f"Authorization: Bearer {METRICS_TOKEN}\r\n\r\n".encode()
        )
        body = (await asyncio.wait_for(reader.read(), 5)).decode(errors="replace")
        writer.close()
        return {float(le): float(n) for le, n in _BUCKET.findall(body)}
    return {}


def lag_bounds(before: dict[float, float], after: dict[float, float]) -> tuple[float, float]:
    """The bucket bounds (ms) below which 95 % and all of the phase's observations fall."""
    counts = sorted((le, after[le] - before.get(le, 0.0)) for le in after)
    total = counts[-1][1] if counts else 0.0
    p95 = next((le for le, n in counts if n >= 0.95 * total), math.inf)
    top = next((le for le, n in counts if n >= total), math.inf)
    return p95 * 1000, top * 1000


async def measure(pid: int, port: int, match: Player, phase: Phase, seconds: float) -> None:
    """The match and the probes here; the attack (if any) in a process of its own, so
    that its work is not taken for the server's slowness."""
    stop = asyncio.Event()
    attacker = None
    out = Path(tempfile.mkstemp(suffix=".json")[1])
    if phase.name in ATTACKS:
        attacker = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--attack", phase.name, "--port", str(port),
            "--seconds", str(seconds), "--json", str(out),
        )  # fmt: skip
    prober = asyncio.get_running_loop().create_task(probe(port, "127.0.9.1", phase, stop))
    cpu_before = cpu_seconds(pid)
    lag_before = await loop_lag_buckets(port)
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        started = time.perf_counter()
        try:
            await match.request({"t": "resync"}, timeout=5.0)
            phase.rtts_ms.append((time.perf_counter() - started) * 1000)
        except (TimeoutError, Exception):
            phase.failures += 1
        phase.rss_peak_mb = max(phase.rss_peak_mb, rss_mb(pid))
        await asyncio.sleep(0.1)
    stop.set()
    phase.cpu_s = cpu_seconds(pid) - cpu_before
    lag_after = await loop_lag_buckets(port)
    if lag_after:
        phase.loop_lag_p95_ms, phase.loop_lag_max_ms = lag_bounds(lag_before, lag_after)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(prober, 30)
    if attacker is not None:
        await attacker.wait()
        counts = json.loads(out.read_text() or "{}")
        phase.attack_sockets = counts.get("attack_sockets", 0)
        phase.rooms_made = counts.get("rooms_made", 0)
    out.unlink(missing_ok=True)
    await asyncio.sleep(10)
    phase.rss_after_mb = rss_mb(pid)


def header_flood(
    port: int, phase: Phase, sockets: int = 600
) -> Callable[[asyncio.Event], Coroutine[Any, Any, None]]:
    async def one(index: int, stop: asyncio.Event) -> None:
        source = f"127.0.1.{index % 20 + 1}"
        with contextlib.suppress(Exception):
            _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
            phase.attack_sockets += 1
            writer.write(
                f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n".encode()
            )
            line = b"X-Pad-%d: " + b"a" * 8000 + b"\r\n"
            for n in range(125):  # 1 MB, never finished
                if stop.is_set():
                    break
                writer.write(line % n)
                await writer.drain()
            await stop.wait()
            writer.close()

    async def run(stop: asyncio.Event) -> None:
        await asyncio.gather(*(one(i, stop) for i in range(sockets)))

    return run


def slowloris(
    port: int, phase: Phase, sockets: int = 1000
) -> Callable[[asyncio.Event], Coroutine[Any, Any, None]]:
    async def one(index: int, stop: asyncio.Event) -> None:
        source = f"127.0.2.{index % 40 + 1}"
        while not stop.is_set():
            with contextlib.suppress(Exception):
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", port, local_addr=(source, 0)
                )
                phase.attack_sockets += 1
                writer.write(b"GET /ws HTTP/1.1\r\n")
                while not stop.is_set() and not reader.at_eof():
                    writer.write(b"X")
                    await writer.drain()
                    with contextlib.suppress(asyncio.TimeoutError):
                        await asyncio.wait_for(stop.wait(), 1.0)
                writer.close()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)

    async def run(stop: asyncio.Event) -> None:
        await asyncio.gather(*(one(i, stop) for i in range(sockets)))

    return run


def room_flood(
    port: int, phase: Phase, addresses: int = 49, per_address: int = 30
) -> Callable[[asyncio.Event], Coroutine[Any, Any, None]]:
    async def one(index: int, stop: asyncio.Event) -> None:
        source = f"127.0.3.{index % addresses + 1}"
        while not stop.is_set():
            try:
                bot = await player(port, f"bot{index}", source)
            except Exception:
                await asyncio.sleep(0.5)  # refused (429): wait a little
                continue
            phase.attack_sockets += 1
            with contextlib.suppress(Exception):
                reply = await bot.request({"t": "create"}, timeout=10)
                if reply.get("t") == "joined":
                    phase.rooms_made += 1
            await bot.ws.close()  # the seat is kept for the grace period: the room stays
            bot.reader.cancel()

    async def run(stop: asyncio.Event) -> None:
        await asyncio.gather(*(one(i, stop) for i in range(addresses * per_address)))

    return run


ATTACKS: dict[str, Callable[[int, Phase], Callable[[asyncio.Event], Coroutine[Any, Any, None]]]] = {
    "header flood": header_flood,
    "slowloris": slowloris,
    "room flood": room_flood,
}


async def attack(name: str, port: int, seconds: float, out: Path) -> None:
    """`--attack`: run one attack for `seconds` (in its own process), then say how much."""
    phase = Phase(name)
    stop = asyncio.Event()
    task = asyncio.get_running_loop().create_task(ATTACKS[name](port, phase)(stop))
    await asyncio.sleep(seconds)
    stop.set()
    with contextlib.suppress(Exception):
        await asyncio.wait_for(task, 30)
    out.write_text(
        json.dumps(
            phase.summary()
            | {"attack_sockets": phase.attack_sockets, "rooms_made": phase.rooms_made}
        )
    )


async def bench(root: Path, args: argparse.Namespace, log_dir: Path) -> list[Phase]:
    proc, port = start_server(root, args.server_args.split(), log_dir)
    try:
        ana = await player(port, "Ana", "127.0.8.1")
        ben = await player(port, "Ben", "127.0.8.2")
        created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
        await ben.request({"t": "join", "room": created["room"]})
        await ana.request({"t": "ready"})
        await ben.request({"t": "ready"})
        phases = []
        for name in ("quiet", *(args.phases or ATTACKS)):
            phase = Phase(name)
            await measure(proc.pid, port, ana, phase, args.seconds)
            phases.append(phase)
            print(json.dumps(phase.summary()), flush=True)
        return phases
    finally:
        proc.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(30)
        if proc.poll() is None:
            proc.kill()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="source tree of the server")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument(
        "--server-args",
        default=f"--trusted-proxies 127.0.0.1 --log-level WARNING --metrics-token {METRICS_TOKEN}",
        help="extra flags for python -m server",
    )
    parser.add_argument("--json", type=Path, help="write the figures to this file")
    parser.add_argument(
        "--phases",
        type=lambda text: [name.strip() for name in text.split(",") if name.strip()],
        help="the attacks to run after the quiet phase, comma-separated (default: all)",
    )
    parser.add_argument("--attack", choices=list(ATTACKS), help=argparse.SUPPRESS)
    parser.add_argument("--port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    if args.attack:
        asyncio.run(attack(args.attack, args.port, args.seconds, args.json))
        return 0
    with tempfile.TemporaryDirectory(prefix="edge-attacks-") as folder:
        phases = asyncio.run(bench(args.root.resolve(), args, Path(folder)))
        log = (Path(folder) / "server.err").read_text(errors="replace")
    summaries = [phase.summary() for phase in phases]
    print(f"server at {args.root}: log {len(log.splitlines())} lines, {len(log) / 1e6:.1f} MB")
    for summary in summaries:
        print("  " + ", ".join(f"{k}: {v}" for k, v in summary.items()))
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {"root": str(args.root), "phases": summaries, "log_bytes": len(log)}, indent=2
            )
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
