"""A node's tournaments stop when the node does, whatever they were doing then."""

from __future__ import annotations

import asyncio

from tests.server.conftest import ServerFactory


async def test_a_nudge_as_the_node_stops_does_not_hold_up_its_shutdown(
    make_server: ServerFactory,
) -> None:
    """The driving loop waits for its next round or a nudge (a start asked for now, a
    match decided). A nudge in the same moment as the node's stop used to be taken as
    the wait's end and the stop lost (asyncio.wait_for on Python 3.11 returns when its
    inner wait finishes as it is cancelled): the loop went on and the node's shutdown
    hung on "the tournaments" (a node SIGTERMed in the cluster tests never closed its
    clients)."""
    server = await make_server()
    service = server.tournaments
    await asyncio.sleep(0.3)  # the loop has gone round once and waits
    async with asyncio.timeout(5) as limit:
        service.nudge()
        await service.stop()  # (awaited here, so its cancel comes in the nudge's moment)
    # (The old stop took the time limit's own cancellation for its loops' and returned
    # when it came: the limit had to run out for it to end.)
    assert not limit.expired(), "the stop was lost: the loop went on"
