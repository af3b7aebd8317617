"""The owner killed (kill -9) at the default settings: the relays hear at once that it no
longer listens on Redis (its connections closed with it) and tell their clients the table
is moving then, not a node timeout later when its heartbeat lapses; the room is taken over
only when the heartbeat has lapsed, and everyone is told it is back."""

from __future__ import annotations

import asyncio

from tests.cluster_e2e.clients import Table, room_events
from tests.cluster_e2e.conftest import Cluster
from tests.cluster_e2e.test_failover import same_play, start_match
from tests.cluster_e2e.test_failover_times import moved, moved_then_back, notice, told

UNREACHABLE = "node n1 no longer listens"
DEAD = "node n1 stopped beating"
WAIT = 30.0


async def test_clients_hear_the_table_is_moving_before_the_owner_is_taken_for_dead(
    default_cluster: Cluster,
) -> None:
    cluster = default_cluster
    _, n2, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))
    await cluster.settled()
    since = {peer.name: len(peer.seen) for peer in (ben, cleo)}

    _, ana, snapshots = await moved(cluster, "kill", room, ana, ben, cleo, last_seq)
    for snapshot in snapshots:
        assert snapshot.view.table is not None and same_play(snapshot.view.table, before)
    for peer in (ben, cleo):
        await notice(peer, "back")
        said = told(peer, since[peer.name])
        assert moved_then_back(said) and said.count("moving") == 1, said
    # Each relay (Ben's n2, Cleo's n3) found the owner unreachable first, and only then
    # took it for dead (the room may be adopted just before a node logs that: the lease
    # script judges the heartbeat by itself).
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not all(DEAD in node.log() for node in (n2, n3)):
        assert loop.time() < deadline, "n1 was never taken for dead"
        await asyncio.sleep(0.1)
    for node in (n2, n3):
        log = node.log()
        assert UNREACHABLE in log, log[-2000:]
        assert log.index(UNREACHABLE) < log.index(DEAD)
    assert [n.trouble() for n in (n2, n3)] == [[], []]
