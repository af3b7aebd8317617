"""Spectators churning in one room cost everyone else a bounded number of frames.

Each spectator who joins or leaves a public room changes its lobby entry (the count) and
its members' view of it. Unpaced, every change went to every lobby subscriber and every
member at once: a few connections churning drove hundreds of megabytes to the lobby and
slowed other tables' shots. Paced, a room's entry reaches the subscribers, and its count
its members, at most once per `--update-interval` (the first change at once, the newest
when the interval is over); what the others hear then is bounded by time, not by how
hard anyone churns.
"""

from __future__ import annotations

import dataclasses
import time

from protocol import messages as m
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer

MANY = dataclasses.replace(
    Limits(), handshake_burst=1000, conns_per_address=1000, rate=1000.0, burst=1000
)
SUBSCRIBERS = 40
CHURNS = 30


async def test_a_churn_of_spectators_sends_a_bounded_number_of_frames(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=MANY)
    interval = 1.0  # the default --update-interval
    subscribers = [await open_peer(server, peers, f"Sub{n}") for n in range(SUBSCRIBERS)]
    for sub in subscribers:
        assert isinstance(await sub.request({"t": "lobby"}), m.Rooms)
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "watched"}})
    assert isinstance(created, m.Joined)
    for sub in subscribers:  # the new room is listed at once
        first = await sub.expect(m.RoomChanged)
        assert first.info.room == created.room
    eve = await open_peer(server, peers, "Eve")
    started = time.monotonic()
    for _ in range(CHURNS):
        joined = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(joined, m.Joined)
        assert isinstance(await eve.request({"t": "leave"}), m.Ok)
    elapsed = time.monotonic() - started
    # A marker: a new room, listed at once; whatever came before it has arrived.
    marker = await open_peer(server, peers, "Marker")
    made = await marker.request({"t": "create", "settings": {"name": "marker"}})
    assert isinstance(made, m.Joined)
    # At most one entry per interval (and the trailing one) per subscriber, not 2 per churn.
    bound = 2 + int(elapsed / interval)
    assert bound < 2 * CHURNS
    for sub in subscribers:
        updates = 0
        while True:
            update = await sub.expect(m.RoomChanged)
            if update.info.room == made.room:
                break
            updates += update.info.room == created.room
        assert updates <= bound, (updates, bound)
    # Ana, at the table, heard of the spectators as often, and never saw a seq gap.
    await ana.request({"t": "ping"})
    heard = len(ana.take(m.Spectators)) + len(ana.take(m.Presence))
    assert heard <= bound and ana.gaps == 0


async def test_the_newest_count_wins(make_server: ServerFactory, peers: list[Peer]) -> None:
    server = await make_server(limits=MANY, update_interval=0.2)
    watcher = await open_peer(server, peers, "Watcher")
    assert isinstance(await watcher.request({"t": "lobby"}), m.Rooms)
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "watched"}})
    assert isinstance(created, m.Joined)
    crowd = [await open_peer(server, peers, f"Fan{n}") for n in range(5)]
    for fan in crowd:
        joined = await fan.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(joined, m.Joined)
    assert isinstance(await crowd[0].request({"t": "leave"}), m.Ok)
    # Whatever was held back, the last word is the count as it is: four.
    entry = await watcher.expect(m.RoomChanged)
    while entry.info.room != created.room or entry.info.spectators != 4:
        entry = await watcher.expect(m.RoomChanged)
    count = await ana.expect(m.Spectators)
    while count.count != 4:
        count = await ana.expect(m.Spectators)
    assert count.room == created.room
    # A newcomer's snapshot has it too.
    late = await open_peer(server, peers, "Late")
    joined = await late.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(joined, m.Joined)
    snapshot = await late.expect(m.Snapshot)
    assert snapshot.view.spectators == 5
