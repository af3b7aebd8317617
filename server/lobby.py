"""The lobby: the rooms of this process, who sits where, quick match, the live room list.

The lobby only ever touches its own dictionaries and posts commands to rooms; a room's
state is changed by the room's own task alone. Rooms report back through the
`RoomHost` methods (`room_changed`, `seat_taken`, …), which run in the room's task.
"""

from __future__ import annotations

import hashlib
import logging
import secrets
from dataclasses import dataclass

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server.client import Client, fan_out
from server.config import Config
from server.metrics import Metrics
from server.room import (
    Enter,
    Reattach,
    Room,
    SeatPair,
    Shutdown,
    decode_record,
    new_invite_code,
    new_room_id,
)
from server.simulation import PhysicsPool
from server.store import Store

log = logging.getLogger(__name__)


@dataclass
class Waiting:
    client: Client
    request_id: int
    race_to: int


class Lobby:
    """Implements `server.room.RoomHost` for every room of the process."""

    def __init__(self, config: Config, store: Store, pool: PhysicsPool, metrics: Metrics) -> None:
        self.config = config
        self.store = store
        self.pool = pool
        self.metrics = metrics
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, str] = {}
        self.seated: dict[str, Room] = {}
        self.subscribers: set[Client] = set()
        self.waiting: list[Waiting] = []
        self._listed: dict[str, m.Info] = {}
        self._room_counter = 0

    # --- RoomHost -----------------------------------------------------------------------

    def room_changed(self, room: Room) -> None:
        if room.settings.private or room.closed:
            return
        info = room.info()
        if self._listed.get(room.id) == info:
            return
        self._listed[room.id] = info
        fan_out(list(self.subscribers), encode(m.RoomChanged(info=info)))

    def seat_taken(self, player: str, room: Room) -> None:
        self.seated[player] = room

    def seat_freed(self, player: str, room: Room) -> None:
        if self.seated.get(player) is room:
            del self.seated[player]

    def room_closed(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if room.code is not None:
            self.codes.pop(room.code, None)
        for player, seated in list(self.seated.items()):
            if seated is room:
                del self.seated[player]
        self.metrics.rooms.set(len(self.rooms))
        if self._listed.pop(room.id, None) is not None:
            fan_out(list(self.subscribers), encode(m.RoomGone(room=room.id)))

    # --- rooms --------------------------------------------------------------------------

    def _room_seed(self) -> int:
        self._room_counter += 1
        if self.config.seed is None:
            return secrets.randbits(63)
        digest = hashlib.sha256(f"room:{self.config.seed}:{self._room_counter}".encode()).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def _new_room(self, settings: m.RoomSettings) -> Room:
        room_id = new_room_id()
        while room_id in self.rooms:
            room_id = new_room_id()
        code = None
        if settings.private:
            code = new_invite_code()
            while code in self.codes:
                code = new_invite_code()
            self.codes[code] = room_id
        room = Room(self, room_id, settings, self._room_seed(), code)
        self.rooms[room_id] = room
        self.metrics.rooms.set(len(self.rooms))
        room.start()
        return room

    def create(self, client: Client, message: m.Create) -> None:
        if self._busy(client, message.id):
            return
        room = self._new_room(message.settings)
        client.room = room
        room.post(Enter(client, message.id, "player"))

    def join(self, client: Client, message: m.Join) -> None:
        if self._busy(client, message.id, player=message.role == "player"):
            return
        room: Room | None = None
        if message.code is not None:
            room_id = self.codes.get(message.code)
            if room_id is None or (message.room is not None and message.room != room_id):
                client.error(message.id, errors.BAD_INVITE, "no private room with that code")
                return
            room = self.rooms.get(room_id)
        elif message.room is not None:
            room = self.rooms.get(message.room)
            if room is not None and room.settings.private:
                client.error(message.id, errors.BAD_INVITE, "this private room needs its code")
                return
        else:
            client.error(message.id, errors.BAD_MESSAGE, "join needs a room id or a code")
            return
        if room is None:
            client.error(message.id, errors.NO_SUCH_ROOM, "no such room")
            return
        client.room = room
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
        room = self.seated.get(client.player)
        if room is None or room.closed:
            return None
        client.room = room
        room.post(Reattach(client))
        return room.id

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
        partner = next(
            (
                w
                for w in self.waiting
                if w.race_to == message.race_to and w.client.player != client.player
            ),
            None,
        )
        if partner is None:
            self.waiting.append(Waiting(client, message.id, message.race_to))
            client.ok(message.id)
            return
        self.waiting.remove(partner)
        clock = self.config.shot_clock or None
        settings = m.RoomSettings(name="Quick match", race_to=message.race_to, shot_clock=clock)
        room = self._new_room(settings)
        partner.client.room = room
        client.room = room
        room.post(SeatPair((partner.client, partner.request_id), (client, message.id)))

    def unqueue(self, client: Client) -> bool:
        before = len(self.waiting)
        self.waiting = [w for w in self.waiting if w.client is not client]
        return len(self.waiting) != before

    # --- room list ----------------------------------------------------------------------

    def subscribe(self, client: Client, message: m.Lobby) -> None:
        if not message.on:
            self.subscribers.discard(client)
            client.ok(message.id)
            return
        self.subscribers.add(client)
        listed = [
            room.info()
            for room in self.rooms.values()
            if not room.settings.private and not room.closed
        ]
        client.send_message(m.Rooms(id=message.id, rooms=listed))

    def disconnected(self, client: Client) -> None:
        self.subscribers.discard(client)
        self.unqueue(client)

    # --- persistence ----------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back the rooms the store holds (after a restart or from another node)."""
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
            self.rooms[room_id] = room
            if room.code is not None:
                self.codes[room.code] = room_id
            for seat in room.seats:
                if seat is not None:
                    self.seated[seat.player] = room
            room.start()
            count += 1
        self.metrics.rooms.set(len(self.rooms))
        return count

    async def shutdown(self) -> None:
        import asyncio

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
