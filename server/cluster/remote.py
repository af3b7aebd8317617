"""The owner's side of clients connected to other nodes.

A room talks to its members through `Client` objects. For a client connected to another
node, the owner holds a `RemoteClient`: the same interface, but every frame, every
membership change (`bind`, `unbind`) and every close becomes an `Item` for that node.
`Links` batches the items of each destination node and publishes them on the node's own
channel, one ordered stream per node: whatever a room does in one step (a reply, then the
events everyone gets) reaches the node as one message, in that order, and a frame sent to
many clients of the same node travels once.

A batch is sent again until its node has it: while Redis is away, and while the node is not
listening (it is reconnecting to Redis and subscribing again, so a publish would reach
nobody). Only a node found dead (or gone) is given up on. So the answers to a client's
requests are not lost between an owner and its client's node when Redis comes back (F1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from server.cluster import wire
from server.cluster.bus import Bus, BusError
from server.edge.client import Client
from server.rooms.seams import RoomPort
from server.store.redis import QUICK_BACKOFF, cancel_requested

if TYPE_CHECKING:
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

#: Close code a room uses when its owner goes away (SIGTERM): for a client of another
#: node this means "the room moves", not "your connection ends".
GOING_AWAY = 1001


class _Pending:
    """An item being gathered (frames to several connections are merged)."""

    __slots__ = ("code", "conns", "epoch", "frame", "kind", "reason", "room", "seq")

    def __init__(
        self,
        kind: wire.ItemKind,
        conns: list[int],
        epoch: int,
        room: str = "",
        seq: int = 0,
        frame: bytes = b"",
        code: int = 0,
        reason: str = "",
    ) -> None:
        self.kind = kind
        self.conns = conns
        self.epoch = epoch
        self.room = room
        self.seq = seq
        self.frame = frame
        self.code = code
        self.reason = reason

    def item(self) -> wire.Item:
        return wire.Item(
            kind=self.kind,
            conns=self.conns,
            epoch=self.epoch,
            room=self.room,
            seq=self.seq,
            frame=self.frame,
            code=self.code,
            reason=self.reason,
        )


class _Link:
    """The ordered stream of batches to one node."""

    def __init__(self, links: Links, node: str) -> None:
        self.links = links
        self.node = node
        self.pending: list[_Pending] = []
        self.wake = asyncio.Event()
        #: A batch is taken and not yet published.
        self.sending = False
        self.task = asyncio.get_running_loop().create_task(self._run(), name=f"link {node}")

    def put(self, pending: _Pending) -> None:
        last = self.pending[-1] if self.pending else None
        if (
            pending.kind in ("frame", "event")
            and last is not None
            and last.kind == pending.kind
            and last.frame is pending.frame
            and last.epoch == pending.epoch
        ):
            last.conns += pending.conns  # one broadcast: the frame travels once
        else:
            self.pending.append(pending)
        self.wake.set()

    async def _run(self) -> None:
        delays = QUICK_BACKOFF.delays()
        while True:
            await self.wake.wait()
            self.wake.clear()
            if not self.pending:
                continue
            await self.links.open.wait()  # held while this node hands its rooms over
            taken, self.pending = self.pending, []
            self.sending = True
            data = wire.encode(wire.Batch(node=self.links.node, items=[p.item() for p in taken]))
            while True:
                try:
                    receivers = await self.links.bus.send_to_node(self.node, data)
                except BusError as exc:
                    if cancel_requested():
                        raise asyncio.CancelledError from exc
                    receivers = None  # Redis is away: keep the batch (and the order)
                if receivers:
                    break
                # Redis is away, or the node is not subscribed right now (reconnecting to
                # Redis): the batch waits, in order, unless the node is dead or gone.
                if self.links.is_dead(self.node):
                    log.info("dropping a batch for node %s: it is gone", self.node)
                    break
                if receivers == 0:
                    self.links.unreachable(self.node)
                await asyncio.sleep(next(delays))
            delays = QUICK_BACKOFF.delays()
            self.sending = False
            self.links.batches_sent += 1


class Links:
    """This node's outgoing batches, one ordered stream per destination node."""

    def __init__(
        self,
        bus: Bus,
        node: str,
        *,
        is_dead: Callable[[str], bool] = lambda node: False,
        unreachable: Callable[[str], object] = lambda node: None,
    ) -> None:
        self.bus = bus
        self.node = node
        self.is_dead = is_dead
        self.unreachable = unreachable
        self._links: dict[str, _Link] = {}
        self.batches_sent = 0
        #: Cleared while this node hands its rooms over (`hold`): batches wait.
        self.open = asyncio.Event()
        self.open.set()

    def hold(self) -> None:
        """Gather batches but send none until `release` (a stopping node lets its rooms'
        last words go only once their leases are free, so the nodes that hear them can take
        the rooms over at once)."""
        self.open.clear()

    def release(self) -> None:
        self.open.set()

    def _link(self, node: str) -> _Link:
        link = self._links.get(node)
        if link is None:
            link = self._links[node] = _Link(self, node)
        return link

    def frame(self, node: str, conn: int, epoch: int, frame: bytes, *, event: bool) -> None:
        """`frame` for connection `conn` of `node`: a broadcast room `event` (which that
        node may skip for a client that does not keep up) or a frame for it alone."""
        kind: wire.ItemKind = "event" if event else "frame"
        self._link(node).put(_Pending(kind, [conn], epoch, frame=frame))

    def member(self, node: str, conn: int, epoch: int, room: str, seq: int) -> None:
        self._link(node).put(_Pending("member", [conn], epoch, room=room, seq=seq))

    def left(self, node: str, conn: int, epoch: int, room: str) -> None:
        self._link(node).put(_Pending("left", [conn], epoch, room=room))

    def close_conn(self, node: str, conn: int, epoch: int, code: int, reason: str) -> None:
        self._link(node).put(_Pending("close", [conn], epoch, code=code, reason=reason))

    def rehome(self, node: str, conn: int, epoch: int, room: str) -> None:
        self._link(node).put(_Pending("rehome", [conn], epoch, room=room))

    def forget(self, node: str) -> None:
        """A node is gone: stop sending to it."""
        link = self._links.pop(node, None)
        if link is not None:
            link.task.cancel()

    async def flush(self, timeout: float) -> None:
        """Wait (at most `timeout` s) until every gathered item has been published."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        links = self._links.values()
        while any(link.pending or link.wake.is_set() or link.sending for link in links):
            if loop.time() > deadline:
                return
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.01)  # the last publish in flight

    async def close(self) -> None:
        for link in self._links.values():
            link.task.cancel()
        for link in self._links.values():
            with contextlib.suppress(asyncio.CancelledError):
                await link.task
        self._links.clear()


class RemoteClient(Client):
    """A client of another node, as a room of this node sees it."""

    def __init__(
        self,
        links: Links,
        node: str,
        conn: int,
        player: str,
        name: str,
        metrics: Metrics | None = None,
        on_detached: Callable[[RemoteClient], object] = lambda client: None,
    ) -> None:
        self.links = links
        self.node = node
        self.conn = conn
        #: The room an action of this client is on its way to (see `expect`), and the
        #: epoch this node holds it at.
        self.target: str = ""
        self.target_epoch = 0
        #: Its node was found dead and this client let go of (see `let_go`).
        self.let_go_of = False
        self._on_detached = on_detached
        super().__init__(None, metrics)
        self.player = player
        self.name = name

    @property
    def origin(self) -> str:
        """`node/conn`: the same for this connection whichever node owns its room (see
        `server.rooms.seams.Relayed`)."""
        return f"{self.node}/{self.conn}"

    def bind(self, room: RoomPort) -> None:
        """A room of this node (re)seats this client: its node relays the room's events
        to it from the room's seq on."""
        self._room = room
        self.target, self.target_epoch = room.id, room.fence or 0
        self.links.member(self.node, self.conn, self.target_epoch, room.id, room.seq)

    def unbind(self, room: RoomPort) -> None:
        """The room is done with this client (left, refused, or replaced by a newer
        connection): its node stops relaying the room to it."""
        if self._room is not room and self.target != room.id:
            return
        if self.let_go_of:
            self._room, self.target = None, ""
            return  # its node heard `rehome` instead (see `let_go`)
        epoch = (room.fence or 0) if self._room is room else self.target_epoch
        self._room = None
        self.links.left(self.node, self.conn, epoch, room.id)
        self.target = ""
        self._on_detached(self)

    def entering(self, room: RoomPort) -> None:
        """An `enter`, `reattach` or `rejoin` is being handed to `room`: as on a lone node,
        where the lobby sets `client.room` before the room decides, the room may now
        refuse (and set it back to None, which tells the client's node)."""
        self._room = room
        self.target, self.target_epoch = room.id, room.fence or 0

    def let_go(self) -> None:
        """Its node was found dead, so the room is about to be told this client is gone
        (O5: a seat gets its grace period). The node is told too, with `rehome`, as when a
        room moves: dead, it hears nothing; only paused past the node timeout (and running
        again), it registers the client with the room again instead of relaying a room
        that no longer sends it anything. Nothing else goes to the node for this client
        object: a client registered again is a new `RemoteClient`."""
        if self.let_go_of:
            return
        if self._room is not None:
            self.links.rehome(self.node, self.conn, self.epoch, self._room.id)
        self.let_go_of = True

    @property
    def open(self) -> bool:
        return not self.closed and not self.let_go_of

    @property
    def epoch(self) -> int:
        return (self._room.fence or 0) if self._room is not None else self.target_epoch

    def send(self, data: bytes) -> None:
        if not self.closed and not self.let_go_of:
            self.links.frame(self.node, self.conn, self.epoch, data, event=False)

    def send_event(self, data: bytes) -> None:
        if not self.closed and not self.let_go_of:
            self.links.frame(self.node, self.conn, self.epoch, data, event=True)

    def close(self, code: int, reason: str) -> None:
        if self.closed or self.let_go_of:
            self.closed = True
            return
        self.closed = True
        if code == GOING_AWAY and self._room is not None:
            # This node is going away, not the client's: the room moves to another node.
            self.links.rehome(self.node, self.conn, self.epoch, self._room.id)
        else:
            self.links.close_conn(self.node, self.conn, self.epoch, code, reason)
