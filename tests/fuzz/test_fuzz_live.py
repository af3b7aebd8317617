"""A live server under hostile input: `python -m server` in its own process, on loopback.

- The storm: 100,000 random and mutated frames over many connections (fewer with
  `NINEPOOL_FUZZ_FRAMES`), while a quiet room plays real shots: the server stays up, every
  refused frame is answered by an error with a documented code or a 1008/1009 close, every
  request gets its reply, the quiet room's play is exactly what the physics says, and the
  server's log holds no traceback (`storm.py` has the accounting).
- The kept corpus, frame by frame, on fresh connections.
- Refused frames and illegal actions change nothing in a match in progress (O1).
- Hypothesis drives every handler with valid messages in a room: only documented replies.
- WebSocket-level violations (bad handshakes, unmasked or reserved frames, bad UTF-8) close
  the connection and leave the server serving.
"""

from __future__ import annotations

import asyncio
import base64
import os
import random
import socket
import urllib.request
from collections.abc import Iterator
from typing import Any

import msgspec
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection as SyncConnection
from websockets.sync.client import connect as sync_connect

from protocol import errors
from protocol import messages as m
from protocol.codec import decode_server
from tests.fuzz import frames, strategies
from tests.fuzz.corpus_files import corpus_frames
from tests.fuzz.liveserver import LiveServer
from tests.fuzz.quiet_room import Watcher
from tests.fuzz.storm import run_storm
from tests.fuzz.storm_common import DOCUMENTED, origin_of

STORM_FRAMES = int(os.environ.get("NINEPOOL_FUZZ_FRAMES", "100000"))


#: The storm sends hundreds of frames a second per connection, far past the default rate
#: limits, and hundreds of wrong invite codes from one address: with the limits on nearly
#: every frame would be answered `rate_limited` and never reach a handler. This server keeps
#: every other limit (aim previews and chat included), never closes for rate and lets
#: every join through; `test_storm_at_the_default_limits` runs the defaults.
#: The token these servers' /metrics asks for (`--metrics-token`).
SCRAPE_TOKEN = "fuzz-scrape"

UNMETERED = [
    *("--rate", "0", "--abuse-limit", "0", "--abuse-cooldown", "0", "--handshake-rate", "0"),
    *("--invite-guesses", "0", "--invite-guesses-per-address", "0"),
    *(
        "--rooms-per-address",
        "0",
    ),
]


@pytest.fixture(scope="module")
def live() -> Iterator[LiveServer]:
    args = ["--workers", "1", "--log-level", "INFO", "--metrics-token", SCRAPE_TOKEN]
    server = LiveServer([*args, *UNMETERED]).start()
    yield server
    server.stop()
    server.cleanup()


def assert_healthy(server: LiveServer) -> None:
    assert server.alive()
    with urllib.request.urlopen(f"{server.http_url}/healthz", timeout=10) as response:
        assert response.status == 200
    assert server.trouble() == []


# --- the storm ------------------------------------------------------------------------------


def test_storm_of_mutated_frames_leaves_the_server_and_a_quiet_room_intact(
    live: LiveServer,
) -> None:
    report = asyncio.run(run_storm(live.ws_url, STORM_FRAMES, connections=12, seed=20240611))
    print(report.summary())
    assert report.violations == [], report.summary() + "\n\n" + "\n\n".join(report.histories)
    assert report.frames >= STORM_FRAMES
    assert report.refused > STORM_FRAMES // 4  # the storm was mostly hostile
    assert report.valid > STORM_FRAMES // 4
    assert report.closes[1008] > 0 and report.closes[1009] > 0
    # O1: spectators and players out of turn were refused, by the rules' own codes.
    assert report.error_codes[errors.NOT_A_PLAYER] > 0
    assert report.error_codes[errors.NOT_STARTED] > 0
    assert report.quiet_shots >= 3  # the quiet room kept playing through it all
    assert_healthy(live)


def limit_hits(server: LiveServer) -> dict[str, float]:
    """`ninepool_limit_hits_total` by kind, from the server's /metrics (with its token)."""
    request = urllib.request.Request(
        f"{server.http_url}/metrics", headers={"Authorization": f"Bearer {SCRAPE_TOKEN}"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
    hits = {}
    for line in text.splitlines():
        if line.startswith("ninepool_limit_hits_total{"):
            kind = line.split('kind="', 1)[1].split('"', 1)[0]
            hits[kind] = float(line.rsplit(" ", 1)[1])
    return hits


@pytest.fixture
def defaults_server() -> Iterator[LiveServer]:
    # The storm's clients sit behind a proxy on loopback (X-Forwarded-For), named trusted.
    args = ["--workers", "1", "--log-level", "INFO", "--trusted-proxies", "127.0.0.1"]
    args += ["--metrics-token", SCRAPE_TOKEN]
    server = LiveServer(args).start()
    yield server
    server.stop()
    server.cleanup()


def test_storm_at_the_default_limits(defaults_server: LiveServer) -> None:
    # The same storm against the limits as shipped: the fuzzers, sending as fast as they
    # can, are answered `rate_limited` and closed (1008) when they keep on; coming straight
    # back from the same address is refused (429, the abuse cooldown), so they reconnect
    # from fresh addresses (X-Forwarded-For through loopback, named a trusted proxy) and go on.
    # The quiet room's well-behaved players are never limited, and every frame is still
    # accounted for.
    frames_ = max(2000, STORM_FRAMES // 5)
    report = asyncio.run(
        run_storm(defaults_server.ws_url, frames_, connections=12, seed=7, rate_limited=True)
    )
    hits = limit_hits(defaults_server)
    print(report.summary())
    print("limit hits", {kind: int(count) for kind, count in sorted(hits.items()) if count})
    assert report.violations == [], report.summary() + "\n\n" + "\n\n".join(report.histories)
    assert report.error_codes[errors.RATE_LIMITED] > frames_ // 4
    assert report.abuse_closes > 0
    assert report.cooldown_refusals >= report.abuse_closes // 2
    assert hits["abuse_cooldown"] >= report.cooldown_refusals
    # (A fuzzer closing at the very end may not see the close the server sent it.)
    assert hits["rate"] > 0 and hits["abuse_close"] >= report.abuse_closes
    assert report.quiet_shots >= 3  # and none of them was refused (a violation otherwise)
    assert_healthy(defaults_server)


# --- the corpus -------------------------------------------------------------------------


async def _send_corpus(url: str) -> list[str]:
    problems = []
    for entry in corpus_frames():
        watcher = Watcher("Corpus", report=_NullReport())  # type: ignore[arg-type]
        await watcher.open(url)
        assert watcher.ws is not None
        await watcher.ws.send(entry.data)
        name = entry.path.name
        if entry.expect == "too_big":
            assert watcher.reader is not None
            await asyncio.wait_for(watcher.reader, 10)
            if watcher.ws.close_code != 1009:
                problems.append(f"{name}: closed with {watcher.ws.close_code}, not 1009")
            continue
        reply = await watcher.expect(
            (m.Error, m.Ok, m.Pong, m.Welcome, m.Joined, m.Rooms, m.Snapshot)
        )
        if entry.expect in (errors.BAD_FRAME, errors.BAD_MESSAGE):
            if not (isinstance(reply, m.Error) and reply.code == entry.expect):
                problems.append(f"{name}: answered {reply!r}")
        elif isinstance(reply, m.Error) and reply.code not in DOCUMENTED:
            problems.append(f"{name}: answered {reply!r}")
        watcher.closing = True
        pong = await watcher.request({"t": "ping"})
        if not isinstance(pong, m.Pong):
            problems.append(f"{name}: the connection is no longer usable: {pong!r}")
        await watcher.close()
    return problems


class _NullReport:
    def violation(self, text: str, frames_: Any = ()) -> None:
        pass


def test_corpus_frames_get_their_answer_from_the_live_server(live: LiveServer) -> None:
    assert asyncio.run(_send_corpus(live.ws_url)) == []
    assert_healthy(live)


# --- nothing changes -------------------------------------------------------------------


def _request(ws: SyncConnection, message: dict[str, Any]) -> m.ServerMessage:
    """Send, then read until the reply echoing the id (room events are skipped)."""
    ws.send(frames.pack(message))
    while True:
        reply = decode_server(ws.recv(timeout=20))
        if getattr(reply, "id", None) == message["id"]:
            return reply


def _hello(server: LiveServer, name: str) -> SyncConnection:
    ws = sync_connect(
        server.ws_url,
        compression=None,
        max_size=2**23,
        open_timeout=20,
        origin=origin_of(server.ws_url),
        legacy=True,
    )
    welcome = _request(ws, {"t": "hello", "id": 1, "v": 1, "name": name})
    assert isinstance(welcome, m.Welcome)
    return ws


def _view(ws: SyncConnection, request_id: int) -> tuple[int, dict[str, Any]]:
    """The room's snapshot without the clock readings."""
    ws.send(frames.pack({"t": "resync", "id": request_id}))
    while True:
        message = decode_server(ws.recv(timeout=20))
        if isinstance(message, m.Snapshot):
            view = msgspec.to_builtins(message.view)
            return message.seq, view


def test_refused_frames_and_illegal_actions_change_nothing(live: LiveServer) -> None:
    # O1: only the player to act acts; bad frames are refused whole.
    ana, ben, eve = (_hello(live, n) for n in ("Ana", "Ben", "Eve"))
    created = _request(ana, {"t": "create", "id": 2, "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    assert isinstance(_request(ben, {"t": "join", "id": 2, "room": created.room}), m.Joined)
    joined = _request(eve, {"t": "join", "id": 2, "room": created.room, "role": "spectator"})
    assert isinstance(joined, m.Joined)
    _request(ana, {"t": "ready", "id": 3})
    _request(ben, {"t": "ready", "id": 3})
    seq, before = _view(eve, 4)
    while before["lag_choice"] is None:
        seq, before = _view(eve, 4)
    # R3/O6: the draw winner chooses who breaks; the loser may not.
    winner, loser = (ana, ben) if before["lag_choice"] == 0 else (ben, ana)
    refused = _request(loser, {"t": "lag_choice", "id": 5, "choice": "give"})
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    assert isinstance(_request(winner, {"t": "lag_choice", "id": 5, "choice": "break"}), m.Ok)
    while before["table"] is None:
        seq, before = _view(eve, 4)
    turn = before["table"]["turn"]
    shooter, waiting = (ana, ben) if turn == 0 else (ben, ana)
    rng = random.Random(99)
    ctx = frames.Context(rooms=[created.room])
    next_id = 100
    illegal = ["shot", "place", "aim", "choose", "extend", "lag", "lag_choice", "ready"]
    illegal += ["rematch", "stalemate"]
    for ws, who in ((shooter, "shooter"), (waiting, "waiting"), (eve, "spectator")):
        for index in range(400):
            next_id += 1
            if who != "shooter" and index % 2:
                message = frames.valid_message(rng, ctx, rng.choice(illegal))
                if message["t"] == "stalemate":
                    message["action"] = "accept"
                data: bytes | str = frames.pack({**message, "id": next_id})
            else:
                fuzzed = frames.fuzzed_frame(rng, ctx)
                while fuzzed.valid or fuzzed.too_big:
                    fuzzed = frames.fuzzed_frame(rng, ctx)
                data = fuzzed.data
            ws.send(data)
            if index % 6 == 5:  # stay under eight refused frames in a row
                assert isinstance(_request(ws, {"t": "ping", "id": next_id + 10**6}), m.Pong)
    after_seq, after = _view(eve, 5)
    for view in (before, after):
        view["table"]["clock"] = None
    assert after_seq == seq
    assert after == before
    for ws in (ana, ben, eve):
        ws.close()
    assert_healthy(live)


def test_requests_queued_behind_the_last_leave_are_answered(live: LiveServer) -> None:
    ws = _hello(live, "Ana")
    assert isinstance(_request(ws, {"t": "create", "id": 2}), m.Joined)
    # Three frames in one go: the room closes on the leave; ready and chat wait behind it.
    for message in (
        {"t": "leave", "id": 3},
        {"t": "ready", "id": 4},
        {"t": "chat", "id": 5, "text": "hi"},
    ):
        ws.send(frames.pack(message))
    replies: dict[int, m.ServerMessage] = {}
    try:
        while len(replies) < 3:
            message = decode_server(ws.recv(timeout=5))
            if getattr(message, "id", None) in (3, 4, 5):
                replies[message.id] = message  # type: ignore[attr-defined]
    except TimeoutError:
        pass
    assert sorted(replies) == [3, 4, 5], replies
    ws.close()


# --- every handler, driven by hypothesis --------------------------------------------------


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(strategies.valid_messages, min_size=1, max_size=25),
    st.sampled_from(["player", "spectator", "lobby"]),
)
def test_every_handler_answers_valid_messages_with_documented_replies(
    live: LiveServer, messages: list[dict[str, Any]], where: str
) -> None:
    ws = _hello(live, "Hypo")
    host = None
    try:
        if where != "lobby":
            host = _hello(live, "Host")
            created = _request(host, {"t": "create", "id": 2, "settings": {"first_break": "draw"}})
            assert isinstance(created, m.Joined)
            reply = _request(ws, {"t": "join", "id": 2, "room": created.room, "role": where})
            assert isinstance(reply, m.Joined)
            if where == "player":
                _request(host, {"t": "ready", "id": 3})
                _request(ws, {"t": "ready", "id": 3})
        for index, message in enumerate(messages):
            request_id = 1000 + index
            ws.send(frames.pack({**message, "id": request_id}))
            barrier = 10**6 + index
            ws.send(frames.pack({"t": "ping", "id": barrier}))
            replies = []
            while True:
                reply = decode_server(ws.recv(timeout=20))
                if getattr(reply, "id", None) == request_id:
                    replies.append(reply)
                if isinstance(reply, m.Pong) and reply.id == barrier:
                    break
            for reply in replies:
                if isinstance(reply, m.Error):
                    assert reply.code in DOCUMENTED, (message, reply)
    except ConnectionClosed as exc:
        raise AssertionError(f"the server closed the connection: {exc}") from None
    finally:
        ws.close()
        if host is not None:
            host.close()
    assert live.alive()


# --- the WebSocket layer ------------------------------------------------------------------


def _handshake() -> bytes:
    key = base64.b64encode(os.urandom(16)).decode()
    return (
        "GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: http://127.0.0.1\r\n"
        "Upgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
    ).encode()


def _ws_frame(
    opcode: int, payload: bytes, mask: bool = True, fin: bool = True, rsv: int = 0
) -> bytes:
    head = bytes([(0x80 if fin else 0) | rsv | opcode])
    size = len(payload)
    bit = 0x80 if mask else 0
    if size < 126:
        head += bytes([bit | size])
    elif size < 65536:
        head += bytes([bit | 126]) + size.to_bytes(2, "big")
    else:
        head += bytes([bit | 127]) + size.to_bytes(8, "big")
    if not mask:
        return head + payload
    key = os.urandom(4)
    return head + key + bytes(b ^ key[i % 4] for i, b in enumerate(payload))


RAW_CASES = {
    "tls_hello_on_plain_port": b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"
    + bytes(64)
    + b"\r\n\r\n",
    "unsupported_version": _handshake().replace(b"Version: 13", b"Version: 99"),
    "no_key": _handshake().replace(b"Sec-WebSocket-Key", b"X-Nope"),
    "huge_header": b"GET / HTTP/1.1\r\nHost: x\r\nX: " + b"a" * 100_000 + b"\r\n\r\n",
    "unmasked_frame": _handshake() + _ws_frame(2, b"\x80", mask=False),
    "reserved_opcode": _handshake() + _ws_frame(3, b"x"),
    "reserved_bits": _handshake() + _ws_frame(2, b"\x80", rsv=0x40),
    "continuation_first": _handshake() + _ws_frame(0, b"x"),
    "control_frame_over_125": _handshake() + _ws_frame(9, b"x" * 200),
    "invalid_utf8_text": _handshake() + _ws_frame(1, b"\xff\xfe"),
    "fragments_over_the_limit": _handshake()
    + _ws_frame(2, b"x" * 3000, fin=False)
    + _ws_frame(0, b"x" * 3000),
    "close_with_invalid_code": _handshake() + _ws_frame(8, (999).to_bytes(2, "big")),
    "length_of_2_62": _handshake() + bytes([0x82, 0xFF]) + (2**62).to_bytes(8, "big") + b"abcd",
}


@pytest.mark.parametrize("case", sorted(RAW_CASES))
def test_websocket_protocol_violations_close_the_connection_only(
    live: LiveServer, case: str
) -> None:
    with socket.create_connection(("127.0.0.1", live.port), timeout=15) as sock:
        sock.sendall(RAW_CASES[case])
        received = b""
        try:
            while chunk := sock.recv(65536):
                received += chunk
        except (TimeoutError, ConnectionResetError):
            pass
    assert b"101 Switching Protocols" not in received or received.count(b"\x88") >= 1
    ws = _hello(live, "After")
    assert isinstance(_request(ws, {"t": "ping", "id": 2}), m.Pong)
    ws.close()
    assert_healthy(live)
