"""One node of a cluster: the rooms it owns, the rooms it relays, and its part in the
cluster-wide lobby.

Any node serves any client. A room runs on one node at a time, its **owner**, which holds
the room's lease (`server.cluster.lease`) and saves with the lease's epoch as the fence,
so an owner that lost the lease (paused, cut off) can never write again.

- A client in a room this node owns is served as on a lone node.
- A client in a room another node owns talks to a `RoomProxy` here. Its actions go to
  the owner over the room's action channel; the owner answers through a `RemoteClient`
  which batches everything for this node (replies, room events, membership changes) on
  this node's channel, one ordered stream (`server.cluster.remote`).
- When nobody serves a room any more (its owner died, or stopped), the node that next
  needs it — one with clients in it, or any node whose sweep finds the room's lease gone
  — takes the lease and **adopts** the room from its last snapshot in Redis. Every save
  comes before the broadcast, so that snapshot holds every result anyone has seen; the
  fence makes sure the dead owner, should it come back, cannot add to it. The other
  nodes with clients in the room hear of the new owner and register their clients again;
  each client gets the room's snapshot (the same score, balls, turn and clock).
- Redis unreachable: the rooms keep running here, every save waits and retries (nothing
  is told to anyone before it is stored), the batches for other nodes wait in order;
  when Redis is back the lease is renewed, the relays catch up from the rooms' logs by
  `seq`, and the directory is read again.

To the lobby a `ClusterNode` is its `Peers` (`server.rooms.peers`): the lobby asks it what
other nodes hold and tells it what they need to know; the node reaches back only through
the lobby's `LocalRooms` methods, and changes a relay's members only through the relay's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import secrets
import socket
from collections.abc import Awaitable
from dataclasses import dataclass, field

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import ProtocolError, decode_client
from server.cluster import wire
from server.cluster.bus import Bus, BusError
from server.cluster.directory import Directory, QuickEntry
from server.cluster.lease import Lease, LeaseError, LeaseKeeper, Leases
from server.cluster.proxy import Delivery, RoomGone, RoomProxy
from server.cluster.remote import Links, RemoteClient
from server.edge.client import Client
from server.ops.config import Config
from server.ops.metrics import Metrics
from server.rooms.actor import Room, decode_record
from server.rooms.peers import LocalRooms, Waiting
from server.rooms.seams import (
    Abandon,
    Command,
    Enter,
    Gone,
    Member,
    Reattach,
    Rejoin,
    Request,
    Shutdown,
)
from server.store import StoreError
from server.store.redis import QUICK_BACKOFF, RedisStore, cancel_requested

log = logging.getLogger(__name__)

#: Rooms checked for a lost owner in one MGET.
_SWEEP_CHUNK = 200
#: Orphaned rooms one sweep adopts at most (the others are left to later sweeps, or to
#: other nodes).
_SWEEP_ADOPT = 20


def default_node_id() -> str:
    """Unique per process: the host name, the pid and a random suffix."""
    host = "".join(c if c.isalnum() or c in "._-" else "-" for c in socket.gethostname())
    return f"{host[:40] or 'node'}-{os.getpid()}-{secrets.token_hex(3)}"


@dataclass
class Owned:
    """A room this node owns: its lease, the keeper renewing it, and the actions other
    nodes sent for it, handled in order."""

    lease: Lease
    keeper: LeaseKeeper
    actions: asyncio.Queue[bytes] = field(default_factory=asyncio.Queue)
    task: asyncio.Task[None] | None = None


class ClusterNode:
    """This node in the cluster; the lobby's `Peers` (see the module's docstring)."""

    def __init__(self, config: Config, store: RedisStore, metrics: Metrics) -> None:
        self.config = config
        self.store = store
        self._lobby: LocalRooms | None = None
        self.metrics = metrics
        self.id = config.node_id or default_node_id()
        self.ttl = config.lease_ttl
        client = store.client
        self.leases = Leases(client, self.id, ttl=self.ttl, prefix=store.keys.prefix)
        self.bus = Bus(
            client,
            self.id,
            prefix=store.keys.prefix,
            on_node_message=self._on_batch,
            on_reconnect=self._on_reconnect,
        )
        #: A node not heard from for this long is taken for dead.
        self.silence = max(2 * self.ttl, 2.0)
        self._dead: set[str] = set()
        self.links = Links(
            self.bus, self.id, is_dead=self._dead.__contains__, unreachable=self._unreachable
        )
        self.directory = Directory(
            client,
            self.bus,
            self.id,
            silence=self.silence,
            prefix=store.keys.prefix,
            on_listing=lambda room, info: self.lobby.listing_changed(room, info),
            on_owner=self._owner_heard,
        )
        self.owned: dict[str, Owned] = {}
        self.proxies: dict[str, RoomProxy] = {}
        self.remote: dict[tuple[str, int], RemoteClient] = {}
        self._conn_of: dict[Member, int] = {}
        self._conns: dict[int, Member] = {}
        self._next_conn = 0
        self._quick_entries: dict[Member, tuple[int, QuickEntry]] = {}
        self._inbound: asyncio.Queue[bytes | None] = asyncio.Queue()
        self._tasks: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self.adopted = 0

    @property
    def lobby(self) -> LocalRooms:
        assert self._lobby is not None, "ClusterNode used before a lobby attached it"
        return self._lobby

    def attach(self, lobby: LocalRooms) -> None:
        self._lobby = lobby

    # --- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        await self.bus.start()
        await self.directory.start()
        loop = asyncio.get_running_loop()
        self._loops = [
            loop.create_task(self._inbound_loop(), name="cluster inbound"),
            loop.create_task(self._watch_loop(), name="cluster watch"),
        ]
        log.info("node %s joined the cluster (lease ttl %g s)", self.id, self.ttl)

    @property
    def ready(self) -> bool:
        return self.bus.connected and self.directory.loaded

    async def stop_serving(self) -> None:
        """First step of a graceful stop: take no more actions from other nodes (they
        wait for the next owner instead)."""
        for room_id in list(self.owned):
            with contextlib.suppress(Exception):
                await self.bus.stop_serving_actions(room_id)

    async def stop(self) -> None:
        """After the rooms have saved: let the relays send their last words, give the
        leases up (the rooms move at once), leave the cluster."""
        for task in self._loops[1:]:
            task.cancel()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.0
        while any(not p.idle for p in self.proxies.values()) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        for room_id, owned in list(self.owned.items()):
            self.owned.pop(room_id, None)
            if owned.task is not None:
                owned.task.cancel()
            await owned.keeper.stop(release=True)
        await self.links.flush(2.0)
        await self.links.close()
        await self.directory.stop()
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        for task in [*self._loops, *self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bus.close()

    def _spawn(self, work: Awaitable[object], name: str) -> None:
        async def run() -> None:
            try:
                await work
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("%s failed", name)

        task = asyncio.get_running_loop().create_task(run(), name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- this node's connections ----------------------------------------------------------

    def conn_id(self, client: Member) -> int:
        """The number other nodes know this connection by."""
        conn = self._conn_of.get(client)
        if conn is None:
            self._next_conn += 1
            conn = self._conn_of[client] = self._next_conn
            self._conns[conn] = client
        return conn

    def forget(self, client: Member) -> None:
        conn = self._conn_of.pop(client, None)
        if conn is not None:
            self._conns.pop(conn, None)

    def disconnected(self, client: Member) -> None:
        """The connection ended. A relay still says `gone` for it (then forgets it)."""
        if not isinstance(client.room, RoomProxy):
            self.forget(client)

    # --- Peers: the directory's answers and news ------------------------------------------

    def room_listed(self, room_id: str, info: m.Info) -> None:
        self.directory.room_info(room_id, info)  # every node tells its lobby

    def room_unlisted(self, room_id: str) -> None:
        return None  # `room_closed` takes the room off every node's list

    def listing(self) -> list[m.Info]:
        return list(self.directory.listed.values())

    def seat_taken(self, player: str, room_id: str) -> None:
        self.directory.seat(player, room_id)

    def seat_freed(self, player: str, room_id: str) -> None:
        self.directory.unseat(player, room_id)

    def seat_of(self, player: str) -> str | None:
        return self.directory.seated.get(player)

    def room_with_code(self, code: str) -> str | None:
        return self.directory.codes.get(code)

    @property
    def seed_scope(self) -> str:
        return f":{self.id}"

    async def settle(self) -> None:
        await self.directory.settled()

    # --- rooms owned elsewhere ------------------------------------------------------------

    def local_room(self, room_id: str) -> Room | None:
        return self.lobby.room(room_id)

    def proxy_for(self, room_id: str) -> RoomProxy:
        proxy = self.proxies.get(room_id)
        if proxy is None or proxy.closed:
            proxy = self.proxies[room_id] = RoomProxy(self, room_id)
        return proxy

    def drop_proxy(self, proxy: RoomProxy) -> None:
        if self.proxies.get(proxy.id) is proxy:
            del self.proxies[proxy.id]

    def enter(
        self, client: Member, room_id: str, request_id: int, role: m.Role, invited: bool
    ) -> None:
        """Owned by another node (or by nobody since its owner died): through a relay,
        which finds the owner or takes the room over."""
        proxy = self.proxy_for(room_id)
        proxy.join(client)
        proxy.enter(client, request_id, "spectator" if role == "spectator" else "player", invited)

    def reattach(self, client: Member, player: str) -> str | None:
        room_id = self.directory.seated.get(player)
        if room_id is None:
            return None
        proxy = self.proxy_for(room_id)
        proxy.join(client)
        proxy.post(Reattach(client))
        return room_id

    def repost(self, room_id: str, command: Command) -> None:
        """A command for a relay that has ended: to the room if it is here now, else to a
        new relay."""
        room = self.lobby.room(room_id)
        client = getattr(command, "client", None)
        if room is not None and not room.closed:
            if isinstance(command, Enter | Reattach | Rejoin):
                command.client.entering(room)
            room.post(command)
            return
        proxy = self.proxy_for(room_id)
        joining = isinstance(command, Enter | Reattach) or (
            isinstance(command, Request) and command.client.room is None
        )
        if joining and isinstance(client, Client):
            proxy.join(client)
        proxy.post(command)

    # --- quick match ----------------------------------------------------------------------

    def queue(self, waiting: Waiting) -> None:
        """The queue is cluster-wide: pair with a player waiting on any node."""
        self._spawn(self._quick(waiting), "quick match")

    async def _quick(self, waiting: Waiting) -> None:
        client = waiting.client
        entry = QuickEntry(
            self.id, self.conn_id(client), client.player or "", waiting.request_id, client.name
        )
        self._quick_entries[client] = (waiting.race_to, entry)
        while True:
            try:
                partner = await self.directory.quick_match(waiting.race_to, entry)
            except Exception:
                log.exception("quick match failed")
                self.lobby.take_waiting(client)
                self._quick_entries.pop(client, None)
                client.error(waiting.request_id, errors.INTERNAL, "quick match is unavailable")
                return
            if waiting not in self.lobby.queued():  # called off (or gone) meanwhile
                if partner is None:
                    self.directory.quick_cancel(waiting.race_to, entry)
                else:
                    self.directory.quick_requeue(waiting.race_to, partner)
                return
            if partner is None:
                client.ok(waiting.request_id)  # waiting, on whichever node the partner comes
                return
            first = self._quick_partner(partner)
            if first is None:
                continue  # a player of this node who left meanwhile: look again
            self._quick_entries.pop(client, None)
            self.lobby.start_pair(waiting.race_to, first, (client, waiting.request_id))
            return

    def _quick_partner(self, entry: QuickEntry) -> tuple[Member, int] | None:
        if entry.node != self.id:
            return self._remote_client(entry.node, entry.conn, entry.player, entry.name), (
                entry.request_id
            )
        client = self._conns.get(entry.conn)
        if client is None or client.closed:
            return None
        if not any(w.client is client for w in self.lobby.queued()):
            return None
        self._quick_entries.pop(client, None)
        return client, entry.request_id

    def unqueued(self, waiting: Waiting) -> None:
        queued = self._quick_entries.pop(waiting.client, None)
        if queued is not None:
            self.directory.quick_cancel(*queued)

    # --- rooms owned here -----------------------------------------------------------------

    def _own(self, room_id: str, lease: Lease) -> Owned:
        keeper = self.leases.keep_alive(lease, on_lost=lambda lost: self._lost(room_id))
        owned = self.owned[room_id] = Owned(lease, keeper)
        return owned

    async def room_starting(self, room: Room) -> None:
        """A room of this node starts: a new one takes its lease (epoch 1); an adopted
        one has it already. Then it serves the actions of other nodes' clients."""
        owned = self.owned.get(room.id)
        if owned is None:
            owned = self._own(room.id, await self._acquire_new(room.id))
        room.fence = owned.lease.epoch
        await self.bus.serve_actions(room.id, owned.actions.put_nowait)
        owned.task = asyncio.get_running_loop().create_task(
            self._serve(room, owned), name=f"actions {room.id}"
        )
        info = None if room.settings.private else room.info()
        self.directory.room_open(room.id, room.code, info)
        self.directory.owner(room.id, owned.lease.epoch)

    async def _acquire_new(self, room_id: str) -> Lease:
        delays = QUICK_BACKOFF.delays()
        while True:
            try:
                lease = await self.leases.acquire(room_id)
            except LeaseError:
                await asyncio.sleep(next(delays))  # Redis away: the room waits for it
                continue
            if lease is None:
                raise RuntimeError(f"room id {room_id} is already taken")
            return lease

    async def _serve(self, room: Room, owned: Owned) -> None:
        """The actions other nodes sent for `room`, one at a time, in order. An owner that
        has not renewed its lease lately (it was paused, say) checks it first: a lost
        room is dropped, never served twice."""
        while True:
            data = await owned.actions.get()
            try:
                action = wire.decode_action(data)
            except (msgspec.DecodeError, msgspec.ValidationError):
                log.warning("room %s: unreadable action", room.id)
                continue
            if not owned.keeper.held and not await self._still_owner(owned):
                # The new owner got this action too (it serves the same channel): it is
                # dropped here, never handled twice.
                self._lost(room.id)
                return
            self._dispatch(room, action)

    async def _still_owner(self, owned: Owned) -> bool:
        started = asyncio.get_running_loop().time()
        try:
            renewed = await self.leases.renew(owned.lease)
        except LeaseError:
            return True  # Redis away: nobody else can have taken the room either
        if renewed:
            owned.keeper.confirmed_until = started + owned.lease.ttl
        return renewed

    def _dispatch(self, room: Room, action: wire.Action) -> None:
        client: Member
        if action.node == self.id:
            # One of this node's own clients, whose relay sent this just before the room
            # came here.
            local = self._conns.get(action.conn)
            if local is None:
                return
            client = local
            proxy = self.proxies.get(room.id)
            if proxy is not None and action.kind != "request":
                proxy.let_go(client)
        else:
            remote = self._remote_client(action.node, action.conn, action.player, action.name)
            if remote.room is None:
                remote.target, remote.target_epoch = room.id, room.fence or 0
            client = remote
        kind = action.kind
        if kind == "gone":
            room.post(Gone(client))
            if isinstance(client, RemoteClient) and self.remote.get(_key(client)) is client:
                del self.remote[_key(client)]
            return
        if kind == "request":
            try:
                message = decode_client(action.frame)
            except ProtocolError as exc:
                client.error(exc.request_id, exc.code, exc.message)
                return
            room.post(Request(client, message))
            return
        if room.closed and kind != "enter":
            self._not_here(client, room)
            return
        if kind == "enter" and room.settings.private and not action.invited:
            client.error(action.request_id, errors.NO_SUCH_ROOM, "no such room")  # as if none
            self._not_here(client, room)
            return
        client.entering(room)
        if kind == "enter":
            room.post(Enter(client, action.request_id, action.role))
        elif kind == "reattach":
            room.post(Reattach(client))
        else:
            room.post(Rejoin(client, action.role))

    def _not_here(self, client: Member, room: Room) -> None:
        """Tell the client's node the client is not in `room`."""
        current = client.room
        if isinstance(client, RemoteClient):
            client.entering(room)
            client.unbind(room)
        elif current is not None and (current is room or isinstance(current, RoomProxy)):
            client.unbind(current)

    def _remote_client(self, node: str, conn: int, player: str, name: str) -> RemoteClient:
        key = (node, conn)
        remote = self.remote.get(key)
        if remote is None or remote.closed:
            remote = RemoteClient(
                self.links, node, conn, player, name, self.metrics, on_detached=self._detached
            )
            self.remote[key] = remote
        if name:
            remote.name = name
        return remote

    def _detached(self, remote: RemoteClient) -> None:
        if self.remote.get(_key(remote)) is remote:
            del self.remote[_key(remote)]

    def room_closed(self, room: Room) -> None:
        owned = self.owned.pop(room.id, None)
        self.directory.room_gone(room.id)
        self._spawn(self._give_up(room.id, owned, release=True), f"close {room.id}")

    async def _give_up(self, room_id: str, owned: Owned | None, *, release: bool) -> None:
        with contextlib.suppress(BusError):
            await self.bus.stop_serving_actions(room_id)
        if owned is None:
            return
        if owned.task is not None:
            owned.task.cancel()
        await owned.keeper.stop(release=release)

    def _lost(self, room_id: str) -> None:
        room = self.lobby.room(room_id)
        if room is not None:
            room.post(Abandon())

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        """Another node owns `room` now: this node's clients in it become relayed, and
        get the room from the new owner; the other nodes are told to look for it."""
        owned = self.owned.pop(room.id, None)
        self._spawn(self._give_up(room.id, owned, release=False), f"abandon {room.id}")
        proxy = self.proxy_for(room.id)
        for client in room.members():
            if isinstance(client, RemoteClient):
                self.links.rehome(client.node, client.conn, room.fence or 0, room.id)
                self._detached(client)
                continue
            role: m.Role = "spectator" if room.is_spectator(client) else "player"
            proxy.carry_over(client, self.conn_id(client), room.seq, role)
        proxy.stale_before(room.fence or 0)  # whatever the old epoch sends is stale
        for command in leftovers:
            sender = getattr(command, "client", None)
            if isinstance(command, Shutdown) and not command.done.done():
                command.done.set_result(None)
            elif isinstance(sender, Client) and not isinstance(sender, RemoteClient):
                proxy.post(command)
        proxy.probe()

    async def adopt(self, room_id: str) -> Room | None:
        """Take over a room nobody serves: its lease, then its last snapshot. Returns the
        room, or None if another node holds the lease. Raises `RoomGone` if the room is
        not open (closed, deleted, never was), `LeaseError` / `StoreError` while Redis is
        away."""
        room = self.lobby.room(room_id)
        if room is not None and not room.closed:
            return room
        owner = self.directory.owners.get(room_id)
        if owner is not None and owner != self.id and not await self.directory.silent([owner]):
            # Its owner is alive (it beats): after a Redis outage its lease may have run
            # out, but it takes it back at its next renewal. Taking the room from it
            # would only throw away what it is saving right now.
            return None
        lease = await self.leases.acquire(room_id)
        if lease is None:
            local = self.lobby.room(room_id)
            return local if local is not None and not local.closed else None
        try:
            # Loaded after acquiring: from now on the previous owner cannot write.
            data = await self.store.load(room_id)
        except StoreError:
            with contextlib.suppress(LeaseError):
                await self.leases.release(lease)
            raise
        record = None
        if data is not None:
            with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
                record = decode_record(data)
        if record is None or record.closed:
            with contextlib.suppress(LeaseError):
                await self.leases.release(lease)
            if room_id in self.directory.open:
                self.directory.room_gone(room_id)
            raise RoomGone(room_id)
        self._own(room_id, lease)
        room = self.lobby.adopt(record, lease.epoch)
        self.adopted += 1
        log.info("room %s adopted at epoch %d (seq %d)", room_id, lease.epoch, record.seq)
        proxy = self.proxies.get(room_id)
        if proxy is not None:
            proxy.probe()  # its task hands its clients over to the room
        return room

    # --- what other nodes say -------------------------------------------------------------

    def _owner_heard(self, room_id: str, node: str, epoch: int) -> None:
        proxy = self.proxies.get(room_id)
        if proxy is not None:
            proxy.owner_is(node, epoch)
        owned = self.owned.get(room_id)
        if owned is not None:
            # Somebody else says it owns a room this node runs: check the lease now.
            self._spawn(self._recheck(room_id, owned), f"recheck {room_id}")

    async def _recheck(self, room_id: str, owned: Owned) -> None:
        if not await self._still_owner(owned):
            self._lost(room_id)

    def _on_batch(self, data: bytes) -> None:
        self._inbound.put_nowait(data)

    def _on_reconnect(self) -> None:
        self._inbound.put_nowait(None)  # catch up from the logs
        self.directory.reload_soon()

    async def _inbound_loop(self) -> None:
        while True:
            data = await self._inbound.get()
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
        client = self._conns.get(conn)
        if item.kind == "member":
            self._member(sender, item, conn, client)
            return
        if client is None:
            return
        proxy = self.proxies.get(item.room)
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
        known = self.proxies.get(room_id)
        if known is not None and not known.heard(sender, item.epoch):
            return  # from an owner that has been replaced since
        if client is None or client.closed:
            self._send_gone(room_id, conn)
            return
        proxy = self.proxies.get(room_id)
        current = client.room
        if current is not None and current is not proxy:
            if getattr(current, "id", None) == room_id:
                return  # the room is here now: news from its previous owner
            self._send_gone(room_id, conn)
            return
        if current is None:
            # A quick match made on another node with this node's waiting player.
            if not self.lobby.take_waiting(client):
                self._send_gone(room_id, conn)
                return
            self._quick_entries.pop(client, None)
            proxy = self.proxy_for(room_id)
            proxy.join(client)
        assert proxy is not None
        proxy.heard(sender, item.epoch)
        proxy.admitted(client, conn, item.seq)

    def _send_gone(self, room_id: str, conn: int) -> None:
        action = wire.Action("gone", self.id, conn, "", "")
        self._spawn(self.bus.send_action(room_id, wire.encode(action)), f"gone {room_id}")

    def _deliver(self, sender: str, item: wire.Item) -> None:
        delivery = Delivery(item.frame)
        for conn in item.conns:
            client = self._conns.get(conn)
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
                continue  # already sent from the log
            if item.kind == "event":
                client.send_event(item.frame)
            else:
                client.send(item.frame)

    async def _catch_up(self) -> None:
        """After the bus reconnected: what the relayed clients may have missed meanwhile,
        from the rooms' logs, each event once."""
        for proxy in list(self.proxies.values()):
            after = proxy.behind()
            if after is not None:
                try:
                    entries = await self.store.log(proxy.id, after=after)
                except StoreError:
                    entries = []
                proxy.catch_up(entries)
            proxy.probe()

    def _unreachable(self, node: str) -> None:
        log.debug("node %s did not hear a batch", node)

    # --- the watch ------------------------------------------------------------------------

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        interval = max(0.1, self.ttl / 3)
        last = loop.time()
        tick = 0
        while True:
            await asyncio.sleep(interval * random.uniform(0.8, 1.2))
            now = loop.time()
            if now - last > self.silence:
                # This process was paused: other nodes may have given up on it.
                for proxy in self.proxies.values():
                    proxy.owner_lost()
            last = now
            tick += 1
            try:
                await self._watch_owners()
                await self._watch_nodes()
                if tick % 3 == 0:
                    await self._sweep()
            except Exception as exc:
                if cancel_requested():
                    raise asyncio.CancelledError from exc
                log.debug("cluster watch: %s", exc)

    async def _watch_owners(self) -> None:
        """The rooms this node relays: a dead owner means taking the room over, a new one
        re-registering the clients."""
        relayed = [p.id for p in self.proxies.values() if not p.closed and not p.idle]
        for room_id, holder in (await self.leases.holders(relayed, _SWEEP_CHUNK)).items():
            proxy = self.proxies.get(room_id)
            if proxy is None:
                continue
            if holder is None:
                proxy.probe()
            elif holder.node != self.id:
                proxy.owner_is(holder.node, holder.epoch)

    async def _watch_nodes(self) -> None:
        """Clients of nodes that died are gone from this node's rooms (O5 grace applies)."""
        nodes = sorted({remote.node for remote in self.remote.values()})
        silent = await self.directory.silent(nodes)
        self._dead.clear()
        self._dead.update(silent)
        for remote in list(self.remote.values()):
            if remote.node in silent:
                self._detached(remote)
                room = remote.room
                if room is not None:
                    room.post(Gone(remote))
        for node in silent:
            self.links.forget(node)

    async def _sweep(self) -> None:
        """Open rooms nobody owns (every client of theirs was on a node that died): take
        them over, so their clocks and grace periods run on."""
        candidates = [
            r for r in self.directory.open if self.lobby.room(r) is None and r not in self.proxies
        ]
        if not candidates:
            return
        holders = await self.leases.holders(candidates, _SWEEP_CHUNK)
        orphans = [r for r, holder in holders.items() if holder is None]
        random.shuffle(orphans)
        for room_id in orphans[:_SWEEP_ADOPT]:
            try:
                await self.adopt(room_id)
            except RoomGone:
                continue
            except (LeaseError, StoreError):
                return


def _key(remote: RemoteClient) -> tuple[str, int]:
    return (remote.node, remote.conn)
