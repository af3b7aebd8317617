"""Prometheus metrics of one server process (a registry of its own, so tests can run
several servers in one process without clashing names).

This module imports nothing of the server: the parts that count (the edge's limits, the
rooms) import it, so it cannot know their vocabulary; the kinds of limit hit to list from
the start are handed in (`server.edge.limits.LIMIT_KINDS`, by `server.app`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

_LATENCY_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Metrics:
    def __init__(self, limit_kinds: Iterable[str] = ()) -> None:
        """`limit_kinds`: the kinds of `limit_hits` listed (at 0) before any is met."""
        self.registry = CollectorRegistry()
        r = self.registry
        self.connections = Gauge("ninepool_connections", "Open WebSocket connections", registry=r)
        self.rooms = Gauge("ninepool_rooms", "Rooms hosted by this process", registry=r)
        self.frames_in = Counter("ninepool_frames_in", "Frames received from clients", registry=r)
        self.frames_out = Counter("ninepool_frames_out", "Frames sent to clients", registry=r)
        self.errors = Counter(
            "ninepool_errors", "Error replies sent, by code", ["code"], registry=r
        )
        self.limit_hits = Counter(
            "ninepool_limit_hits",
            "Limits met by clients, by kind (see server/edge/limits.py)",
            ["kind"],
            registry=r,
        )
        for kind in limit_kinds:
            self.limit_hits.labels(kind)  # every kind is listed from the start, at 0
        self.shots = Counter("ninepool_shots", "Shots simulated and judged", registry=r)
        self.shot_seconds = Histogram(
            "ninepool_shot_seconds",
            "Shot input to shot_result sent (validate, simulate, judge, store, fan out)",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.simulate_seconds = Histogram(
            "ninepool_simulate_seconds",
            "Wall time of one simulation in the physics pool",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )
        self.loop_lag_seconds = Histogram(
            "ninepool_event_loop_lag_seconds",
            "How late the event loop wakes a timer",
            buckets=_LATENCY_BUCKETS,
            registry=r,
        )

    def render(self) -> bytes:
        return generate_latest(self.registry)

    async def watch_loop_lag(self, interval: float = 0.25) -> None:
        """Measure the event loop's lag forever (cancel to stop)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                start = loop.time()
                await asyncio.sleep(interval)
                self.loop_lag_seconds.observe(max(0.0, loop.time() - start - interval))
