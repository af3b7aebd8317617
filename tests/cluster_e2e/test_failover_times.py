"""A room's owner killed (kill -9) or stopped (SIGTERM) at the default settings: play
resumes within seconds, every player and spectator is told the table is moving and then
that it is back, a request made meanwhile is answered (done once, or refused
`room_moving`), and the nodes log and count what happened.

The bounds are generous (the machines are shared; `bench/failover.py` measures the times):
resumed within 10 s of a kill -9 (the default `--node-timeout` is 3 s) and within 3 s of
a SIGTERM (the rooms are handed over at once)."""

from __future__ import annotations

import asyncio
import signal

from protocol import messages as m
from tests.cluster_e2e.clients import Table, closed, fetch_replay, open_peer, room_events
from tests.cluster_e2e.conftest import METRICS_TOKEN, Cluster
from tests.cluster_e2e.processes import Node
from tests.cluster_e2e.test_failover import check_history, fresh_snapshot, same_play, start_match
from tests.server.support import Peer

WAIT = 30.0
#: Seconds within which play must resume (generous: see the module's docstring).
AFTER_KILL = 10.0
AFTER_TERM = 3.0


async def notice(peer: Peer, kind: str) -> m.Notice:
    while True:
        found = await peer.expect(m.Notice, WAIT)
        if found.kind == kind:
            return found


def told(peer: Peer, since: int = 0) -> list[str]:
    """What the peer was told from its `since`-th message on, in order: notices by kind,
    and each snapshot."""
    return [
        message.kind if isinstance(message, m.Notice) else "snapshot"
        for message in peer.seen[since:]
        if isinstance(message, m.Notice | m.Snapshot)
    ]


def moved_then_back(said: list[str]) -> bool:
    """Told the table was moving before anything else, and that it was back after its
    snapshot, last."""
    return bool(said) and said[0] == "moving" and said[-2:] == ["snapshot", "back"]


def metrics(node: Node) -> dict[str, float]:
    return node.metrics(METRICS_TOKEN)


async def until_metric(node: Node, name: str, value: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while (await asyncio.to_thread(metrics, node)).get(name) != value:
        assert loop.time() < deadline, f"{node.name}: {name} never became {value}"
        await asyncio.sleep(0.2)


async def until_logged(nodes: tuple[Node, ...], *lines: str) -> None:
    """Until every one of `lines` is in the logs of `nodes` together. A node's watch reads
    the heartbeats every sixth of the node timeout, so it may log a death or a departure
    just after another path (a rejoin, a hand-over) has already moved the room."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while not all(line in "".join(node.log() for node in nodes) for line in lines):
        assert loop.time() < deadline, [node.log()[-3000:] for node in nodes]
        await asyncio.sleep(0.2)


async def moved(
    cluster: Cluster,
    stop: str,
    room: str,
    ana: Peer,
    ben: Peer,
    cleo: Peer,
    last_seq: int,
    asking: Peer | None = None,
) -> tuple[float, Peer, list[m.Snapshot]]:
    """Stop the owner (n1, Ana's node) as `stop` says; Ana comes back through nginx;
    `asking` chats at once, before anybody knows what happened. The seconds until all
    three have the room again, Ana's new connection, the snapshots."""
    n1 = cluster.nodes[0]
    loop = asyncio.get_running_loop()
    started = loop.time()
    if stop == "kill":
        n1.kill()
    else:
        n1.signal(signal.SIGTERM)
    if asking is not None:
        await asking.send({"t": "chat", "text": "still there?"})
    await closed(ana)
    back = await open_peer(cluster.nginx.ws_url, "Ana", token=ana.token)
    snapshots = await asyncio.gather(*(fresh_snapshot(p, last_seq) for p in (back, ben, cleo)))
    resumed = loop.time() - started
    if stop != "kill":
        assert await asyncio.to_thread(n1.wait_exit, WAIT) == 0
    for snapshot in snapshots:
        assert snapshot.room == room
    return resumed, back, list(snapshots)


async def test_the_owner_killed_play_resumes_within_seconds_and_everyone_is_told(
    default_cluster: Cluster,
) -> None:
    cluster = default_cluster
    _, n2, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))
    first_ana = ana
    await cluster.settled()
    since = {peer.name: len(peer.seen) for peer in (ben, cleo)}

    resumed, ana, snapshots = await moved(
        cluster, "kill", room, ana, ben, cleo, last_seq, asking=ben
    )
    assert resumed < AFTER_KILL, f"play resumed {resumed:.1f} s after the kill"
    # Ben's chat, sent to an owner already dead, is answered: done, or refused to be sent
    # again (never lost, never twice).
    asked = await asyncio.wait_for(ben.reply_to(ben.next_id), WAIT)
    assert isinstance(asked, m.Ok) or (
        isinstance(asked, m.Error) and asked.code == "room_moving"
    ), asked
    for snapshot in snapshots:
        assert snapshot.view.table is not None and same_play(snapshot.view.table, before)
    # Ben and Cleo, whose nodes live on, were told the table was moving before they had it
    # back, and then that it is back.
    for peer in (ben, cleo):
        await notice(peer, "back")
        assert moved_then_back(told(peer, since[peer.name])), told(peer, since[peer.name])

    # Play goes on from where it was.
    table = Table(players=[ana, ben], watchers=[cleo])
    await asyncio.wait_for(
        asyncio.gather(*(p.catch_up(max(s.seq for s in snapshots)) for p in table.everyone)),
        WAIT,
    )
    for peer in table.everyone:
        peer.inbox.clear()
    await table.turn(prefer="pocket")

    await until_logged((n2, n3), "stopped beating", "adopted at epoch 2")
    await until_metric(n2, "ninepool_cluster_nodes", 2.0)
    counts = [await asyncio.to_thread(metrics, node) for node in (n2, n3)]
    assert sum(c["ninepool_adoptions_total"] for c in counts) == 1
    assert sum(c["ninepool_rooms_owned"] for c in counts) == 1
    assert sum(c["ninepool_rooms_relayed"] for c in counts) == 1  # Ben's or Cleo's node
    assert all(c["ninepool_redis_up"] == 1 for c in counts)
    document = await asyncio.to_thread(fetch_replay, n2.http_url, room)
    check_history(document, [[first_ana, ana], [ben], [cleo]])
    assert [n.trouble() for n in (n2, n3)] == [[], []]


async def test_the_owner_stopped_play_resumes_at_once_and_a_request_meanwhile_is_answered(
    default_cluster: Cluster,
) -> None:
    cluster = default_cluster
    n1, n2, n3 = cluster.nodes
    room, ana, ben, cleo = await start_match(cluster, race_to=2)
    table = Table(players=[ana, ben], watchers=[cleo])
    await table.turn(prefer="pocket")
    before = table.table()
    last_seq = max(room_events(cleo))
    await cluster.settled()
    since = {peer.name: len(peer.seen) for peer in (ben, cleo)}

    # Cleo (on n3) keeps chatting through the move: every request gets one answer, done
    # (ok) or refused room_moving, never none and never late.
    sent: list[int] = []

    async def chatter() -> None:
        for number in range(4):
            sent.append(await cleo.send({"t": "chat", "text": f"chat {number}"}))
            await asyncio.sleep(0.4)

    chatting = asyncio.create_task(chatter())
    await asyncio.sleep(0.3)
    resumed, ana, snapshots = await moved(cluster, "term", room, ana, ben, cleo, last_seq)
    await chatting
    assert resumed < AFTER_TERM, f"play resumed {resumed:.1f} s after the SIGTERM"
    for snapshot in snapshots:
        assert snapshot.view.table is not None and same_play(snapshot.view.table, before)
    for peer in (ben, cleo):
        await notice(peer, "back")
        assert moved_then_back(told(peer, since[peer.name])), told(peer, since[peer.name])
    answers = [await asyncio.wait_for(cleo.reply_to(request), WAIT) for request in sent]
    for answer in answers:
        assert isinstance(answer, m.Ok) or (
            isinstance(answer, m.Error) and answer.code == "room_moving"
        ), answer
    await cleo.drain(1.0)
    extra = [msg for msg in cleo.seen if getattr(msg, "id", None) in sent]
    assert len(extra) == len(sent), "a request was answered twice"

    table = Table(players=[ana, ben], watchers=[cleo])
    await asyncio.wait_for(
        asyncio.gather(*(p.catch_up(max(s.seq for s in snapshots)) for p in table.everyone)),
        WAIT,
    )
    for peer in table.everyone:
        peer.inbox.clear()
    await table.turn(prefer="pocket")
    await until_logged((n2, n3), "left the cluster")
    assert "handed 1 rooms over" in n1.log()
    assert [n.trouble() for n in (n2, n3)] == [[], []]
