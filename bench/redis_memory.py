"""What a finished room costs Redis: bytes per room, per shot, and per day of matches.

    .venv/bin/python bench/redis_memory.py                       # 24 matches, race to 3
    .venv/bin/python bench/redis_memory.py --matches 40 --race-to 5 --json

A real `redis-server` (append-only, as production runs it) and one `python -m server`
node on it (`--redis-url`). Bots play whole matches on that node — two players and
`--spectators` watchers per table, `--concurrent` tables at a time, every shot straight at
the lowest ball — then everybody leaves, so each room closes as a real one does (and is
retired: kept for its replay). Once every room has closed, every key in Redis is read
with `MEMORY USAGE key SAMPLES 0` and grouped by what it is:

- the keys of each room (`room:<id>:*` in every layout the store has had), summed per
  room, and fitted against the room's shots (least squares): bytes per shot (the slope)
  and a finished room's fixed cost (the intercept);
- the global keys (the `rooms` set, the archive index, the directory's hashes), whose
  share per finished room is their growth divided by the rooms played;
- `used_memory` from `INFO memory` before and after (allocator overhead included).

Then the projection the capacity model uses: bytes per day at `--per-day` matches
(50,000) of this bench's length, and of `--shots-per-match` shots. Nothing asserts a size.
Never pointed at anything but its own loopback Redis.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import re
import statistics
import sys
import tempfile
import time
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
    *("--rate", "0", "--chat-rate", "0", "--log-level", "WARNING"),
    *("--secret", "redis-memory-bench"),
]
#: A room's keys in any layout: `room:<id>:kind` and `room:{<id>}:kind` (or bucketed).
_ROOM_KEY = re.compile(r"room:(?:\{[^}]*\}:)?\{?(?P<room>[^:{}]+)\}?:(?P<kind>[a-z]+)")


@dataclass
class Played:
    room: str
    shots: int = 0
    events: int = 0


@dataclass
class Census:
    used_memory: int
    keys: int
    per_room: dict[str, dict[str, int]] = field(default_factory=dict)
    global_keys: dict[str, int] = field(default_factory=dict)


def census(url: str) -> Census:
    """Every key of the database with its `MEMORY USAGE` (exact: `SAMPLES 0`)."""
    client = redis.Redis.from_url(url)
    try:
        info = client.info("memory")
        found = Census(used_memory=int(info["used_memory"]), keys=int(client.dbsize()))
        for raw in client.scan_iter(count=1000):
            key = raw.decode()
            size = int(client.memory_usage(key, samples=0) or 0)
            match = _ROOM_KEY.fullmatch(key)
            if match:
                kinds = found.per_room.setdefault(match["room"], {})
                kinds[match["kind"]] = kinds.get(match["kind"], 0) + size
            else:
                found.global_keys[key] = size
        return found
    finally:
        client.close()


async def after_draw(players: list[Client], draw: m.LagResult) -> None:
    if draw.table is not None or draw.winner is None:
        return
    await players[draw.winner].send({"t": "lag_choice", "choice": "break"})
    await players[0].wait_for(m.Ruling)


async def play_match(node: Node, index: int, race_to: int, spectators: int) -> Played:
    """One whole match on `node`, then everybody leaves (the room closes and retires)."""
    ana = await botclient_open(node.ws_url, f"Ana{index}")
    ben = await botclient_open(node.ws_url, f"Ben{index}")
    watchers: list[Client] = []
    try:
        settings = {"race_to": race_to, "first_break": "draw", "name": f"bench {index}"}
        await ana.send({"t": "create", "settings": settings})
        joined = await ana.wait_for(m.Joined)
        played = Played(joined.room)
        await ben.send({"t": "join", "room": joined.room})
        await ben.wait_for(m.Joined)
        for number in range(spectators):
            watcher = await botclient_open(node.ws_url, f"W{index}.{number}")
            await watcher.send({"t": "join", "room": joined.room, "role": "spectator"})
            await watcher.wait_for(m.Joined)
            watchers.append(watcher)
        await ana.send({"t": "ready"})
        await ben.send({"t": "ready"})
        await after_draw([ana, ben], await ana.wait_for(m.LagResult))
        players = [ana, ben]
        while True:
            table = ana.table
            assert table is not None
            if table.match_over:
                break
            assert table.turn is not None
            if table.choice_pending:
                await players[table.turn].send({"t": "choose", "choice": "shoot"})
                await ana.wait_for(m.Ruling)
                continue
            angle, speed = aim(table)
            shooter = players[table.turn]
            await shooter.send({"t": "shot", "angle": angle, "speed": speed})
            reply = await shooter.wait_for((m.Ok, m.Error))
            if isinstance(reply, m.Error):
                raise SystemExit(f"match {index}: shot refused: {reply.code}: {reply.msg}")
            result = await ana.wait_for(m.ShotResult)
            played.shots += 1
            played.events = result.seq
            ana.pending = [p for p in ana.pending if not isinstance(p, m.ShotResult)]
        for client in [*watchers, ben, ana]:
            await client.send({"t": "leave"})
            await client.wait_for((m.Ok, m.Error))
        return played
    finally:
        for client in [ana, ben, *watchers]:
            with contextlib.suppress(Exception):
                await client.close()


def fit(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Least squares y = a + b·x: (a, b)."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    b = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - b * mx, b


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    server = RedisServer(folder / "redis")
    server.start()
    node_args = [*LIFTED, "--workers", str(args.workers), "--grace", "1"]
    node_args += ["--store", server.url, "--redis-url", server.url, "--seed", str(args.seed)]
    node = Node("n1", folder / "node", node_args)
    try:
        node.start()
        await asyncio.sleep(1.0)  # the node's own keys (directory, heartbeats) settle
        before = await asyncio.to_thread(census, server.url)
        started = time.perf_counter()
        gate = asyncio.Semaphore(args.concurrent)

        async def one(index: int) -> Played:
            async with gate:
                return await play_match(node, index, args.race_to, args.spectators)

        matches = await asyncio.gather(*(one(i) for i in range(args.matches)))
        elapsed = time.perf_counter() - started
        await asyncio.sleep(2.0)  # the last rooms close and retire
        after = await asyncio.to_thread(census, server.url)
        trouble = node.trouble()
    finally:
        node.kill()
        server.kill()
    return report(args, matches, before, after, elapsed, trouble)


def report(
    args: argparse.Namespace,
    matches: list[Played],
    before: Census,
    after: Census,
    elapsed: float,
    trouble: list[str],
) -> dict[str, Any]:
    played = {p.room: p for p in matches}
    rooms = [
        (played[room].shots, sum(kinds.values()))
        for room, kinds in after.per_room.items()
        if room in played
    ]
    by_kind: dict[str, int] = {}
    for room, kinds in after.per_room.items():
        if room in played:
            for kind, size in kinds.items():
                by_kind[kind] = by_kind.get(kind, 0) + size
    leftover_rooms = [r for r in after.per_room if r not in played and r not in before.per_room]
    fixed, per_shot = (0.0, 0.0)
    if len(rooms) > 1:
        fixed, per_shot = fit([(float(shots), float(size)) for shots, size in rooms])
    global_growth = sum(after.global_keys.values()) - sum(before.global_keys.values())
    n = len(matches)
    shots = [p.shots for p in matches]
    room_bytes = sum(b for _, b in rooms)
    per_room_all = (room_bytes + global_growth) / n
    mean_shots = statistics.fmean(shots)
    used_growth = after.used_memory - before.used_memory
    return {
        "matches": n,
        "race_to": args.race_to,
        "spectators_per_table": args.spectators,
        "seconds": elapsed,
        "shots_per_match": {
            "mean": mean_shots,
            "median": statistics.median(shots),
            "min": min(shots),
            "max": max(shots),
        },
        "rooms_with_keys_left": len(rooms),
        "room_keys_bytes_by_kind": {k: v / n for k, v in sorted(by_kind.items())},
        "room_keys_bytes_per_room_mean": room_bytes / n,
        "global_keys_growth_bytes_per_room": global_growth / n,
        "bytes_per_finished_room": per_room_all,
        "fit_bytes_per_shot": per_shot,
        "fit_bytes_per_room_fixed": fixed,
        "used_memory_growth_per_room": used_growth / n,
        "keys_before": before.keys,
        "keys_after": after.keys,
        "keys_per_finished_room": (after.keys - before.keys) / n,
        "global_keys_after": after.global_keys,
        "other_rooms_left": len(leftover_rooms),
        "per_day": {
            "matches": args.per_day,
            "at_this_bench_length_bytes": per_room_all * args.per_day,
            "shots_per_match_assumed": args.shots_per_match,
            "at_assumed_length_bytes": (
                (fixed + per_shot * args.shots_per_match + global_growth / n) * args.per_day
                if rooms
                else global_growth / n * args.per_day
            ),
            "used_memory_at_this_bench_length_bytes": used_growth / n * args.per_day,
        },
        "server_trouble": trouble[:5],
    }


def show(result: dict[str, Any]) -> None:
    def kb(x: float) -> str:
        return f"{x / 1024:,.1f} KB"

    def gb(x: float) -> str:
        return f"{x / 1024**3:,.2f} GB"

    s = result["shots_per_match"]
    print(
        f"{result['matches']} matches (race to {result['race_to']}, "
        f"{result['spectators_per_table']} spectator(s) each) in {result['seconds']:.0f} s; "
        f"shots per match: mean {s['mean']:.1f}, median {s['median']}, {s['min']}-{s['max']}"
    )
    print(f"  rooms with keys left after closing: {result['rooms_with_keys_left']}")
    for kind, size in result["room_keys_bytes_by_kind"].items():
        print(f"    room:<id>:{kind:8s} {kb(size)} per room")
    print(f"  global keys' growth: {kb(result['global_keys_growth_bytes_per_room'])} per room")
    print(f"  per finished room: {kb(result['bytes_per_finished_room'])} (MEMORY USAGE)")
    print(
        f"    fit: {result['fit_bytes_per_shot']:,.0f} B per shot"
        f" + {kb(result['fit_bytes_per_room_fixed'])} per room"
    )
    print(f"    used_memory growth: {kb(result['used_memory_growth_per_room'])} per room")
    print(f"    keys: {result['keys_per_finished_room']:.2f} per room")
    day = result["per_day"]
    print(
        f"  per day at {day['matches']:,} matches: {gb(day['at_this_bench_length_bytes'])} "
        f"(this bench's length), {gb(day['at_assumed_length_bytes'])} "
        f"(at {day['shots_per_match_assumed']} shots a match), used_memory "
        f"{gb(day['used_memory_at_this_bench_length_bytes'])}"
    )
    if result["server_trouble"]:
        print("  server log trouble:", *result["server_trouble"], sep="\n    ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--matches", type=int, default=24)
    parser.add_argument("--race-to", type=int, default=3)
    parser.add_argument("--spectators", type=int, default=1, help="per table")
    parser.add_argument("--concurrent", type=int, default=8, help="tables at a time")
    parser.add_argument("--workers", type=int, default=1, help="the node's physics workers")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--per-day", type=int, default=50_000, help="matches a day")
    parser.add_argument("--shots-per-match", type=int, default=90, help="for the projection")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="redis-memory-") as folder:
        result = asyncio.run(run(args, Path(folder)))
    print(json.dumps(result, indent=2)) if args.json else show(result)
    return 1 if result["server_trouble"] else 0


if __name__ == "__main__":
    sys.exit(main())
