"""nginx for the deployment tests and the cluster's: a config text (deploy/nginx.conf or an
older copy) rendered for loopback, run on a free port of its own, and stand-in nodes to
put behind it."""

from __future__ import annotations

import http
import re
import shutil
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

from websockets.asyncio.server import Server, ServerConnection, serve
from websockets.http11 import Request, Response

from tests.redis_server import free_port

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
START_TIMEOUT = 30.0


def have_nginx() -> bool:
    return Path(NGINX).exists()


def nginx_version() -> tuple[int, ...]:
    """The installed nginx's version, e.g. (1, 22, 1)."""
    out = subprocess.run([NGINX, "-v"], capture_output=True, text=True, check=True)
    found = re.search(r"nginx/(\d+(?:\.\d+)*)", out.stderr + out.stdout)
    assert found, f"no version in {out.stderr!r}"
    return tuple(int(part) for part in found.group(1).split("."))


def render(text: str, upstreams: Sequence[int], port: int, runtime: Path) -> str:
    """`text` (an nginx.conf with the `# @…` markers) for loopback: the `# @upstream`
    lines become one `server 127.0.0.1:<port>` line per upstream with the same
    parameters as the first marked line (less `resolve`, which needs a name), the
    `# @listen` line a loopback port, `# @client_root` the repository's client and the
    `# @runtime` paths files under `runtime`."""
    lines: list[str] = []
    upstream_done = False
    for line in text.splitlines():
        indent = line[: len(line) - len(line.lstrip())]
        stripped = line.rstrip()
        if stripped.endswith("# @upstream"):
            if not upstream_done:
                words = stripped.split("#")[0].rstrip().rstrip(";").split()
                parameters = [w for w in words[2:] if w != "resolve"]
                lines += [
                    f"{indent}server {' '.join([f'127.0.0.1:{p}', *parameters])};"
                    for p in upstreams
                ]
                upstream_done = True
            continue
        if stripped.endswith("# @listen"):
            lines.append(f"{indent}listen 127.0.0.1:{port};")
            continue
        if stripped.endswith("# @client_root"):
            lines.append(f"{indent}root {ROOT / 'client_web'};")
            continue
        if stripped.endswith("# @runtime"):
            directive = line.split()[0]
            value = runtime / ("nginx.pid" if directive == "pid" else directive.split("_")[0])
            lines.append(f"{indent}{directive} {value};")
            continue
        lines.append(line)
    assert upstream_done, "the config has no # @upstream line"
    return "\n".join(lines) + "\n"


def check_config(conf: Path, prefix: Path) -> subprocess.CompletedProcess[str]:
    """`nginx -t` of a config file (its result; the caller asserts)."""
    return subprocess.run(
        [NGINX, "-t", "-q", "-e", "stderr", "-p", str(prefix), "-c", str(conf)],
        capture_output=True,
        text=True,
        timeout=60,
    )


class Nginx:
    """nginx on a free loopback port with a rendered config."""

    def __init__(self, folder: Path, text: str, upstreams: Sequence[int]) -> None:
        self.folder = folder
        self.folder.mkdir(parents=True, exist_ok=True)
        self.port = free_port()
        self.conf = folder / "nginx.conf"
        self.conf.write_text(render(text, upstreams, self.port, folder))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def http_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/ws"

    def log(self) -> str:
        path = self.folder / "nginx.log"
        return path.read_text(errors="replace") if path.exists() else ""

    def start(self) -> None:
        """Start it and wait until it listens (it answers any HTTP status)."""
        self.launch()
        self.wait(self.listening, START_TIMEOUT, "nginx did not listen")

    def launch(self) -> None:
        """Start nginx in the foreground, its log in `nginx.log`, and return at once."""
        with (self.folder / "nginx.log").open("ab") as log:
            self.process = subprocess.Popen(
                [
                    NGINX,
                    "-e",
                    "stderr",
                    "-p",
                    str(self.folder),
                    "-c",
                    str(self.conf),
                    "-g",
                    "daemon off;",
                ],
                stdout=log,
                stderr=log,
                stdin=subprocess.DEVNULL,
            )

    def wait(self, up: Callable[[], bool], timeout: float, failure: str) -> None:
        """Until `up()` says yes: `RuntimeError` (with the log) if nginx exits meanwhile,
        `failure` once `timeout` seconds have passed."""
        assert self.process is not None
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"nginx exited at start:\n{self.log()}")
            if up():
                return
            time.sleep(0.05)
        raise RuntimeError(failure)

    def listening(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1.0):
                return True
        except OSError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None


def get(url: str) -> int:
    """The status of a GET (blocking: call it from a thread when the backends run on the
    test's own event loop)."""
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)


class StandInNode:
    """A loopback stand-in for a server node whose Redis is down: `/healthz` 200,
    `/readyz` 503 (what a node answers while its store cannot take writes), and
    WebSocket upgrades accepted (rooms keep running through the outage). It runs on the
    test's event loop."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.ready = False
        self.opened = 0
        self.server: Server | None = None

    @property
    def port(self) -> int:
        assert self.server is not None
        return int(self.server.sockets[0].getsockname()[1])

    async def start(self, port: int = 0) -> None:
        self.server = await serve(
            self._handle, "127.0.0.1", port, process_request=self._http, compression=None
        )

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()
            self.server = None

    async def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None
        if request.path == "/readyz" and not self.ready:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "not ready\n")
        return connection.respond(http.HTTPStatus.OK, "ok\n")

    async def _handle(self, ws: ServerConnection) -> None:
        self.opened += 1
        await ws.send(self.name)
        await ws.wait_closed()
