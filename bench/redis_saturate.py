"""One redis-server pushed to saturation with the cluster's own traffic (`redis_capacity.py
saturate`; see that module's docstring).

The traffic is that of a **reference table** — a shot every `--pace` seconds, the shooter
aiming (ten previews a second) for `--aim-seconds` of them, spectators on other nodes —
as the command mix `costs` measured per shot, per aim preview and per idle second:

- `renew`: EVALSHA of the lease renewal script (`server.cluster.lease`): renewals per
  idle table-second;
- `save`: EVALSHA of the store's save script with a snapshot and one log entry of the
  measured sizes: saves per shot, over the pace;
- `actions`: PUBLISH on `room:<id>:actions` (a player's request to the owner): per shot
  and per aim preview;
- `node`: PUBLISH on `node:<id>` (the owner's batches to another node): per shot and per
  aim preview.

`redis-benchmark` (C, one request in flight per connection, as the nodes' clients do)
sends each kind on connections of its own, as many as its share of the mix, against a
fresh `redis-server` configured as production (append-only, `appendfsync always`), with
subscribers (`redis-cli`) on the channels reading every message, as the nodes do. Each
kind's rate is counted by Redis (`XADD` for saves, `PEXPIRE` for renewals) and by the
subscribers (messages); the tables carried are the kind that falls shortest, divided by
what a table needs of it. Then again with more connections, until the tables carried
stop growing: that is the saturation. A second pass re-shares the connections so that
every kind keeps pace with the others.

Each save creates a new room (its keys are random over a large keyspace), so the data set
grows during a step; Redis is started afresh for each one.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from server.cluster.lease import _RENEW
from server.store.redis_scripts import SAVE
from tests.redis_server import free_port

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
REDIS_BENCHMARK = shutil.which("redis-benchmark") or "/usr/bin/redis-benchmark"
#: Rooms whose action channels an owner listens to, and lease keys renewed: the keyspace.
ROOMS = 2000
#: Measured by `costs` (60 tables, 4 spectators, two nodes; bench/README.md), used when no
#: `--costs` file is given.
DEFAULT_UNITS: dict[str, float] = {
    "renewals_per_table_s": 0.30,
    "saves_per_shot": 1.0,
    "actions_per_shot": 0.5,
    "actions_per_aim": 0.62,
    "node_publishes_per_shot": 0.25,
    "node_publishes_per_aim": 0.20,
    "snapshot_bytes": 1100.0,
    "entry_bytes": 1200.0,
    "action_bytes": 110.0,
    "node_bytes_shot": 4800.0,
    "node_bytes_aim": 560.0,
}


def units_from(costs: dict[str, Any] | None) -> dict[str, float]:
    """The mix's parameters from a `costs --json` result (else the defaults above)."""
    if costs is None:
        return dict(DEFAULT_UNITS)
    phases, tables = costs["phases"], costs["tables"]

    def rate(phase: str, command: str) -> float:
        top = phases[phase]["by_command_per_s"].get(command, 0.0)
        return float(top - phases[phase]["scripted_per_s"].get(command, 0.0))

    def channel(phase: str, kind: str) -> float:
        return float(phases[phase]["publishes_by_channel_per_s"].get(kind, 0.0))

    shots = phases["shots"]["shots_per_s"]
    aims = phases["aim"]["aims_per_s"]
    sizes = phases["shots"]["publish_payload_bytes"]
    aim_sizes = phases["aim"]["publish_payload_bytes"]
    return {
        "renewals_per_table_s": (rate("idle", "evalsha") - rate("nodes", "evalsha")) / tables,
        "saves_per_shot": (rate("shots", "evalsha") - rate("idle", "evalsha")) / shots,
        "actions_per_shot": channel("shots", "room:<id>:actions") / shots,
        "actions_per_aim": channel("aim", "room:<id>:actions") / aims,
        "node_publishes_per_shot": channel("shots", "node:<id>") / shots,
        "node_publishes_per_aim": channel("aim", "node:<id>") / aims,
        "snapshot_bytes": costs["stored"]["snapshot_bytes"],
        "entry_bytes": costs["stored"]["entry_bytes"],
        "action_bytes": aim_sizes.get("room:<id>:actions", DEFAULT_UNITS["action_bytes"]),
        "node_bytes_shot": sizes.get("node:<id>", DEFAULT_UNITS["node_bytes_shot"]),
        "node_bytes_aim": aim_sizes.get("node:<id>", DEFAULT_UNITS["node_bytes_aim"]),
    }


@dataclass
class Kind:
    name: str
    #: Commands a reference table needs of this kind each second.
    per_table_s: float
    command: list[str]
    keyspace: int


def mix(units: dict[str, float], pace: float, aim_seconds: float) -> list[Kind]:
    shots, aims = 1.0 / pace, 10.0 * aim_seconds / pace
    node_rate = shots * units["node_publishes_per_shot"] + aims * units["node_publishes_per_aim"]
    node_bytes = (
        shots * units["node_publishes_per_shot"] * units["node_bytes_shot"]
        + aims * units["node_publishes_per_aim"] * units["node_bytes_aim"]
    ) / max(node_rate, 1e-9)
    save_keys = [
        f"room:__rand_int__:{k}" for k in ("state", "log", "epoch", "archive", "quarantine")
    ]
    lease_keys = ["room:__rand_int__:lease", "room:__rand_int__:epoch"]
    snapshot, entry = "s" * int(units["snapshot_bytes"]), "e" * int(units["entry_bytes"])
    return [
        Kind(
            "renew",
            units["renewals_per_table_s"],
            ["evalsha", "<renew>", "2", *lease_keys, "1:n1", "10000", "1"],
            ROOMS,
        ),
        Kind(
            "save",
            shots * units["saves_per_shot"],
            ["evalsha", "<save>", "6", *save_keys, "rooms", "r", snapshot, "", "0", "1", entry],
            10**9,  # effectively a new room each time (redis-benchmark: at most 2**31)
        ),
        Kind(
            "actions",
            shots * units["actions_per_shot"] + aims * units["actions_per_aim"],
            ["publish", "room:__rand_int__:actions", "a" * int(units["action_bytes"])],
            ROOMS,
        ),
        Kind("node", node_rate, ["publish", "node:n2", "n" * int(node_bytes)], 1),
    ]


class Redis:
    """A fresh redis-server as production runs it, with `fsync` as its appendfsync."""

    def __init__(self, folder: Path, fsync: str) -> None:
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process = subprocess.Popen(
            [
                *(REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1"),
                *("--dir", str(folder), "--appendonly", "yes", "--appendfsync", fsync),
                *("--save", "", "--logfile", "r.log"),
                *("--client-output-buffer-limit", "pubsub 256mb 64mb 60"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.client = redis.Redis(port=self.port)
        for _ in range(500):
            try:
                self.client.ping()
                break
            except redis.ConnectionError:
                time.sleep(0.02)

    def stop(self) -> None:
        self.client.close()
        self.process.kill()
        self.process.wait()
        shutil.rmtree(self.folder, ignore_errors=True)


class Subscriber:
    """`redis-cli subscribe …` counting the messages it gets (three lines each)."""

    def __init__(self, port: int, channels: list[str]) -> None:
        self.process = subprocess.Popen(
            [REDIS_CLI, "-p", str(port), "subscribe", *channels],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self.lines = 0
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        fd = self.process.stdout.fileno()
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                return
            self.lines += chunk.count(b"\n")

    def messages(self) -> int:
        return self.lines // 3

    def stop(self) -> None:
        self.process.kill()
        self.process.wait()


def _counters(client: redis.Redis) -> dict[str, float]:
    stats = client.info("commandstats")
    cpu = client.info("cpu")
    info = client.info("stats")
    return {
        "at": time.perf_counter(),
        "cpu": float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"]),
        "xadd": float(stats.get("cmdstat_xadd", {}).get("calls", 0)),
        "pexpire": float(stats.get("cmdstat_pexpire", {}).get("calls", 0)),
        "processed": float(info["total_commands_processed"]),
        "net_out": float(info["total_net_output_bytes"]),
    }


def step(
    folder: Path, kinds: list[Kind], connections: dict[str, int], seconds: float, fsync: str
) -> dict[str, Any]:
    """One run: every kind at once, on its share of connections, for `seconds`."""
    server = Redis(folder / "redis", fsync)
    shas = {
        "<renew>": str(server.client.script_load(_RENEW)),
        "<save>": str(server.client.script_load(SAVE)),
    }
    pipe = server.client.pipeline(transaction=False)
    for n in range(ROOMS):
        pipe.set(f"room:{n:012d}:lease", "1:n1")
        pipe.set(f"room:{n:012d}:epoch", "1")
    pipe.execute()
    actions = Subscriber(server.port, [f"room:{n:012d}:actions" for n in range(ROOMS)])
    node = Subscriber(server.port, ["node:n2"])
    time.sleep(0.3)
    benchmarks = []
    for kind in kinds:
        command = [shas.get(part, part) for part in kind.command]
        benchmarks.append(
            subprocess.Popen(
                [
                    *(REDIS_BENCHMARK, "-p", str(server.port), "-c", str(connections[kind.name])),
                    *("-n", "2000000000", "-r", str(kind.keyspace), "-P", "1", "-q", *command),
                ],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        )
    try:
        time.sleep(1.5)  # every connection open and busy
        before = _counters(server.client)
        got0 = {"actions": actions.messages(), "node": node.messages()}
        time.sleep(seconds)
        after = _counters(server.client)
        got1 = {"actions": actions.messages(), "node": node.messages()}
    finally:
        for process in benchmarks:
            process.send_signal(signal.SIGKILL)
            process.wait()
        actions.stop()
        node.stop()
        used = server.client.info("memory")["used_memory"]
        server.stop()
    wall = after["at"] - before["at"]
    rates = {
        "save": (after["xadd"] - before["xadd"]) / wall,
        "renew": (after["pexpire"] - before["pexpire"]) / wall,
        "actions": (got1["actions"] - got0["actions"]) / wall,
        "node": (got1["node"] - got0["node"]) / wall,
    }
    tables = {k.name: rates[k.name] / k.per_table_s for k in kinds}
    return {
        "fsync": fsync,
        "connections": dict(connections),
        "rates_per_s": rates,
        "tables_by_kind": tables,
        "tables": min(tables.values()),
        "redis_cpu_pct": 100 * (after["cpu"] - before["cpu"]) / wall,
        "commands_per_s": (after["processed"] - before["processed"]) / wall,
        "net_out_mb_per_s": (after["net_out"] - before["net_out"]) / wall / 1e6,
        "used_memory_mb_at_end": used / 1e6,
    }


def shares(wanted: dict[str, float], total: int) -> dict[str, int]:
    """`total` connections shared in proportion to `wanted`, at least one each."""
    scale = total / sum(wanted.values())
    return {name: max(1, round(value * scale)) for name, value in wanted.items()}


def saturate(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    costs = json.loads(args.costs.read_text()) if args.costs else None
    units = units_from(costs)
    kinds = mix(units, args.pace, args.aim_seconds)
    steps = []
    for fsync in args.fsync:
        for total in args.connections:
            wanted = {k.name: k.per_table_s for k in kinds}
            first = step(folder, kinds, shares(wanted, total), args.seconds, fsync)
            # Re-shared: a kind that fell short of the others gets more connections.
            mean = sum(first["tables_by_kind"].values()) / len(kinds)
            again = {
                name: count * mean / max(first["tables_by_kind"][name], 1e-9)
                for name, count in first["connections"].items()
            }
            second = step(folder, kinds, shares(again, total), args.seconds, fsync)
            best = max((first, second), key=lambda r: r["tables"])
            steps.append(best)
            print(
                f"  fsync {fsync:8s} {total:4d} connections: {best['tables']:8.0f} tables, "
                f"redis cpu {best['redis_cpu_pct']:5.1f} %, {best['commands_per_s']:8.0f} cmd/s",
                flush=True,
                file=sys.stderr,
            )
    return {
        "pace_s": args.pace,
        "aim_seconds": args.aim_seconds,
        "units": units,
        "per_table_s": {k.name: k.per_table_s for k in kinds},
        "steps": steps,
        "cpu_count": os.cpu_count(),
        "load_average_after": os.getloadavg(),
    }


def show_saturation(result: dict[str, Any]) -> None:
    print(
        f"reference table: a shot every {result['pace_s']} s, aiming "
        f"{result['aim_seconds']} s of it; per table and second: "
        + ", ".join(f"{k} {v:.3f}" for k, v in result["per_table_s"].items())
    )
    for s in result["steps"]:
        rates = ", ".join(f"{k} {v:,.0f}/s" for k, v in s["rates_per_s"].items())
        print(
            f"fsync {s['fsync']:8s} {sum(s['connections'].values()):4d} conns: "
            f"{s['tables']:8,.0f} tables  redis cpu {s['redis_cpu_pct']:5.1f} %  "
            f"{s['commands_per_s']:8,.0f} cmd/s  out {s['net_out_mb_per_s']:.0f} MB/s  ({rates})"
        )
