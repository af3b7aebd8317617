"""Redis restarted mid-match, and an owner paused past its lease: nothing that anybody was
told is lost, and the paused owner, once it runs again, cannot write. Owners paused again
and again: the room goes round the nodes, and every client, on every node, keeps up."""

from __future__ import annotations

import asyncio
import signal

import redis

from protocol import messages as m
from tests.cluster_e2e.clients import (
    Table,
    fetch_replay,
    open_peer,
    plan,
    room_events,
    shot_results,
)
from tests.cluster_e2e.conftest import METRICS_TOKEN, Cluster
from tests.cluster_e2e.processes import wait_until_ready
from tests.cluster_e2e.test_failover import (
    check_history,
    fresh_snapshot,
    same_play,
    start_match,
)
from tests.server import scripting
from tests.server.support import Peer

WAIT = 30.0
#: Owners paused, one after another, in `test_owners_paused_in_turn_lose_nobody`.
PAUSES = 6


async def play_out(table: Table, turns: int = 150) -> None:
    for _ in range(turns):
        if table.table().match_over:
            return
        await table.turn(prefer="nine")
    raise AssertionError(f"the match did not finish in {turns} turns: {table.table().score}")


async def test_redis_restarted_mid_match_loses_nothing(cluster: Cluster) -> None:
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    for _ in range(2):
        await table.turn(prefer="pocket")
    before = table.table()
    assert before.turn is not None and not before.match_over

    cluster.redis.stop()
    for node in cluster.nodes:
        await wait_until_ready(node, False)  # /readyz: the store cannot take writes

    # A shot while Redis is away: nobody is told its result before it is stored.
    shooter = table.players[before.turn]
    spot: list[float] | None = None
    if before.ball_in_hand is not None:
        spot = list(scripting.free_spot(before, kitchen=before.ball_in_hand == "kitchen"))
        await shooter.send({"t": "place", "pos": spot})
    await shooter.send(plan(before, "pocket"))
    quiet = await cleo.drain(2.0)  # longer than the lease: the owner must ride it out
    assert not [msg for msg in quiet if isinstance(msg, m.ShotResult)]

    cluster.redis.start()
    for node in cluster.nodes:
        await wait_until_ready(node, True)
    result = await asyncio.wait_for(_next_result(cleo, quiet), WAIT)
    await table.settle(result.seq)
    for peer in table.everyone:
        peer.inbox.clear()
    assert all(peer.table == result.table for peer in table.everyone)
    await play_out(table)

    document = await asyncio.to_thread(fetch_replay, cluster.nodes[2].http_url, room)
    check_history(document, [[ana], [ben], [cleo]])
    shots = [e["seq"] for e in document["events"] if e["t"] == "shot_result"]
    assert shots == [r.seq for r in shot_results(cleo)]
    # The owner kept its room through the outage: nobody else took it.
    lease = redis.Redis.from_url(cluster.redis.url).get(f"room:{room}:lease")
    assert lease is not None and lease.decode().startswith("1:n1")
    assert cluster.trouble() == []


async def _next_result(peer: Peer, kept: list[m.ServerMessage]) -> m.ShotResult:
    peer.inbox = [msg for msg in kept if not isinstance(msg, m.ShotResult)]
    return await peer.expect(m.ShotResult)


async def test_a_paused_owner_cannot_write_once_the_room_has_moved(cluster: Cluster) -> None:
    n1, n2, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    for _ in range(2):
        await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))
    old_ana = ana

    n1.signal(signal.SIGSTOP)  # a long pause of the owner (GC, a frozen VM...)
    # Ana, on the frozen node, says something: it waits in the node's socket.
    await old_ana.send({"t": "chat", "text": "said to a frozen server"})

    # Ben's and Cleo's nodes see the lease run out and the owner fall silent: one of
    # them adopts the room, and both get it back as it was.
    for peer in (ben, cleo):
        snapshot = await fresh_snapshot(peer, last_seq)
        assert snapshot.view.table is not None and same_play(snapshot.view.table, before)
    client = redis.Redis.from_url(cluster.redis.url)
    holder = client.get(f"room:{room}:lease")
    assert holder is not None
    epoch, _, owner = holder.decode().partition(":")
    assert int(epoch) == 2 and owner in ("n2", "n3")

    # Ana gives up on the frozen connection and comes back on another node.
    assert old_ana.ws.transport is not None
    old_ana.ws.transport.abort()
    ana = await open_peer(n2.ws_url, "Ana", token=old_ana.token)
    back = await fresh_snapshot(ana, last_seq)
    assert back.view.table is not None and same_play(back.view.table, before)
    table = Table(players=[ana, ben], watchers=[cleo])
    await asyncio.wait_for(asyncio.gather(*(p.catch_up(back.seq) for p in table.everyone)), WAIT)
    for peer in table.everyone:
        peer.inbox.clear()
    if not table.table().match_over:
        await table.turn(prefer="pocket")

    # The old owner runs again. Its lease is gone and its epoch is stale: whatever it
    # tries to store is refused, and it lets the room go.
    n1.signal(signal.SIGCONT)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while "fenced out" not in n1.log() and "lease at epoch 1 lost" not in n1.log():
        assert loop.time() < deadline, n1.log()[-2000:]
        await asyncio.sleep(0.1)
    # The old owner logs and counts the room it lost.
    lost = "ninepool_leases_lost_total"
    while (await asyncio.to_thread(n1.metrics, METRICS_TOKEN)).get(lost) != 1:
        assert loop.time() < deadline, n1.log()[-2000:]
        await asyncio.sleep(0.1)
    assert "lost to another node" in n1.log()
    state = client.hgetall(f"room:{room}:state")
    assert int(state[b"fence"]) == 2  # every save since the move carried the new epoch

    await play_out(table)
    document = await asyncio.to_thread(fetch_replay, n3.http_url, room)
    check_history(document, [[old_ana, ana], [ben], [cleo]])
    chats = [e for e in document["events"] if e["t"] == "chat"]
    assert len(chats) <= 1  # forwarded to the new owner at most once, never stored by n1
    assert all(e["seq"] > last_seq for e in chats)
    assert [n.trouble() for n in (n2, n3)] == [[], []]


async def test_owners_paused_in_turn_lose_nobody(cluster: Cluster) -> None:
    """Each round pauses whichever node owns the room past the node timeout, then lets it
    run again. Both kinds of node a pause can leave behind are met on the way: relays that
    register with the next owner while the paused one still listens on the room's action
    channel, and a resumed node whose clients the next owner let go of while it seemed
    dead. Every client gets the room back after each pause, and every shot after."""
    room, ana, ben, cleo = await start_match(cluster, race_to=9)
    table = Table(players=[ana, ben], watchers=[cleo])
    on_node = {"n1": ana, "n2": ben, "n3": cleo}
    client = redis.Redis.from_url(cluster.redis.url)
    owners = []
    for _ in range(PAUSES):
        await table.turn(prefer="pocket")
        for peer in table.everyone:
            peer.inbox.clear()
        last_seq = max(room_events(cleo))
        holder = client.get(f"room:{room}:lease")
        assert holder is not None
        owner = holder.decode().partition(":")[2]
        owners.append(owner)
        node = cluster.node(owner)
        node.signal(signal.SIGSTOP)
        for name, peer in on_node.items():
            if name != owner:
                await fresh_snapshot(peer, last_seq)
        node.signal(signal.SIGCONT)
        await fresh_snapshot(on_node[owner], last_seq)
        await table.settle(max(room_events(cleo)))
    assert len(set(owners)) >= 2, owners  # the room did go round
    # A race to 9 (so that none of it is over in the six pauses' turns): how many turns the
    # scripted players need depends on how the racks fall, and one match went past 150.
    await play_out(table, turns=400)
    document = await asyncio.to_thread(fetch_replay, cluster.nodes[0].http_url, room)
    check_history(document, [[ana], [ben], [cleo]])
    assert [e["seq"] for e in document["events"] if e["t"] == "shot_result"] == [
        r.seq for r in shot_results(cleo)
    ]
