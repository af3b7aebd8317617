"""deploy/nginx.conf: `nginx -t` on every rendering of it, and what it must keep saying."""

from __future__ import annotations

import asyncio
import re
import urllib.request
from pathlib import Path

import pytest

from tests.cluster_e2e.processes import render_nginx_conf
from tests.deploy.nginx_support import (
    DEPLOY,
    ROOT,
    Nginx,
    StandInNode,
    check_config,
    get,
    have_nginx,
    nginx_version,
    render,
)

needs_nginx = pytest.mark.skipif(not have_nginx(), reason="nginx is not installed (make test)")
CONF = DEPLOY / "nginx.conf"


@needs_nginx
def test_the_cluster_tests_rendering_passes_nginx_t(tmp_path: Path) -> None:
    """The file as tests/cluster_e2e renders it for its three nodes."""
    conf = tmp_path / "e2e.conf"
    conf.write_text(render_nginx_conf([20001, 20002, 20003], 20004, tmp_path))
    result = check_config(conf, tmp_path)
    assert result.returncode == 0, result.stderr


@needs_nginx
def test_the_compose_config_passes_nginx_t(tmp_path: Path) -> None:
    """The file as compose runs it, node names and all. nginx older than 1.27.3 (Debian 12
    has 1.22) knows no `resolve` and must find the names at start: there the upstream
    lines point at loopback instead, everything else unchanged."""
    text = CONF.read_text()
    lines = []
    for line in text.splitlines():
        if line.rstrip().endswith("# @runtime"):
            directive = line.split()[0]
            name = "nginx.pid" if directive == "pid" else directive.split("_")[0]
            line = f"    {directive} {tmp_path / name};"
        elif line.rstrip().endswith("# @upstream") and nginx_version() < (1, 27, 3):
            line = re.sub(r"node\d:", "127.0.0.1:", line).replace(" resolve", "")
        lines.append(line)
    conf = tmp_path / "compose.conf"
    conf.write_text("\n".join(lines) + "\n")
    result = check_config(conf, tmp_path)
    assert result.returncode == 0, result.stderr


@needs_nginx
def test_the_deploy_tests_rendering_passes_nginx_t(tmp_path: Path) -> None:
    conf = tmp_path / "deploy.conf"
    conf.write_text(render(CONF.read_text(), [20001, 20002], 20004, tmp_path))
    result = check_config(conf, tmp_path)
    assert result.returncode == 0, result.stderr


def blocks(text: str) -> dict[str, str]:
    """`location …` / `upstream …` header → its body (the config's blocks are not nested
    below that level)."""
    found: dict[str, str] = {}
    for match in re.finditer(r"^\s*((?:location|upstream)[^{\n]*)\{", text, re.MULTILINE):
        depth, start = 1, match.end()
        end = start
        while depth:
            depth += {"{": 1, "}": -1}.get(text[end], 0)
            end += 1
        found[" ".join(match.group(1).split())] = text[start : end - 1]
    return found


def test_a_node_is_counted_as_failed_only_when_it_cannot_be_reached() -> None:
    """F2: no location may treat a node's HTTP answer (a 503 from /readyz) as a failure."""
    text = CONF.read_text()
    assert "http_50" not in text and "http_429" not in text
    found = blocks(text)
    for header, body in found.items():
        if "proxy_pass" in body:
            assert "proxy_next_upstream error timeout;" in body, header
    assert "location = /readyz" in found and "location = /healthz" in found


def test_node_names_are_resolved_again() -> None:
    text = CONF.read_text()
    assert re.search(r"^\s*resolver 127\.0\.0\.11 valid=\d+s", text, re.MULTILINE)
    upstream = blocks(text)["upstream ninepool"]
    assert re.search(r"^\s*zone ninepool \d+k;", upstream, re.MULTILINE)
    servers = [line for line in upstream.splitlines() if line.rstrip().endswith("# @upstream")]
    assert len(servers) == 3
    for line in servers:
        assert " resolve " in line and "max_fails=2 fail_timeout=5s" in line, line


def read(url: str) -> bytes:
    """The body of a GET (blocking: called from a thread, the node being on the loop)."""
    with urllib.request.urlopen(url, timeout=10) as response:
        return bytes(response.read())


@needs_nginx
async def test_private_client_files_and_metrics_are_not_served(tmp_path: Path) -> None:
    node = StandInNode("n1")
    await node.start()
    nginx = Nginx(tmp_path / "nginx", CONF.read_text(), [node.port])
    try:
        await asyncio.to_thread(nginx.start)
        client = ROOT / "client_web"
        tests = sorted(path.name for path in (client / "tests").glob("*.mjs"))
        assert tests
        for path, status in (
            ("/", 200),
            ("/app.mjs", 200),
            ("/style.css", 200),
            (f"/tests/{tests[0]}", 404),
            ("/build/bundle.mjs", 404),
            ("/node_modules/@msgpack/msgpack/package.json", 404),
            ("/node_modules/typescript/package.json", 404),
            ("/.gitignore", 404),
            ("/node_modules/@msgpack/msgpack/dist.esm/index.mjs", 200),
            ("/metrics", 403),
            ("/replay/abc", 200),
        ):
            assert await asyncio.to_thread(get, nginx.http_url + path) == status, path
        # A page's script comes from a node (its bundle, while fresh); a module it imports
        # from the disk.
        for path, body in (("/app.mjs", b"ok\n"), ("/hud.mjs", (client / "hud.mjs").read_bytes())):
            assert await asyncio.to_thread(read, nginx.http_url + path) == body, path
    finally:
        await asyncio.to_thread(nginx.stop)
        await node.stop()
