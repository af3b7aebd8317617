"""The owner of a room dies (kill -9) mid-match: its lease runs out, another node adopts
the room from Redis, the players come back through nginx, and the match finishes with
every shot anyone saw, each exactly once."""

from __future__ import annotations

import asyncio
from typing import Any

import redis

from protocol import messages as m
from tests.cluster_e2e.clients import (
    Table,
    closed,
    fetch_replay,
    open_peer,
    room_events,
    shot_results,
    welcome_of,
)
from tests.cluster_e2e.conftest import Cluster
from tests.server.support import Peer

SHOT_CLOCK = 60
WAIT = 30.0


async def start_match(
    cluster: Cluster, race_to: int, break_order: str = "winner"
) -> tuple[str, Peer, Peer, Peer]:
    """Ana on n1 (the owner), Ben on n2, Cleo watching on n3: the draw made."""
    n1, n2, n3 = cluster.nodes
    ana = await open_peer(n1.ws_url, "Ana")
    ben = await open_peer(n2.ws_url, "Ben")
    cleo = await open_peer(n3.ws_url, "Cleo")
    settings = {
        "race_to": race_to,
        "first_break": "draw",
        "shot_clock": SHOT_CLOCK,
        "break_order": break_order,
    }
    created = await ana.request({"t": "create", "settings": settings})
    assert isinstance(created, m.Joined)
    room = created.room
    assert isinstance(await ben.request({"t": "join", "room": room}), m.Joined)
    spectating = await cleo.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(spectating, m.Joined)
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await ben.request({"t": "ready"}), m.Ok)
    draw = await cleo.expect(m.LagResult)
    await Table(players=[ana, ben], watchers=[cleo]).begin(draw)
    return room, ana, ben, cleo


async def fresh_snapshot(peer: Peer, after: int) -> m.Snapshot:
    """The next snapshot the peer gets (the room, as its new owner has it)."""
    while True:
        snapshot = await peer.expect(m.Snapshot, WAIT)
        if snapshot.seq >= after:
            return snapshot


def same_play(a: m.TableView, b: m.TableView) -> bool:
    return (a.score, a.balls, a.turn, a.rack, a.ball_in_hand, a.fouls, a.lowest) == (
        b.score,
        b.balls,
        b.turn,
        b.rack,
        b.ball_in_hand,
        b.fouls,
        b.lowest,
    )


def check_history(document: dict[str, Any], peers: list[list[Peer]]) -> None:
    """The replay is one unbroken, ordered log, and every room event any client ever saw
    is in it, unchanged: nothing acknowledged was lost, nothing was applied twice."""
    events = document["events"]
    seqs = [event["seq"] for event in events]
    assert seqs == list(range(seqs[0], seqs[0] + len(seqs))), "gaps or repeats in the log"
    by_seq = {event["seq"]: event for event in events}
    for lives in peers:
        for peer in lives:
            for seq, event in room_events(peer).items():
                stored = by_seq.get(seq)
                assert stored is not None, f"{peer.name} saw event {seq} the log does not have"
                if isinstance(event, m.Snapshot):
                    continue  # one sent to this client alone carries the latest seq
                assert stored["t"] == type(event).__struct_config__.tag
                if isinstance(event, m.ShotResult):
                    assert stored["traj"] == event.traj and stored["shooter"] == event.shooter


async def test_owner_killed_mid_match_the_room_moves_and_the_match_finishes(
    cluster: Cluster,
) -> None:
    n1, n2, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    for _ in range(3):
        await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))
    first_lives = {"Ana": [ana], "Ben": [ben], "Cleo": [cleo]}

    n1.kill()  # the owner, and Ana's node, crash
    await closed(ana)

    # Ana's client reconnects through nginx, which skips the dead node.
    ana = await open_peer(cluster.nginx.ws_url, "Ana", token=ana.token)
    first_lives["Ana"].append(ana)
    assert welcome_of(ana).room == room
    # Ben and Cleo never disconnected: their nodes find the room's new owner for them.
    snapshots = [await fresh_snapshot(peer, last_seq) for peer in (ana, ben, cleo)]
    for snapshot in snapshots:
        assert snapshot.view.table is not None
        assert same_play(snapshot.view.table, before), (snapshot.view.table, before)
        assert snapshot.view.table.clock is not None and before.clock is not None
        assert snapshot.view.table.clock.extensions == before.clock.extensions
    assert snapshots[0].view.table is not None and snapshots[0].view.table.clock is not None

    # Everybody has the room again: play the match out.
    table = Table(players=[ana, ben], watchers=[cleo])
    await asyncio.wait_for(
        asyncio.gather(*(p.catch_up(max(s.seq for s in snapshots)) for p in table.everyone)),
        WAIT,
    )
    for peer in table.everyone:
        peer.inbox.clear()
    for _ in range(150):
        if table.table().match_over:
            break
        await table.turn(prefer="nine")
    else:
        raise AssertionError("the match did not finish")
    assert max(table.table().score) == 2
    assert all(peer.table == table.table() for peer in table.everyone)

    document = await asyncio.to_thread(fetch_replay, n2.http_url, room)
    check_history(document, list(first_lives.values()))
    shots = [event["seq"] for event in document["events"] if event["t"] == "shot_result"]
    seen = sorted({r.seq for lives in first_lives.values() for p in lives for r in shot_results(p)})
    assert shots == seen  # every shot in the log was seen by the players, and vice versa
    assert [n.trouble() for n in (n2, n3)] == [[], []]


async def test_owner_stopped_gracefully_hands_its_rooms_over_at_once(cluster: Cluster) -> None:
    n1, _, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=1)
    table = Table(players=[ana, ben], watchers=[cleo])
    await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))

    assert await asyncio.to_thread(n1.terminate) == 0  # SIGTERM: saves, gives the lease up
    assert await closed(ana) == 1001
    ana = await open_peer(cluster.nginx.ws_url, "Ana", token=ana.token)
    snapshots = [await fresh_snapshot(peer, last_seq) for peer in (ana, ben, cleo)]
    for snapshot in snapshots:
        assert snapshot.view.table is not None and same_play(snapshot.view.table, before)
    table = Table(players=[ana, ben], watchers=[cleo])
    await asyncio.wait_for(
        asyncio.gather(*(p.catch_up(max(s.seq for s in snapshots)) for p in table.everyone)),
        WAIT,
    )
    for peer in table.everyone:
        peer.inbox.clear()
    for _ in range(150):
        if table.table().match_over:
            break
        await table.turn(prefer="nine")
    assert table.table().match_over
    document = await asyncio.to_thread(fetch_replay, n3.http_url, room)
    check_history(document, [[ana], [ben], [cleo]])
    assert cluster.trouble() == []


async def test_a_room_whose_players_all_lost_their_node_is_taken_over_by_itself(
    cluster: Cluster,
) -> None:
    """Nobody else has a client in the room: a sweep finds its lease gone and adopts it, so
    its clocks and grace periods run on; its players come back to it through nginx."""
    n1 = cluster.nodes[0]
    ana = await open_peer(n1.ws_url, "Ana")
    ben = await open_peer(n1.ws_url, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    assert isinstance(await ana.request({"t": "ready"}), m.Ok)
    assert isinstance(await ben.request({"t": "ready"}), m.Ok)
    draw = await ana.expect(m.LagResult)
    table = Table(players=[ana, ben])
    await table.begin(draw)
    result = await table.turn(prefer="pocket")

    n1.kill()
    store = redis.Redis.from_url(cluster.redis.url)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while True:
        holder = store.get(f"room:{created.room}:lease")
        if holder is not None and not holder.decode().endswith(":n1"):
            break
        assert loop.time() < deadline, "nobody took the room over"
        await asyncio.sleep(0.1)

    back = await open_peer(cluster.nginx.ws_url, "Ben", token=ben.token)
    assert welcome_of(back).room == created.room
    snapshot = await fresh_snapshot(back, result.seq)
    assert snapshot.view.table is not None and same_play(snapshot.view.table, result.table)
    assert cluster.trouble() == []
