"""The bounded send queue across nodes: a client of node b in a room node a owns is held
to the same policy as a client of the owner. A spectator that falls behind is skipped
ahead with a fresh snapshot, and closed (1013) once it has fallen behind more than
`lag_limit` times; a player is resynced every time and keeps its seat; everyone else gets
every event, in order."""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import AsyncIterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.protocol import State

from protocol import messages as m
from server.app import GameServer
from server.edge.limits import LAG_CLOSE, SEND_LAG
from tests.cluster.conftest import two_nodes
from tests.redis_server import RedisServer
from tests.server.support import Peer
from tests.server.test_limits_send import (
    LONG,
    SMALL_QUEUE,
    assert_in_order,
    hang_up,
    hits,
    read_all,
    room_events,
    stalling_peer,
)

#: One lag is forgiven; the second closes a spectator (and never a player).
LAG_LIMIT = 1


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[tuple[GameServer, GameServer]]:
    """Nodes a and b on one redis-server, both with a small send queue."""
    limits = dataclasses.replace(SMALL_QUEUE, lag_limit=LAG_LIMIT)
    async with two_nodes(own_redis, limits=limits) as started:
        yield started


async def chat_until(
    counted: GameServer, talker: Peer, watchers: list[Peer], kind: str, count: int
) -> int:
    """`talker` chats in bursts until node `counted` has met the limit `kind` `count`
    times; every watcher must see every line. Returns the room's seq after the last line."""
    for _ in range(60):
        ids = [await talker.send({"t": "chat", "text": LONG}) for _ in range(20)]
        for request_id in ids:
            assert isinstance(await talker.reply_to(request_id), m.Ok)
        # The room answers a resync after the chat lines: its seq is the latest. Once a
        # watcher of node b has it, node b has relayed every line before it.
        barrier = await talker.request({"t": "resync"})
        assert isinstance(barrier, m.Snapshot)
        for watcher in watchers:
            await watcher.catch_up(barrier.seq)
        if hits(counted, kind) >= count:
            return barrier.seq
    raise AssertionError(f"{kind} met {hits(counted, kind):g} times, not {count}")


async def skipped_ahead(slow: Peer, since: int, last: int) -> None:
    """`slow` reads again: what was in flight, then one snapshot nobody asked for (the room
    as it is now, events skipped before it), then every event after it, up to `last`."""
    messages = await read_all(slow)
    # On a loaded machine the snapshot can come after the half second of quiet that ends
    # `read_all`: read on (10 s at most each) until the room's last event is in.
    while (room_events(messages) or [("", -1)])[-1][1] < last:
        messages.append(await slow._read(10.0))
    events = room_events(messages)
    assert_in_order(events)
    snapshots = [i for i, (kind, seq) in enumerate(events) if kind == "Snapshot" and seq > since]
    assert len(snapshots) == 1, events[-5:]
    skip = snapshots[0]
    before_skip = events[skip - 1][1] if skip else since
    assert events[skip][1] > before_skip + 1  # events were skipped, not queued
    snapshot = [msg for msg in messages if isinstance(msg, m.Snapshot)][-1]
    assert snapshot.id is None  # not a reply
    assert events[-1][1] == last


async def test_a_spectator_of_a_room_owned_elsewhere_is_closed_1013_when_it_keeps_lagging(
    nodes: tuple[GameServer, GameServer],
) -> None:
    a, b = nodes
    ana = await Peer.connect(a, "Ana")
    ben = await Peer.connect(b, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    slow = await stalling_peer(b, "Slow")
    watching = await slow.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.role == "spectator"
    await slow.expect(m.Snapshot)
    assert slow.seq is not None

    # Slow stops reading: it falls behind once, which is forgiven; it is skipped ahead.
    last = await chat_until(b, ana, [ben], SEND_LAG, 1)
    await skipped_ahead(slow, slow.seq, last)
    assert hits(b, LAG_CLOSE) == 0 and slow.ws.state is State.OPEN
    await ana.request({"t": "chat", "text": "after"})
    after = await slow.expect(m.ChatRelay)
    assert after.seq == last + 1 and after.text == "after"

    # It stops reading again: lag_limit + 1 lags in ten minutes close it, on its own node.
    await chat_until(b, ana, [ben], LAG_CLOSE, 1)
    assert hits(b, SEND_LAG) == LAG_LIMIT + 1
    assert hits(a, SEND_LAG) == hits(a, LAG_CLOSE) == 0
    with contextlib.suppress(ConnectionClosed):
        await read_all(slow)
    assert slow.ws.close_code == 1013 and slow.ws.close_reason == "too slow"

    # The owner hears the spectator go; the players got every event and go on.
    while (await ana.expect(m.Spectators)).count != 0:
        pass
    chat = await ana.request({"t": "chat", "text": "still here"})
    assert isinstance(chat, m.Ok)
    relayed = await ben.expect(m.ChatRelay)
    while relayed.text != "still here":
        relayed = await ben.expect(m.ChatRelay)
    await ana.catch_up(relayed.seq)
    assert ana.gaps == ben.gaps == 0 and ana.seq == ben.seq == relayed.seq
    for peer in (ana, ben):
        await peer.close()


async def test_a_player_in_a_room_owned_elsewhere_is_resynced_and_never_closed(
    nodes: tuple[GameServer, GameServer],
) -> None:
    a, b = nodes
    ana = await Peer.connect(a, "Ana")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    slow = await stalling_peer(b, "Ben")
    seated = await slow.request({"t": "join", "room": created.room})
    assert isinstance(seated, m.Joined) and seated.seat == 1
    eve = await Peer.connect(b, "Eve")
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await slow.expect(m.Snapshot)
    assert slow.seq is not None

    # Ben stops reading, twice: more lags than a spectator is allowed, and each time he
    # is skipped ahead to the room as it is, in his seat.
    for lags in range(1, LAG_LIMIT + 2):
        since = slow.seq
        assert since is not None
        last = await chat_until(b, ana, [eve], SEND_LAG, lags)
        await skipped_ahead(slow, since, last)
        assert slow.view is not None and slow.view.seats[1] is not None
        assert slow.view.seats[1].player == slow.player and slow.view.seats[1].connected
    assert hits(b, SEND_LAG) == LAG_LIMIT + 1
    assert hits(b, LAG_CLOSE) == 0 and slow.ws.close_code is None
    assert eve.gaps == 0

    # Still the player in seat 1: ready works, and the match starts.
    assert isinstance(await slow.request({"t": "ready"}), m.Ok)
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    draw = await slow.expect(m.LagResult)
    assert draw.winner in (0, 1)
    assert (await eve.expect(m.LagResult)).seq == draw.seq
    assert eve.gaps == 0
    await hang_up(slow)
    for peer in (ana, eve):
        await peer.close()
