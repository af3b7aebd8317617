"""Bad input from clients: refused with a stable code, nothing changes, the connection stays
usable; persistent garbage closes it (1008), oversized frames too (1009). No traceback."""

from __future__ import annotations

import logging
from typing import Any

import msgpack
import pytest
from websockets.exceptions import ConnectionClosed

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, open_peer, watched_table


def no_tracebacks(caplog: pytest.LogCaptureFixture) -> None:
    assert [r for r in caplog.records if r.exc_info or r.levelno >= logging.ERROR] == []


async def assert_usable(peer: Peer) -> None:
    pong = await peer.request({"t": "ping"})
    assert isinstance(pong, m.Pong)


async def error_for(peer: Peer, message: dict[str, Any]) -> m.Error:
    reply = await peer.request(message)
    assert isinstance(reply, m.Error), reply
    return reply


async def snapshot_of(peer: Peer) -> m.RoomView:
    reply = await peer.request({"t": "resync"})  # the snapshot echoes the request id
    assert isinstance(reply, m.Snapshot) and reply.seq == peer.seq
    return reply.view


@pytest.mark.parametrize(
    ("frame", "code"),
    [
        (b"\xc1\x00garbage", errors.BAD_FRAME),
        ("a text frame", errors.BAD_FRAME),
        (msgpack.packb([1, 2, 3]), errors.BAD_MESSAGE),
        (msgpack.packb({"t": "teleport", "id": 9}), errors.BAD_MESSAGE),
        (msgpack.packb({"t": "shot", "id": 9, "angle": "north", "speed": 2}), errors.BAD_MESSAGE),
        (msgpack.packb({"t": "shot", "id": 9, "angle": 0, "speed": 99}), errors.BAD_MESSAGE),
        (msgpack.packb({"t": "chat", "id": 9, "text": "x" * 300}), errors.BAD_MESSAGE),
        (msgpack.packb({"t": "ping", "id": -1}), errors.BAD_MESSAGE),
    ],
)
async def test_malformed_frames_get_an_error_and_the_connection_stays(
    server: GameServer,
    peers: list[Peer],
    caplog: pytest.LogCaptureFixture,
    frame: bytes | str,
    code: str,
) -> None:
    peer = await open_peer(server, peers, "Ana")
    await peer.send_raw(frame)
    error = await peer.expect(m.Error)
    assert error.code == code
    assert error.id in (None, 9)
    await assert_usable(peer)
    no_tracebacks(caplog)


async def test_hello_rules(server: GameServer, peers: list[Peer]) -> None:
    fresh = await Peer.connect_raw(server)
    peers.append(fresh)
    # Anything before hello is refused.
    assert (await error_for(fresh, {"t": "lobby"})).code == errors.HELLO_REQUIRED
    # A token this service did not sign is refused, and nothing is granted.
    forged = await error_for(
        fresh, {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Mallory", "token": "cF8x.AAAA"}
    )
    assert forged.code == errors.BAD_TOKEN
    assert (await error_for(fresh, {"t": "ping"})).code == errors.HELLO_REQUIRED
    welcome = await fresh.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Ana"})
    assert isinstance(welcome, m.Welcome)
    again = await error_for(fresh, {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Ana"})
    assert again.code == errors.ALREADY_HELLO
    # A bad display name is refused by the schema.
    other = await Peer.connect_raw(server)
    peers.append(other)
    bad_name = await error_for(other, {"t": "hello", "v": m.PROTOCOL_VERSION, "name": " "})
    assert bad_name.code == errors.BAD_MESSAGE and "$.name" in bad_name.msg


async def test_version_mismatch_closes_with_1008(server: GameServer, peers: list[Peer]) -> None:
    peer = await Peer.connect_raw(server)
    peers.append(peer)
    error = await error_for(peer, {"t": "hello", "v": 999, "name": "Ana"})
    assert error.code == errors.VERSION_MISMATCH
    with pytest.raises(ConnectionClosed):
        await peer.ws.recv()
    assert peer.ws.close_code == 1008


async def test_oversized_frame_closes_with_1009(server: GameServer, peers: list[Peer]) -> None:
    peer = await open_peer(server, peers, "Ana")
    await peer.send_raw(msgpack.packb({"t": "chat", "id": 1, "text": "x" * 10_000}))
    with pytest.raises(ConnectionClosed):
        while True:
            await peer.ws.recv()
    assert peer.ws.close_code == 1009


async def test_persistent_garbage_closes_with_1008(
    server: GameServer, peers: list[Peer], caplog: pytest.LogCaptureFixture
) -> None:
    peer = await open_peer(server, peers, "Ana")
    for _ in range(8):
        await peer.send_raw(b"\xc1")
    with pytest.raises(ConnectionClosed):
        while True:
            await peer.ws.recv()
    assert peer.ws.close_code == 1008
    no_tracebacks(caplog)


async def test_o1_out_of_turn_and_spectator_actions_change_nothing(
    server: GameServer, peers: list[Peer], caplog: pytest.LogCaptureFixture
) -> None:
    table = await watched_table(server, peers)
    (ana, ben), eve = table.players, table.spectator
    before = await snapshot_of(eve)
    table = before.table
    assert table is not None and table.turn is not None
    shooter, waiting = (ana, ben) if table.turn == 0 else (ben, ana)
    shot = scripting.break_shot(table)
    free = list(scripting.free_spot(table, kitchen=True))

    refusals = [
        (waiting, shot, errors.NOT_YOUR_TURN),
        (waiting, {"t": "place", "pos": free}, errors.NOT_YOUR_TURN),
        (waiting, {"t": "aim", "angle": 0.0, "speed": 2.0}, errors.NOT_YOUR_TURN),
        (waiting, {"t": "choose", "choice": "pass"}, errors.NOT_YOUR_TURN),
        (eve, shot, errors.NOT_A_PLAYER),
        (eve, {"t": "place", "pos": free}, errors.NOT_A_PLAYER),
        (eve, {"t": "concede"}, errors.NOT_A_PLAYER),
        (eve, {"t": "ready"}, errors.NOT_A_PLAYER),
        # Every table action of a spectator gets the same code, whatever the room's phase.
        (eve, {"t": "aim", "angle": 0.0, "speed": 2.0}, errors.NOT_A_PLAYER),
        (eve, {"t": "lag", "speed": 2.0}, errors.NOT_A_PLAYER),
        (eve, {"t": "lag_choice", "choice": "break"}, errors.NOT_A_PLAYER),
        (eve, {"t": "choose", "choice": "pass"}, errors.NOT_A_PLAYER),
        (eve, {"t": "stalemate", "action": "propose"}, errors.NOT_A_PLAYER),
        (eve, {"t": "extend"}, errors.NOT_A_PLAYER),
        (eve, {"t": "rematch"}, errors.NOT_A_PLAYER),
        (shooter, {"t": "choose", "choice": "shoot"}, errors.NO_CHOICE_PENDING),
        (shooter, {**shot, "push_out": True}, errors.PUSH_OUT_NOT_ALLOWED),  # R6: not on a break
        (shooter, {"t": "place", "pos": [1.5, 0.6]}, errors.BAD_PLACEMENT),  # R10: the kitchen
        (shooter, {"t": "place", "pos": list(table.balls[1] or (0, 0))}, errors.BAD_PLACEMENT),
        (shooter, {"t": "stalemate", "action": "accept"}, errors.NO_STALEMATE_PROPOSAL),
        (shooter, {"t": "extend"}, errors.NO_SHOT_CLOCK),
        (shooter, {"t": "rematch"}, errors.MATCH_NOT_OVER),
        (shooter, {"t": "lag", "speed": 2.0}, errors.NO_LAG),
        (shooter, {"t": "ready"}, errors.INVALID_ACTION),
        (shooter, {**shot, "tip": [0.8, 0.8]}, errors.BAD_SHOT),  # O2: |tip| >= 1
        (shooter, {"t": "create"}, errors.ALREADY_IN_ROOM),
    ]
    for peer, message, code in refusals:
        error = await error_for(peer, message)
        assert error.code == code, (message, error)
        assert error.msg
    await assert_usable(shooter)
    after = await snapshot_of(eve)
    assert after.table == before.table
    assert after.seats == before.seats
    # The table still works for the player whose turn it is.
    assert isinstance(await shooter.request(shot), m.Ok)
    result = await eve.expect(m.ShotResult)
    assert result.shooter == table.turn and eve.gaps == 0
    no_tracebacks(caplog)


async def test_requests_outside_a_room(server: GameServer, peers: list[Peer]) -> None:
    peer = await open_peer(server, peers, "Ana")
    for message in ({"t": "ready"}, {"t": "shot", "angle": 0, "speed": 1}, {"t": "resync"}):
        assert (await error_for(peer, message)).code == errors.NOT_IN_ROOM
    assert (await error_for(peer, {"t": "leave"})).code == errors.NOT_IN_ROOM
    missing = await error_for(peer, {"t": "join", "room": "nosuchroom"})
    assert missing.code == errors.NO_SUCH_ROOM
    assert (await error_for(peer, {"t": "quick", "on": False})).code == errors.NOT_QUEUED


async def test_chat_is_rate_limited(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    await ana.request({"t": "create"})
    replies = [await ana.request({"t": "chat", "text": f"hello {i}"}) for i in range(7)]
    codes = [r.code if isinstance(r, m.Error) else "ok" for r in replies]
    assert codes[:5] == ["ok"] * 5
    assert errors.RATE_LIMITED in codes[5:]
    await ana.drain()
    relayed = [msg.text for msg in ana.seen if isinstance(msg, m.ChatRelay)]
    assert relayed == [f"hello {i}" for i, code in enumerate(codes) if code == "ok"]
