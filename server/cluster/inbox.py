"""What owners send this node for its clients: the batches on the node's own channel.

Every owner of a room with clients of this node sends them, in order, in batches on
`node:<id>` (`server.cluster.remote`): replies and snapshots for one client, room events
for many, and membership changes (a client admitted to a room, let go, closed, or to be
registered with the room's next owner). `Inbox` applies them one batch at a time, in
arrival order, on a task of its own, and drops whatever comes from an owner that has been
replaced since (an older fencing epoch than the relay has seen).

Pub/sub is at most once: while this node is reconnecting to Redis a batch may be
published to nobody. Owners keep a batch until somebody hears it, and after a reconnect
this node reads what its relayed clients missed from the rooms' logs (each event once,
by `seq`) and has every client with a request still unanswered registered again with its
room, whose owner answers again what its record says was done (`server.cluster.proxy`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable
from typing import Protocol

import msgspec

from server.cluster import wire
from server.cluster.bus import Bus
from server.cluster.proxy import RoomProxy
from server.cluster.wire import Delivery
from server.rooms.seams import Member
from server.store import StoreError
from server.store.redis import RedisStore

log = logging.getLogger(__name__)


class InboxHost(Protocol):
    """What the inbox needs of its node (`server.cluster.node.ClusterNode`)."""

    @property
    def id(self) -> str: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def store(self) -> RedisStore: ...

    @property
    def proxies(self) -> dict[str, RoomProxy]: ...

    def client_of(self, conn: int) -> Member | None:
        """This node's connection with that number (None: gone)."""

    def proxy_for(self, room_id: str) -> RoomProxy: ...

    def took_waiting(self, client: Member) -> bool:
        """Take `client` off the quick-match queue (False: it was not waiting)."""

    def spawn(self, work: Awaitable[object], name: str) -> None: ...


class Inbox:
    def __init__(self, host: InboxHost) -> None:
        self.host = host
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue()

    def received(self, data: bytes) -> None:
        """A batch on this node's channel (called on the bus's reader task)."""
        self._queue.put_nowait(data)

    def reconnected(self) -> None:
        """The bus is subscribed again after an outage: catch up, in turn with the batches."""
        self._queue.put_nowait(None)

    async def run(self) -> None:
        while True:
            data = await self._queue.get()
            if data is None:
                await self._catch_up()
                continue
            try:
                batch = wire.decode_batch(data)
            except (msgspec.DecodeError, msgspec.ValidationError):
                log.warning("unreadable batch")
                continue
            for item in batch.items:
                try:
                    self._apply(batch.node, item)
                except Exception:
                    log.exception("batch item %s failed", item.kind)

    def _apply(self, sender: str, item: wire.Item) -> None:
        if item.kind in ("frame", "event"):
            self._deliver(sender, item)
            return
        conn = item.conns[0] if item.conns else 0
        client = self.host.client_of(conn)
        if item.kind == "member":
            self._member(sender, item, conn, client)
            return
        if client is None:
            return
        proxy = self.host.proxies.get(item.room)
        if item.kind == "close":
            relay = client.room
            if not isinstance(relay, RoomProxy) or relay.heard(sender, item.epoch):
                client.close(item.code, item.reason)
            return
        if proxy is not None and not proxy.heard(sender, item.epoch):
            return  # from an owner that has been replaced since
        if item.kind == "left":
            if proxy is not None:
                proxy.left(client)
        elif item.kind == "rehome" and proxy is not None:
            proxy.rehome(client)

    def _member(self, sender: str, item: wire.Item, conn: int, client: Member | None) -> None:
        room_id = item.room
        known = self.host.proxies.get(room_id)
        if known is not None and not known.heard(sender, item.epoch):
            return  # from an owner that has been replaced since
        if client is None or client.closed:
            self._send_gone(room_id, conn)
            return
        proxy = self.host.proxies.get(room_id)
        current = client.room
        if current is not None and current is not proxy:
            if getattr(current, "id", None) == room_id:
                return  # the room is here now: news from its previous owner
            self._send_gone(room_id, conn)
            return
        if current is None:
            # A quick match made on another node with this node's waiting player.
            if not self.host.took_waiting(client):
                self._send_gone(room_id, conn)
                return
            proxy = self.host.proxy_for(room_id)
            proxy.join(client)
        assert proxy is not None
        proxy.heard(sender, item.epoch)
        proxy.admitted(client, conn, item.seq)

    def _send_gone(self, room_id: str, conn: int) -> None:
        action = wire.Action("gone", self.host.id, conn, "", "")
        self.host.spawn(self.host.bus.send_action(room_id, wire.encode(action)), f"gone {room_id}")

    def _deliver(self, sender: str, item: wire.Item) -> None:
        delivery = Delivery(item.frame)
        for conn in item.conns:
            client = self.host.client_of(conn)
            if client is None or client.closed:
                continue
            proxy = client.room
            if proxy is None:
                client.send(item.frame)  # a reply after leaving (or to a refused join)
                continue
            if not isinstance(proxy, RoomProxy):
                continue  # in a room of this node now: whatever comes from elsewhere is stale
            if not proxy.heard(sender, item.epoch):
                continue  # from an owner that has been replaced since
            if not proxy.passes(client, delivery):
                continue  # already sent from the log, or an answer already given
            if item.kind == "event":
                client.send_event(item.frame)
            else:
                client.send(item.frame)
            proxy.delivered(client, delivery, own=item.kind == "frame")

    async def _catch_up(self) -> None:
        """After the bus reconnected: what the relayed clients may have missed meanwhile,
        from the rooms' logs, each event once; the answers they may have missed, from
        their rooms' owners (see `RoomProxy.reconnected`)."""
        for proxy in list(self.host.proxies.values()):
            after = proxy.behind()
            if after is not None:
                try:
                    entries = await self.host.store.log(proxy.id, after=after)
                except StoreError:
                    entries = []
                proxy.catch_up(entries)
            proxy.reconnected()
            proxy.probe()
