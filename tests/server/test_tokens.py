"""Session tokens: signed, expiring, renewed by each hello; a seat belongs to the player id
a token is signed for, so a spectator's token or the other player's can never act in it
(O1); tokens never reach the logs."""

from __future__ import annotations

import asyncio
import base64
import hashlib
import hmac
import logging
from typing import Any

import pytest

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.edge.sessions import Sessions
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer, watched_table

PLAYER = "p_0123456789abcdef"


class Clock:
    def __init__(self) -> None:
        self.now = 1_767_225_600.0

    def __call__(self) -> float:
        return self.now


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def signed(secret: bytes, payload: bytes) -> str:
    tag = hmac.new(secret, b"ninepool-session\x00" + payload, hashlib.sha256).digest()[:20]
    return f"{b64(payload)}.{b64(tag)}"


def test_tokens_expire_after_their_ttl() -> None:
    clock = Clock()
    sessions = Sessions(b"secret", ttl=3600, clock=clock)
    token = sessions.issue(PLAYER)
    assert sessions.check(token).player == PLAYER
    clock.now += 3599
    assert sessions.verify(token) == PLAYER
    clock.now += 1
    assert sessions.check(token).problem == "expired"
    assert sessions.verify(token) is None
    assert sessions.verify(sessions.issue(PLAYER)) == PLAYER  # a fresh one works again


@pytest.mark.parametrize(
    "forge",
    [
        # Another player's id under this token's signature.
        lambda token: b64(f"p_fedcba9876543210|{2**40}".encode()) + "." + token.split(".")[1],
        # The same id with a later expiry, signature unchanged.
        lambda token: b64(f"{PLAYER}|{2**40}".encode()) + "." + token.split(".")[1],
        # Signed with another secret.
        lambda token: Sessions(b"other secret").issue(PLAYER),
        # The old format, without an expiry, even properly signed.
        lambda token: signed(b"secret", PLAYER.encode()),
        # Signed, but not a player id of ours.
        lambda token: signed(b"secret", f"admin|{2**40}".encode()),
        lambda token: signed(b"secret", f"p_{'x' * 60}|{2**40}".encode()),
        lambda token: signed(b"secret", f"{PLAYER}|soon".encode()),
        lambda token: token.split(".")[0],
        lambda token: token + "A",
        lambda token: "garbage.garbage",
        lambda token: "",
    ],
)
def test_a_changed_or_foreign_token_is_refused(forge: Any) -> None:
    sessions = Sessions(b"secret")
    assert sessions.check(forge(sessions.issue(PLAYER))).problem == "forged"


async def hello(server: GameServer, name: str, token: str | None) -> tuple[Peer, m.ServerMessage]:
    peer = await Peer.connect_raw(server, name)
    reply = await peer.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": name, "token": token}
    )
    if isinstance(reply, m.Welcome):
        peer.token, peer.player = reply.token, reply.player
    return peer, reply


async def test_hello_renews_the_token_and_an_expired_one_is_bad_token(
    make_server: ServerFactory, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    server = await make_server(token_ttl=1.0)
    first, welcome = await hello(server, "Ana", None)
    assert isinstance(welcome, m.Welcome)
    second, again = await hello(server, "Ana", welcome.token)
    assert isinstance(again, m.Welcome) and again.player == welcome.player
    assert server.gateway.sessions.verify(again.token) == welcome.player
    tokens = {welcome.token, again.token}
    # Once the TTL has passed the token is refused, clearly, and changes nothing.
    reply: m.ServerMessage | None = None
    for _ in range(40):
        await asyncio.sleep(0.1)
        third, reply = await hello(server, "Ana", welcome.token)
        await third.close()
        if isinstance(reply, m.Error):
            break
    assert isinstance(reply, m.Error) and reply.code == errors.BAD_TOKEN
    assert "expired" in reply.msg
    for peer in (first, second):
        await peer.close()
    logged = caplog.text
    assert "expired session token" in logged
    for token in tokens:
        assert token not in logged
        assert token.split(".")[1] not in logged


async def test_o1_only_the_token_of_the_seated_player_acts_in_the_seat(
    server: GameServer, peers: list[Peer]
) -> None:
    table = await watched_table(server, peers)
    shooter, waiting, eve, room = table.shooter, table.waiting, table.spectator, table.room
    assert shooter.table is not None
    shot = scripting.break_shot(shooter.table)
    seq = eve.seq
    # The spectator, on a fresh connection with its own (valid) token: still a spectator's
    # player id, never a seat.
    eve_again, welcome = await hello(server, "Eve", eve.token)
    peers.append(eve_again)
    assert isinstance(welcome, m.Welcome) and welcome.room is None
    assert (await eve_again.request(shot)).code == errors.NOT_IN_ROOM  # type: ignore[union-attr]
    assert (await eve.request(shot)).code == errors.NOT_A_PLAYER  # type: ignore[union-attr]
    # The other player's token, on another connection: its own seat, not the shooter's.
    other, welcome = await hello(server, waiting.name, waiting.token)
    peers.append(other)
    assert isinstance(welcome, m.Welcome) and welcome.room == room
    snapshot = await other.expect(m.Snapshot)
    mine = [s for s in snapshot.view.seats if s is not None and s.player == waiting.player]
    assert len(mine) == 1 and mine[0].seat != shooter.table.turn
    assert (await other.request(shot)).code == errors.NOT_YOUR_TURN  # type: ignore[union-attr]
    # A token forged for the shooter's id is refused before anything else.
    forged = signed(b"not the secret", f"{shooter.player}|{2**40}".encode())
    intruder, refused = await hello(server, "Mallory", forged)
    peers.append(intruder)
    assert isinstance(refused, m.Error) and refused.code == errors.BAD_TOKEN
    assert (await intruder.request(shot)).code == errors.HELLO_REQUIRED  # type: ignore[union-attr]
    # Nothing happened on the table.
    view = await eve.request({"t": "resync"})
    # (Not even a presence: the other player's new connection took over an open one.)
    assert isinstance(view, m.Snapshot) and view.seq == seq
    assert view.view.table is not None and view.view.table.turn == shooter.table.turn
    # The shooter's own token is the credential: it takes the seat over (the old connection
    # is closed) and plays.
    back, welcome = await hello(server, shooter.name, shooter.token)
    peers.append(back)
    assert isinstance(welcome, m.Welcome) and welcome.room == room
    await back.expect(m.Snapshot)
    assert isinstance(await back.request(shot), m.Ok)
    # Bound to that room: the seated player cannot sit down elsewhere.
    host = await open_peer(server, peers, "Host")
    elsewhere = await host.request({"t": "create"})
    assert isinstance(elsewhere, m.Joined)
    spare, _ = await hello(server, shooter.name, shooter.token)
    peers.append(spare)
    await spare.expect(m.Snapshot)
    taken = await spare.request({"t": "join", "room": elsewhere.room})
    assert isinstance(taken, m.Error) and taken.code == errors.ALREADY_IN_ROOM


async def test_a_token_no_longer_seats_a_player_who_left(
    server: GameServer, peers: list[Peer]
) -> None:
    waiting = (await watched_table(server, peers)).waiting
    assert isinstance(await waiting.request({"t": "leave"}), m.Ok)  # O4: concedes the match
    back, welcome = await hello(server, waiting.name, waiting.token)
    peers.append(back)
    assert isinstance(welcome, m.Welcome) and welcome.player == waiting.player
    assert welcome.room is None
    assert (await back.request({"t": "ready"})).code == errors.NOT_IN_ROOM  # type: ignore[union-attr]
