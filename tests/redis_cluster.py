"""A real Redis Cluster for the tests: three primaries (no replicas) on loopback ports of
their own, each append-only with `appendfsync always` in its own folder, the 16,384 hash
slots shared by `redis-cli --cluster create`.

Never the machine's shared Redis. Starting one takes about a second; the store tests share
one per session (`tests/store/conftest.py`) and empty it for each test (`flush`).
"""

from __future__ import annotations

import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.redis_server import REDIS_SERVER

REDIS_CLI = shutil.which("redis-cli") or "/usr/bin/redis-cli"
START_TIMEOUT = 30.0
SHARDS = 3


def _free(port: int) -> bool:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def cluster_ports(count: int) -> list[int]:
    """Ports whose cluster bus port (port + 10000) is free too, both below the kernel's
    ephemeral range (see `tests.redis_server.free_port`)."""
    ports: list[int] = []
    for _ in range(2000):
        port = random.randrange(20000, 22700)
        if port not in ports and _free(port) and _free(port + 10000):
            ports.append(port)
            if len(ports) == count:
                return ports
    raise RuntimeError("no free ports for a Redis Cluster")


class RedisCluster:
    def __init__(self, directory: Path, shards: int = SHARDS) -> None:
        self.directory = directory
        self.ports = cluster_ports(shards)
        self.processes: list[subprocess.Popen[bytes]] = []

    @property
    def url(self) -> str:
        """A URL of one node: a cluster client learns the others from it."""
        return f"redis://127.0.0.1:{self.ports[0]}/0"

    def start(self) -> None:
        """Three fresh nodes, then the cluster made of them."""
        self._launch()
        subprocess.run(
            [
                *(REDIS_CLI, "--cluster", "create", *(f"127.0.0.1:{p}" for p in self.ports)),
                *("--cluster-replicas", "0", "--cluster-yes"),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=START_TIMEOUT,
        )
        self._wait_ok()

    def _launch(self) -> None:
        for port in self.ports:
            folder = self.directory / str(port)
            folder.mkdir(parents=True, exist_ok=True)
            options = {
                "port": str(port),
                "bind": "127.0.0.1",
                "dir": str(folder),
                "cluster-enabled": "yes",
                "cluster-config-file": "nodes.conf",
                "cluster-node-timeout": "5000",
                "appendonly": "yes",
                "appendfsync": "always",
                "save": "",
                "logfile": "redis.log",
            }
            arguments = [REDIS_SERVER]
            for name, value in options.items():
                arguments += [f"--{name}", value]
            self.processes.append(
                subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            )
        for port in self.ports:
            self._wait(port, b"+PONG")

    def _wait_ok(self) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            states = [self.cli(port, "cluster", "info") for port in self.ports]
            if all("cluster_state:ok" in state for state in states):
                return
            time.sleep(0.05)
        raise RuntimeError(f"the cluster on {self.ports} did not become ok")

    def cli(self, port: int, *args: str) -> str:
        done = subprocess.run(
            [REDIS_CLI, "-p", str(port), *args], capture_output=True, timeout=10, check=True
        )
        return done.stdout.decode()

    def flush(self) -> None:
        for port in self.ports:
            self.cli(port, "flushall")

    def dbsize(self, port: int) -> int:
        return int(self.cli(port, "dbsize").strip())

    def restart(self) -> None:
        """A clean stop (SIGTERM: each node writes its AOF and nodes.conf) and a start on
        the same ports and folders; the cluster comes back with its slots and data."""
        for process in self.processes:
            process.terminate()
        for process in self.processes:
            process.wait(timeout=START_TIMEOUT)
        self.processes = []
        self._launch()
        self._wait_ok()

    def kill(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.kill()
            process.wait()
        self.processes = []

    def _wait(self, port: int, answer: bytes) -> None:
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1.0) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(64).startswith(answer):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        raise RuntimeError(f"redis-server on {port} did not answer")


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisCluster]:
    """One real three-shard Redis Cluster for the whole session (it takes seconds to form):
    the stores' contracts on a cluster share it, each emptying it first (`flush`)."""
    cluster = RedisCluster(tmp_path_factory.mktemp("redis-cluster"))
    cluster.start()
    yield cluster
    cluster.kill()
