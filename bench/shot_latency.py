"""Shot latency: shot input → `shot_result` delivered to 2 players and 10 spectators.

    .venv/bin/python bench/shot_latency.py                  # 1,000 shots, 2 physics workers
    .venv/bin/python bench/shot_latency.py --shots 200 --json

The server runs in its own process (as in production), with the real physics pool and
the in-memory store, on loopback. Two scripted players play a real match (aiming at the
lowest ball; rematches when a match ends) while ten spectators watch; every shot is
timed from the moment the shooter's frame is sent until the `shot_result` has arrived
at every one of the twelve clients.

Inside the server process a probe measures the event loop's lag (how late a 5 ms sleep
wakes) for the whole run. Afterwards each shot is simulated again here, alone, to get
its simulation time (physics plus trajectory encoding, as a worker does it), so the
server's own overhead per shot — latency minus simulation — can be reported too.
Nothing asserts a time; the figures are printed as medians, p95 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import multiprocessing
import os
import signal
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from bench.botclient import Client, aim, summary  # noqa: E402
from bench.botclient import open_client as botclient_open  # noqa: E402
from protocol import messages as m  # noqa: E402
from server.app import GameServer  # noqa: E402
from server.edge.limits import Limits  # noqa: E402
from server.ops.config import Config  # noqa: E402
from server.rooms.simulation import run_shot  # noqa: E402

SPECTATORS = 10
PROBE_INTERVAL = 0.005


# --- the server process ----------------------------------------------------------------


def serve(workers: int, ready: Any, results: Any) -> None:
    """Child process: the game server plus an event-loop lag probe."""

    async def main() -> None:
        # Shots back to back from a script: no message rate, no Origin (see server Limits).
        limits = Limits(rate=0.0, handshake_rate=0.0, allow_no_origin=True)
        config = Config(
            host="127.0.0.1", port=0, workers=workers, log_level="WARNING", seed=7, limits=limits
        )
        server = GameServer(config)
        await server.start()
        lags: list[float] = []
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)

        async def probe() -> None:
            while True:
                start = loop.time()
                await asyncio.sleep(PROBE_INTERVAL)
                lags.append(max(0.0, loop.time() - start - PROBE_INTERVAL))

        probe_task = loop.create_task(probe())
        ready.send(server.port)
        cpu_start = time.process_time()
        await stop.wait()
        cpu = time.process_time() - cpu_start
        probe_task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await probe_task
        results.send((lags, cpu))
        await server.stop()

    asyncio.run(main())


# --- the clients -------------------------------------------------------------------------


async def break_first(players: list[Client], draw: m.LagResult) -> None:
    """R3/O6: the draw winner chooses who breaks; these bots always break themselves."""
    assert draw.winner is not None
    await players[draw.winner].send({"t": "lag_choice", "choice": "break"})
    while (await players[0].wait_for(m.Ruling)).action != "lag_choice":
        pass


async def open_client(port: int, name: str) -> tuple[Client, asyncio.Task[None]]:
    client = await botclient_open(f"ws://127.0.0.1:{port}/ws", name)
    assert client.task is not None
    return client, client.task


@dataclass
class Sample:
    latency_all: float
    latency_each: list[float]
    balls: dict[int, tuple[float, float]]
    angle: float
    speed: float


async def drive(port: int, shots: int) -> tuple[list[Sample], float]:
    ana, ana_task = await open_client(port, "Ana")
    ben, ben_task = await open_client(port, "Ben")
    tasks = [ana_task, ben_task]
    await ana.send({"t": "create", "settings": {"race_to": 21, "first_break": "draw"}})
    joined = await ana.wait_for(m.Joined)
    await ben.send({"t": "join", "room": joined.room})
    await ben.wait_for(m.Joined)
    watchers: list[Client] = []
    for i in range(SPECTATORS):
        watcher, task = await open_client(port, f"Watcher{i}")
        await watcher.send({"t": "join", "room": joined.room, "role": "spectator"})
        await watcher.wait_for(m.Joined)
        watchers.append(watcher)
        tasks.append(task)
    players = [ana, ben]
    everyone = players + watchers
    await ana.send({"t": "ready"})
    await ben.send({"t": "ready"})
    await break_first(players, await ana.wait_for(m.LagResult))

    samples: list[Sample] = []
    started = time.perf_counter()
    while len(samples) < shots:
        table = ana.table
        assert table is not None
        if table.match_over:
            for player in players:
                await player.send({"t": "rematch"})
            await break_first(players, await ana.wait_for(m.LagResult))
            continue
        assert table.turn is not None
        shooter = players[table.turn]
        if table.choice_pending:
            await shooter.send({"t": "choose", "choice": "shoot"})
            await ana.wait_for(m.Ruling)
            continue
        angle, speed = aim(table)
        balls = {b: p for b, p in enumerate(table.balls) if p is not None}
        sent = time.perf_counter()
        await shooter.send({"t": "shot", "angle": angle, "speed": speed})
        reply = await shooter.wait_for((m.Ok, m.Error))
        if isinstance(reply, m.Error):
            raise SystemExit(f"shot refused: {reply.code}: {reply.msg} ({table})")
        try:
            result = await ana.wait_for(m.ShotResult)
        except TimeoutError:
            raise SystemExit(
                f"no shot_result within 60 s for the shot {angle=} {speed=} from {balls}"
            ) from None
        for client in everyone:
            while result.seq not in client.arrivals:
                await client.wait_for(m.ShotResult)
        each = [client.arrivals[result.seq] - sent for client in everyone]
        samples.append(Sample(max(each), each, balls, angle, speed))
        # Other players' copies are not needed any more.
        for client in everyone:
            client.pending = [p for p in client.pending if not isinstance(p, m.ShotResult)]
    elapsed = time.perf_counter() - started
    for client in everyone:
        await client.ws.close()
    for task in tasks:
        task.cancel()
    return samples, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=1000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()

    context = multiprocessing.get_context("spawn")
    ready_recv, ready_send = context.Pipe(duplex=False)
    results_recv, results_send = context.Pipe(duplex=False)
    child = context.Process(target=serve, args=(args.workers, ready_send, results_send))
    child.start()
    if not ready_recv.poll(120):
        child.kill()
        raise SystemExit("the server process did not start within 120 s")
    port = ready_recv.recv()
    try:
        samples, elapsed = asyncio.run(drive(port, args.shots))
    finally:
        assert child.pid is not None
        os.kill(child.pid, signal.SIGTERM)
    if not results_recv.poll(60):
        child.kill()
        raise SystemExit("the server process did not report its event-loop lag")
    lags, server_cpu = results_recv.recv()
    child.join(30)

    # Simulation time of each shot, measured alone after the run.
    sim_times = []
    for sample in samples:
        begin = time.perf_counter()
        run_shot(sample.balls, sample.angle, sample.speed, (0.0, 0.0), 0.0)
        sim_times.append(time.perf_counter() - begin)
    overhead = [s.latency_all - sim for s, sim in zip(samples, sim_times, strict=True)]
    per_client = [value for s in samples for value in s.latency_each]
    report = {
        "shots": len(samples),
        "clients": 2 + SPECTATORS,
        "workers": args.workers,
        "shots_per_second": len(samples) / elapsed,
        "latency_to_all_clients": summary([s.latency_all for s in samples]),
        "latency_per_client": summary(per_client),
        "simulation": summary(sim_times),
        "overhead_latency_minus_simulation": summary(overhead),
        "event_loop_lag": summary(lags),
        # CPU of the server's own process (the event loop; workers not included), per shot.
        "server_cpu_per_shot_ms": server_cpu / len(samples) * 1000,
    }
    if args.json:
        print(json.dumps(report, indent=2))
        return
    print(
        f"{report['shots']} shots, {report['clients']} clients, {args.workers} workers, "
        f"{report['shots_per_second']:.1f} shots/s, server loop CPU "
        f"{report['server_cpu_per_shot_ms']:.2f} ms per shot"
    )
    for key in (
        "latency_to_all_clients",
        "latency_per_client",
        "simulation",
        "overhead_latency_minus_simulation",
        "event_loop_lag",
    ):
        figures = report[key]
        assert isinstance(figures, dict)
        print(
            f"{key:36s} p50 {figures['p50_ms']:7.2f} ms   p95 {figures['p95_ms']:7.2f} ms   "
            f"p99 {figures['p99_ms']:7.2f} ms   max {figures['max_ms']:7.2f} ms"
        )


if __name__ == "__main__":
    main()
