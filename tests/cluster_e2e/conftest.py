"""A real cluster on loopback for each test: a redis-server of its own (append-only,
fsync always), three node processes (`python -m server --redis-url … --secret …`) and
nginx rendered from `deploy/nginx.conf` in front of them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.cluster_e2e.processes import Nginx, Node
from tests.deploy.nginx_support import NGINX
from tests.redis_cluster import RedisCluster
from tests.redis_server import RedisServer

SECRET = "cluster-e2e-secret"
#: `/metrics` answers a scrape that carries it (`Authorization: Bearer …`).
METRICS_TOKEN = "cluster-e2e-scrape"
#: Short leases, so that a dead owner's rooms move within seconds.
LEASE_TTL = 1.5


@dataclass
class Cluster:
    #: One redis-server, or (`sharded_cluster`) a three-shard Redis Cluster.
    redis: RedisServer | RedisCluster
    nodes: list[Node]
    nginx: Nginx
    #: When its Redis started (`time.monotonic()`).
    since: float = 0.0

    async def settled(self, timeout: float = 3.0) -> None:
        """Until a node timeout after Redis started: a node judges the others' heartbeats
        only once Redis has been up that long (before, it cannot tell a node that died from
        one that has not had the time to beat)."""
        await asyncio.sleep(max(0.0, self.since + timeout + 0.5 - time.monotonic()))

    def node(self, node_id: str) -> Node:
        return next(node for node in self.nodes if node.name == node_id)

    def trouble(self) -> list[str]:
        return [f"{node.name}: {line}" for node in self.nodes for line in node.trouble()]


def node_args(redis_url: str, name: str, *extra: str, short_leases: bool = True) -> list[str]:
    """A node's command line; `short_leases` False leaves the lease and the node timeout at
    their defaults (what a deployment runs)."""
    leases = ["--lease-ttl", str(LEASE_TTL)] if short_leases else []
    return [
        "--redis-url",
        redis_url,
        "--secret",
        SECRET,
        "--workers",
        "1",
        *leases,
        "--metrics-token",
        METRICS_TOKEN,
        "--node-id",
        name,
        "--grace",
        "60",
        # The scripted players shoot as fast as the machine lets them (65 shots and their
        # resyncs in seconds, past a connection's 10 a second on a fast machine); a
        # person's pace is the limits' business (tests/server, test_edge_limits.py).
        "--rate",
        "0",
        # nginx on loopback, in front of the nodes: the only proxy whose X-Forwarded-For
        # they believe (the server trusts none by default).
        "--trusted-proxies",
        "127.0.0.1",
        *extra,
    ]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[Cluster]:
    yield from _cluster(tmp_path, short_leases=True)


@pytest.fixture
def default_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """The same, with every node at the default lease and node timeout."""
    yield from _cluster(tmp_path, short_leases=False)


@pytest.fixture
def sharded_cluster(tmp_path: Path) -> Iterator[Cluster]:
    """The same nodes, on a real three-shard Redis Cluster (`redis+cluster://`)."""
    yield from _cluster(tmp_path, short_leases=True, sharded=True)


def _cluster(tmp_path: Path, *, short_leases: bool, sharded: bool = False) -> Iterator[Cluster]:
    if not Path(NGINX).exists():
        pytest.skip("nginx is not installed (make test installs it)")
    redis: RedisServer | RedisCluster
    if sharded:
        redis = RedisCluster(tmp_path / "redis-cluster")
        url = redis.url.replace("redis://", "redis+cluster://", 1)
    else:
        redis = RedisServer(tmp_path / "redis")
        url = redis.url
    try:
        redis.start()
    except BaseException:
        redis.kill()
        raise
    since = time.monotonic()
    nodes = [
        Node(name, tmp_path / "nodes", node_args(url, name, short_leases=short_leases))
        for name in ("n1", "n2", "n3")
    ]
    nginx: Nginx | None = None
    try:
        for node in nodes:
            node.launch()
        for node in nodes:
            node.wait_ready()
        nginx = Nginx(tmp_path / "nginx", [node.port for node in nodes])
        nginx.start()
        yield Cluster(redis, nodes, nginx, since)
    finally:
        if nginx is not None:
            nginx.stop()
        for node in nodes:
            node.kill()
        redis.kill()
        # Shown by pytest only when the test failed (captured output): what each node said
        # last, so a failure in a CI run that is gone can still be read.
        for node in nodes:
            tail = node.log().splitlines()[-40:]
            print(f"--- {node.name}: the last {len(tail)} lines of its log", *tail, sep="\n")
