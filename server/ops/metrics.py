"""Prometheus metrics of one server process (a registry of its own, so tests can run
several servers in one process without clashing names).

This module imports nothing of the server: the parts that count (the edge's limits, the
rooms) import it, so it cannot know their vocabulary; the kinds of limit hit to list from
the start are handed in (`server.edge.limits.LIMIT_KINDS`, by `server.app`)."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Iterable, Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily
from prometheus_client.registry import Collector

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

    def cluster(self) -> ClusterMetrics:
        """The metrics of a node of a cluster (a lone node has none of them)."""
        return ClusterMetrics(self.registry)

    async def watch_loop_lag(self, interval: float = 0.25) -> None:
        """Measure the event loop's lag forever (cancel to stop)."""
        loop = asyncio.get_running_loop()
        with contextlib.suppress(asyncio.CancelledError):
            while True:
                start = loop.time()
                await asyncio.sleep(interval)
                self.loop_lag_seconds.observe(max(0.0, loop.time() - start - interval))


class ClusterMetrics:
    """What a node of a cluster reports beside the process's own metrics; the names are
    those deploy/prometheus/alerts.yml and deploy/grafana/ninepool.json watch. The gauges
    of state the node keeps anyway (rooms owned and relayed, whether Redis answers) are
    read when scraped (`watch`), so nothing has to remember to update them."""

    def __init__(self, registry: CollectorRegistry) -> None:
        r = registry
        self.redis_up = Gauge(
            "ninepool_redis_up",
            "1 while this node's store, pub/sub connection and directory reach Redis",
            registry=r,
        )
        self.rooms_owned = Gauge(
            "ninepool_rooms_owned", "Rooms this node owns (holds the lease of)", registry=r
        )
        self.rooms_relayed = Gauge(
            "ninepool_rooms_relayed",
            "Rooms another node owns that this node relays to its clients",
            registry=r,
        )
        self.cluster_nodes = Gauge(
            "ninepool_cluster_nodes", "Live nodes (beating) as this node sees them", registry=r
        )
        self.adoptions = Counter(
            "ninepool_adoptions",
            "Rooms this node took over from a node that died or stopped",
            registry=r,
        )
        self.leases_lost = Counter(
            "ninepool_leases_lost",
            "Rooms this node ran whose lease another node took (it was paused or cut off)",
            registry=r,
        )
        self._registry = r

    def watch(
        self,
        *,
        redis_up: Callable[[], bool],
        rooms_owned: Callable[[], int],
        rooms_relayed: Callable[[], int],
        cluster_nodes: Callable[[], int],
        save_retries: Callable[[], int],
    ) -> None:
        """Read these when scraped: whether Redis answers, the rooms owned and relayed, the
        live nodes, and the store's count of saves retried
        (`ninepool_store_save_retries_total`)."""
        self.redis_up.set_function(lambda: 1.0 if redis_up() else 0.0)
        self.rooms_owned.set_function(lambda: float(rooms_owned()))
        self.rooms_relayed.set_function(lambda: float(rooms_relayed()))
        self.cluster_nodes.set_function(lambda: float(cluster_nodes()))
        self._registry.register(
            _ReadCounter(
                "ninepool_store_save_retries",
                "Saves to Redis tried again after a failure (Redis away, slow or refusing)",
                save_retries,
            )
        )


class _ReadCounter(Collector):
    """A counter kept elsewhere (the store's, which imports nothing of this), read when
    scraped."""

    def __init__(self, name: str, documentation: str, read: Callable[[], int]) -> None:
        self._name = name
        self._documentation = documentation
        self._read = read

    def collect(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self._name, self._documentation, value=float(self._read()))

    def describe(self) -> Iterator[CounterMetricFamily]:
        yield CounterMetricFamily(self._name, self._documentation)
