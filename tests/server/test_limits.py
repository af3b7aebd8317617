"""The gateway's limits, on a real server and real WebSocket clients: frame size, message
rate (aim previews apart), persistent abuse, connections per address (X-Forwarded-For from
trusted proxies only), how fast an address may open connections and its cooldown after a
close for abuse, the Origin allowlist, handshake, hello and keepalive timeouts, no
compression, and the counters of every limit met."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import dataclasses
import os
import socket
from typing import Any

import msgpack
import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from protocol import errors
from protocol import messages as m
from protocol.codec import decode_server
from server.app import GameServer
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory

WAIT = 20.0


#: These tests play nginx on the same host: loopback is named a trusted proxy (the
#: server trusts none by default).
LOOPBACK_PROXY = ("127.0.0.0/8", "::1")


def limited(**changes: Any) -> Limits:
    return dataclasses.replace(Limits(trusted_proxies=LOOPBACK_PROXY), **changes)


def own_origin(server: GameServer) -> Origin:
    return Origin(f"http://127.0.0.1:{server.port}")


async def open_ws(
    server: GameServer,
    origin: Origin | bool | None = True,
    headers: dict[str, str] | None = None,
    **kwargs: Any,
) -> ClientConnection:
    """A WebSocket to `server`; `origin=True` sends the page's own origin, None none."""
    chosen = own_origin(server) if origin is True else origin
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        origin=chosen or None,
        additional_headers=headers,
        compression=kwargs.pop("compression", None),
        open_timeout=WAIT,
        **kwargs,
    )


async def send(ws: ClientConnection, message: dict[str, Any]) -> None:
    await ws.send(msgpack.packb(message, use_bin_type=True))


async def receive(ws: ClientConnection) -> m.ServerMessage:
    frame = await asyncio.wait_for(ws.recv(), WAIT)
    assert isinstance(frame, bytes)
    return decode_server(frame)


async def hello(ws: ClientConnection, name: str = "Ana") -> m.Welcome:
    await send(ws, {"t": "hello", "id": 1, "v": m.PROTOCOL_VERSION, "name": name})
    welcome = await receive(ws)
    assert isinstance(welcome, m.Welcome), welcome
    return welcome


async def closed_with(ws: ClientConnection) -> tuple[int | None, str | None]:
    """Read until the server closes; its close code and reason."""
    try:
        while True:
            await asyncio.wait_for(ws.recv(), WAIT)
    except ConnectionClosed:
        pass
    return ws.close_code, ws.close_reason


def hits(server: GameServer, kind: str) -> float:
    value = server.metrics.registry.get_sample_value("ninepool_limit_hits_total", {"kind": kind})
    return value or 0.0


async def refused_status(server: GameServer, **kwargs: Any) -> int:
    with pytest.raises(InvalidStatus) as refused:
        await open_ws(server, **kwargs)
    return refused.value.response.status_code


# --- frame size ---------------------------------------------------------------------------


async def test_a_frame_over_the_size_limit_closes_1009(make_server: ServerFactory) -> None:
    server = await make_server(limits=limited(max_frame=2048))
    ws = await open_ws(server)
    await hello(ws)
    await send(ws, {"t": "chat", "id": 2, "text": "x" * 190})  # small: fine (not in a room)
    assert isinstance(await receive(ws), m.Error)
    await ws.send(msgpack.packb({"t": "chat", "id": 3, "text": "x" * 2100}))
    code, _ = await closed_with(ws)
    assert code == 1009
    await asyncio.sleep(0)  # the handler counts it as it ends
    for _ in range(100):
        if hits(server, "frame_size"):
            break
        await asyncio.sleep(0.02)
    assert hits(server, "frame_size") == 1


# --- message rate -------------------------------------------------------------------------


async def test_frames_over_budget_get_rate_limited_and_persistent_abuse_closes_1008(
    make_server: ServerFactory,
) -> None:
    # A budget that does not refill during the test: five frames, then nothing.
    server = await make_server(limits=limited(rate=0.001, burst=5, abuse_limit=4))
    ws = await open_ws(server)
    await hello(ws)  # the first frame of the budget
    for request_id in range(10, 14):
        await send(ws, {"t": "ping", "id": request_id})
        assert isinstance(await receive(ws), m.Pong)
    # Over budget: refused with the request's own id; nothing else happens.
    await send(ws, {"t": "ping", "id": 20})
    refused = await receive(ws)
    assert isinstance(refused, m.Error) and refused.code == errors.RATE_LIMITED
    assert refused.id == 20
    # Bad frames are charged too, and answered the same way.
    await ws.send(b"\xc1")
    assert (await receive(ws)).code == errors.RATE_LIMITED  # type: ignore[attr-defined]
    # A client that keeps going is closed (four refusals allowed, one more a second);
    # every frame up to the close was answered.
    for request_id in range(21, 40):
        with contextlib.suppress(ConnectionClosed):
            await send(ws, {"t": "ping", "id": request_id})
    answers = []
    with contextlib.suppress(ConnectionClosed):
        while True:
            answers.append(await receive(ws))
    assert (ws.close_code, ws.close_reason) == (1008, "rate limit exceeded")
    assert len(answers) >= 3
    assert [a.id for a in answers] == list(range(21, 21 + len(answers)))  # type: ignore[attr-defined]
    assert {a.code for a in answers} == {errors.RATE_LIMITED}  # type: ignore[attr-defined]
    assert hits(server, "rate") == 2 + len(answers) and hits(server, "abuse_close") == 1


async def test_aim_previews_have_their_own_budget(make_server: ServerFactory) -> None:
    server = await make_server(
        limits=limited(rate=0.001, burst=3, aim_rate=0.001, aim_burst=10, abuse_limit=0)
    )
    ws = await open_ws(server)
    await hello(ws)
    aim = {"t": "aim", "angle": 10.0, "speed": 2.0}
    for request_id in range(10, 20):  # ten aims: admitted (and refused by the room logic)
        await send(ws, {**aim, "id": request_id})
        reply = await receive(ws)
        assert isinstance(reply, m.Error) and reply.code == errors.NOT_IN_ROOM
    await send(ws, {**aim, "id": 20})
    reply = await receive(ws)
    assert isinstance(reply, m.Error) and reply.code == errors.RATE_LIMITED
    assert "aim" in reply.msg
    # The other budget is untouched: two frames are left after the hello.
    for request_id in (30, 31):
        await send(ws, {"t": "ping", "id": request_id})
        assert isinstance(await receive(ws), m.Pong)
    await send(ws, {"t": "ping", "id": 32})
    assert (await receive(ws)).code == errors.RATE_LIMITED  # type: ignore[attr-defined]
    # abuse_limit 0: over budget is refused, never closed.
    await send(ws, {"t": "ping", "id": 33})
    assert (await receive(ws)).code == errors.RATE_LIMITED  # type: ignore[attr-defined]
    assert hits(server, "aim_rate") == 1 and hits(server, "rate") == 2
    await ws.close()


async def test_default_budget_leaves_a_player_alone(server: GameServer) -> None:
    # A person: hello, lobby, create, ready and a few aims and chats in a couple of seconds.
    ws = await open_ws(server)
    await hello(ws)
    script = [
        {"t": "lobby", "on": True},
        {"t": "create", "settings": {"first_break": "draw"}},
        {"t": "chat", "text": "hi"},
        {"t": "ready", "ready": False},
        *[{"t": "aim", "angle": 1.0 * i, "speed": 2.0} for i in range(15)],
        {"t": "ping"},
    ]
    for index, message in enumerate(script):
        await send(ws, {**message, "id": 100 + index})
    # Every request is answered (the aims by the room: the match has not started).
    answered: dict[int, str] = {}
    while len(answered) < len(script):
        reply = await receive(ws)
        request_id = getattr(reply, "id", None)
        if request_id is not None:
            answered[request_id] = getattr(reply, "code", type(reply).__name__)
    assert errors.RATE_LIMITED not in answered.values()
    assert list(answered.values()).count(errors.NOT_STARTED) == 15
    await ws.close()


# --- connections per address --------------------------------------------------------------


async def test_connections_per_address_are_capped_and_freed(make_server: ServerFactory) -> None:
    server = await make_server(limits=limited(conns_per_address=2))
    first, second = await open_ws(server), await open_ws(server)
    assert await refused_status(server) == 429
    assert hits(server, "address_connections") == 1
    await first.close()
    third = None
    for _ in range(200):  # the slot is freed once the server has seen the TCP close
        try:
            third = await open_ws(server)
            break
        except InvalidStatus:
            await asyncio.sleep(0.02)
    assert third is not None
    await hello(third)
    await second.close()
    await third.close()


async def test_x_forwarded_for_counts_the_client_behind_a_trusted_proxy(
    make_server: ServerFactory,
) -> None:
    # Loopback named a trusted proxy (nginx on the same host).
    server = await make_server(limits=limited(conns_per_address=1))
    behind = {"X-Forwarded-For": "203.0.113.7"}
    first = await open_ws(server, headers=behind)
    assert await refused_status(server, headers=behind) == 429
    # Another client of the same proxy has its own count, and so does the proxy itself.
    other = await open_ws(server, headers={"X-Forwarded-For": "203.0.113.8"})
    direct = await open_ws(server)
    # A client cannot choose its address: what it wrote left of the proxy's entry is ignored.
    spoofed = {"X-Forwarded-For": "198.51.100.1, 203.0.113.7"}
    assert await refused_status(server, headers=spoofed) == 429
    for ws in (first, other, direct):
        await ws.close()


async def test_x_forwarded_for_is_believed_from_no_one_by_default(
    make_server: ServerFactory,
) -> None:
    # Not even from loopback: anything on the host could otherwise name any address it
    # likes and escape every per-address limit.
    server = await make_server(limits=dataclasses.replace(Limits(), conns_per_address=1))
    first = await open_ws(server, headers={"X-Forwarded-For": "203.0.113.7"})
    status = await refused_status(server, headers={"X-Forwarded-For": "203.0.113.8"})
    assert status == 429  # both are 127.0.0.1's, whatever they claim
    await first.close()


async def test_x_forwarded_for_from_an_untrusted_peer_is_ignored(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(conns_per_address=1, trusted_proxies=("10.0.0.0/8",)))
    first = await open_ws(server, headers={"X-Forwarded-For": "203.0.113.7"})
    # Loopback is no proxy here: every connection is 127.0.0.1's, whatever it claims.
    status = await refused_status(server, headers={"X-Forwarded-For": "203.0.113.8"})
    assert status == 429
    await first.close()


# --- new connections: their rate, and the cooldown after abuse -----------------------------


async def refused_response(server: GameServer, **kwargs: Any) -> tuple[int, str]:
    """The status and Retry-After of a refused handshake."""
    with pytest.raises(InvalidStatus) as refused:
        await open_ws(server, **kwargs)
    response = refused.value.response
    return response.status_code, response.headers.get("Retry-After", "")


async def test_an_address_opening_connections_too_fast_is_refused_429(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(handshake_rate=0.01, handshake_burst=3))
    bot = {"X-Forwarded-For": "203.0.113.7"}
    opened = [await open_ws(server, headers=bot) for _ in range(3)]
    await opened[0].close()  # closing does not give the budget back
    assert await refused_response(server, headers=bot) == (429, "100")
    assert hits(server, "handshake_rate") == 1
    # Another address is not charged for it; the open connections carry on.
    other = await open_ws(server, headers={"X-Forwarded-For": "203.0.113.8"})
    await hello(other)
    await hello(opened[1])
    for ws in (*opened, other):
        await ws.close()


async def test_an_address_closed_for_abuse_cannot_come_straight_back(
    make_server: ServerFactory,
) -> None:
    # Without the cooldown a bot closed for abuse reconnects at once with a fresh budget.
    server = await make_server(
        limits=limited(rate=0.001, burst=2, abuse_limit=1, abuse_cooldown=1.5)
    )
    bot = {"X-Forwarded-For": "203.0.113.7"}
    neighbour = await open_ws(server, headers=bot)  # opened before: left alone
    await hello(neighbour)
    ws = await open_ws(server, headers=bot)
    for request_id in range(10, 20):
        with contextlib.suppress(ConnectionClosed):
            await send(ws, {"t": "ping", "id": request_id})
    with contextlib.suppress(ConnectionClosed):
        while True:
            await receive(ws)
    assert (ws.close_code, ws.close_reason) == (1008, "rate limit exceeded")
    status, retry_after = await refused_response(server, headers=bot)
    assert status == 429 and retry_after in ("1", "2")
    assert hits(server, "abuse_cooldown") == 1
    # Other addresses, and the address's connection that was already open, are unaffected.
    other = await open_ws(server, headers={"X-Forwarded-For": "203.0.113.8"})
    await hello(other)
    await send(neighbour, {"t": "ping", "id": 3})
    assert isinstance(await receive(neighbour), m.Pong)
    # Once the cooldown is over the address may connect again.
    await asyncio.sleep(1.6)
    back = await open_ws(server, headers=bot)
    await hello(back)
    for each in (neighbour, other, back):
        await each.close()


async def test_a_run_of_invalid_frames_also_starts_the_cooldown(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(abuse_cooldown=60.0))
    ws = await open_ws(server)
    for _ in range(8):
        with contextlib.suppress(ConnectionClosed):
            await ws.send(b"\xc1")
    with contextlib.suppress(ConnectionClosed):
        while True:
            await receive(ws)
    assert (ws.close_code, ws.close_reason) == (1008, "too many invalid frames")
    status, retry_after = await refused_response(server)
    assert status == 429 and 58 <= int(retry_after) <= 60
    assert hits(server, "bad_frames_close") == 1 and hits(server, "abuse_cooldown") == 1


# --- origin -------------------------------------------------------------------------------


async def test_only_the_servers_own_origin_may_open_a_websocket(server: GameServer) -> None:
    ws = await open_ws(server)  # the page the server serves
    await hello(ws)
    await ws.close()
    assert await refused_status(server, origin=Origin("https://evil.example")) == 403
    assert await refused_status(server, origin=Origin("http://127.0.0.1:1")) == 403
    # Another name for the same machine is another origin: the Host asked for decides.
    assert await refused_status(server, origin=Origin(f"http://localhost:{server.port}")) == 403
    assert await refused_status(server, origin=None) == 403  # bots: not by default
    assert hits(server, "origin") == 3 and hits(server, "no_origin") == 1


async def test_origin_allowlist_and_clients_without_origin_by_configuration(
    make_server: ServerFactory,
) -> None:
    server = await make_server(
        limits=limited(origins=("https://pool.example",), allow_no_origin=True)
    )
    for origin in (Origin("https://pool.example"), Origin("https://POOL.example:443"), None):
        ws = await open_ws(server, origin=origin)
        await hello(ws)
        await ws.close()
    # `self` is not in this list: the server's own origin is refused.
    assert await refused_status(server) == 403
    assert await refused_status(server, origin=Origin("http://pool.example")) == 403


# --- timeouts and compression -------------------------------------------------------------


def _raw_connect(port: int) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=WAIT)


def _read_until_closed(sock: socket.socket) -> bytes:
    received = b""
    try:
        while chunk := sock.recv(65536):
            received += chunk
    except ConnectionResetError:
        pass
    return received


async def test_a_silent_tcp_connection_is_dropped_after_the_open_timeout(
    make_server: ServerFactory,
) -> None:
    server = await make_server(limits=limited(open_timeout=0.3))
    with _raw_connect(server.port) as sock:
        received = await asyncio.to_thread(_read_until_closed, sock)
    assert received == b""


async def test_no_hello_in_time_closes_1008(make_server: ServerFactory) -> None:
    server = await make_server(limits=limited(hello_timeout=0.3))
    ws = await open_ws(server)
    assert await closed_with(ws) == (1008, "no hello in time")
    assert hits(server, "hello_timeout") == 1
    ws = await open_ws(server)
    await hello(ws)
    await asyncio.sleep(0.5)  # past the timeout: a connection that said hello stays
    await send(ws, {"t": "ping", "id": 5})
    assert isinstance(await receive(ws), m.Pong)
    await ws.close()


async def test_a_peer_that_never_answers_pings_is_closed(make_server: ServerFactory) -> None:
    server = await make_server(limits=limited(ping_interval=0.2, ping_timeout=0.2))
    key = base64.b64encode(os.urandom(16)).decode()
    handshake = (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()
    with _raw_connect(server.port) as sock:
        sock.sendall(handshake)  # then reads, but never answers a ping
        received = await asyncio.to_thread(_read_until_closed, sock)
    assert b"101 Switching Protocols" in received
    assert b"\x89" in received  # a ping came, and no pong went back
    for _ in range(100):
        if hits(server, "ping_timeout"):
            break
        await asyncio.sleep(0.02)
    assert hits(server, "ping_timeout") == 1


async def test_compression_is_never_negotiated(server: GameServer) -> None:
    ws = await open_ws(server, compression="deflate")  # the client offers permessage-deflate
    assert ws.response is not None
    assert ws.response.headers.get("Sec-WebSocket-Extensions") is None
    await hello(ws)
    await ws.close()


# --- metrics --------------------------------------------------------------------------------


async def test_limit_hits_are_exported_by_kind(make_server: ServerFactory) -> None:
    server = await make_server(limits=limited(conns_per_address=1))
    ws = await open_ws(server)
    assert await refused_status(server) == 429
    text = server.metrics.render().decode()
    assert 'ninepool_limit_hits_total{kind="address_connections"} 1.0' in text
    assert 'ninepool_limit_hits_total{kind="rate"} 0.0' in text  # every kind, from the start
    await ws.close()
