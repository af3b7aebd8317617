"""Batches between nodes on a real redis-server: a batch published while its node is not
listening (reconnecting to Redis, say) is sent again until it is heard — the answers to a
client's requests are not lost that way (F1); a node found dead is given up on; a stopping
node holds its batches until it has handed its rooms over; and what an owner published on
a room's action channel before it stopped serving it reaches it all the same."""

from __future__ import annotations

import asyncio

from server.cluster import wire
from server.cluster.remote import Links
from tests.cluster.test_bus import Node, eventually
from tests.redis_server import RedisServer


def items(node: Node) -> list[bytes]:
    return [item.frame for data in node.inbox for item in wire.decode_batch(data).items]


async def test_a_batch_waits_for_its_node_to_listen(own_redis: RedisServer) -> None:
    owner = Node(own_redis.url, "owner")
    await owner.bus.start()
    dead: set[str] = set()
    links = Links(owner.bus, "owner", is_dead=dead.__contains__)
    links.frame("relay", 1, 1, b"ok for request 7", event=False)
    links.frame("gone", 1, 1, b"for nobody", event=False)
    await asyncio.sleep(0.5)  # published to nobody, again and again
    assert links.batches_sent == 0

    relay = Node(own_redis.url, "relay")
    await relay.bus.start()  # subscribes to its own channel: now it hears
    await eventually(lambda: items(relay) == [b"ok for request 7"], "the batch")
    dead.add("gone")
    await eventually(lambda: links.batches_sent == 2, "the dead node given up on")

    # A stopping node gathers its last words and sends them once it lets them go.
    links.hold()
    links.frame("relay", 1, 1, b"rehome", event=False)
    await asyncio.sleep(0.3)
    assert items(relay) == [b"ok for request 7"]
    links.release()
    await eventually(lambda: items(relay)[-1:] == [b"rehome"], "the held batch")
    await links.close()
    for node in (owner, relay):
        await node.close()


async def test_actions_published_before_unsubscribing_are_handled(
    own_redis: RedisServer,
) -> None:
    owner = Node(own_redis.url, "owner")
    relay = Node(own_redis.url, "relay")
    for node in (owner, relay):
        await node.bus.start()
    got: list[bytes] = []
    await owner.bus.serve_actions("r1", got.append)
    sent = [relay.bus.send_action("r1", b"action %d" % n) for n in range(50)]
    _, *receivers = await asyncio.gather(owner.bus.stop_serving_actions("r1"), *sent)
    # Whatever Redis counted as received before the unsubscription took effect is handled.
    assert len(got) == sum(receivers)
    assert await relay.bus.send_action("r1", b"late") == 0
    for node in (owner, relay):
        await node.close()
