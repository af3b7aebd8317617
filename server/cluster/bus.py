"""Pub/sub fan-out between nodes, on Redis.

Three kinds of channel (names in `server.store.redis.RedisKeys`):

- `room:<id>`          the owner publishes each room event (after the store has it);
                       every node with clients in the room subscribes and forwards.
- `room:<id>:actions`  any node sends a client's action for the room; only the owner
                       subscribes. `send_action` returns how many listened: 0 means the
                       room has no live owner (time to acquire its lease and restore it).
- `node:<id>`          a node's own inbox, e.g. replies to clients connected to it.

On a Redis Cluster the channels are sharded ones (`server.cluster.channels`): each lives
on the shard of its slot, and the bus keeps one connection (a *line*) to each shard that
serves one of its channels, each read by a task of its own.

Payloads are opaque bytes. Redis pub/sub delivers in order but at most once: a node
that loses its connection misses what was published meanwhile. The bus reconnects by
itself, subscribes again to every channel, then calls `on_reconnect`, whose job is to
catch up from the store (every room event is in the room's log, with its `seq`, before
it is published, so `store.log(room, after=last_seq_seen)` fills any gap).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import redis.asyncio as aioredis

from server.cluster.channels import KINDS, Channels, PlainChannels
from server.store.redis import (
    QUICK_BACKOFF,
    Backoff,
    RedisKeys,
    cancel_requested,
    is_transient,
    retrying,
)

log = logging.getLogger(__name__)

#: Called on the bus's reader task, in publish order, with the message's bytes. Keep it
#: quick (hand the message to a room's queue): the next message waits for it.
Handler = Callable[[bytes], object]

_READ_TIMEOUT = 1.0
_IDLE_PING = 5.0
_SUBSCRIBE_WAIT = 5.0
#: How often channels that cannot be routed yet (a cluster not reached) are tried again.
_ROUTE_RETRY = 0.5


class BusError(Exception):
    """A publish could not reach Redis in time."""


@dataclass
class _Line:
    """One pub/sub connection: to the one Redis, or to one shard of a cluster."""

    name: str
    pubsub: Any
    connected: bool = False
    reader: asyncio.Task[None] | None = None
    #: Set once the line has been connected (and subscribed) for the first time.
    ever_connected: bool = False


class Bus:
    """One node's pub/sub: publish to channels, and route what arrives to handlers."""

    def __init__(
        self,
        client: aioredis.Redis,
        node: str,
        *,
        prefix: str = "",
        keys: RedisKeys | None = None,
        channels: Channels | None = None,
        on_node_message: Handler | None = None,
        on_reconnect: Callable[[], object] | None = None,
        publish_deadline: float = 5.0,
        backoff: Backoff = QUICK_BACKOFF,
    ) -> None:
        """`keys`: the store's key and channel names (its layout), else those of `prefix`;
        `channels`: how pub/sub is reached (default: PUBLISH/SUBSCRIBE on `client`)."""
        if not node:
            raise ValueError("a node id is required")
        self.client = client
        self.node = node
        self.keys = keys if keys is not None else RedisKeys(prefix)
        self.channels: Channels = channels if channels is not None else PlainChannels(client)
        self._on_reconnect = on_reconnect
        self._publish_deadline = publish_deadline
        self._backoff = backoff
        self._handlers: dict[str, Handler] = {}
        #: The line each channel is subscribed on (absent: not routed yet).
        self._route: dict[str, str] = {}
        self._lines: dict[str, _Line] = {}
        self._unrouted = asyncio.Event()
        self._confirmed: dict[str, asyncio.Event] = {}
        self._unsubscribed: dict[str, asyncio.Event] = {}
        self._closed = False
        self._started = False
        self._router: asyncio.Task[None] | None = None
        #: Loop time when a line last (re)connected.
        self._joined_at = 0.0
        self._inbox = self.keys.node_channel(node)
        self._handlers[self._inbox] = on_node_message or (lambda data: None)

    @property
    def connected(self) -> bool:
        """Whether the subscriptions are live (False while Redis, or one of the shards
        serving this node's channels, is unreachable)."""
        if not self._lines or len(self._route) < len(self._handlers):
            return False
        return all(line.connected for line in self._lines.values())

    def steady_for(self) -> float:
        """Seconds since the last line (re)connected (0 while one is not connected): just
        after an outage the other nodes are still subscribing again too."""
        if not self.connected:
            return 0.0
        return asyncio.get_running_loop().time() - self._joined_at

    async def listeners(self, channel: str) -> int:
        """How many connections are subscribed to `channel` now (a node's inbox has one
        while the node is alive and reaches Redis: a crash closes it at once)."""
        return await self.channels.listeners(channel)

    async def start(self) -> None:
        """Subscribe to this node's inbox and start reading. Works with Redis down too:
        the subscriptions are made as soon as it answers."""
        if self._started:
            return
        self._started = True
        self._router = asyncio.create_task(self._route_loop(), name=f"bus {self.node} routes")
        for channel in list(self._handlers):
            self._place(channel)
        await self._wait_confirmed(self._inbox)

    async def close(self) -> None:
        self._closed = True
        tasks = [line.reader for line in self._lines.values() if line.reader is not None]
        if self._router is not None:
            tasks.append(self._router)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        for line in list(self._lines.values()):
            with contextlib.suppress(Exception):
                await self.channels.close(line.name, line.pubsub)
        self._lines.clear()

    # --- rooms ----------------------------------------------------------------------------

    async def publish_event(self, room: str, data: bytes) -> int:
        """Fan a room event out to every node watching the room; how many received it."""
        return await self.publish(self.keys.room_channel(room), data)

    async def watch_room(self, room: str, handler: Handler) -> None:
        """Receive the room's events (this node has clients in a room it does not own)."""
        await self.subscribe(self.keys.room_channel(room), handler)

    async def unwatch_room(self, room: str) -> None:
        await self.unsubscribe(self.keys.room_channel(room))

    async def send_action(self, room: str, data: bytes) -> int:
        """Send a client's action to the room's owner; 0 if no owner is listening."""
        return await self.publish(self.keys.action_channel(room), data)

    async def serve_actions(self, room: str, handler: Handler) -> None:
        """As the room's owner, receive the actions other nodes send for it."""
        await self.subscribe(self.keys.action_channel(room), handler)

    async def stop_serving_actions(self, room: str) -> None:
        await self.unsubscribe(self.keys.action_channel(room))

    async def send_to_node(self, node: str, data: bytes) -> int:
        """Deliver to another node's inbox (its `on_node_message`)."""
        return await self.publish(self.keys.node_channel(node), data)

    # --- any channel ----------------------------------------------------------------------

    async def publish(self, channel: str, data: bytes) -> int:
        """Publish, retrying while Redis is unreachable for up to `publish_deadline`
        seconds; `BusError` after that. Returns how many subscribers received it."""

        async def attempt(_: int) -> Any:
            return await self.channels.publish(channel, data)

        try:
            receivers = await retrying(
                attempt,
                what=f"publish to {channel}",
                backoff=self._backoff,
                deadline=self._publish_deadline,
                stop=lambda: self._closed,
            )
        except Exception as exc:
            raise BusError(f"publish to {channel}: {exc}") from exc
        return int(receivers)

    async def subscribe(self, channel: str, handler: Handler) -> None:
        """Route `channel`'s messages to `handler` (replacing any earlier handler). Returns
        once Redis confirmed the subscription, or at once while Redis is unreachable (it
        is made on reconnection, followed by `on_reconnect`)."""
        self._handlers[channel] = handler
        if self._closed:
            raise BusError("the bus is closed")
        if not self._started:
            return  # made by `start`
        self._confirmed.pop(channel, None)
        line = self._place(channel)
        if line is None:
            return  # routed (and subscribed) once the cluster answers
        if not line.connected:
            # The line's reader subscribes it as it connects (two commands racing on a
            # connection not made yet would each open one); a new line is waited for.
            if not line.ever_connected:
                await self._wait_confirmed(channel)
            return
        try:
            await self.channels.subscribe(line.pubsub, channel)
        except Exception as exc:
            if not is_transient(exc):
                raise
            return
        await self._wait_confirmed(channel)

    async def unsubscribe(self, channel: str) -> None:
        """Stop receiving `channel`. What was published on it before Redis confirmed is
        still handed to the handler (a publisher counted this node as a receiver, so it
        must not be dropped); returns once confirmed (or at once while Redis is away)."""
        if channel == self._inbox:
            raise ValueError("the node's own inbox stays subscribed")
        handler = self._handlers.get(channel)
        self._confirmed.pop(channel, None)
        line = self._lines.get(self._route.get(channel, "\0"))
        if line is not None and line.connected:
            done = self._unsubscribed[channel] = asyncio.Event()
            with contextlib.suppress(Exception):
                await self.channels.unsubscribe(line.pubsub, channel)
                await asyncio.wait_for(done.wait(), _SUBSCRIBE_WAIT)
            self._unsubscribed.pop(channel, None)
        if self._handlers.get(channel) is handler:  # not subscribed again meanwhile
            self._handlers.pop(channel, None)
            self._route.pop(channel, None)

    # --- lines ----------------------------------------------------------------------------

    def _place(self, channel: str) -> _Line | None:
        """The line `channel` belongs on (opened, with its reader, if new); None if it
        cannot be routed yet (a cluster whose slot map is not known: `_route_loop`)."""
        name = self._route.get(channel)
        if name is None:
            try:
                name = self.channels.line(channel)
            except Exception:
                self._unrouted.set()
                return None
            self._route[channel] = name
        line = self._lines.get(name)
        if line is None:
            line = self._lines[name] = _Line(name, self.channels.open(name))
            line.reader = asyncio.get_running_loop().create_task(
                self._read(line), name=f"bus {self.node} {name}".rstrip()
            )
        return line

    async def _route_loop(self) -> None:
        """Route the channels that could not be yet (the cluster's slot map is learnt
        from the cluster), then subscribe them on their lines."""
        while not self._closed:
            await self._unrouted.wait()
            self._unrouted.clear()
            try:
                await self.channels.prepare()
            except Exception as exc:
                if cancel_requested():
                    raise asyncio.CancelledError from exc
                self._unrouted.set()
                await asyncio.sleep(_ROUTE_RETRY)
                continue
            for channel in [c for c in self._handlers if c not in self._route]:
                line = self._place(channel)
                if line is not None and line.connected:
                    with contextlib.suppress(Exception):
                        await self.channels.subscribe(line.pubsub, channel)
            if any(c not in self._route for c in self._handlers):
                await asyncio.sleep(_ROUTE_RETRY)

    def _reroute(self, line: _Line) -> None:
        """After losing `line`: its channels may be served by another shard now (a slot
        moved, a replica promoted); route them again, opening lines as needed."""
        for channel in [c for c, name in self._route.items() if name == line.name]:
            try:
                name = self.channels.line(channel)
            except Exception:
                continue
            if name != line.name:
                self._route[channel] = name
                self._place(channel)

    # --- the readers ----------------------------------------------------------------------

    async def _wait_confirmed(self, channel: str) -> None:
        event = self._confirmed.setdefault(channel, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), _SUBSCRIBE_WAIT)

    async def _read(self, line: _Line) -> None:
        loop = asyncio.get_running_loop()
        delays = self._backoff.delays()
        last_heard = loop.time()
        while not self._closed:
            try:
                if not line.connected:
                    await self._resubscribe(line)
                    line.connected = True
                    self._joined_at = loop.time()
                    delays = self._backoff.delays()
                    last_heard = loop.time()
                    if line.ever_connected:
                        log.info("bus %s: reconnected to redis %s", self.node, line.name)
                        self._call_on_reconnect()
                    line.ever_connected = True
                if not line.pubsub.subscribed:
                    await asyncio.sleep(_READ_TIMEOUT)  # nothing routed here (any more)
                    last_heard = loop.time()
                    continue
                message = await line.pubsub.get_message(timeout=_READ_TIMEOUT)
                if message is not None:
                    last_heard = loop.time()
                    self._dispatch(message)
                elif loop.time() - last_heard > 2 * _IDLE_PING:
                    raise ConnectionError("no answer to pings on the pub/sub connection")
                elif loop.time() - last_heard > _IDLE_PING:
                    await line.pubsub.ping()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if cancel_requested():
                    raise asyncio.CancelledError from exc
                if line.connected:
                    log.warning("bus %s: redis connection lost (%s)", self.node, exc)
                line.connected = False
                if not is_transient(exc):
                    log.exception("bus %s: unexpected error", self.node)
                await self._drop_connection(line)
                with contextlib.suppress(Exception):
                    await self.channels.prepare()
                self._reroute(line)
                await asyncio.sleep(next(delays))

    async def _resubscribe(self, line: _Line) -> None:
        """Subscribe to every channel with a handler routed to `line`, and drop any other
        subscription it holds."""
        wanted = {c for c, name in self._route.items() if name == line.name and c in self._handlers}
        if wanted:
            await self.channels.subscribe(line.pubsub, *wanted)
        stale = self.channels.subscribed(line.pubsub) - wanted
        if stale:
            await self.channels.unsubscribe(line.pubsub, *stale)

    async def _drop_connection(self, line: _Line) -> None:
        connection: Any = getattr(line.pubsub, "connection", None)  # typed as None upstream
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = KINDS.get(_text(message.get("type") or b""))
        channel = _text(message.get("channel") or b"")
        if kind == "subscribe":
            self._confirmed.setdefault(channel, asyncio.Event()).set()
            return
        if kind == "unsubscribe":
            done = self._unsubscribed.get(channel)
            if done is not None:
                done.set()
            return
        if kind != "message":
            return
        handler = self._handlers.get(channel)
        if handler is None:
            return
        try:
            handler(bytes(message["data"]))
        except Exception:
            log.exception("bus %s: handler for %s failed", self.node, channel)

    def _call_on_reconnect(self) -> None:
        if self._on_reconnect is None:
            return
        try:
            self._on_reconnect()
        except Exception:
            log.exception("bus %s: on_reconnect failed", self.node)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
