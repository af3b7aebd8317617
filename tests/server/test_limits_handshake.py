"""What a connection may cost before its request is known (`server/edge/handshakes.py`), on
a real server with raw sockets: request heads too large or too slow, unfinished heads per
address and in all, the connection cap with /healthz still answered past it, and — in a
server process of its own under a small descriptor limit — a flood of half-open sockets
that once took every descriptor, failed /healthz and wrote a traceback per accept()."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import stat
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.typing import Origin

from protocol import messages as m
from server.app import GameServer
from server.edge.handshakes import OVERFLOW
from server.edge.limits import Limits
from tests.fuzz.liveserver import LiveServer
from tests.server.conftest import ServerFactory

WAIT = 20.0

Stream = tuple[asyncio.StreamReader, asyncio.StreamWriter]


def limited(**changes: Any) -> Limits:
    return dataclasses.replace(Limits(), **changes)


async def open_socket(port: int, source: str = "127.0.0.1") -> Stream:
    """A TCP connection from `source` (any address of 127.0.0.0/8 is this host)."""
    return await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))


async def answer(stream: Stream) -> bytes:
    """Everything the server sends until it closes (a reset after its answer included)."""
    reader, _ = stream
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := await asyncio.wait_for(reader.read(65536), WAIT):
            data += chunk
    return data


def status_of(data: bytes) -> int:
    assert data.startswith(b"HTTP/1.1 "), data[:80]
    return int(data.split(b" ", 2)[1])


@contextlib.asynccontextmanager
async def sockets() -> AsyncIterator[list[Stream]]:
    opened: list[Stream] = []
    try:
        yield opened
    finally:
        for _, writer in opened:
            writer.close()


def upgrade_head(port: int) -> bytes:
    return (
        f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        f"Sec-WebSocket-Version: 13\r\nOrigin: http://127.0.0.1:{port}\r\n"
    ).encode()


async def health(port: int, source: str = "127.0.0.1") -> int:
    stream = await open_socket(port, source)
    stream[1].write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
    try:
        return status_of(await answer(stream))
    finally:
        stream[1].close()


async def player(server: GameServer, source: str) -> None:
    """A player from `source` opens a WebSocket and is welcomed."""
    async with connect(
        f"ws://127.0.0.1:{server.port}/ws",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        compression=None,
        open_timeout=WAIT,
        local_addr=(source, 0),
    ) as ws:
        hello = {"t": "hello", "id": 1, "v": m.PROTOCOL_VERSION, "name": "Ana"}
        await ws.send(msgpack.packb(hello))
        reply = await asyncio.wait_for(ws.recv(), WAIT)
        assert isinstance(reply, bytes) and b"welcome" in reply


def hits(server: GameServer, kind: str) -> float:
    value = server.metrics.limit_hits.labels(kind)._value.get()
    return float(value)


async def test_a_request_head_past_its_size_is_refused_431(server: GameServer) -> None:
    # websockets alone reads 128 header lines of 8 KiB (1 MiB) before it gives up: 600
    # connections doing that held a gigabyte. The head stops at --max-header-bytes.
    async with sockets() as opened:
        stream = await open_socket(server.port)
        opened.append(stream)
        padding = b"".join(b"X-Pad-%d: %s\r\n" % (i, b"a" * 4000) for i in range(8))
        stream[1].write(upgrade_head(server.port) + padding)  # 32 KiB, never finished
        assert status_of(await answer(stream)) == 431
    assert hits(server, "header_size") == 1
    assert await health(server.port) == 200


async def test_a_request_head_that_takes_too_long_is_refused_408(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(header_timeout=0.3, open_timeout=0))
    async with sockets() as opened:
        stream = await open_socket(server.port)
        opened.append(stream)
        stream[1].write(b"GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # … and never the rest
        assert status_of(await answer(stream)) == 408
    assert hits(server, "header_timeout") == 1


async def test_half_open_sockets_from_one_address_are_capped(server: GameServer) -> None:
    # 1,100 half-open sockets from one address once held every descriptor of a server:
    # at the default limits one address holds 32 unfinished heads, and the rest are
    # refused at once (429), before any request is read.
    async with sockets() as opened:
        for _ in range(40):
            opened.append(await open_socket(server.port))
        refused = [status_of(await answer(stream)) for stream in opened[32:]]
        assert refused == [429] * 8
        assert hits(server, "pending_address") == 8
        # Other addresses are not held up: health, and a player.
        assert await health(server.port, "127.0.0.2") == 200
        await player(server, "127.0.0.3")
        # The address's own first 32 are still open (until --header-timeout).
        assert server.door.pending_by_peer["127.0.0.1"] == 32


async def test_the_oldest_unfinished_head_makes_room_for_a_new_connection(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(pending_handshakes=3, pending_per_address=0))
    async with sockets() as opened:
        for _ in range(3):
            opened.append(await open_socket(server.port))
        newest = await open_socket(server.port)
        opened.append(newest)
        # The first (a slowloris, as far as anyone can tell) is closed for the newcomer…
        assert status_of(await answer(opened[0])) == 408
        assert hits(server, "pending_evicted") == 1
        # …whose request, sent now, is answered.
        newest[1].write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert status_of(await answer(newest)) == 200


async def test_past_the_connection_cap_only_health_is_answered(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(max_connections=5, pending_per_address=0))
    async with sockets() as opened:
        for _ in range(5):
            opened.append(await open_socket(server.port))
        # The server is full: a load balancer's probe still gets its answer…
        assert await health(server.port) == 200
        # …and a player a clean 503, not a socket left in the kernel's backlog.
        stream = await open_socket(server.port)
        opened.append(stream)
        stream[1].write(upgrade_head(server.port) + b"\r\n")
        assert status_of(await answer(stream)) == 503
        # A flood past the cap takes the places kept for probes, oldest first: a probe
        # that sends its request at once still gets in.
        for _ in range(OVERFLOW + 4):
            opened.append(await open_socket(server.port))
        assert await health(server.port) == 200
        assert hits(server, "connection_cap") >= OVERFLOW + 6
    # Once the flood is gone, players get in again.
    for _ in range(100):
        if server.door.open == 0:
            break
        await asyncio.sleep(0.02)
    await player(server, "127.0.0.1")


# --- a server process under a small descriptor limit ----------------------------------------


@pytest.fixture
def small_server(tmp_path: Path) -> Iterator[LiveServer]:
    """`python -m server` under a descriptor limit of 256 it cannot raise (soft = hard)."""
    wrapper = tmp_path / "python-256"
    wrapper.write_text(f'#!/bin/sh\nulimit -n 256\nexec "{sys.executable}" "$@"\n')
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    server = LiveServer(["--workers", "0"], python=str(wrapper), log_dir=tmp_path)
    server.start()
    yield server
    server.stop()


async def test_half_open_floods_leave_descriptors_health_and_the_log_alone(
    small_server: LiveServer,
) -> None:
    port = small_server.port
    log_before = len(small_server.stderr().splitlines())
    async with sockets() as opened:
        # One address, five times its allowance, then many addresses: more half-open
        # sockets than the process has descriptors.
        for _ in range(160):
            with contextlib.suppress(OSError):
                opened.append(await open_socket(port))
        for index in range(200):
            with contextlib.suppress(OSError):
                opened.append(await open_socket(port, f"127.0.1.{index % 50 + 1}"))
        # Health is answered at once, and a player is refused cleanly or let in — never
        # left waiting in the backlog.
        assert await health(port, "127.0.2.1") == 200
        stream = await open_socket(port, "127.0.2.2")
        opened.append(stream)
        stream[1].write(upgrade_head(port) + b"\r\n")
        assert status_of(await answer(stream)) in (101, 503)
    assert small_server.alive()
    # A few lines, not one (or a traceback) per refused connection.
    log = small_server.stderr().splitlines()[log_before:]
    assert len(log) < 20, "\n".join(log[:40])
    assert not [line for line in log if "Traceback" in line or "accept" in line]
