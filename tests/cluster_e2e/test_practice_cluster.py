"""A practice table in a real cluster (three node processes, their own redis-server): the
player practises through n1, comes back through n2 and finds the table as it was, and
after n2 is killed outright (kill -9), comes back through n3 and finds it again — every
change that was acknowledged, undo history included — and again after n1 stops
gracefully. A second connection of the player
on another node takes the table over; the first one's next request is refused and
changes nothing."""

from __future__ import annotations

import asyncio
import signal
from typing import Any

from protocol import errors
from protocol import messages as m
from protocol import practice as pm
from tests.cluster_e2e.clients import WAIT, closed, open_peer, welcome_of
from tests.cluster_e2e.conftest import Cluster
from tests.server.support import Peer


async def change(peer: Peer, message: dict[str, Any]) -> pm.PracticeState:
    reply = await peer.request(message)
    assert isinstance(reply, m.Ok), reply
    return await peer.expect(pm.PracticeState, WAIT)


async def back_at_table(url: str, token: str | None, room: str) -> tuple[Peer, pm.PracticeView]:
    """The player says hello with their token: welcomed into the table, its state resent."""
    assert token is not None
    peer = await open_peer(url, "Ana", token=token)
    assert welcome_of(peer).room == room
    state = await peer.expect(pm.PracticeState, WAIT)
    assert state.room == room and state.cause == "resync"
    return peer, state.view


async def test_a_practice_table_follows_its_player_through_nodes_and_a_dead_node(
    cluster: Cluster,
) -> None:
    n1, n2, n3 = cluster.nodes
    ana = await open_peer(n1.ws_url, "Ana")
    joined = await ana.request({"t": "practice", "drill": "three_ball"})
    assert isinstance(joined, m.Joined), joined
    room = joined.room
    await ana.expect(pm.PracticeState, WAIT)
    await change(ana, {"t": "practice_put", "ball": 5, "pos": [1.9, 0.9]})
    shot = await ana.request({"t": "shot", "angle": 0.3, "speed": 2.5})
    assert isinstance(shot, m.Ok), shot
    played = (await ana.expect(pm.PracticeShot, WAIT)).view
    assert played.shots == 1 and played.undo == 2
    await ana.close()

    # Back through another node: the table as it was, and it goes on there.
    ben_side, view = await back_at_table(n2.ws_url, ana.token, room)
    assert view == played
    undone = await change(ben_side, {"t": "practice_undo"})
    assert undone.view.undo == 1 and undone.view.redo == 1 and undone.view.shots == 1
    rules = await change(ben_side, {"t": "practice_rules", "on": True})
    assert rules.view.rules

    # The node it runs on dies outright: the next node opens it from what was kept.
    n2.signal(signal.SIGKILL)
    assert await closed(ben_side) is not None
    cleo_side, view = await back_at_table(n3.ws_url, ben_side.token, room)
    assert view == rules.view
    redone = await change(cleo_side, {"t": "practice_redo"})
    assert redone.view.balls == played.balls and redone.view.redo == 0

    # A second connection on another node takes the table; the first cannot change it.
    second, view = await back_at_table(n1.ws_url, cleo_side.token, room)
    assert view == redone.view
    refused = await cleo_side.request({"t": "practice_remove", "ball": 5})
    assert isinstance(refused, m.Error) and refused.code == errors.NO_SUCH_ROOM, refused
    assert await cleo_side.expect(m.RoomGone, WAIT)
    still = await second.request({"t": "resync"})
    assert isinstance(still, pm.PracticeState) and still.view == redone.view

    # A graceful stop of the node keeps it too.
    assert await asyncio.to_thread(n1.terminate) == 0
    assert await closed(second) == 1001
    third, view = await back_at_table(n3.ws_url, second.token, room)
    assert view == redone.view

    # Left for good: nobody finds it any more, on any node.
    assert isinstance(await third.request({"t": "leave"}), m.Ok)
    await third.close()
    last = await open_peer(n3.ws_url, "Ana", token=third.token)
    assert welcome_of(last).room is None
    for peer in (cleo_side, last):
        await peer.close()
    assert not [line for line in cluster.trouble() if not line.startswith(("n1", "n2"))]
