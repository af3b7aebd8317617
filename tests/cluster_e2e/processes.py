"""Real processes for the end-to-end tests: server nodes (`python -m server`) and nginx
rendered from `deploy/nginx.conf`, all on loopback ports of their own."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path

from tests.deploy import nginx_support
from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
START_TIMEOUT = 60.0
_READY = re.compile(r"ready: open http://\S+:(\d+)/")
#: Log lines that mean the server failed somewhere.
TROUBLE = re.compile(r"Traceback|\bERROR\b|\bCRITICAL\b|Exception in callback|Task exception")


def _ignore_sigint() -> None:
    """In the child between fork and exec: SIGINT ignored, as a shell without job control
    starts `cmd &`; the exec keeps that disposition. (A Python wrapper that set it and then
    exec'd had a window of its own: an interrupt sent while a loaded machine was still
    starting the wrapper's interpreter killed the wrapper, status -2, not the server.)"""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Node:
    """`python -m server --host 127.0.0.1 --port P …` with its log in `folder`. The port
    is chosen once, so a restarted node comes back on the same one."""

    def __init__(self, name: str, folder: Path, args: Sequence[str]) -> None:
        self.name = name
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.args = list(args)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        #: The test signalled it to end (a kill, a stop): its end is no news.
        self.ended_by_test = False

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log_path(self) -> Path:
        return self.folder / f"{self.name}.log"

    @property
    def running(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def launch(self, *, sigint_ignored: bool = False) -> None:
        """Start the process without waiting for it (see `wait_ready`). `sigint_ignored`:
        as a script's background job starts it, with SIGINT ignored (POSIX)."""
        assert not self.running
        self.starts += 1
        self.ended_by_test = False
        banner = self.folder / f"{self.name}.{self.starts}.out"
        command = [sys.executable, "-m", "server", "--host", "127.0.0.1", "--port", str(self.port)]
        # A crash in native code leaves its stack in the node's log, not just silence.
        env = {**os.environ, "PYTHONUNBUFFERED": "1", "PYTHONFAULTHANDLER": "1"}
        env = {k: v for k, v in env.items() if not k.startswith("NINEPOOL_")}
        with banner.open("wb") as out, self.log_path.open("ab") as err:
            err.write(f"--- start {self.starts}\n".encode())
            err.flush()
            self.process = subprocess.Popen(
                [*command, *self.args],
                cwd=ROOT,
                stdout=out,
                stderr=err,
                stdin=subprocess.DEVNULL,
                env=env,
                preexec_fn=_ignore_sigint if sigint_ignored else None,
            )

    def wait_ready(self) -> None:
        assert self.process is not None
        banner = self.folder / f"{self.name}.{self.starts}.out"
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if _READY.search(banner.read_text(errors="replace")):
                return
            if self.process.poll() is not None:
                raise RuntimeError(f"{self.name} exited at start:\n{self.log()[-3000:]}")
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"{self.name} was not ready in {START_TIMEOUT} s:\n{self.log()[-3000:]}")

    def catches_sigint(self) -> bool:
        """Whether the process has a handler of its own for SIGINT now (`/proc/<pid>/status`
        `SigCgt`): the server sets one first thing, so an interrupt from here on is its to
        answer, however long a loaded machine takes to get that far."""
        assert self.process is not None
        try:
            status = Path(f"/proc/{self.process.pid}/status").read_text()
        except OSError:
            return False
        caught = re.search(r"^SigCgt:\s*([0-9a-f]+)$", status, re.M)
        return caught is not None and bool(int(caught.group(1), 16) & (1 << (signal.SIGINT - 1)))

    def signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        if sig not in (signal.SIGSTOP, signal.SIGCONT):
            self.ended_by_test = True  # whatever happens to it next was asked for
        self.process.send_signal(sig)

    def terminate(self, timeout: float = 30.0) -> int:
        """SIGTERM: a graceful stop. Returns the exit status."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout)
        self.process = None
        return code

    def wait_exit(self, timeout: float = 30.0) -> int:
        """After a signal: until the process has ended; its exit status."""
        assert self.process is not None
        code = self.process.wait(timeout)
        self.process = None
        return code

    def kill(self) -> None:
        """SIGKILL: a crash, nothing saved on the way out."""
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.kill()
        elif not self.ended_by_test:
            # It had ended by itself: said in its log, which a failing test shows.
            with self.log_path.open("a") as err:
                status = self.process.returncode
                err.write(f"--- {self.name} had ended by itself, status {status}\n")
        self.process.wait()
        self.process = None

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    def trouble(self) -> list[str]:
        return [line for line in self.log().splitlines() if TROUBLE.search(line)]

    def metrics(self, token: str) -> dict[str, float]:
        """The node's `/metrics` samples without labels, by name."""
        request = urllib.request.Request(
            f"{self.http_url}/metrics", headers={"Authorization": f"Bearer {token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
        return {
            name: float(value)
            for name, value in re.findall(r"^(ninepool_[a-z_]+) ([0-9.e+-]+)$", text, re.M)
        }

    def ready(self) -> bool:
        """What `/readyz` says now."""
        try:
            with urllib.request.urlopen(f"{self.http_url}/readyz", timeout=5) as response:
                return bool(response.status == 200)
        except (urllib.error.URLError, OSError):
            return False


async def wait_until_ready(node: Node, ready: bool, timeout: float = 30.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while await asyncio.to_thread(node.ready) != ready:
        assert loop.time() < deadline, f"{node.name}: /readyz never became {ready}"
        await asyncio.sleep(0.1)


class Nginx(nginx_support.Nginx):
    """nginx rendered from `deploy/nginx.conf` for loopback (`render_nginx_conf`), up once
    a node answers `/healthz` through it."""

    def __init__(self, folder: Path, upstreams: Sequence[int]) -> None:
        super().__init__(folder, NGINX_CONF.read_text(), upstreams)

    def start(self) -> None:
        self.launch()
        self.wait(self.healthy, START_TIMEOUT, "nginx did not answer")

    def healthy(self) -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.port}/healthz", timeout=2):
                return True
        except (urllib.error.URLError, OSError):
            return False


def render_nginx_conf(upstreams: Sequence[int], port: int, runtime: Path) -> str:
    """`deploy/nginx.conf` with its marked lines replaced for loopback: the `# @upstream`
    lines become the nodes, `# @listen` the port, `# @client_root` the client folder and
    `# @runtime` paths files under `runtime`."""
    return nginx_support.render(NGINX_CONF.read_text(), upstreams, port, runtime)
