"""A real redis-server for the tests: its own loopback port, its own folder, append-only.

Never the machine's shared Redis. `stop()` is a clean shutdown (SIGTERM), `kill()` a
crash (SIGKILL); `start()` again brings the same data back from the same folder's AOF.
`--appendfsync always` makes Redis fsync each write before it answers, so a crash keeps
every write that was acknowledged, which is what the crash tests check.
"""

from __future__ import annotations

import random
import shutil
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 20.0


def free_port() -> int:
    """A free loopback port below the kernel's ephemeral range (32768 and up). While a
    test's Redis is down its clients keep reconnecting; to a closed port in the ephemeral
    range, a connect can pick that very port as its source and connect to itself."""
    for _ in range(200):
        port = random.randrange(20000, 32000)
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 20000-32000")


class RedisServer:
    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        assert not self.running, "already running"
        options = {
            "port": str(self.port),
            "bind": "127.0.0.1",
            "dir": str(self.directory),
            "appendonly": "yes",
            "appendfsync": "always",
            "save": "",
            "daemonize": "no",
            "logfile": "redis.log",
        }
        arguments = [REDIS_SERVER]
        for name, value in options.items():
            arguments += [f"--{name}", value]
        self.process = subprocess.Popen(
            arguments,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self._wait_ready()

    def stop(self) -> None:
        """Clean shutdown: Redis flushes its AOF and exits."""
        self._end(signal.SIGTERM)

    def kill(self) -> None:
        """A crash: no chance to flush anything."""
        self._end(signal.SIGKILL)

    def restart(self) -> None:
        self.stop()
        self.start()

    def _end(self, sig: signal.Signals) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(sig)
            try:
                self.process.wait(timeout=START_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None

    def _wait_ready(self) -> None:
        """Until Redis answers PING with PONG (not LOADING) on its port."""
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process is not None and self.process.poll() is not None:
                log = self.directory / "redis.log"
                tail = log.read_text(errors="replace")[-2000:] if log.exists() else ""
                raise RuntimeError(f"redis-server exited ({self.process.returncode}):\n{tail}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1.0) as conn:
                    conn.sendall(b"PING\r\n")
                    if conn.recv(64).startswith(b"+PONG"):
                        return
            except OSError:
                pass
            time.sleep(0.02)
        self.kill()
        raise RuntimeError(f"redis-server did not answer on port {self.port}")


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server for one test alone (it starts in about 20 ms), which the test may
    stop, kill and restart."""
    server = RedisServer(tmp_path / "redis")
    server.start()
    yield server
    server.kill()  # its data goes with the temp folder: no need to wait for a clean exit
