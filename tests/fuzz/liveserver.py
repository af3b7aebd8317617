"""A real game server in its own process, as production runs it: `python -m server`.

The fuzz tests and the benchmarks treat it as a black box: they read the port from the
line it prints when ready, talk to it over loopback only, and afterwards read its log
for tracebacks and errors.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
_READY = re.compile(r"ready: open http://[^:/]+:(\d+)/")
#: Lines of a log that mean something went wrong in the server.
_TROUBLE = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b|Exception in callback|Task exception")


class LiveServer:
    """`python -m server --host 127.0.0.1 --port 0 …`, its port, its log, its pid."""

    def __init__(
        self,
        args: Sequence[str] = (),
        python: str = sys.executable,
        log_dir: Path | None = None,
    ) -> None:
        self.args = list(args)
        self.python = python
        self._tmp = (
            tempfile.TemporaryDirectory(prefix="ninepool-live-") if log_dir is None else None
        )
        self.log_dir = Path(self._tmp.name) if self._tmp is not None else Path(log_dir or ".")
        self.stdout_path = self.log_dir / "server.out"
        self.stderr_path = self.log_dir / "server.err"
        self.proc: subprocess.Popen[bytes] | None = None
        self.port = 0

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60.0) -> LiveServer:
        command = [
            self.python,
            "-m",
            "server",
            "--host",
            "127.0.0.1",
            "--port",
            "0",
            "--store",  # not the lone node's default file in the repo (args may override)
            "memory://",
            *self.args,
        ]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self.stdout_path.open("wb") as out, self.stderr_path.open("wb") as err:
            self.proc = subprocess.Popen(
                command, cwd=ROOT, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env
            )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            match = _READY.search(self.stdout_path.read_text(errors="replace"))
            if match:
                self.port = int(match.group(1))
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited at start:\n{self.stderr()}")
            time.sleep(0.05)
        self.stop()
        raise RuntimeError(f"the server did not get ready in {timeout} s:\n{self.stderr()}")

    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    def stderr(self) -> str:
        return self.stderr_path.read_text(errors="replace") if self.stderr_path.exists() else ""

    def trouble(self) -> list[str]:
        """Log lines that show a traceback, an ERROR or an unhandled task exception."""
        return [line for line in self.stderr().splitlines() if _TROUBLE.search(line)]

    def stop(self, timeout: float = 20.0) -> int | None:
        """SIGTERM (a graceful shutdown), then SIGKILL if it does not end in time."""
        if self.proc is None:
            return None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode

    def cleanup(self) -> None:
        if self._tmp is not None:
            self._tmp.cleanup()

    def __enter__(self) -> LiveServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
