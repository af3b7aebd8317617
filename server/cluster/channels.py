"""How the bus reaches pub/sub: one Redis, or the shards of a Redis Cluster.

`Channels` is the seam; `server.app` picks the implementation once, from the URL
(`redis://…` or `redis+cluster://…`, see `open_channels`), and nothing else asks again.

- `PlainChannels`: PUBLISH / SUBSCRIBE on the one Redis, every channel on one connection.
- `ShardedChannels`: SPUBLISH / SSUBSCRIBE (Redis 7's sharded pub/sub). A sharded channel
  lives in the hash slot of its name, like a key: a message is published to, and only
  travels through, the shard serving that slot, so pub/sub traffic is spread over the
  shards as the rooms are (a room's channels carry its hash tag, `room:{<id>}`, and lie
  on the shard of its keys). A subscriber needs a connection to each shard that serves
  one of its channels: the bus keeps one *line* (a connection) per shard, named by the
  shard (`line`).

Sharded pub/sub is routed by the slot map the cluster client learnt when it started. A
slot that moves to another shard (resharding, a replica promoted) is followed when the
line's connection is lost: the bus routes its channels again before subscribing anew.
"""

from __future__ import annotations

from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.connection import ConnectionPool

from server.store.redis import Client


class Channels(Protocol):
    """Publish and subscribe for the bus, on one Redis or on a cluster's shards."""

    async def prepare(self) -> None:
        """Learn what routing needs (a cluster's slot map); raises while Redis is away."""

    def line(self, channel: str) -> str:
        """The connection `channel` is subscribed on (raises if it cannot be known yet)."""

    def open(self, line: str) -> Any:
        """A new pub/sub connection for `line` (a redis-py `PubSub`)."""

    async def close(self, line: str, pubsub: Any) -> None:
        """Close a connection `open` gave."""

    async def subscribe(self, pubsub: Any, *channels: str) -> None: ...

    async def unsubscribe(self, pubsub: Any, *channels: str) -> None: ...

    def subscribed(self, pubsub: Any) -> set[str]:
        """The channels `pubsub` holds subscriptions to (or asked for)."""

    async def publish(self, channel: str, data: bytes) -> int:
        """Publish; how many subscribers received it."""

    def publish_in(self, pipe: Any, channel: str, data: bytes) -> None:
        """Queue a publish in a pipeline or transaction (which must be in the channel's
        slot on a cluster)."""

    async def listeners(self, channel: str) -> int:
        """How many connections are subscribed to `channel` now (NUMSUB)."""


#: Message kinds as the bus knows them, whichever pub/sub delivered them.
KINDS = {
    "subscribe": "subscribe",
    "unsubscribe": "unsubscribe",
    "message": "message",
    "ssubscribe": "subscribe",
    "sunsubscribe": "unsubscribe",
    "smessage": "message",
}


class PlainChannels:
    """PUBLISH and SUBSCRIBE on one Redis, every channel on one connection (line `""`)."""

    def __init__(self, client: aioredis.Redis) -> None:
        self.client = client

    async def prepare(self) -> None:
        return None

    def line(self, channel: str) -> str:
        return ""

    def open(self, line: str) -> Any:
        return self.client.pubsub()

    async def close(self, line: str, pubsub: Any) -> None:
        await pubsub.aclose()

    async def subscribe(self, pubsub: Any, *channels: str) -> None:
        await pubsub.subscribe(*channels)

    async def unsubscribe(self, pubsub: Any, *channels: str) -> None:
        await pubsub.unsubscribe(*channels)

    def subscribed(self, pubsub: Any) -> set[str]:
        return {_text(channel) for channel in pubsub.channels}

    async def publish(self, channel: str, data: bytes) -> int:
        return int(await self.client.publish(channel, data))

    def publish_in(self, pipe: Any, channel: str, data: bytes) -> None:
        pipe.publish(channel, data)

    async def listeners(self, channel: str) -> int:
        return _count(await self.client.pubsub_numsub(channel))


class _ShardPubSub(PubSub):
    """A pub/sub connection to one shard. On reconnecting, redis-py subscribes again to
    every channel in one SSUBSCRIBE, which a shard refuses for channels of different
    slots (CROSSSLOT): here each channel is subscribed on its own."""

    async def _resubscribe_shard_channels(self) -> None:
        for channel in list(self.shard_channels):
            await self.ssubscribe(channel)


class ShardedChannels:
    """SPUBLISH and SSUBSCRIBE on a Redis Cluster: one line per shard (its node name)."""

    def __init__(self, client: RedisCluster) -> None:
        self.client = client
        self._pools: dict[str, ConnectionPool] = {}

    async def prepare(self) -> None:
        await self.client.initialize()

    def line(self, channel: str) -> str:
        node = self.client.get_node_from_key(channel)
        if node is None:
            raise LookupError(f"no shard serves {channel}")
        return str(node.name)

    def open(self, line: str) -> Any:
        node = self.client.get_node(node_name=line)
        if node is None:
            raise LookupError(f"no shard {line} in the cluster")
        pool = ConnectionPool(connection_class=node.connection_class, **node.connection_kwargs)
        self._pools[line] = pool
        return _ShardPubSub(connection_pool=pool, encoder=self.client.encoder)

    async def close(self, line: str, pubsub: Any) -> None:
        await pubsub.aclose()
        pool = self._pools.pop(line, None)
        if pool is not None:
            await pool.disconnect()

    async def subscribe(self, pubsub: Any, *channels: str) -> None:
        for channel in channels:  # one slot to a command
            await pubsub.ssubscribe(channel)

    async def unsubscribe(self, pubsub: Any, *channels: str) -> None:
        for channel in channels:
            await pubsub.sunsubscribe(channel)

    def subscribed(self, pubsub: Any) -> set[str]:
        return {_text(channel) for channel in pubsub.shard_channels}

    async def publish(self, channel: str, data: bytes) -> int:
        return int(await self.client.spublish(channel, data))

    def publish_in(self, pipe: Any, channel: str, data: bytes) -> None:
        pipe.spublish(channel, data)

    async def listeners(self, channel: str) -> int:
        # Only the shard serving the channel's slot knows its subscribers.
        node = self.client.get_node_from_key(channel)
        reply = await self.client.execute_command("PUBSUB SHARDNUMSUB", channel, target_nodes=node)
        return _count(reply)


def open_channels(client: Client) -> Channels:
    """The pub/sub of the client the store was opened with (`redis+cluster://` gives a
    cluster client): decided once, when the node is wired (`server.app`)."""
    if isinstance(client, RedisCluster):
        return ShardedChannels(client)
    return PlainChannels(client)


def _count(reply: Any) -> int:
    """The count in a NUMSUB reply for one channel: `[(channel, n)]` or `[channel, n]`."""
    if isinstance(reply, dict):
        reply = next(iter(reply.values()))
    if reply and isinstance(reply[0], list | tuple):
        reply = reply[0]
    return int(reply[-1]) if reply else 0


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
