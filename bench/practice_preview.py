"""Practice previews off the event loop: a player previews breaks as fast as the server
answers while another client pings; the ping's round trip is compared with the same
pings on a quiet server, in one run.

A preview simulates a whole shot (a break: the slowest there is) in the physics pool. If
it ran on the event loop, every other client would wait for it; in the pool the loop only
sends and receives. Prints one JSON object: preview latency and ping round trips (quiet
and under the previews), p50/p95/p99 in ms, and the ratio of the loaded to the quiet
ping's p50 and p99.

    PYTHONPATH=. .venv/bin/python bench/practice_preview.py --pings 300 --workers 2
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import statistics
import time
from typing import Any

from protocol import messages as m
from protocol import practice as pm
from server.app import GameServer
from server.edge.limits import Limits
from server.ops.config import Config
from tests.server.support import Peer


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    cuts = statistics.quantiles(ordered, n=100, method="inclusive")
    return {
        "p50": round(statistics.median(ordered), 2),
        "p95": round(cuts[94], 2),
        "p99": round(cuts[98], 2),
        "n": len(ordered),
    }


async def pings(peer: Peer, count: int, gap: float) -> list[float]:
    out = []
    for _ in range(count):
        started = time.perf_counter()
        await peer.request({"t": "ping"})
        out.append((time.perf_counter() - started) * 1000)
        await asyncio.sleep(gap)
    return out


async def previews(peer: Peer, stop: asyncio.Event, out: list[float]) -> None:
    while not stop.is_set():
        started = time.perf_counter()
        reply = await peer.request(
            {"t": "practice_preview", "angle": 0.0, "speed": 10.0, "tip": [0.0, 0.0]}
        )
        assert isinstance(reply, pm.PracticePreviewed), reply
        out.append((time.perf_counter() - started) * 1000)


async def run(args: argparse.Namespace) -> dict[str, Any]:
    limits = dataclasses.replace(Limits(), rate=10_000.0, burst=10_000)
    config = Config(
        host="127.0.0.1", port=0, workers=args.workers, secret=b"bench", seed=1, limits=limits
    )
    server = GameServer(config)
    await server.start()
    try:
        player = await Peer.connect(server, "Ana")
        pinger = await Peer.connect(server, "Ben")
        joined = await player.request({"t": "practice"})  # a full rack to break
        assert isinstance(joined, m.Joined), joined
        await player.expect(pm.PracticeState)
        quiet = await pings(pinger, args.pings, args.gap)
        stop = asyncio.Event()
        preview_ms: list[float] = []
        tasks = [
            asyncio.create_task(previews(player, stop, preview_ms)) for _ in range(args.players)
        ]
        loaded = await pings(pinger, args.pings, args.gap)
        stop.set()
        await asyncio.gather(*tasks)
        await player.close()
        await pinger.close()
    finally:
        await server.stop()
    q, lo = percentiles(quiet), percentiles(loaded)
    return {
        "workers": args.workers,
        "preview_ms": percentiles(preview_ms),
        "ping_quiet_ms": q,
        "ping_under_previews_ms": lo,
        "ratio_p50": round(lo["p50"] / q["p50"], 2),
        "ratio_p99": round(lo["p99"] / q["p99"], 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pings", type=int, default=300)
    parser.add_argument("--gap", type=float, default=0.01, help="seconds between pings")
    parser.add_argument("--workers", type=int, default=2, help="physics worker processes")
    parser.add_argument(
        "--players", type=int, default=1, help="previews in flight at once (one connection)"
    )
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
