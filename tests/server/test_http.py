"""Plain HTTP on the game port: the client files, health, metrics and replays."""

from __future__ import annotations

import asyncio
import http.client

import msgpack

from protocol import messages as m
from server.app import GameServer
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer


def get(
    server: GameServer, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        connection.request("GET", path, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


async def fetch(
    server: GameServer, path: str, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    return await asyncio.to_thread(get, server, path, headers)


async def test_client_files_with_content_types_and_caching(server: GameServer) -> None:
    client_dir = server.config.client_dir
    module = next(p for p in sorted(client_dir.glob("*.mjs")))
    status, headers, body = await fetch(server, f"/{module.name}")
    assert status == 200 and body == module.read_bytes()
    assert headers["content-type"].startswith("text/javascript")
    assert headers["cache-control"] == "no-cache" and headers["etag"]
    status, _, _ = await fetch(server, f"/{module.name}", {"If-None-Match": headers["etag"]})
    assert status == 304
    if (client_dir / "index.html").exists():
        status, headers, _ = await fetch(server, "/")
        assert status == 200 and headers["content-type"].startswith("text/html")
    vendor = client_dir / "node_modules/@msgpack/msgpack/dist.esm/index.mjs"
    if vendor.exists():
        status, headers, _ = await fetch(
            server, "/node_modules/@msgpack/msgpack/dist.esm/index.mjs"
        )
        assert status == 200 and headers["content-type"].startswith("text/javascript")
        assert "max-age" in headers["cache-control"]
    for hidden in (
        "/node_modules/@msgpack/msgpack/package.json",
        "/tests/",
        "/build/bundle.mjs",
        "/../pyproject.toml",
        "/%2e%2e/pyproject.toml",
        "/nothing-here.js",
    ):
        status, _, _ = await fetch(server, hidden)
        assert status == 404, hidden


async def test_health_readiness_and_metrics(make_server: ServerFactory) -> None:
    server = await make_server(limits=Limits(metrics_token="scrape"))
    assert (await fetch(server, "/healthz"))[0] == 200
    assert (await fetch(server, "/readyz"))[0] == 200
    status, headers, body = await fetch(server, "/metrics", {"Authorization": "Bearer scrape"})
    assert status == 200 and headers["content-type"].startswith("text/plain")
    assert b"ninepool_connections" in body and b"ninepool_shot_seconds" in body


async def test_replay_document_holds_every_room_event(
    server: GameServer, peers: list[Peer]
) -> None:
    assert (await fetch(server, "/replay/nosuchroom"))[0] == 404
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "replayed"}})
    assert isinstance(created, m.Joined)
    await ana.request({"t": "chat", "text": "hello"})
    await ana.drain(0.2)
    events = [msg for msg in ana.seen if hasattr(msg, "seq")]
    status, headers, body = await fetch(server, f"/replay/{created.room}")
    assert status == 200 and headers["content-type"] == "application/msgpack"
    document = msgpack.unpackb(body)
    assert document["room"] == created.room
    assert document["settings"]["name"] == "replayed" and document["players"] == ["Ana"]
    assert [event["seq"] for event in document["events"]] == [e.seq for e in events]  # type: ignore[attr-defined]
    assert [event["t"] for event in document["events"]] == ["snapshot", "chat"]
