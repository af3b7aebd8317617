"""Pub/sub fan-out between nodes, on Redis.

Three kinds of channel (names in `server.store.redis.RedisKeys`):

- `room:<id>`          the owner publishes each room event (after the store has it);
                       every node with clients in the room subscribes and forwards.
- `room:<id>:actions`  any node sends a client's action for the room; only the owner
                       subscribes. `send_action` returns how many listened: 0 means the
                       room has no live owner (time to acquire its lease and restore it).
- `node:<id>`          a node's own inbox, e.g. replies to clients connected to it.

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
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis

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


class BusError(Exception):
    """A publish could not reach Redis in time."""


class Bus:
    """One node's pub/sub: publish to channels, and route what arrives to handlers."""

    def __init__(
        self,
        client: aioredis.Redis,
        node: str,
        *,
        prefix: str = "",
        on_node_message: Handler | None = None,
        on_reconnect: Callable[[], object] | None = None,
        publish_deadline: float = 5.0,
        backoff: Backoff = QUICK_BACKOFF,
    ) -> None:
        if not node:
            raise ValueError("a node id is required")
        self.client = client
        self.node = node
        self.keys = RedisKeys(prefix)
        self._on_reconnect = on_reconnect
        self._publish_deadline = publish_deadline
        self._backoff = backoff
        self._pubsub = client.pubsub()
        self._handlers: dict[str, Handler] = {}
        self._confirmed: dict[str, asyncio.Event] = {}
        self._unsubscribed: dict[str, asyncio.Event] = {}
        self._connected = False
        self._closed = False
        self._reader: asyncio.Task[None] | None = None
        self._inbox = self.keys.node_channel(node)
        self._handlers[self._inbox] = on_node_message or (lambda data: None)

    @property
    def connected(self) -> bool:
        """Whether the subscriptions are live (False while Redis is unreachable)."""
        return self._connected

    async def start(self) -> None:
        """Subscribe to this node's inbox and start reading. Works with Redis down too:
        the subscriptions are made as soon as it answers."""
        if self._reader is not None:
            return
        self._reader = asyncio.create_task(self._read(), name=f"bus {self.node}")
        await self._wait_confirmed(self._inbox)

    async def close(self) -> None:
        self._closed = True
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._reader
        close_pubsub: Callable[[], Awaitable[None]] = self._pubsub.aclose  # untyped upstream
        await close_pubsub()

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
            return await self.client.publish(channel, data)

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
        self._confirmed.pop(channel, None)
        try:
            await self._pubsub.subscribe(channel)
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
        if self._connected:
            done = self._unsubscribed[channel] = asyncio.Event()
            with contextlib.suppress(Exception):
                await self._pubsub.unsubscribe(channel)
                await asyncio.wait_for(done.wait(), _SUBSCRIBE_WAIT)
            self._unsubscribed.pop(channel, None)
        if self._handlers.get(channel) is handler:  # not subscribed again meanwhile
            self._handlers.pop(channel, None)

    # --- the reader -----------------------------------------------------------------------

    async def _wait_confirmed(self, channel: str) -> None:
        event = self._confirmed.setdefault(channel, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(event.wait(), _SUBSCRIBE_WAIT)

    async def _read(self) -> None:
        loop = asyncio.get_running_loop()
        delays = self._backoff.delays()
        last_heard = loop.time()
        ever_connected = False
        while not self._closed:
            try:
                if not self._connected:
                    await self._resubscribe()
                    self._connected = True
                    delays = self._backoff.delays()
                    last_heard = loop.time()
                    if ever_connected:
                        log.info("bus %s: reconnected to redis", self.node)
                        self._call_on_reconnect()
                    ever_connected = True
                message = await self._pubsub.get_message(timeout=_READ_TIMEOUT)
                if message is not None:
                    last_heard = loop.time()
                    self._dispatch(message)
                elif loop.time() - last_heard > 2 * _IDLE_PING:
                    raise ConnectionError("no answer to pings on the pub/sub connection")
                elif loop.time() - last_heard > _IDLE_PING:
                    await self._pubsub.ping()
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                if cancel_requested():
                    raise asyncio.CancelledError from exc
                if self._connected:
                    log.warning("bus %s: redis connection lost (%s)", self.node, exc)
                self._connected = False
                if not is_transient(exc):
                    log.exception("bus %s: unexpected error", self.node)
                await self._drop_connection()
                await asyncio.sleep(next(delays))

    async def _resubscribe(self) -> None:
        """Subscribe to every channel with a handler, and drop any other subscription."""
        wanted = set(self._handlers)
        await self._pubsub.subscribe(*wanted)
        stale = {_text(channel) for channel in self._pubsub.channels} - wanted
        if stale:
            await self._pubsub.unsubscribe(*stale)

    async def _drop_connection(self) -> None:
        connection: Any = getattr(self._pubsub, "connection", None)  # typed as None upstream
        if connection is not None:
            with contextlib.suppress(Exception):
                await connection.disconnect(nowait=True)

    def _dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
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
