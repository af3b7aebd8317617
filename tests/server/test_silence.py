"""A connection that promised its next frame (`ping.expect`) and went silent is taken for
dropped: a phone whose network went away leaves no close behind, and the keepalive took
20-40 s to find out while the shooter's clock ran on and the opponent saw them present.
One that keeps its promise, withdraws it, or never made one, stays."""

from __future__ import annotations

import asyncio

from protocol import messages as m
from server.app import GameServer
from server.edge.client import Client
from tests.server.support import Peer, open_peer
from tests.server.test_sessions import table_for_two

#: The silence a promise of one second allows.
ALLOWED = 1 * Client.SILENCE_FACTOR + Client.SILENCE_SLACK


async def test_a_shooter_silent_past_their_promise_is_away_and_their_clock_stops(
    server: GameServer, peers: list[Peer]
) -> None:
    ana, ben, room, table = await table_for_two(server, peers, shot_clock=60)
    shooter, other = (ana, ben) if table.turn == 0 else (ben, ana)
    seat = table.turn
    # A spectator who keeps the same promise, and a player who withdrew theirs.
    cleo = await open_peer(server, peers, "Cleo")
    watching = await cleo.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    assert isinstance(await other.request({"t": "ping", "expect": 1}), m.Pong)
    assert isinstance(await other.request({"t": "ping"}), m.Pong)
    loop = asyncio.get_running_loop()
    promised = loop.time()
    assert isinstance(await shooter.request({"t": "ping", "expect": 1}), m.Pong)

    async def keep_promise() -> None:
        while True:
            await cleo.send({"t": "ping", "expect": 1})
            await asyncio.sleep(0.5)

    keeping = asyncio.create_task(keep_promise())
    try:
        gone = await other.expect(m.Presence, timeout=ALLOWED + 5)
        waited = loop.time() - promised
    finally:
        keeping.cancel()
    assert (gone.seat, gone.connected) == (seat, False) and gone.grace_until is not None
    assert ALLOWED - 0.5 <= waited <= 2 * ALLOWED + 3, waited
    # The shooter's clock stops for everyone while they are away.
    assert gone.clock is not None and gone.clock.paused
    # Nobody else was taken for dropped: the spectator kept the promise, the other player
    # withdrew theirs (a page in the background), and both still hear the room.
    await asyncio.sleep(1.0)
    assert not [p for p in other.take(m.Presence) if p.seat != seat]
    assert isinstance(await other.request({"t": "chat", "text": "still here"}), m.Ok)
    assert isinstance(await cleo.request({"t": "ping"}), m.Pong)
    hits = server.metrics.limit_hits.labels("silent")._value.get()
    assert hits == 1
    # The silent one comes back on a new connection with its token, as after any drop.
    back = await Peer.connect(server, shooter.name, token=shooter.token)
    peers.append(back)
    here = await other.expect(m.Presence)
    assert (here.seat, here.connected) == (seat, True)


async def test_a_promise_is_checked_as_sent(server: GameServer, peers: list[Peer]) -> None:
    """`expect` is 1-60 whole seconds: anything else is refused as a bad message and
    promises nothing."""
    ana = await open_peer(server, peers, "Ana")
    for bad in (0, 61, -1, 1.5, "4", True):
        answer = await ana.request({"t": "ping", "expect": bad})
        assert isinstance(answer, m.Error) and answer.code == "bad_message", bad
    await asyncio.sleep(ALLOWED + 1)
    assert isinstance(await ana.request({"t": "ping"}), m.Pong)


class _Transport:
    def __init__(self) -> None:
        self.aborted = False

    def abort(self) -> None:
        self.aborted = True


class _Socket:
    def __init__(self) -> None:
        self.transport = _Transport()


async def test_a_frame_handled_over_a_slow_await_is_not_the_peers_silence() -> None:
    """The frames after one handled over an await (a store's read in an outage) wait
    unread: that silence is the server's. The promise counts again from its end; a silence
    of the peer's own after it is still found."""
    socket = _Socket()
    client = Client(socket)  # type: ignore[arg-type]
    loop = asyncio.get_running_loop()
    client.promise(1, loop.time())
    with client.handling():
        await asyncio.sleep(ALLOWED + 1)
    assert not socket.transport.aborted
    await asyncio.sleep(ALLOWED + 1.5)
    assert socket.transport.aborted and client.closed
    client.forget_silence()
