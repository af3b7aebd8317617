"""The bounded send queue: a client that stops reading never holds its room up. A lagging
spectator is skipped ahead with a fresh snapshot (or closed when it keeps lagging), a
lagging player is resynced; everyone else gets every event, in order."""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import socket
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from protocol import messages as m
from protocol.codec import decode_client, encode
from server.app import GameServer
from server.edge.client import SKIP_AHEAD_ID
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer

#: A chat line of 600 bytes: the room event that fills a send queue fastest.
LONG = "✓" * 200

#: A small queue bound (64 KiB: a burst of twenty chat lines fits, a stalled reader's does
#: not), with chat unmetered so that a player can produce room events quickly.
#: (Dozens of clients of these tests connect from one address within a second: no limit
#: on how fast an address connects here.)
SMALL_QUEUE = dataclasses.replace(
    Limits(), send_buffer=65536, chat_rate=0.0, rate=0.0, handshake_rate=0.0
)


async def stalling_peer(server: GameServer, name: str) -> Peer:
    """A client with a tiny socket receive buffer that reads only when told to: once it
    stops, the server's send queue for it fills within a few dozen events."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    sock.connect(("127.0.0.1", server.port))
    sock.setblocking(False)
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        sock=sock,
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        compression=None,
        max_size=2**22,
        max_queue=1,  # websockets stops reading the socket as soon as one frame waits
        ping_interval=None,
    )
    peer = Peer(ws, name)
    welcome = await peer.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": name})
    assert isinstance(welcome, m.Welcome)
    peer.token, peer.player = welcome.token, welcome.player
    return peer


async def hang_up(peer: Peer) -> None:
    """Read what is left, then close (a client that does not read cannot see the server's
    answer to its close)."""
    with contextlib.suppress(ConnectionClosed):
        await read_all(peer, 0.1)
    await peer.close()


def hits(server: GameServer, kind: str) -> float:
    value = server.metrics.registry.get_sample_value("ninepool_limit_hits_total", {"kind": kind})
    return value or 0.0


async def table(server: GameServer, peers: list[Peer]) -> tuple[Peer, Peer, str]:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    return ana, ben, created.room


async def chat_until(
    server: GameServer, talker: Peer, watchers: list[Peer], kind: str, rounds: int = 60
) -> int:
    """Chat in bursts until the server reports `kind`; every watcher must see every line.
    Returns the room's seq after the last line."""
    last = 0
    for _ in range(rounds):
        ids = [await talker.send({"t": "chat", "text": LONG}) for _ in range(20)]
        for request_id in ids:
            assert isinstance(await talker.reply_to(request_id), m.Ok)
        # The room answers a resync after the chat lines: its seq is the latest.
        barrier = await talker.request({"t": "resync"})
        assert isinstance(barrier, m.Snapshot)
        last = barrier.seq
        for watcher in watchers:
            await watcher.catch_up(last)
        if hits(server, kind):
            break
    assert hits(server, kind), f"no {kind} after {rounds * 20} chat lines"
    return last


async def read_all(peer: Peer, quiet: float = 0.5) -> list[m.ServerMessage]:
    """Everything the server still has for `peer`, until it has been quiet a while."""
    out = list(peer.inbox)
    peer.inbox.clear()
    while True:
        try:
            out.append(await peer._read(quiet))
        except TimeoutError:
            return out


def room_events(messages: list[m.ServerMessage]) -> list[tuple[str, int]]:
    return [
        (type(msg).__name__, msg.seq)  # type: ignore[attr-defined]
        for msg in messages
        if isinstance(msg, m.ROOM_EVENTS)
    ]


def assert_in_order(events: list[tuple[str, int]]) -> None:
    for (_, before), (kind, seq) in itertools.pairwise(events):
        assert seq == before + 1 or kind == "Snapshot", events


async def test_a_spectator_that_stops_reading_is_skipped_ahead_with_a_snapshot(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=SMALL_QUEUE)
    ana, ben, room = await table(server, peers)
    eve = await open_peer(server, peers, "Eve")
    assert isinstance(await eve.request({"t": "join", "room": room, "role": "spectator"}), m.Joined)
    slow = await stalling_peer(server, "Slow")
    peers.append(slow)
    joined = await slow.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(joined, m.Joined)
    await slow.expect(m.Snapshot)
    start = slow.seq
    assert start is not None
    # Slow stops reading; the room keeps going for everyone else, without a gap.
    last = await chat_until(server, ana, [ben, eve], "send_lag")
    assert eve.gaps == ben.gaps == 0
    assert eve.seq == ben.seq == last
    # Slow reads again: what was already in flight, then a snapshot of the room as it is
    # now, then every event after it in order.
    messages = await read_all(slow)
    events = room_events(messages)
    assert_in_order(events)
    snapshots = [i for i, (kind, seq) in enumerate(events) if kind == "Snapshot" and seq > start]
    assert len(snapshots) == 1, events[-5:]
    skip = snapshots[0]
    before_skip = events[skip - 1][1] if skip else start
    assert events[skip][1] > before_skip + 1  # events were skipped, not queued
    snapshot = messages[[i for i, msg in enumerate(messages) if isinstance(msg, m.Snapshot)][-1]]
    assert isinstance(snapshot, m.Snapshot) and snapshot.id is None  # not a reply
    assert snapshot.view.spectators == 2
    assert events[-1][1] == last
    # From here on Slow is an ordinary member again.
    await ana.request({"t": "chat", "text": "after"})
    after = await slow.expect(m.ChatRelay)
    assert after.seq == last + 1 and after.text == "after"
    assert hits(server, "lag_close") == 0
    await hang_up(slow)


async def test_a_spectator_that_keeps_lagging_is_closed_1013(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=dataclasses.replace(SMALL_QUEUE, lag_limit=0))
    ana, ben, room = await table(server, peers)
    slow = await stalling_peer(server, "Slow")
    peers.append(slow)
    assert isinstance(
        await slow.request({"t": "join", "room": room, "role": "spectator"}), m.Joined
    )
    await chat_until(server, ana, [ben], "lag_close")
    assert ben.gaps == 0
    with contextlib.suppress(ConnectionClosed):
        await read_all(slow)
    assert slow.ws.close_code == 1013
    # The room noticed the spectator leave and went on (the count comes paced).
    count = await ben.expect(m.Spectators)
    while count.count != 0:
        count = await ben.expect(m.Spectators)


async def test_a_player_that_stops_reading_is_resynced_and_keeps_the_seat(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=dataclasses.replace(SMALL_QUEUE, lag_limit=0))
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    slow = await stalling_peer(server, "Ben")
    peers.append(slow)
    assert isinstance(await slow.request({"t": "join", "room": created.room}), m.Joined)
    eve = await open_peer(server, peers, "Eve")
    joined = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(joined, m.Joined)
    last = await chat_until(server, ana, [eve], "send_lag")
    assert eve.gaps == 0
    # Never closed for lagging (lag_limit 0 closes spectators only), and resynced.
    messages = await read_all(slow)
    events = room_events(messages)
    assert_in_order(events)
    assert events[-1] == ("ChatRelay", last) or events[-1] == ("Snapshot", last)
    resync = [msg for msg in messages if isinstance(msg, m.Snapshot) and msg.seq == last]
    assert resync and resync[-1].view.seats[1] is not None
    assert resync[-1].view.seats[1].connected
    # Still the player in seat 1: ready works, and the match starts.
    assert isinstance(await slow.request({"t": "ready"}), m.Ok)
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    draw = await slow.expect(m.LagResult)
    assert draw.winner in (0, 1)
    assert hits(server, "lag_close") == 0 and not slow.ws.close_code
    await hang_up(slow)


async def test_lobby_updates_are_never_skipped_outside_a_room(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    # Outside a room there is no snapshot to catch up with: a lobby watcher that does not
    # read is kept (until it stops reading altogether) and misses nothing.
    # Thirty rooms from one address: past its default allowance of open rooms.
    server = await make_server(limits=dataclasses.replace(SMALL_QUEUE, rooms_per_address=0))
    slow = await stalling_peer(server, "Lobbyist")
    peers.append(slow)
    rooms = await slow.request({"t": "lobby", "on": True})
    assert isinstance(rooms, m.Rooms)
    hosts: list[Any] = []
    for index in range(30):
        host = await open_peer(server, peers, f"Host{index}")
        created = await host.request({"t": "create", "settings": {"name": "x" * 40}})
        assert isinstance(created, m.Joined)
        hosts.append(created.room)
    updates = [msg for msg in await read_all(slow) if isinstance(msg, m.RoomChanged)]
    assert {update.info.room for update in updates} == set(hosts)
    assert hits(server, "send_lag") == 0
    await hang_up(slow)


def test_the_skip_ahead_resync_is_a_valid_request_anywhere() -> None:
    # In a cluster the resync travels to the node that owns the room and is decoded there
    # as any client's request: it must pass the client schema.
    message = decode_client(encode(m.Resync(id=SKIP_AHEAD_ID)))
    assert isinstance(message, m.Resync) and message.id == SKIP_AHEAD_ID
