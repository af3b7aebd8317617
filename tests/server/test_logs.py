"""Structured logs: one JSON object per line (or plain text) naming the connection, player
and room where known; session tokens never appear, whatever the level or the format."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from protocol import messages as m
from protocol.codec import decode_server
from server.app import GameServer
from server.ops import logs
from tests.fuzz.liveserver import LiveServer
from tests.server.support import Peer, open_peer

TOKEN = "cF8zZjlhMWMwZDdiMmU0YTYxfDE3NjcyMjU2MDA.5hR2kTQ3xWbq9ZVe0lq7Ht0RkXo"


def record(message: str, *args: Any, **extra: Any) -> logging.LogRecord:
    made = logging.makeLogRecord(
        {"name": "server.test", "levelno": logging.INFO, "levelname": "INFO", "msg": message}
    )
    made.args = args
    made.__dict__.update(extra)
    return made


def test_json_lines_carry_level_logger_message_context_and_extras() -> None:
    line = logs.JsonFormatter().format(
        record("room %s: %d shots", "k3v9x2ab", 7, room="k3v9x2ab", kind="rate")
    )
    data = json.loads(line)
    assert "\n" not in line
    assert data["level"] == "INFO" and data["logger"] == "server.test"
    assert data["msg"] == "room k3v9x2ab: 7 shots"
    assert data["room"] == "k3v9x2ab" and data["kind"] == "rate"
    assert data["ts"].endswith("Z")
    try:
        raise ValueError("boom")
    except ValueError:
        failed = logging.makeLogRecord({"msg": "failed", "levelname": "ERROR"})
        import sys

        failed.exc_info = sys.exc_info()
    data = json.loads(logs.JsonFormatter().format(failed))
    assert "Traceback" in data["exc"] and "ValueError: boom" in data["exc"]


@pytest.mark.parametrize("formatter", [logs.JsonFormatter(), logs.TextFormatter()])
def test_anything_shaped_like_a_token_is_blanked(formatter: logging.Formatter) -> None:
    text = formatter.format(record("resumed with %s", TOKEN, token=TOKEN))
    assert TOKEN not in text and TOKEN.split(".")[1] not in text
    assert logs.REDACTED in text
    plain = formatter.format(record("server.physics.engine took 12.5 ms for room k3v9x2ab"))
    assert logs.REDACTED not in plain  # dotted names and numbers are not tokens


async def test_lines_name_the_connection_player_and_room(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    (client,) = [c for c in server.gateway.clients if c.player == ana.player]
    formatter = logs.JsonFormatter()

    async def in_connection_task() -> dict[str, Any]:
        logs.bind_connection(client)
        return json.loads(formatter.format(record("from the connection")))

    async def in_room_task() -> dict[str, Any]:
        return json.loads(formatter.format(record("from the room")))

    async def in_a_task_it_started() -> dict[str, Any]:
        logs.bind_connection(client)
        child = asyncio.get_running_loop().create_task(in_room_task(), name="lease x")
        return await child

    seen = await asyncio.create_task(in_connection_task())
    assert seen["conn"] == client.conn_id and seen["conn"].startswith("c")
    assert seen["player"] == ana.player and seen["room"] == created.room
    assert seen["address"] == "127.0.0.1"
    room_line = await asyncio.create_task(in_room_task(), name=f"room-{created.room}")
    assert room_line["room"] == created.room and "player" not in room_line
    # A task started by a connection's task does not log under that connection.
    assert "player" not in await asyncio.create_task(in_a_task_it_started())
    text = logs.TextFormatter().format(record("plain", **client.log_fields()))
    assert text.endswith(f"[conn={client.conn_id} address=127.0.0.1 player={ana.player}]")


def test_configure_writes_json_lines_and_never_websockets_frames() -> None:
    stream = io.StringIO()
    root = logging.getLogger()
    before = (list(root.handlers), root.level, logging.getLogger("websockets").level)
    try:
        logs.configure("DEBUG", "json", stream)
        logging.getLogger("server.test").debug("hello %s", "there", extra={"room": "r1"})
        logging.getLogger("websockets.server").debug("< BINARY 83 a1 74 a5 68 65 6c 6c 6f")
        assert logging.getLogger("websockets").level == logging.INFO
    finally:
        root.handlers[:] = before[0]
        root.setLevel(before[1])
        logging.getLogger("websockets").setLevel(before[2])
    lines = stream.getvalue().splitlines()
    assert len(lines) == 1
    assert json.loads(lines[0])["room"] == "r1"


# --- a real server process, its whole log scanned ---------------------------------------------


@pytest.fixture(params=["json", "text"])
def logged_server(request: pytest.FixtureRequest) -> Iterator[LiveServer]:
    args = ["--workers", "0", "--store", "memory://", "--log-level", "DEBUG"]
    server = LiveServer([*args, "--log-format", request.param, "--token-ttl", "1"]).start()
    yield server
    server.stop()
    server.cleanup()


async def _session(url: str, port: int) -> list[str]:
    """Hello, resume, a forged and an expired token, a room with two players: the tokens."""
    origin = Origin(f"http://127.0.0.1:{port}")

    async def hello(token: str | None, name: str = "Ana") -> m.ServerMessage:
        async with connect(url, origin=origin, compression=None) as ws:
            frame = {"t": "hello", "id": 1, "v": 1, "name": name, "token": token}
            await ws.send(msgpack.packb(frame))
            return decode_server(await ws.recv())  # type: ignore[arg-type]

    first = await hello(None)
    assert isinstance(first, m.Welcome)
    resumed = await hello(first.token)
    assert isinstance(resumed, m.Welcome)
    tokens = [first.token, resumed.token]
    forged = first.token.split(".")[0] + ".AAAAAAAAAAAAAAAAAAAAAAAAAAA"
    assert isinstance(await hello(forged), m.Error)
    tokens.append(forged)
    async with connect(url, origin=origin, compression=None) as ws:
        await ws.send(msgpack.packb({"t": "hello", "id": 1, "v": 1, "name": "Ben"}))
        welcome = decode_server(await ws.recv())  # type: ignore[arg-type]
        assert isinstance(welcome, m.Welcome)
        tokens.append(welcome.token)
        await ws.send(msgpack.packb({"t": "create", "id": 2, "settings": {"private": True}}))
        while not isinstance(decode_server(await ws.recv()), m.Snapshot):  # type: ignore[arg-type]
            pass
    expired: m.ServerMessage | None = None
    for _ in range(40):  # the TTL is one second
        await asyncio.sleep(0.1)
        expired = await hello(first.token)
        if isinstance(expired, m.Error):
            break
    assert isinstance(expired, m.Error) and "expired" in expired.msg
    return tokens


def test_a_servers_whole_log_holds_no_token(logged_server: LiveServer) -> None:
    tokens = asyncio.run(_session(logged_server.ws_url, logged_server.port))
    logged_server.stop()
    text = logged_server.stderr()
    lines = [line for line in text.splitlines() if line.strip()]
    assert any("forged session token" in line for line in lines)
    assert any("expired session token" in line for line in lines)
    json_format = "--log-format" in logged_server.args and "json" in logged_server.args
    if json_format:
        parsed = [json.loads(line) for line in lines]  # every line is one JSON object
        hello_lines = [p for p in parsed if p["msg"].startswith("hello with")]
        assert len(hello_lines) >= 2
        assert all(p.get("conn") and p.get("address") == "127.0.0.1" for p in hello_lines)
    for token in tokens:
        for part in (token, *token.split(".")):
            assert part not in text
            assert part.encode().hex() not in text.replace(" ", "")  # nor as frame bytes
    assert logged_server.trouble() == []
