"""What counting a rack and reading the leaderboard cost with 100,000 players.

    .venv/bin/python bench/ratings_bench.py [--players 100000] [--racks 2000] [--reads 2000]

For each store — SQLite (a real file, `synchronous=FULL`, as a lone node runs it) and
Redis (a redis-server of its own on loopback, `appendfsync always`, as the tests and the
deployment run it) — the bench:

1. fills the store with `--players` accounts, ratings spread like a club population
   (normal, mean 500, sd 120), racks 0-600 (most of them established), and a monthly
   board for a third of them, written straight into the store's tables / keys;
2. counts `--racks` racks between random players one after another (each `apply_rack`
   is a whole transaction: both ratings, statistics, history, boards, the mark), then
   the same with 8 in flight (several rooms finishing at once);
3. reads the all-time leaderboard (50 rows), the monthly one and a profile `--reads`
   times each.

It prints medians, p95 and p99 in milliseconds and racks per second. Figures of one run
are in bench/README.md ("Ratings"). Speed is measured here only, never in the tests.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from server.players import names  # noqa: E402
from server.players.ratings import START  # noqa: E402
from server.players.redis import RedisPlayerStore  # noqa: E402
from server.players.results import RackRecord, RackResult, month_of  # noqa: E402
from server.players.sqlite import SqlitePlayerStore  # noqa: E402
from server.players.store import PlayerStore  # noqa: E402
from server.store.redis import connect  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

NOW = int(time.time() * 1000)
MONTH = month_of(NOW)


def population(count: int, seed: int = 7) -> list[tuple[str, str, float, int]]:
    """(player, name, rating, racks) for `count` players."""
    rng = random.Random(seed)
    people = []
    for index in range(count):
        rating = min(1150.0, max(50.0, rng.gauss(START, 120)))
        people.append((f"p_{index:016x}", f"Player{index}", rating, rng.randrange(0, 600)))
    return people


def fill_sqlite(path: Path, people: list[tuple[str, str, float, int]]) -> None:
    db = sqlite3.connect(path)
    with db:
        db.executemany(
            "INSERT INTO accounts (player, name, folded, skeleton, hash, generation, created)"
            " VALUES (?, ?, ?, ?, 'x', 0, 1)",
            ((p, n, names.fold(n), names.skeleton(n) + p) for p, n, _, _ in people),
        )
        db.executemany(
            "INSERT INTO ratings (player, rating, racks, won, lost) VALUES (?, ?, ?, ?, ?)",
            ((p, r, k, k // 2, k - k // 2) for p, _, r, k in people),
        )
        db.executemany(
            "INSERT INTO monthly (month, player, rating, racks, established)"
            " VALUES (?, ?, ?, ?, ?)",
            ((MONTH, p, r, 10, int(k >= 30)) for p, _, r, k in people[::3]),
        )
    db.close()


async def fill_redis(store: RedisPlayerStore, people: list[tuple[str, str, float, int]]) -> None:
    client = store.client
    for start in range(0, len(people), 2000):
        async with client.pipeline(transaction=False) as pipe:
            for index, (p, n, r, k) in enumerate(people[start : start + 2000], start):
                pipe.hset(
                    store.key("a", p), mapping={"name": n, "hash": "x", "gen": 0, "created": 1}
                )
                pipe.set(store.key("fold", names.fold(n)), p)
                pipe.hset(store.key("names"), p, n)
                pipe.hset(store.key("racks"), p, k)
                pipe.hset(
                    store.key("r", p),
                    mapping={"rating": repr(r), "racks": k, "won": k // 2, "lost": k - k // 2},
                )
                if k >= 30:
                    pipe.zadd(store.key("board"), {p: r})
                    if index % 3 == 0:
                        pipe.zadd(store.key("board", MONTH), {p: r})
                if index % 3 == 0:
                    pipe.hset(store.key("racks", MONTH), p, 10)
            await pipe.execute()


def percentiles(samples: list[float]) -> str:
    ordered = sorted(samples)

    def at(q: float) -> float:
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]

    return f"p50 {statistics.median(ordered):6.2f}  p95 {at(0.95):6.2f}  p99 {at(0.99):6.2f} ms"


async def timed(count: int, call: Callable[[int], Awaitable[Any]]) -> list[float]:
    samples = []
    for index in range(count):
        start = time.perf_counter()
        await call(index)
        samples.append((time.perf_counter() - start) * 1000)
    return samples


def racks_between(
    people: list[tuple[str, str, float, int]], count: int, tag: str
) -> list[RackRecord]:
    rng = random.Random(tag)
    out = []
    for index in range(count):
        a, b = rng.sample(people, 2)
        result = RackResult(f"bench-{tag}", 1, index, a[0], b[0], True, a[0], fouls={b[0]: 1})
        out.append(RackRecord(result, NOW))
    return out


async def measure(name: str, store: PlayerStore, people: list[Any], racks: int, reads: int) -> None:
    one = racks_between(people, racks, name + "-serial")
    samples = await timed(racks, lambda i: store.apply_rack(one[i]))
    print(f"{name:7} apply_rack, one at a time      {percentiles(samples)}")

    many = racks_between(people, racks, name + "-parallel")
    queue = iter(many)
    latencies: list[float] = []

    async def worker() -> None:
        for rack in queue:
            start = time.perf_counter()
            await store.apply_rack(rack)
            latencies.append((time.perf_counter() - start) * 1000)

    start = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(8)))
    elapsed = time.perf_counter() - start
    print(
        f"{name:7} apply_rack, 8 in flight        {percentiles(latencies)}"
        f"  {racks / elapsed:7.0f} racks/s"
    )
    board = await timed(reads, lambda i: store.leaderboard(50))
    print(f"{name:7} leaderboard(50)                {percentiles(board)}")
    month = await timed(reads, lambda i: store.leaderboard(50, MONTH))
    print(f"{name:7} leaderboard(50, month)         {percentiles(month)}")
    players = [p for p, _, _, _ in people]
    profile = await timed(reads, lambda i: store.profile(players[(i * 7919) % len(players)]))
    print(f"{name:7} profile                        {percentiles(profile)}")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--racks", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=2000)
    args = parser.parse_args()
    people = population(args.players)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "players.db"
        await SqlitePlayerStore(path).close()  # makes the schema
        started = time.perf_counter()
        fill_sqlite(path, people)
        print(f"sqlite: {len(people)} players written in {time.perf_counter() - started:.1f} s")
        sqlite_store = SqlitePlayerStore(path)
        try:
            await measure("sqlite", sqlite_store, people, args.racks, args.reads)
        finally:
            await sqlite_store.close()

        server = RedisServer(Path(folder) / "redis")
        server.start()
        redis_store = RedisPlayerStore(connect(server.url))
        try:
            started = time.perf_counter()
            await fill_redis(redis_store, people)
            print(f"redis: {len(people)} players written in {time.perf_counter() - started:.1f} s")
            await measure("redis", redis_store, people, args.racks, args.reads)
        finally:
            await redis_store.close()
            server.stop()


if __name__ == "__main__":
    asyncio.run(main())
