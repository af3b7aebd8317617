"""Every request gets exactly one answer, whatever happens between the nodes.

F1: the shooter plays on a node that does not own the room, and Redis goes down and comes
back around the shot. The shot is played once and everyone gets its result; the shooter's
`ok` came too — it used to be lost in some runs (the owner published it while the
shooter's node was still subscribing again, to nobody; events are caught up from the
room's log, answers were not). Three shots across three restarts, and no request is
answered twice. While Redis is away `/healthz` stays up and `ninepool_redis_up` is 0."""

from __future__ import annotations

import asyncio
import urllib.request

from protocol import messages as m
from tests.cluster_e2e.clients import Table, fetch_replay, follow_ups, plan
from tests.cluster_e2e.conftest import METRICS_TOKEN, Cluster
from tests.cluster_e2e.processes import Node, wait_until_ready
from tests.cluster_e2e.test_failover import check_history, start_match
from tests.server import scripting
from tests.server.support import Peer

WAIT = 30.0
RESTARTS = 3


def health(node: Node) -> tuple[int, float | None]:
    """`/healthz`'s status and the node's `ninepool_redis_up`."""
    with urllib.request.urlopen(f"{node.http_url}/healthz", timeout=WAIT) as response:
        status = response.status
    return status, node.metrics(METRICS_TOKEN).get("ninepool_redis_up")


async def redis_up_again(node: Node) -> None:
    """Until the node says it reaches Redis again (its heartbeats go through)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT
    while (await asyncio.to_thread(health, node))[1] != 1.0:
        assert loop.time() < deadline, f"{node.name}: ninepool_redis_up stayed 0"
        await asyncio.sleep(0.1)


async def answers_to(peer: Peer, ids: list[int]) -> list[m.ServerMessage]:
    """Every answer the peer has had to these requests (ok, joined or error)."""
    return [
        message
        for message in peer.seen
        if isinstance(message, m.Ok | m.Joined | m.Error) and message.id in ids
    ]


async def ben_to_play(table: Table) -> bool:
    """Play on until it is Ben's turn (Ben plays on n2, the room is n1's); False if the
    match ended first."""
    for _ in range(60):
        current = table.table()
        if current.match_over:
            return False
        if current.turn == 1 and not current.choice_pending:
            return True
        await table.turn(prefer="pocket")
    return False


async def test_a_shot_from_another_node_across_redis_restarts_gets_one_ok(cluster: Cluster) -> None:
    # Breaks alternate, so Ben breaks the second and fourth games whoever wins: with the
    # winner breaking, a run of Ana's could end the match before Ben ever shot.
    room, ana, ben, cleo = await start_match(cluster, race_to=5, break_order="alternate")
    table = Table(players=[ana, ben], watchers=[cleo])
    played = 0
    for _ in range(RESTARTS):
        if not await ben_to_play(table):
            break
        before = table.table()
        cluster.redis.stop()
        for node in cluster.nodes:
            await wait_until_ready(node, False)
        for node in cluster.nodes:
            assert await asyncio.to_thread(health, node) == (200, 0.0)

        # Ben plays while Redis is away: his node keeps trying to reach the owner.
        sent: list[int] = []
        if before.ball_in_hand is not None:
            spot = scripting.free_spot(before, kitchen=before.ball_in_hand == "kitchen")
            sent.append(await ben.send({"t": "place", "pos": list(spot)}))
        shot = await ben.send(plan(before, "pocket"))
        sent.append(shot)
        await asyncio.sleep(0.5)
        cluster.redis.start()

        result = await ben.expect(m.ShotResult, WAIT)
        await table.settle(result.seq + follow_ups(result.verdict))
        await ben.drain(1.0)
        answers = await answers_to(ben, sent)
        assert sorted(a.id for a in answers if isinstance(a, m.Ok)) == sorted(sent), answers
        assert len(answers) == len(sent), f"answered twice: {answers}"
        for peer in table.everyone:
            peer.inbox.clear()
        for node in cluster.nodes:
            await wait_until_ready(node, True)
            await redis_up_again(node)
        played += 1
    final = table.table()
    assert played >= 2, (
        f"Ben had too few turns to play across the restarts: {table.shots} shots, "
        f"score {final.score}, match over: {final.match_over}"
    )

    document = await asyncio.to_thread(fetch_replay, cluster.nodes[2].http_url, room)
    check_history(document, [[ana], [ben], [cleo]])
    assert cluster.trouble() == []
