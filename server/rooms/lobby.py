"""The lobby: the rooms of this process, who sits where, quick match, the live room list.

The lobby only ever touches its own dictionaries and posts commands to rooms; a room's
state is changed by the room's own task alone. Rooms report back through the
`RoomHost` methods (`room_changed`, `seat_taken`, …), which run in the room's task.

On one node of a cluster (`cluster` is a `server.cluster.node.ClusterNode`) the same
methods also cover the rooms other nodes own: the room list, invite codes and seats come
from the cluster-wide directory, a room owned elsewhere is reached through a relay
(`RoomProxy`), and quick match pairs players waiting on any node.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server.edge.client import Client, fan_out
from server.ops.config import Config
from server.ops.metrics import Metrics
from server.rooms.actor import (
    Room,
    RoomRecord,
    decode_record,
    new_invite_code,
    new_room_id,
)
from server.rooms.seams import Command, Enter, Member, Reattach, SeatPair, Shutdown
from server.rooms.simulation import PhysicsPool
from server.store import Store

if TYPE_CHECKING:
    from server.cluster.node import ClusterNode

log = logging.getLogger(__name__)


@dataclass
class Waiting:
    client: Client
    request_id: int
    race_to: int


class RoomHandle(Protocol):
    """What the gateway needs of the room a returning player sits in."""

    @property
    def id(self) -> str: ...

    @property
    def closed(self) -> bool: ...


@dataclass(frozen=True)
class SeatElsewhere:
    """A seat in a room another node owns (from the cluster directory)."""

    id: str
    closed: bool = False


class SeatIndex:
    """Who sits where: the players of this process's rooms and, in a cluster, every
    other node's (from the directory), behind one read-only mapping."""

    def __init__(self) -> None:
        self.local: dict[str, Room] = {}
        self.cluster: ClusterNode | None = None

    def get(self, player: str) -> RoomHandle | None:
        room = self.local.get(player)
        if room is not None:
            return room
        if self.cluster is not None:
            room_id = self.cluster.directory.seated.get(player)
            if room_id is not None:
                return SeatElsewhere(room_id)
        return None

    def __contains__(self, player: object) -> bool:
        return isinstance(player, str) and self.get(player) is not None

    def __iter__(self) -> Iterator[str]:
        return iter(self.local)


class Lobby:
    """Implements `server.rooms.actor.RoomHost` for every room of the process."""

    def __init__(self, config: Config, store: Store, pool: PhysicsPool, metrics: Metrics) -> None:
        self.config = config
        self.store = store
        self.pool = pool
        self.metrics = metrics
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, str] = {}
        self.seated = SeatIndex()
        self.subscribers: set[Client] = set()
        self.waiting: list[Waiting] = []
        self._listed: dict[str, m.Info] = {}
        self._room_counter = 0
        #: Set when this process is one node of a cluster.
        self.cluster: ClusterNode | None = None

    def join_cluster(self, cluster: ClusterNode) -> None:
        self.cluster = cluster
        self.seated.cluster = cluster

    # --- RoomHost -----------------------------------------------------------------------

    def room_changed(self, room: Room) -> None:
        if room.settings.private or room.closed:
            return
        info = room.info()
        if self._listed.get(room.id) == info:
            return
        self._listed[room.id] = info
        if self.cluster is not None:
            self.cluster.directory.room_info(room.id, info)  # every node tells its lobby
        else:
            fan_out(list(self.subscribers), encode(m.RoomChanged(info=info)))

    def seat_taken(self, player: str, room: Room) -> None:
        self.seated.local[player] = room
        if self.cluster is not None:
            self.cluster.directory.seat(player, room.id)

    def seat_freed(self, player: str, room: Room) -> None:
        if self.seated.local.get(player) is room:
            del self.seated.local[player]
        if self.cluster is not None:
            self.cluster.directory.unseat(player, room.id)

    def room_closed(self, room: Room) -> None:
        self._forget(room)
        if self._listed.pop(room.id, None) is not None and self.cluster is None:
            fan_out(list(self.subscribers), encode(m.RoomGone(room=room.id)))
        if self.cluster is not None:
            self.cluster.room_closed(room)

    async def settle(self) -> None:
        if self.cluster is not None:
            await self.cluster.directory.settled()

    async def room_starting(self, room: Room) -> None:
        if self.cluster is not None:
            await self.cluster.room_starting(room)

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        self._forget(room)
        self._listed.pop(room.id, None)
        if self.cluster is not None:
            self.cluster.room_abandoned(room, leftovers)

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if room.code is not None and self.codes.get(room.code) == room.id:
            del self.codes[room.code]
        for player, seated in list(self.seated.local.items()):
            if seated is room:
                del self.seated.local[player]
        self.metrics.rooms.set(len(self.rooms))

    # --- the cluster directory's news ---------------------------------------------------

    def listing_changed(self, room_id: str, info: m.Info | None) -> None:
        """A room of the cluster-wide list changed or is gone: tell the subscribers."""
        message: m.RoomChanged | m.RoomGone
        message = m.RoomGone(room=room_id) if info is None else m.RoomChanged(info=info)
        fan_out(list(self.subscribers), encode(message))

    # --- rooms --------------------------------------------------------------------------

    def _room_seed(self) -> int:
        self._room_counter += 1
        if self.config.seed is None:
            return secrets.randbits(63)
        node = "" if self.cluster is None else f":{self.cluster.id}"
        digest = hashlib.sha256(
            f"room:{self.config.seed}{node}:{self._room_counter}".encode()
        ).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def _code_taken(self, code: str) -> bool:
        if code in self.codes:
            return True
        return self.cluster is not None and code in self.cluster.directory.codes

    def _new_room(self, settings: m.RoomSettings) -> Room:
        room_id = new_room_id()
        while room_id in self.rooms:
            room_id = new_room_id()
        code = None
        if settings.private:
            code = new_invite_code()
            while self._code_taken(code):
                code = new_invite_code()
            self.codes[code] = room_id
        room = Room(self, room_id, settings, self._room_seed(), code)
        self.rooms[room_id] = room
        self.metrics.rooms.set(len(self.rooms))
        room.start()
        return room

    def adopt(self, record: RoomRecord, fence: int) -> Room:
        """Run a room another node owned (it died or left), from its stored record."""
        room = Room(self, record.room, record.settings, record.seed, record.code)
        room.restore(record)
        room.fence = fence
        self._add_restored(room)
        return room

    def _add_restored(self, room: Room) -> None:
        self.rooms[room.id] = room
        if room.code is not None:
            self.codes[room.code] = room.id
        for seat in room.seats:
            if seat is not None:
                self.seated.local[seat.player] = room
        self.metrics.rooms.set(len(self.rooms))
        room.start()

    def create(self, client: Client, message: m.Create) -> None:
        if self._busy(client, message.id):
            return
        room = self._new_room(message.settings)
        client.entering(room)
        room.post(Enter(client, message.id, "player"))

    def join(self, client: Client, message: m.Join) -> None:
        if self._busy(client, message.id, player=message.role == "player"):
            return
        room_id: str | None
        invited = message.code is not None
        if message.code is not None:
            room_id = self.codes.get(message.code)
            if room_id is None and self.cluster is not None:
                room_id = self.cluster.directory.codes.get(message.code)
            if room_id is None or (message.room is not None and message.room != room_id):
                client.error(message.id, errors.BAD_INVITE, "no private room with that code")
                return
        elif message.room is not None:
            room_id = message.room
        else:
            client.error(message.id, errors.BAD_MESSAGE, "join needs a room id or a code")
            return
        room = self.rooms.get(room_id)
        if room is None and self.cluster is not None:
            # Owned by another node (or by nobody since its owner died): through a relay,
            # which finds the owner or takes the room over.
            self.cluster.enter(client, room_id, message.id, message.role, invited)
            return
        if room is None:
            client.error(message.id, errors.NO_SUCH_ROOM, "no such room")
            return
        if room.settings.private and not invited:
            client.error(message.id, errors.BAD_INVITE, "this private room needs its code")
            return
        client.entering(room)
        room.post(Enter(client, message.id, message.role))

    def _busy(self, client: Client, request_id: int, player: bool = True) -> bool:
        if client.room is not None:
            client.error(request_id, errors.ALREADY_IN_ROOM, "leave the current room first")
            return True
        if player and client.player in self.seated:
            client.error(
                request_id,
                errors.ALREADY_IN_ROOM,
                "this player already has a seat in another room",
            )
            return True
        if any(w.client is client for w in self.waiting):
            client.error(request_id, errors.ALREADY_QUEUED, "waiting for a quick match")
            return True
        return False

    def reattach(self, client: Client) -> str | None:
        """A returning player: put them back in their seat. Returns the room id."""
        if client.player is None:
            return None
        room = self.seated.local.get(client.player)
        if room is not None and not room.closed:
            client.entering(room)
            room.post(Reattach(client))
            return room.id
        if self.cluster is not None:
            room_id = self.cluster.directory.seated.get(client.player)
            if room_id is not None:
                self.cluster.reattach(client, room_id)
                return room_id
        return None

    # --- quick match --------------------------------------------------------------------

    def quick(self, client: Client, message: m.Quick) -> None:
        if not message.on:
            if self.unqueue(client):
                client.ok(message.id)
            else:
                client.error(message.id, errors.NOT_QUEUED, "not waiting for a quick match")
            return
        if self._busy(client, message.id):
            return
        waiting = Waiting(client, message.id, message.race_to)
        if self.cluster is not None:
            self.waiting.append(waiting)
            self.cluster.quick(waiting)  # the queue is cluster-wide
            return
        partner = next(
            (
                w
                for w in self.waiting
                if w.race_to == message.race_to and w.client.player != client.player
            ),
            None,
        )
        if partner is None:
            self.waiting.append(waiting)
            client.ok(message.id)
            return
        self.waiting.remove(partner)
        self.start_pair(message.race_to, (partner.client, partner.request_id), (client, message.id))

    def start_pair(
        self, race_to: int, first: tuple[Member, int], second: tuple[Member, int]
    ) -> Room:
        """A room for two players who asked for a quick match: seated, ready, started."""
        clock = self.config.shot_clock or None
        settings = m.RoomSettings(name="Quick match", race_to=race_to, shot_clock=clock)
        room = self._new_room(settings)
        for client, _ in (first, second):
            self.waiting = [w for w in self.waiting if w.client is not client]
            client.entering(room)
        room.post(SeatPair(first, second))
        return room

    def unqueue(self, client: Client) -> bool:
        gone = [w for w in self.waiting if w.client is client]
        self.waiting = [w for w in self.waiting if w.client is not client]
        if gone and self.cluster is not None:
            for waiting in gone:
                self.cluster.unqueue(waiting)
        return bool(gone)

    # --- room list ----------------------------------------------------------------------

    def subscribe(self, client: Client, message: m.Lobby) -> None:
        if not message.on:
            self.subscribers.discard(client)
            client.ok(message.id)
            return
        self.subscribers.add(client)
        if self.cluster is not None:
            listed = list(self.cluster.directory.listed.values())
        else:
            listed = [
                room.info()
                for room in self.rooms.values()
                if not room.settings.private and not room.closed
            ]
        client.send_message(m.Rooms(id=message.id, rooms=listed))

    def disconnected(self, client: Client) -> None:
        self.subscribers.discard(client)
        self.unqueue(client)
        if self.cluster is not None:
            self.cluster.disconnected(client)

    # --- persistence ----------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back the rooms the store holds (a lone node after a restart)."""
        count = 0
        for room_id in await self.store.rooms():
            data = await self.store.load(room_id)
            if data is None or room_id in self.rooms:
                continue
            try:
                record = decode_record(data)
            except (msgspec.DecodeError, msgspec.ValidationError):
                log.warning("room %s: unreadable snapshot, skipped", room_id)
                continue
            if record.closed:
                continue
            room = Room(self, room_id, record.settings, record.seed, record.code)
            room.restore(record)
            self._add_restored(room)
            count += 1
        return count

    async def shutdown(self) -> None:
        loop = asyncio.get_running_loop()
        waits = []
        for room in list(self.rooms.values()):
            done: asyncio.Future[None] = loop.create_future()
            room.post(Shutdown(done))
            waits.append(done)
        if waits:
            await asyncio.wait(waits, timeout=10)

    async def replay(self, room_id: str) -> bytes | None:
        """The replay document of a room: settings, players and every event in order."""
        data = await self.store.load(room_id)
        if data is None:
            return None
        record = decode_record(data)
        entries = await self.store.log(room_id)
        names = [s.name for s in record.seats if s is not None]
        document = m.Replay(
            room=room_id,
            settings=record.settings,
            players=names,
            events=[msgspec.Raw(entry.data) for entry in entries],
        )
        return encode(document)
