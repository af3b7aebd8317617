"""Shots simulated away from the event loop, in a pool of worker processes.

A simulation is CPU work of several milliseconds; on the event loop it would stall every
room of the process. `PhysicsPool` runs `run_shot` in a `ProcessPoolExecutor` and the
worker also encodes the trajectory, so the loop only receives compact bytes and the facts
the referee needs.

A computer player's decision (`server.bot.decide`) is a search of a hundred or more
shots: it runs in workers of its own (`thinkers`), so a bot thinking never queues in
front of another room's shot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import logging
import multiprocessing
import time
from collections.abc import Mapping

from protocol.trajectory import encode_tracks
from server import bot, physics
from server.ops.lifeline import exit_with_parent
from server.rooms.shots import Point, SimResult

__all__ = ["PhysicsPool", "SimResult", "run_shot"]

log = logging.getLogger(__name__)


def run_shot(
    balls: Mapping[int, Point],
    angle: float,
    speed: float,
    tip: Point,
    elevation: float,
    lag: bool = False,
) -> SimResult:
    """Simulate one shot and encode its trajectory (runs in a worker process)."""
    started = time.perf_counter()
    shot = physics.Shot(angle=angle, speed=speed, tip=tip, elevation=elevation)
    outcome = physics.simulate(dict(balls), shot)
    traj = encode_tracks(outcome.tracks)
    report = outcome.report
    return SimResult(
        final=dict(outcome.final),
        first=report.first,
        rails=tuple(report.rails),
        pocketed=tuple(report.pocketed),
        off_table=tuple(report.off_table),
        traj=traj,
        duration=float(outcome.duration),
        miscue=bool(outcome.miscue),
        lag_distance=physics.lag_distance(outcome) if lag else None,
        cpu_seconds=time.perf_counter() - started,
    )


def _warm_up() -> int:
    """Import and exercise the physics once so the first real shot is not slow."""
    run_shot({0: (0.5, 0.6), 1: (1.905, 0.635)}, 0.0, 1.0, (0.0, 0.0), 0.0)
    return 0


def think(view: bot.BotView, level: int, seed: int) -> bot.Decision:
    """A computer player's decision (runs in a thinking worker)."""
    return bot.decide(view, level, seed)


class PhysicsPool:
    """The worker pool. `workers=0` runs shots in one thread (for tiny hosts only: the
    simulation then competes with the event loop for the interpreter); `thinkers` the
    same for computer players' decisions."""

    def __init__(self, workers: int, thinkers: int = 1) -> None:
        self.workers = workers
        self.thinkers = thinkers
        self._executor = self._new_executor()
        self._thinker = self._new_executor(thinkers)

    def _new_executor(self, count: int | None = None) -> concurrent.futures.Executor:
        workers = self.workers if count is None else count
        if workers > 0:
            # forkserver: workers never inherit the event loop's threads or sockets.
            context = multiprocessing.get_context("forkserver")
            # A node killed outright takes its workers with it, and so its forkserver and
            # resource tracker (`server.ops.lifeline`).
            return concurrent.futures.ProcessPoolExecutor(
                max_workers=workers, mp_context=context, initializer=exit_with_parent
            )
        return concurrent.futures.ThreadPoolExecutor(max_workers=1)

    async def start(self) -> None:
        """Start every worker and load the physics in it before the server is ready."""
        loop = asyncio.get_running_loop()
        count = max(1, self.workers)
        await asyncio.gather(
            *(loop.run_in_executor(self._executor, _warm_up) for _ in range(count)),
            *(loop.run_in_executor(self._thinker, _warm_up) for _ in range(max(1, self.thinkers))),
        )

    async def simulate(
        self, balls: Mapping[int, Point], shot: physics.Shot, lag: bool = False
    ) -> SimResult:
        loop = asyncio.get_running_loop()
        args = (
            dict(balls),
            float(shot.angle),
            float(shot.speed),
            (float(shot.tip[0]), float(shot.tip[1])),
            float(shot.elevation),
            lag,
        )
        try:
            return await loop.run_in_executor(self._executor, run_shot, *args)
        except concurrent.futures.BrokenExecutor:
            # A worker died (killed, out of memory): replace the pool and try once more.
            log.error("the physics pool broke; starting a new one")
            broken, self._executor = self._executor, self._new_executor()
            broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._executor, run_shot, *args)

    async def decide(self, view: bot.BotView, level: int, seed: int) -> bot.Decision:
        """A computer player's decision, made in a thinking worker."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thinker, think, view, level, seed)
        except concurrent.futures.BrokenExecutor:
            log.error("the thinking pool broke; starting a new one")
            broken, self._thinker = self._thinker, self._new_executor(self.thinkers)
            broken.shutdown(wait=False, cancel_futures=True)
            return await loop.run_in_executor(self._thinker, think, view, level, seed)

    def close(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
        self._thinker.shutdown(wait=True, cancel_futures=True)
