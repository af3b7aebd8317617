"""A relay for a room another node owns, on a node with clients in it.

To the gateway and the lobby a `RoomProxy` is the room: `client.room` is the proxy and
`post()` takes the same commands. It turns them into `Action`s on the room's action
channel, one at a time and in order. When nobody serves the room (its owner died, or
went away), it asks its node to take the room over (`RelayHost.adopt`); if this node
gets the lease, the proxy hands its clients and its unsent commands to the new local
room and ends. When the room has a new owner elsewhere, the proxy re-registers its
clients there (`rejoin`), and each gets the room's snapshot again.

The events and replies for its clients come back in the node's own batches (see
`server.cluster.node`); the proxy keeps, per client, the last room event it has, so a
catch-up from the log after an outage sends each event once, and its role as the owner
told it (its `joined` reply, the seats of the snapshots it gets), so a spectator that
keeps falling behind is closed here as on the owner (`server.edge.client`).

When the owner goes (it stops, or dies), the proxy tells its clients the table is
**moving** (`notice`) and tells each the table is **back** once its snapshot from the next
owner has arrived. A request waits for an owner that serves the room (the next one, or the
same one back from a reconnect to Redis) and is done once; one that finds no owner while
the room is moving is refused `room_moving` (nobody has it: sent again once the room is
back, it is done once).

Every request a client sends through the proxy gets exactly one answer. The proxy keeps
the requests it sent and not yet had answered (`pending`). When an answer may have been
lost on the way — the owner changed, or this node reconnected to Redis — the client is
registered with the room again (`rejoin`), its requests so far marked unsure. The owner
answers `ok` again for each request its record holds as done (`RoomRecord.applied`, saved
with the change itself, so a new owner knows it too), and the proxy passes on only
answers to requests still pending, never a second one; what is still pending once the
client's fresh snapshot arrives was never done, and is refused `room_moving`.

Right after a move, Redis may count an action as heard by the previous owner alone (paused,
not dead, still subscribed; it drops the action once it runs): so a `rejoin` no snapshot
answers within `REJOIN_PATIENCE` is sent again while the table is moving.

The proxy knows its node only as a `RelayHost` (declared here, implemented by
`server.cluster.node.ClusterNode`), and the node changes a proxy's members only through
the proxy's methods: so the two modules do not import each other.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server.cluster import wire
from server.cluster.bus import Bus, BusError
from server.cluster.lease import LeaseError, Leases
from server.cluster.wire import Delivery
from server.rooms.actor import Room
from server.rooms.seams import (
    Command,
    Enter,
    Gone,
    Member,
    Reattach,
    Rejoin,
    Request,
    Shutdown,
    Tell,
)
from server.store import LogEntry, StoreError
from server.store.redis import QUICK_BACKOFF

log = logging.getLogger(__name__)


class RoomGone(Exception):
    """The room is not open anywhere (closed, or never existed)."""


class RelayHost(Protocol):
    """What a relay needs of its node."""

    @property
    def id(self) -> str: ...

    @property
    def bus(self) -> Bus: ...

    @property
    def leases(self) -> Leases: ...

    def conn_id(self, client: Member) -> int:
        """The number other nodes know `client` by."""

    def forget(self, client: Member) -> None:
        """`client` is gone for good: its number may be forgotten."""

    def local_room(self, room_id: str) -> Room | None:
        """The room if this node runs it (it may have just closed)."""

    async def adopt(self, room_id: str) -> Room | None:
        """Take the room over if nobody holds it (see `ClusterNode.adopt`)."""

    def repost(self, room_id: str, command: Command) -> None:
        """A command that reached a relay after it ended."""

    def drop_proxy(self, proxy: RoomProxy) -> None:
        """The relay has ended."""

    def node_dead(self, node: str) -> bool:
        """`node` has died or left the cluster (its heartbeat says so)."""


@dataclass
class RelayedMember:
    """A client of this node in the proxied room, as far as the owner has confirmed."""

    conn: int
    #: The last room event the client has (None: not known yet).
    seq: int | None = None
    #: What the owner last said the client is: the role of its `joined` reply, or whether
    #: a snapshot it got seats it. Until the owner has said, a player (the role that is
    #: never closed for falling behind, see `RoomProxy.is_spectator`).
    role: m.Role = "player"
    #: The role came from the owner itself (a `joined` reply, or the room as this node
    #: handed it over): snapshots no longer change it. (A spectator whose player also holds
    #: a seat, in another tab or in grace, is seated in every snapshot, yet remains a
    #: spectator here.)
    role_confirmed: bool = False


@dataclass
class Outgoing:
    kind: wire.ActionKind
    client: Member
    conn: int
    request_id: int = 0
    role: m.Role = "player"
    invited: bool = False
    message: m.ClientMessage | None = None

    @property
    def answered_by(self) -> int | None:
        """The request id its answer will carry (None: nothing answers it: membership, or
        an aim preview, which gets an answer only when refused)."""
        if self.kind == "enter":
            return self.request_id
        if self.kind == "request" and self.message is not None:
            return None if isinstance(self.message, m.Aim) else self.message.id
        return None


#: Answers a client has had, remembered per client so that one sent again is dropped.
_ANSWERED_KEPT = 64

#: How long a `rejoin` waits for its snapshot before it is sent again (seconds): far longer
#: than an owner takes to answer; a second snapshot changes nothing.
REJOIN_PATIENCE = 1.0

_MOVING = "the table is moving to another server; it is back in a moment"
_BACK = "the table is back"


class RoomProxy:
    def __init__(self, node: RelayHost, room_id: str) -> None:
        self.node = node
        self.id = room_id
        self.closed = False
        #: Clients whose `room` is this proxy (members or on their way in).
        self.attached: set[Member] = set()
        self.members: dict[Member, RelayedMember] = {}
        #: The node that owns the room and its fencing epoch, as last heard (None, 0:
        #: unknown). What comes from an older epoch (a stale owner) is dropped.
        self.owner: str | None = None
        self.epoch = 0
        self._queue: deque[Outgoing] = deque()
        #: Per client, the requests sent to an owner and not answered yet: their ids, and
        #: whether the answer may have been lost (see the module's docstring).
        self.pending: dict[Member, dict[int, bool]] = {}
        #: Per client, ids recently answered: a second answer is dropped.
        self._answered: dict[Member, deque[int]] = {}
        #: `enter`s sent and not answered: sent again to the room's next owner.
        self._entering: dict[Member, Outgoing] = {}
        #: Clients told the table is moving, not yet that it is back.
        self.moving: set[Member] = set()
        #: Clients whose unsure requests are settled when their own snapshot arrives.
        self._settling: set[Member] = set()
        #: Nobody served the room's actions at the last try.
        self._stalled = False
        #: Clients registered again (`rejoin` sent) whose snapshot has not come yet, and
        #: when it was sent (loop time; see `REJOIN_PATIENCE`).
        self._rejoining: dict[Member, float] = {}
        self._probe = False
        self._wake = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"proxy {room_id}")

    # --- what the gateway and the lobby call ---------------------------------------------

    def post(self, command: Command) -> None:
        if self.closed:
            self.node.repost(self.id, command)
            return
        if isinstance(command, Request):
            self._put("request", command.client, message=command.message)
        elif isinstance(command, Gone):
            self.members.pop(command.client, None)
            self.attached.discard(command.client)
            self._forget_answers(command.client)
            self._put("gone", command.client)
        elif isinstance(command, Reattach):
            self._put("reattach", command.client)
        elif isinstance(command, Rejoin):
            self._put("rejoin", command.client, role=command.role)
        elif isinstance(command, Enter):
            self.enter(command.client, command.request_id, command.role, invited=True)
        elif isinstance(command, Shutdown) and not command.done.done():
            command.done.set_result(None)

    @property
    def fence(self) -> int | None:
        """The owner's epoch as last heard (None: not known yet)."""
        return self.epoch or None

    @property
    def seq(self) -> int:
        """Events reach each member with their own seq (see `Member`); the relay has none."""
        return 0

    def enter(self, client: Member, request_id: int, role: m.Role, invited: bool) -> None:
        self._put("enter", client, request_id=request_id, role=role, invited=invited)

    def is_spectator(self, member: Member) -> bool:
        """As `Room.is_spectator`, by what the owner has told this node of `member`: one
        whose role is not known yet (its `joined` is on its way) counts as a player, as
        closing a player for falling behind would be the costlier mistake."""
        relayed = self.members.get(member)
        return relayed is not None and relayed.role == "spectator"

    def join(self, client: Member) -> None:
        client.entering(self)
        self.attached.add(client)

    def rejoin(self, client: Member) -> None:
        """Register `client` again with whoever owns the room now (before anything it sent
        later)."""
        member = self.members.get(client)
        if member is None:
            return
        if any(out.kind == "rejoin" and out.client is client for out in self._queue):
            return
        out = Outgoing("rejoin", client, member.conn, role=member.role)
        self._queue.appendleft(out)
        self._wake.set()

    def carry_over(self, client: Member, conn: int, seq: int, role: m.Role) -> None:
        """`client` was in the room while this node owned it, which another node owns now:
        it stays a member, as it was, and registers with the new owner."""
        self.join(client)
        self.members[client] = RelayedMember(conn, seq, role, True)
        self.tell_moving([client])
        self.rejoin(client)

    def admitted(self, client: Member, conn: int, seq: int) -> None:
        """The owner says `client` is a member, with the room's events up to `seq`."""
        member = self.members.get(client)
        if member is None:
            member = self.members[client] = RelayedMember(conn)
        member.seq = seq

    def let_go(self, client: Member) -> None:
        """`client` is the room's own now (the room came to this node): no longer relayed."""
        self.attached.discard(client)
        self.members.pop(client, None)
        self._forget_answers(client)

    def left(self, client: Member) -> None:
        """The owner says `client` left the room."""
        self.let_go(client)
        client.unbind(self)
        self.probe_idle()

    def rehome(self, client: Member) -> None:
        """The owner that held `client` gave the room up: find the next one for it."""
        self.owner = None
        self.tell_moving([client])
        self._unsure(client)
        self.rejoin(client)
        self.probe()

    def owner_lost(self) -> None:
        """The owner as last heard may be gone (this process was paused): look again."""
        self.owner = None
        self.probe()

    def owner_gone(self, node: str) -> None:
        """`node` died or left the cluster: if it owns the room as far as this relay knows,
        the room is moving; find its next owner (or take it over)."""
        if self.owner not in (None, node):
            return  # news this relay has had already: the room has its next owner
        self.owner = None
        self.tell_moving(self._clients())
        self.probe()

    def owner_unreachable(self, node: str) -> None:
        """`node`, the owner as far as this relay knows, no longer listens on Redis (a
        crash closes its connection at once; its heartbeat lapses a node timeout later):
        the clients hear now that the table is moving. Nothing is taken over before then."""
        if self.owner in (node, None):
            self.tell_moving(self._clients())

    def owner_listens(self, node: str) -> None:
        """`node` listens again after `owner_unreachable` (it reconnected to Redis): the
        members told the table was moving register again; their snapshots say it is back."""
        if self.owner in (node, None):
            for client in [c for c in reversed(list(self.members)) if c in self.moving]:
                self._unsure(client)
                self.rejoin(client)

    def reconnected(self) -> None:
        """This node was cut off from Redis: answers to its clients may have been lost. A
        client with requests pending registers with the room again (see the module's
        docstring)."""
        for client in list(self.members):
            if self.pending.get(client):
                self._unsure(client)
                self.rejoin(client)

    def tell_moving(self, clients: Sequence[Member]) -> None:
        """Tell these clients the table is moving (once, until it is back)."""
        for client in clients:
            if client not in self.moving and not client.closed:
                self.moving.add(client)
                client.send_message(m.Notice(room=self.id, kind="moving", msg=_MOVING))

    def _refuse_waiting(self) -> None:
        """What the clients told the table is moving asked and is not sent yet is refused
        (`room_moving`): no owner can have it now."""
        kept: deque[Outgoing] = deque()
        for out in self._queue:
            if out.kind == "request" and out.client in self.moving:
                if out.message is not None and not isinstance(out.message, m.Aim):
                    out.client.error(out.message.id, errors.ROOM_MOVING, _MOVING)
                continue
            kept.append(out)
        self._queue = kept

    def _clients(self) -> list[Member]:
        return list(self.attached | set(self.members))

    def _unsure(self, client: Member) -> None:
        """The answers to `client`'s pending requests may have been lost."""
        pending = self.pending.get(client)
        if pending:
            for request_id in pending:
                pending[request_id] = True
            self._settling.add(client)

    def _forget_answers(self, client: Member) -> None:
        self.pending.pop(client, None)
        self._answered.pop(client, None)
        self._entering.pop(client, None)
        self.moving.discard(client)
        self._settling.discard(client)
        self._rejoining.pop(client, None)

    def _sent(self, out: Outgoing) -> None:
        """`out` reached an owner: its answer is awaited."""
        request_id = out.answered_by
        if request_id is None:
            return
        self.pending.setdefault(out.client, {})[request_id] = False
        answered = self._answered.get(out.client)
        if answered is not None and request_id in answered:
            answered.remove(request_id)  # the client uses the id again
        if out.kind == "enter":
            self._entering[out.client] = out

    def _answer(self, client: Member, request_id: int) -> None:
        """`client` has its answer to `request_id`."""
        pending = self.pending.get(client)
        if pending is None or pending.pop(request_id, None) is None:
            return
        if not pending:
            del self.pending[client]
        answered = self._answered.setdefault(client, deque(maxlen=_ANSWERED_KEPT))
        answered.append(request_id)
        entering = self._entering.get(client)
        if entering is not None and entering.request_id == request_id:
            del self._entering[client]

    def _refuse_moving(self, client: Member, request_id: int) -> None:
        self._answer(client, request_id)
        client.error(request_id, errors.ROOM_MOVING, "the room is moving; try again")

    def stale_before(self, epoch: int) -> None:
        """Whatever comes from an epoch older than `epoch` is stale from now on."""
        self.epoch = epoch

    def passes(self, client: Member, delivery: Delivery) -> bool:
        """A frame from the owner for `client`: False if the client has it already (sent
        from the log, or an answer it has had). Keeps the client's last event and its role
        as the owner says it."""
        peeked = delivery.peeked
        if peeked.t in ("ok", "error", "joined") and peeked.id is not None:
            answered = self._answered.get(client)
            if answered is not None and peeked.id in answered:
                # Answered again: by an owner that could not know (see above), or to an
                # `enter` sent to the next owner that the room had taken already.
                return False
        member = self.members.get(client)
        if member is None:
            return True
        if peeked.seq is not None:
            if peeked.t == "snapshot":
                member.seq = peeked.seq
            elif member.seq is not None and peeked.seq <= member.seq:
                return False
            else:
                member.seq = peeked.seq
        # The member's role, as the owner says it (see `is_spectator`).
        if peeked.t == "joined" and peeked.role in ("player", "spectator"):
            member.role = "spectator" if peeked.role == "spectator" else "player"
            member.role_confirmed = True
        elif peeked.t == "snapshot" and client.player is not None and not member.role_confirmed:
            seated = delivery.seated
            if seated is not None:
                member.role = "player" if client.player in seated else "spectator"
        return True

    def delivered(self, client: Member, delivery: Delivery, *, own: bool) -> None:
        """A frame from the owner reached `client` (`own`: for it alone, not a broadcast):
        note the answer it carries; after its fresh snapshot, settle what is still unsure
        and tell it the table is back."""
        peeked = delivery.peeked
        if peeked.id is not None and peeked.t in ("ok", "error", "joined", "snapshot"):
            self._answer(client, peeked.id)
        if peeked.t != "snapshot":
            return
        self._rejoining.pop(client, None)
        if own and peeked.id is None and client in self._settling:
            self._settling.discard(client)
            pending = self.pending.get(client, {})
            for request_id in [r for r, unsure in pending.items() if unsure]:
                self._refuse_moving(client, request_id)
        if client in self.moving:
            self.moving.discard(client)
            client.send_message(m.Notice(room=self.id, kind="back", msg=_BACK))

    def behind(self) -> int | None:
        """The oldest last event of any member (None: none known), to catch up from."""
        seqs = [member.seq for member in self.members.values() if member.seq is not None]
        return min(seqs) if seqs else None

    def catch_up(self, entries: Sequence[LogEntry]) -> None:
        """After an outage: the room's logged events each member has not had, each once."""
        for entry in entries:
            for client, member in list(self.members.items()):
                if member.seq is not None and entry.seq > member.seq and not client.closed:
                    client.send_event(entry.data)
                    member.seq = entry.seq

    def heard(self, node: str, epoch: int) -> bool:
        """Something came from `node` as the owner at `epoch`: False if that is older than
        what is known (a stale owner: drop it). A newer owner heard of this way (its answer
        to a client that came back through this node, say) is a new owner for every member:
        the previous owner's last words (`rehome`) may arrive after it, and be dropped."""
        if epoch < self.epoch:
            return False
        if epoch > self.epoch:
            self.owner_is(node, epoch)
        return True

    def owner_is(self, node: str, epoch: int) -> None:
        """The room is owned by `node` at `epoch`: if that is news, re-register every
        member with it (answers from the previous owner may be lost), and send it again
        the `enter`s nobody answered."""
        if epoch < self.epoch:
            return
        if epoch == self.epoch:
            # Announced once it serves the room's actions: what waits for it goes now.
            self._wake.set()
            return
        moved = self.epoch > 0
        self.owner, self.epoch = node, epoch
        if not moved:
            return  # the first owner this relay hears of
        # The room moved (perhaps before this node noticed its owner had gone): the members
        # hear so now, and that it is back once their snapshots are here.
        self.tell_moving(list(self.members))
        for client in reversed(list(self.members)):
            self._unsure(client)
            self.rejoin(client)
        queued = {out.client for out in self._queue if out.kind == "enter"}
        for client, out in list(self._entering.items()):
            if client not in self.members and client not in queued and not client.closed:
                self._queue.append(out)
                self._wake.set()

    def probe(self) -> None:
        """Check who owns the room (its lease) and act on it: take it over if nobody does,
        re-register the members if somebody new does."""
        self._probe = True
        self._wake.set()

    def probe_idle(self) -> None:
        """A client left: the relay ends once nobody uses it."""
        self._wake.set()

    @property
    def idle(self) -> bool:
        return not self.attached and not self.members and not self._queue

    def _put(self, kind: wire.ActionKind, client: Member, **fields: object) -> None:
        conn = self.node.conn_id(client)
        self._queue.append(Outgoing(kind, client, conn, **fields))  # type: ignore[arg-type]
        self._wake.set()

    def _action(self, out: Outgoing) -> wire.Action:
        frame = encode(out.message) if out.message is not None else b""
        return wire.Action(
            kind=out.kind,
            node=self.node.id,
            conn=out.conn,
            player=out.client.player or "",
            name=out.client.name,
            request_id=out.request_id,
            role=out.role,
            invited=out.invited,
            frame=frame,
        )

    # --- the sender -----------------------------------------------------------------------

    async def _run(self) -> None:
        delays = QUICK_BACKOFF.delays()
        while not self.closed:
            local = self.node.local_room(self.id)
            if local is not None and not local.closed:
                self.hand_over(local)  # this node took the room over
                return
            if self._probe:
                self._probe = False
                await self._check_owner()
                continue
            if not self._queue:
                if self.idle:
                    self.closed = True
                    self.node.drop_proxy(self)
                    return
                self._wake.clear()
                if not self.moving:
                    await self._wake.wait()
                    continue
                # Moving: look for the next owner now and then, whatever else happens (news
                # of the owner may come more often than the nap lasts).
                if not await self._nap(next(delays)) or self._rejoin_overdue():
                    self._probe = True
                continue
            out = self._queue[0]
            try:
                receivers = await self.node.bus.send_action(self.id, wire.encode(self._action(out)))
            except BusError:
                await asyncio.sleep(next(delays))
                continue
            if receivers:
                delays = QUICK_BACKOFF.delays()
                self._queue.popleft()
                self._sent(out)
                if out.kind == "rejoin":
                    self._rejoining[out.client] = asyncio.get_running_loop().time()
                if out.kind == "gone":
                    self.node.forget(out.client)
                if self._stalled:
                    self._resumed()
                continue
            await self._find_owner()
            if not self.closed and self.node.local_room(self.id) is None:
                await self._no_owner()
                await self._nap(next(delays))  # the owner is not serving yet

    async def _nap(self, seconds: float) -> bool:
        """Wait before trying again, but no longer than until there is news (a new owner
        heard of, a command to send): True if there was."""
        self._wake.clear()
        try:
            # (asyncio.timeout, not wait_for: on Python 3.11 wait_for returns, the
            # cancellation lost, when the news comes in the moment it is cancelled)
            async with asyncio.timeout(seconds):
                await self._wake.wait()
        except TimeoutError:
            return False
        return True

    async def _check_owner(self) -> None:
        try:
            holder = await self.node.leases.holder(self.id)
        except LeaseError:
            return
        if holder is None or self.node.node_dead(holder.node):
            await self._find_owner()
        elif holder.node != self.node.id:
            self.owner_is(holder.node, holder.epoch)
            if self.moving and holder.epoch == self.epoch:
                self._resumed()  # the same owner serves again: show the clients the room

    async def _no_owner(self) -> None:
        """Nobody serves the room's actions and it could not be taken over here. If its
        owner is gone (died or left, or the room is known to be moving already), the
        clients are told the table is moving and their requests are refused. If its owner
        lives (it is reconnecting to Redis, or saving its rooms before it leaves), the
        requests wait for it: they will be done, once."""
        owner = self.owner
        if not self.moving:
            try:
                holder = await self.node.leases.holder(self.id)
            except LeaseError:
                return
            owner = holder.node if holder is not None else owner
            if owner is None or not self.node.node_dead(owner):
                return
        self._stalled = True
        self.tell_moving(self._clients())
        self._refuse_waiting()

    def _rejoin_overdue(self) -> bool:
        """A moving client's `rejoin` has waited `REJOIN_PATIENCE` (see `_resumed`)."""
        now = asyncio.get_running_loop().time()
        waits = (now - sent for client, sent in self._rejoining.items() if client in self.moving)
        return any(wait >= REJOIN_PATIENCE for wait in waits)

    def _resumed(self) -> None:
        """An owner serves the room's actions again after nobody did: every client that was
        told the table is moving registers again, and gets the room's snapshot. So does one
        whose `rejoin` has had no snapshot for `REJOIN_PATIENCE`: it may have reached only
        the previous owner (see the module's docstring)."""
        self._stalled = False
        now = asyncio.get_running_loop().time()
        for client in list(self.moving):
            sent = self._rejoining.get(client)
            if client in self.members and (sent is None or now - sent >= REJOIN_PATIENCE):
                self._unsure(client)
                self.rejoin(client)

    async def _find_owner(self) -> None:
        """Nobody serves the room's actions: take the room over if its lease is free."""
        try:
            await self.node.adopt(self.id)
        except RoomGone:
            self._fail()
        except (LeaseError, StoreError) as exc:
            log.info("room %s: cannot take it over now (%s)", self.id, exc)

    def _fail(self) -> None:
        """The room is not open anywhere: answer as a closed room does."""
        self.closed = True
        for client, pending in list(self.pending.items()):
            for request_id in list(pending):
                self._answer(client, request_id)
                client.error(request_id, errors.NO_SUCH_ROOM, "the room has closed")
        for out in self._queue:
            if out.kind in ("enter", "request"):
                request_id = out.message.id if out.message is not None else out.request_id
                if isinstance(out.message, m.Leave):
                    out.client.ok(request_id)
                else:
                    out.client.error(request_id, errors.NO_SUCH_ROOM, "no such room")
            if out.kind == "gone":
                self.node.forget(out.client)
        self._queue.clear()
        for client in self.attached | set(self.members):
            client.unbind(self)
        self.attached.clear()
        self.members.clear()
        self.node.drop_proxy(self)

    def _settle_with(self, room: Room) -> None:
        """The room came to this node: the requests its clients sent the previous owner and
        had no answer to are answered from the room's record (`ok`: it holds the change;
        `room_moving`: never done, send it again)."""
        done = {(applied.origin, applied.request) for applied in room.applied}
        for client, pending in list(self.pending.items()):
            origin = f"{self.node.id}/{self.node.conn_id(client)}"
            for request_id in list(pending):
                if self._entering.get(client) is not None:
                    continue  # its `enter` is handed to the room (see `hand_over`)
                self._answer(client, request_id)
                if (origin, request_id) in done:
                    client.ok(request_id)
                else:
                    client.error(request_id, errors.ROOM_MOVING, _MOVING)

    def _command(self, out: Outgoing) -> Command:
        client = out.client
        if out.kind == "enter":
            return Enter(client, out.request_id, out.role)
        if out.kind == "request":
            assert out.message is not None
            return Request(client, out.message)
        if out.kind == "reattach":
            return Reattach(client)
        if out.kind == "rejoin":
            return Rejoin(client, out.role)
        return Gone(client)

    def hand_over(self, room: Room) -> None:
        """This node owns the room now: its clients and unsent commands go to the local
        room, in order, and the proxy ends. (Called by the proxy's own task only, so no
        action is on its way meanwhile.)"""
        self.closed = True
        coming = {out.client for out in self._queue if out.kind in ("enter", "reattach")}
        # The room moved here: its clients hear so before its snapshot, and that it is back
        # after it (`Tell`, last); what they asked goes to the room.
        self.tell_moving(self._clients())
        told = list(self.moving)
        self._settle_with(room)
        for client in list(self.attached | set(self.members)):
            if client.closed or client in coming:
                continue
            member = self.members.get(client)
            client.entering(room)
            entering = self._entering.get(client)
            if member is None and entering is not None:
                # Its join reached the previous owner, unanswered: this owner answers it.
                room.post(Enter(client, entering.request_id, entering.role))
                continue
            room.post(Rejoin(client, member.role if member is not None else "player"))
        for out in self._queue:
            if out.kind == "gone":
                room.post(self._command(out))
                self.node.forget(out.client)
                continue
            if out.client.closed:
                continue
            if out.kind == "enter" and room.settings.private and not out.invited:
                out.client.error(out.request_id, errors.NO_SUCH_ROOM, "no such room")  # as if none
                out.client.unbind(self)
                continue
            if out.kind in ("enter", "reattach", "rejoin"):
                out.client.entering(room)
            room.post(self._command(out))
        for client in told:
            if not client.closed:
                room.post(Tell(client, m.Notice(room=self.id, kind="back", msg=_BACK)))
        self.moving.clear()
        self._queue.clear()
        self.attached.clear()
        self.members.clear()
        self.node.drop_proxy(self)
