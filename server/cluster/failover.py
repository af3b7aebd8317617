"""Rooms whose owner is gone are taken over: the watch of one node.

A room runs on one node, its owner. When the owner goes, the room must go on elsewhere,
soon enough that a player barely notices:

- **It left** (a graceful stop): it saved its rooms, gave their leases up and left the
  node list before its last batches went out, so the relays of the other nodes find each
  room free the moment they hear it is going (`rehome`), and the nodes watching the node
  list see it leave at their next read.
- **It died** (kill -9, a lost machine, a process cut off from Redis): its heartbeat
  lapses. Every node reads all heartbeats every sixth of `--node-timeout`
  (`server.cluster.nodes`); when one lapses, the rooms that node owned are taken over at
  once, without waiting for their leases to run out: the lease script itself checks the
  heartbeat in Redis, and the new epoch fences the old owner out of every save should it
  come back (it was only paused). A node that relays a room takes it over first (its
  clients are waiting); of the rooms nobody else relays, each is taken by one node chosen
  by hashing (rendezvous), so they spread over the nodes that are left.
- Whatever slips through — a room whose only node died before anyone watched, a takeover
  that failed because Redis was away — is found by the sweep, every `--lease-ttl`: an
  open room without a live owner.

Players hear that the table is moving before the heartbeat lapses: a node that dies closes
its connections to Redis, and Redis drops its subscriptions at once. Each relay asks
Redis, every `LISTEN_POLL` seconds, whether the owners of the rooms it relays still listen
on their inboxes (NUMSUB; a node's inbox is subscribed for as long as it runs); an owner
unheard for `UNHEARD_FOR` seconds — longer than a live node takes to subscribe again after
losing its connection — is unreachable, and its rooms' clients are told the table is
moving (`RoomProxy.owner_unreachable`). Not while this node has just (re)connected to
Redis itself (after an outage every node is subscribing again), and nothing is taken
over on it: the heartbeat decides that. An owner that listens again (it had only lost its
connection) has its rooms' clients registered again, and back.

The watch also re-checks the owners of the rooms this node relays every third of
`--lease-ttl`, notices when this process itself was paused (other nodes may have given up
on it), and lets go of the clients of dead nodes in this node's rooms (their seats get
their grace period, O5). A node taken for dead may have been only paused (a long
collection, a frozen VM): when it runs again its relays register their clients once more,
as after any move, because each client let go of is sent `rehome` (dead, its node hears
nothing), and what such a node registers after it runs again is not let go of, as the
heartbeats are read afresh before any late client is.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import random
from collections.abc import Awaitable, Callable
from typing import Protocol

from server.cluster.bus import Bus
from server.cluster.directory import Directory
from server.cluster.lease import LeaseError, Leases
from server.cluster.nodes import NodeWatch
from server.cluster.proxy import RoomGone, RoomProxy
from server.cluster.remote import Links, RemoteClient
from server.rooms.actor import Room
from server.rooms.seams import Gone
from server.store import StoreError
from server.store.redis import cancel_requested

log = logging.getLogger(__name__)

#: Rooms checked for a lost owner in one round of pipelined GETs.
CHUNK = 200
#: How often the owners of relayed rooms are checked for a subscribed inbox (seconds).
LISTEN_POLL = 0.25
#: An owner whose inbox has had no subscriber this long is unreachable: twice the longest
#: pause of the bus between its reconnection attempts (`QUICK_BACKOFF`'s cap, 1 s)
#: would be safest, but a live node's first attempt comes after at most 50 ms.
UNHEARD_FOR = 0.6
#: Orphaned rooms one sweep adopts at most (the others are left to later sweeps, or to
#: other nodes).
_SWEEP_ADOPT = 20


class FailoverHost(Protocol):
    """What the watch needs of its node (`server.cluster.node.ClusterNode`)."""

    @property
    def id(self) -> str: ...

    @property
    def ttl(self) -> float: ...

    @property
    def silence(self) -> float: ...

    @property
    def leases(self) -> Leases: ...

    @property
    def directory(self) -> Directory: ...

    @property
    def links(self) -> Links: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def proxies(self) -> dict[str, RoomProxy]: ...

    @property
    def remote(self) -> dict[tuple[str, int], RemoteClient]: ...

    def local_room(self, room_id: str) -> Room | None: ...

    async def adopt(self, room_id: str) -> Room | None: ...

    def detach(self, remote: RemoteClient) -> None:
        """`remote` is gone: this node forgets it."""

    def spawn(self, work: Awaitable[object], name: str) -> None: ...


class Failover:
    def __init__(self, host: FailoverHost, nodes: NodeWatch) -> None:
        self.host = host
        self.nodes = nodes
        #: The watch must end (a flag as well as the cancellation: see `Directory`).
        self.stopping = False

    # --- a node died or left -------------------------------------------------------------------

    def node_gone(self, node: str, left: bool) -> None:
        """`node` died or left (`NodeWatch`): its clients leave this node's rooms, and its
        rooms are taken over."""
        host = self.host
        host.links.forget(node)
        self._let_go_of(node)
        owned = [
            room_id
            for room_id, owner in host.directory.owners.items()
            if owner == node and room_id in host.directory.open
        ]
        owned += [
            proxy.id
            for proxy in host.proxies.values()
            if proxy.owner == node and proxy.id not in owned
        ]
        for room_id in owned:
            proxy = host.proxies.get(room_id)
            if proxy is not None and not proxy.closed:
                proxy.owner_gone(node)  # tells its clients, and takes the room over
            elif self.designated(room_id):
                host.spawn(self._take_over(room_id), f"take over {room_id}")
        if owned:
            log.info(
                "node %s %s, owning %d rooms",
                node,
                "left" if left else "died",
                len(owned),
                extra={"node": node, "rooms": len(owned)},
            )

    def designated(self, room_id: str) -> bool:
        """Whether this node is the one to take `room_id` over when nobody relays it: the
        live node with the highest hash of the room and its id (rendezvous hashing), so
        every node agrees without talking and a dead owner's rooms spread over the rest."""
        live = self.nodes.live | {self.host.id}

        def weight(node: str) -> bytes:
            return hashlib.blake2b(f"{room_id}|{node}".encode(), digest_size=8).digest()

        return max(live, key=weight) == self.host.id

    async def _take_over(self, room_id: str) -> None:
        try:
            await self.host.adopt(room_id)
        except RoomGone:
            return
        except (LeaseError, StoreError) as exc:
            log.info("room %s: cannot take it over now (%s)", room_id, exc)

    def _let_go_of(self, node: str) -> None:
        """The clients of `node` in this node's rooms are gone (O5 grace for seats); `node`
        is told, in case it was only paused (`RemoteClient.let_go`)."""
        for remote in list(self.host.remote.values()):
            if remote.node == node:
                self.host.detach(remote)
                room = remote.room
                remote.let_go()
                if room is not None:
                    room.post(Gone(remote))

    # --- owners that no longer listen -------------------------------------------------------

    async def watch_listening(self) -> None:
        """Tell the clients of a room whose owner stopped listening on Redis that the table
        is moving, without waiting for its heartbeat to lapse (see the module's
        docstring); forever, as a task."""
        loop = asyncio.get_running_loop()
        unheard_since: dict[str, float] = {}
        unreachable: set[str] = set()
        while not self.stopping:
            await asyncio.sleep(LISTEN_POLL)
            bus = self.host.bus
            if bus.steady_for() < UNHEARD_FOR:
                unheard_since.clear()  # Redis was away: every node is subscribing again
                continue
            owners = {
                owner
                for p in self.host.proxies.values()
                if not p.closed
                and (owner := p.owner or self.host.directory.owners.get(p.id)) is not None
                and owner != self.host.id
            }
            try:
                counts = {n: await bus.listeners(bus.keys.node_channel(n)) for n in owners}
            except Exception as exc:
                if cancel_requested() or self.stopping:
                    raise asyncio.CancelledError from exc
                unheard_since.clear()
                continue
            now = loop.time()
            for node, count in counts.items():
                if count:
                    unheard_since.pop(node, None)
                    if node in unreachable:
                        unreachable.discard(node)
                        log.info("node %s listens again", node, extra={"node": node})
                        self._each_relay_of(node, RoomProxy.owner_listens)
                elif node not in unreachable and now - unheard_since.setdefault(node, now) >= (
                    UNHEARD_FOR
                ):
                    unreachable.add(node)
                    log.info(
                        "node %s no longer listens: its rooms are moving",
                        node,
                        extra={"node": node},
                    )
                    self._each_relay_of(node, RoomProxy.owner_unreachable)
            for node in set(unheard_since) - owners:
                del unheard_since[node]
            unreachable &= owners

    def _each_relay_of(self, node: str, act: Callable[[RoomProxy, str], None]) -> None:
        """`act` on each relay of a room `node` owns, as the relay last heard or, if it has
        not, as the directory says."""
        for proxy in list(self.host.proxies.values()):
            owner = proxy.owner or self.host.directory.owners.get(proxy.id)
            if not proxy.closed and owner == node:
                act(proxy, node)

    # --- the watch ------------------------------------------------------------------------

    async def run(self) -> None:
        loop = asyncio.get_running_loop()
        interval = max(0.1, self.host.ttl / 3)
        tick = 0
        while not self.stopping:
            nap = interval * random.uniform(0.8, 1.2)
            slept_from = loop.time()
            await asyncio.sleep(nap)
            if loop.time() - slept_from - nap > self.host.silence:
                # This process was paused (the nap overran by a node timeout): other nodes
                # may have given up on it. (The nap itself may be longer than the timeout.)
                for proxy in self.host.proxies.values():
                    proxy.owner_lost()
            tick += 1
            try:
                await self._watch_owners()
                await self._watch_nodes()
                if tick % 3 == 0:
                    await self.sweep()
            except Exception as exc:
                if cancel_requested() or self.stopping:
                    raise asyncio.CancelledError from exc
                log.debug("cluster watch: %s", exc)

    async def _watch_owners(self) -> None:
        """The rooms this node relays: a dead owner means taking the room over, a new one
        re-registering the clients."""
        proxies = self.host.proxies
        relayed = [p.id for p in proxies.values() if not p.closed and not p.idle]
        for room_id, holder in (await self.host.leases.holders(relayed, CHUNK)).items():
            proxy = proxies.get(room_id)
            if proxy is None:
                continue
            if holder is None or self.nodes.is_dead(holder.node):
                proxy.probe()
            elif holder.node != self.host.id:
                proxy.owner_is(holder.node, holder.epoch)

    async def _watch_nodes(self) -> None:
        """Clients of nodes found dead that are still in this node's rooms (one that came
        in through a late batch, say) leave them, as when their node was seen going. The
        heartbeats are read again first: a node that was only paused registers its clients
        again as soon as it runs, and beats again as soon; what it registered since is no
        late batch."""
        suspects = {r.node for r in self.host.remote.values() if self.nodes.is_dead(r.node)}
        if not suspects:
            return
        await self.nodes.poll()
        for node in suspects:
            if self.nodes.is_dead(node):
                self.host.links.forget(node)
                self._let_go_of(node)

    async def sweep(self) -> None:
        """Open rooms nobody owns (every client of theirs was on a node that died): take
        them over, so their clocks and grace periods run on."""
        host = self.host
        candidates = [
            r for r in host.directory.open if host.local_room(r) is None and r not in host.proxies
        ]
        if not candidates:
            return
        holders = await host.leases.holders(candidates, CHUNK)
        orphans = [
            r
            for r, holder in holders.items()
            if holder is None or (self.nodes.is_dead(holder.node) and self.designated(r))
        ]
        random.shuffle(orphans)
        for room_id in orphans[:_SWEEP_ADOPT]:
            try:
                await host.adopt(room_id)
            except RoomGone:
                continue
            except (LeaseError, StoreError):
                return
