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
- When an owner goes, its rooms move: at once when it stops (it hands them over), within
  `--node-timeout` when it dies (its heartbeat lapses; `server.cluster.failover`). The
  clients are told the table is moving and, once it runs again, that it is back.
- Redis unreachable: the rooms keep running here, every save waits and retries (nothing
  is told to anyone before it is stored), the batches for other nodes wait in order;
  when Redis is back the lease is renewed, the relays catch up from the rooms' logs by
  `seq` (and have their clients' unanswered requests answered), and the directory is
  read again.

To the lobby a `ClusterNode` is its `Peers` (`server.rooms.peers`): the lobby asks it what
other nodes hold and tells it what they need to know; the node reaches back only through
the lobby's `LocalRooms` methods, and changes a relay's members only through the relay's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import socket
from collections.abc import Awaitable
from dataclasses import dataclass, field
from typing import Any

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import ProtocolError, decode_client
from server.cluster import wire
from server.cluster.bus import Bus, BusError
from server.cluster.channels import Channels
from server.cluster.directory import Directory, DirectoryKeys, QuickEntry
from server.cluster.failover import Failover
from server.cluster.inbox import Inbox
from server.cluster.lease import Lease, LeaseError, LeaseKeeper, Leases
from server.cluster.nodes import NodeWatch
from server.cluster.practice_book import RedisPracticeBook
from server.cluster.proxy import RoomGone, RoomProxy
from server.cluster.remote import Links, RemoteClient
from server.edge.client import Client
from server.ops.config import Config
from server.ops.metrics import Metrics
from server.rooms.actor import Room
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
from server.rooms.upkeep import restorable
from server.store import StoreError
from server.store.redis import QUICK_BACKOFF, RedisStore

log = logging.getLogger(__name__)


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

    def __init__(
        self, config: Config, store: RedisStore, metrics: Metrics, channels: Channels
    ) -> None:
        """`channels`: the pub/sub of the store's Redis (one Redis, or a cluster's shards;
        `server.cluster.channels.open_channels`)."""
        self.config = config
        self.store = store
        self._lobby: LocalRooms | None = None
        self.metrics = metrics
        self.id = config.node_id or default_node_id()
        self.ttl = config.lease_ttl
        # On a Redis Cluster the client is a cluster client and every key and channel is
        # hash-tagged (`store.keys`); the calls below stay within one slot each.
        client: Any = store.client
        self.leases = Leases(client, self.id, ttl=self.ttl, keys=store.keys)
        #: Practice tables follow their player from node to node (`server.rooms.practice_book`).
        self.practice_book = RedisPracticeBook(client, self.id, prefix=store.keys.prefix)
        self.inbox = Inbox(self)
        self.bus = Bus(
            client,
            self.id,
            keys=store.keys,
            channels=channels,
            on_node_message=self.inbox.received,
            on_reconnect=self._on_reconnect,
        )
        #: A node not heard from for this long is taken for dead.
        self.silence = config.node_timeout
        self.directory = Directory(
            client,
            self.bus,
            self.id,
            silence=self.silence,
            keys=DirectoryKeys(store.keys.prefix, tagged=store.keys.tagged),
            on_listing=lambda room, info: self.lobby.listing_changed(room, info),
            on_owner=self._owner_heard,
        )
        self.nodes = NodeWatch(
            client,
            self.directory.keys.nodes,
            self.id,
            timeout=self.silence,
            can_judge=self.directory.can_judge,
            on_gone=self._node_gone,
        )
        self.failover = Failover(self, self.nodes)
        self.links = Links(
            self.bus, self.id, is_dead=self.nodes.is_dead, unreachable=self._unreachable
        )
        self.owned: dict[str, Owned] = {}
        self.proxies: dict[str, RoomProxy] = {}
        self.remote: dict[tuple[str, int], RemoteClient] = {}
        self._conn_of: dict[Member, int] = {}
        self._conns: dict[int, Member] = {}
        self._next_conn = 0
        self._quick_entries: dict[Member, tuple[int, QuickEntry]] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self.adopted = 0
        self.counts = metrics.cluster()
        self.counts.watch(
            redis_up=lambda: store.healthy and self.bus.connected and self.directory.beating,
            rooms_owned=lambda: len(self.owned),
            rooms_relayed=lambda: sum(1 for p in self.proxies.values() if not p.closed),
            cluster_nodes=lambda: len(self.nodes.live),
            save_retries=lambda: store.save_retries,
        )

    @property
    def lobby(self) -> LocalRooms:
        assert self._lobby is not None, "ClusterNode used before a lobby attached it"
        return self._lobby

    def attach(self, lobby: LocalRooms) -> None:
        self._lobby = lobby

    # --- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Join the cluster: subscribe, beat, read the directory, watch the others. If
        this is cancelled (the process stops while Redis is away, say), whatever started
        is stopped again."""
        try:
            await self.bus.start()
            await self.directory.start()
            self.nodes.start()
        except BaseException:
            await self._leave_now()
            raise
        loop = asyncio.get_running_loop()
        self._loops = [
            loop.create_task(self.inbox.run(), name="cluster inbound"),
            loop.create_task(self.failover.run(), name="cluster watch"),
            loop.create_task(self.failover.watch_listening(), name="cluster listening"),
        ]
        log.info(
            "node %s joined the cluster (node timeout %g s, lease ttl %g s)",
            self.id,
            self.silence,
            self.ttl,
        )

    async def _leave_now(self) -> None:
        with contextlib.suppress(Exception):
            await self.nodes.stop()
        with contextlib.suppress(Exception):
            await self.directory.stop(timeout=0)
        with contextlib.suppress(Exception):
            await self.bus.close()

    @property
    def ready(self) -> bool:
        return self.bus.connected and self.directory.loaded

    async def stop_serving(self) -> None:
        """First step of a graceful stop: take no more actions from other nodes (their
        relays tell their clients the table is moving). Actions already sent are handed
        to the rooms first, ahead of their shutdown, so none is lost; what the rooms say
        from now on waits until their leases are given up (`hand_off`)."""
        self.links.hold()
        rooms = list(self.owned)
        await asyncio.gather(
            *(self.bus.stop_serving_actions(room_id) for room_id in rooms),
            return_exceptions=True,
        )
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.0
        while any(not o.actions.empty() for o in self.owned.values()) and loop.time() < deadline:
            await asyncio.sleep(0.01)

    async def hand_off(self) -> None:
        """The rooms have saved: give every lease up and leave the node list, then let the
        rooms' last words go (their members' nodes hear that the rooms move, find them
        free and take them over at once; nodes with no client in a room see this node
        leave, and one of them takes it)."""
        owned, self.owned = list(self.owned.items()), {}
        for _, held in owned:
            if held.task is not None:
                held.task.cancel()
        await asyncio.gather(
            *(held.keeper.stop(release=True) for _, held in owned), return_exceptions=True
        )
        await self.directory.leave()
        self.links.release()
        log.info("node %s handed %d rooms over", self.id, len(owned))

    async def stop(self) -> None:
        """After the rooms have saved and moved: let the relays send their last words,
        leave the cluster."""
        self.links.release()
        self.failover.stopping = True
        for task in self._loops[1:]:
            task.cancel()
        await self.nodes.stop()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2.0
        while any(not p.idle for p in self.proxies.values()) and loop.time() < deadline:
            await asyncio.sleep(0.02)
        if self.owned:
            await self.hand_off()
        await self.links.flush(2.0)
        await self.links.close()
        await self.directory.stop()
        for task in [*self._loops, *self._tasks]:
            task.cancel()
        for task in [*self._loops, *self._tasks]:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.bus.close()

    def spawn(self, work: Awaitable[object], name: str) -> None:
        self._spawn(work, name)

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

    def client_of(self, conn: int) -> Member | None:
        return self._conns.get(conn)

    def took_waiting(self, client: Member) -> bool:
        if not self.lobby.take_waiting(client):
            return False
        self._quick_entries.pop(client, None)
        return True

    def node_dead(self, node: str) -> bool:
        return self.nodes.is_dead(node)

    def _node_gone(self, node: str, left: bool) -> None:
        self.failover.node_gone(node, left)

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
            held = owned.keeper.held and self.directory.alive
            if not held and not await self._still_owner(owned):
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

    def detach(self, remote: RemoteClient) -> None:
        self._detached(remote)

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
        self.counts.leases_lost.inc()
        log.warning(
            "room %s: lost to another node (its lease at epoch %s is gone): its %d members "
            "follow it there",
            room.id,
            room.fence,
            len(room.members()),
            extra={"room": room.id},
        )
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
        if not self.directory.can_judge():
            # Just back from an outage: every heartbeat in Redis looks old until the
            # others have beaten again; nobody is taken for dead before that.
            return None
        previous = self.directory.owners.get(room_id)
        # The room's lease if it is free or its holder has died or left; never while its
        # owner beats (after a Redis outage its lease may have run out, but it takes it
        # back at its next renewal: taking the room would throw away what it is saving).
        lease = await self.leases.take_over(
            room_id,
            nodes=self.directory.keys.nodes,
            owners=self.directory.keys.owners,
            timeout=self.silence,
        )
        if lease is None:
            local = self.lobby.room(room_id)
            return local if local is not None and not local.closed else None
        try:
            # Loaded after acquiring: from now on the previous owner cannot write. Checked
            # as a restart checks it (`upkeep.restorable`): a record that does not decode,
            # a damaged log, or a record behind its log is quarantined, never run; a
            # closed one is retired.
            record = await restorable(self.store, room_id)
        except StoreError:
            with contextlib.suppress(LeaseError):
                await self.leases.release(lease)
            raise
        if record is None:
            with contextlib.suppress(LeaseError):
                await self.leases.release(lease)
            if room_id in self.directory.open:
                self.directory.room_gone(room_id)
            raise RoomGone(room_id)
        self._own(room_id, lease)
        room = self.lobby.adopt(record, lease.epoch)
        self.adopted += 1
        self.counts.adoptions.inc()
        log.info(
            "room %s adopted at epoch %d (seq %d), from node %s",
            room_id,
            lease.epoch,
            record.seq,
            previous or "unknown",
            extra={"room": room_id, "epoch": lease.epoch, "previous": previous or ""},
        )
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

    def _on_reconnect(self) -> None:
        self.inbox.reconnected()  # catch up from the logs, and the unanswered requests
        self.directory.reload_soon()

    def _unreachable(self, node: str) -> None:
        log.debug("node %s did not hear a batch", node)


def _key(remote: RemoteClient) -> tuple[str, int]:
    return (remote.node, remote.conn)
