"""The pub/sub bus between nodes, on a real redis-server."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest

from server.cluster import Bus
from server.cluster.bus import BusError
from server.store.redis import connect
from tests.redis_server import RedisServer

WAIT = 30.0


async def eventually(condition: Callable[[], object], what: str) -> None:
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


class Node:
    """A bus plus what it received, per channel kind."""

    def __init__(self, url: str, name: str, **options: object) -> None:
        self.client = connect(url)
        self.inbox: list[bytes] = []
        self.reconnects = 0
        self.bus = Bus(
            self.client,
            name,
            on_node_message=self.inbox.append,
            on_reconnect=self._reconnected,
            **options,  # type: ignore[arg-type]
        )

    def _reconnected(self) -> None:
        self.reconnects += 1

    async def close(self) -> None:
        await self.bus.close()
        await self.client.aclose()


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[dict[str, Node]]:
    made = {name: Node(own_redis.url, name) for name in ("a", "b", "c")}
    for node in made.values():
        await node.bus.start()
    yield made
    for node in made.values():
        await node.close()


async def test_room_events_fan_out_in_order_to_every_watching_node(
    nodes: dict[str, Node],
) -> None:
    seen_b: list[bytes] = []
    seen_c: list[bytes] = []
    await nodes["b"].bus.watch_room("r1", seen_b.append)
    await nodes["c"].bus.watch_room("r1", seen_c.append)
    sent = [b"event %d" % n for n in range(200)]
    receivers = [await nodes["a"].bus.publish_event("r1", data) for data in sent]
    assert set(receivers) == {2}
    await eventually(lambda: len(seen_b) == len(sent) and len(seen_c) == len(sent), "delivery")
    assert seen_b == sent
    assert seen_c == sent


async def test_actions_reach_the_owner_only_while_it_serves(nodes: dict[str, Node]) -> None:
    actions: list[bytes] = []
    assert await nodes["b"].bus.send_action("r1", b"nobody owns r1") == 0
    await nodes["a"].bus.serve_actions("r1", actions.append)
    assert await nodes["b"].bus.send_action("r1", b"shoot") == 1
    assert await nodes["c"].bus.send_action("r1", b"chat") == 1
    await eventually(lambda: len(actions) == 2, "the actions")
    assert sorted(actions) == [b"chat", b"shoot"]
    await nodes["a"].bus.stop_serving_actions("r1")
    assert await nodes["b"].bus.send_action("r1", b"too late") == 0


async def test_node_inbox(nodes: dict[str, Node]) -> None:
    assert await nodes["a"].bus.send_to_node("b", b"reply for a client on b") == 1
    await eventually(lambda: nodes["b"].inbox, "the reply")
    assert nodes["b"].inbox == [b"reply for a client on b"]
    assert nodes["a"].inbox == [] and nodes["c"].inbox == []
    assert await nodes["a"].bus.send_to_node("nobody", b"x") == 0


async def test_unwatch_stops_delivery(nodes: dict[str, Node]) -> None:
    seen: list[bytes] = []
    await nodes["b"].bus.watch_room("r1", seen.append)
    await nodes["a"].bus.publish_event("r1", b"before")
    await eventually(lambda: seen, "the first event")
    await nodes["b"].bus.unwatch_room("r1")
    assert await nodes["a"].bus.publish_event("r1", b"after") == 0
    # The inbox shares b's connection, so once this arrives, "after" would have too.
    await nodes["a"].bus.send_to_node("b", b"marker")
    await eventually(lambda: nodes["b"].inbox, "the marker")
    assert seen == [b"before"]
    with pytest.raises(ValueError):
        await nodes["b"].bus.unsubscribe(nodes["b"].bus.keys.node_channel("b"))


async def test_a_failing_handler_does_not_stop_the_bus(nodes: dict[str, Node]) -> None:
    seen: list[bytes] = []

    def fragile(data: bytes) -> None:
        if data == b"bad":
            raise RuntimeError("handler bug")
        seen.append(data)

    await nodes["b"].bus.watch_room("r1", fragile)
    for data in (b"one", b"bad", b"two"):
        await nodes["a"].bus.publish_event("r1", data)
    await eventually(lambda: len(seen) == 2, "the good messages")
    assert seen == [b"one", b"two"]


async def test_subscriptions_come_back_after_redis_restarts(own_redis: RedisServer) -> None:
    publisher = Node(own_redis.url, "a", publish_deadline=0.3)
    watcher = Node(own_redis.url, "b")
    await publisher.bus.start()
    await watcher.bus.start()
    seen: list[bytes] = []
    await watcher.bus.watch_room("r1", seen.append)
    await publisher.bus.publish_event("r1", b"before")
    await eventually(lambda: seen == [b"before"], "the first event")

    own_redis.stop()
    await eventually(lambda: not watcher.bus.connected, "the watcher to notice")
    with pytest.raises(BusError):
        await publisher.bus.publish_event("r1", b"lost in the outage")
    # Subscribing while Redis is away is remembered and made on reconnection.
    actions: list[bytes] = []
    await watcher.bus.serve_actions("r2", actions.append)
    own_redis.start()
    await eventually(lambda: watcher.bus.connected and watcher.reconnects == 1, "reconnection")

    assert await publisher.bus.publish_event("r1", b"after") == 1
    assert await publisher.bus.send_action("r2", b"act") == 1
    assert await publisher.bus.send_to_node("b", b"inbox") == 1
    await eventually(lambda: seen == [b"before", b"after"], "the event after the restart")
    await eventually(lambda: actions == [b"act"] and watcher.inbox == [b"inbox"], "the rest")
    await publisher.close()
    await watcher.close()


async def test_starting_while_redis_is_down(own_redis: RedisServer) -> None:
    own_redis.stop()
    node = Node(own_redis.url, "late")
    start = asyncio.create_task(node.bus.start())
    await asyncio.sleep(0.2)
    own_redis.start()
    await asyncio.wait_for(start, WAIT)
    await eventually(lambda: node.bus.connected, "the connection")
    sender = connect(own_redis.url)
    assert await sender.publish(node.bus.keys.node_channel("late"), b"hello") == 1
    await eventually(lambda: node.inbox == [b"hello"], "the message")
    await sender.aclose()
    await node.close()
