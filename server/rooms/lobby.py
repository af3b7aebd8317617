"""The lobby: the rooms of this process, who sits where, quick match, the live room list.

The lobby only ever touches its own dictionaries and posts commands to rooms; a room's
state is changed by the room's own task alone. Rooms report back through the
`RoomHost` methods (`room_changed`, `seat_taken`, …), which run in the room's task.

A listed room's entry changes often (each spectator who comes or goes changes its count),
and every subscriber of the list would hear of each change: the lobby paces the entries
(`server.rooms.pacing`), at most one per room per `--update-interval`, the newest winning,
so a crowd churning in one room costs the subscribers one small frame a second at most.

Whatever may involve other nodes — the room list, invite codes and seats of their rooms,
reaching a room that runs elsewhere, pairing players who wait on any node — the lobby
asks of its `Peers` (`server.rooms.peers`), chosen once at start-up: `LonePeers` on a lone
node, the cluster node in a cluster. So the lobby reads the same either way, and the
peers reach back only through the lobby's methods (`LocalRooms`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from protocol import errors
from protocol import messages as m
from protocol import practice as pm
from protocol.codec import encode
from server.ops.config import Config
from server.ops.metrics import Metrics
from server.rooms import exhibitions, matchmaking
from server.rooms.actor import (
    Room,
    RoomRecord,
    new_invite_code,
    new_room_id,
)
from server.rooms.model import Result
from server.rooms.pacing import Pacer
from server.rooms.peers import Peers, Waiting
from server.rooms.practice import PracticeError, new_practice
from server.rooms.practice_book import PracticeBook
from server.rooms.practice_room import LetGo, PracticeRoom
from server.rooms.replays import ReplayBook
from server.rooms.reporting import NoResults, Reporter, ResultSink
from server.rooms.seams import (
    Command,
    Enter,
    MatchEnd,
    MatchEnds,
    Member,
    Reattach,
    SeatBots,
    SeatComputer,
    SeatPair,
    Shutdown,
    Walkover,
    fan_out,
)
from server.rooms.simulation import PhysicsPool
from server.rooms.upkeep import restorable
from server.store import Store

log = logging.getLogger(__name__)


class RoomHandle(Protocol):
    """What the gateway needs of the room a returning player sits in."""

    @property
    def id(self) -> str: ...

    @property
    def closed(self) -> bool: ...


@dataclass(frozen=True)
class SeatElsewhere:
    """A seat in a room another node owns (as the peers know it)."""

    id: str
    closed: bool = False


class Lobby:
    """Implements `server.rooms.actor.RoomHost` for every room of the process, and
    `server.rooms.peers.LocalRooms` for its peers."""

    def __init__(
        self,
        config: Config,
        store: Store,
        pool: PhysicsPool,
        metrics: Metrics,
        peers: Peers,
        practice_book: PracticeBook,
        ends: MatchEnds,
        results: ResultSink | None = None,
    ) -> None:
        """`ends` hears of every match of this node's rooms that ends (tournaments)."""
        self.config = config
        self.ends = ends
        self.store = store
        self.pool = pool
        self.metrics = metrics
        self.peers = peers
        self.rooms: dict[str, Room] = {}
        self.codes: dict[str, str] = {}
        #: The players seated in this node's rooms (`seat_of` also asks the peers).
        self.seated: dict[str, Room] = {}
        #: Practice tables of this node (never listed), by id and by player; each is kept in
        #: `practice_book`, so that its player finds it again on any node.
        self.practice_rooms: dict[str, PracticeRoom] = {}
        self.practising: dict[str, PracticeRoom] = {}
        self.practice_book = practice_book
        self._reclaiming: set[str] = set()
        self.subscribers: set[Member] = set()
        self.waiting: list[Waiting] = []
        self._listed: dict[str, m.Info] = {}
        self._listing: Pacer[str, m.Info] = Pacer(config.update_interval, self._list)
        self._room_counter = 0
        #: Exhibitions this node started and still runs (`server.rooms.exhibitions`).
        #: The two levels of each, for the next one's choice before the list has it.
        self.exhibitions: dict[str, tuple[int, int]] = {}
        self._exhibitions_started = 0
        self.replays = ReplayBook(store, config.replay_max_bytes)
        #: Results to the players service, ratings back to the rooms.
        self.reporter = Reporter(results if results is not None else NoResults())
        #: Who waits for a rated quick match on this node, and when to look again.
        self.rated_waiting: list[matchmaking.Seeker[tuple[Member, int]]] = []
        self._rated_timer: asyncio.TimerHandle | None = None
        peers.attach(self)

    def seat_of(self, player: str) -> RoomHandle | None:
        """The room `player` sits in, on this node or another."""
        room = self.seated.get(player)
        if room is not None:
            return room
        practice = self.practising.get(player)
        if practice is not None and not practice.closed:
            return practice
        room_id = self.peers.seat_of(player)
        return None if room_id is None else SeatElsewhere(room_id)

    # --- RoomHost -----------------------------------------------------------------------

    def room_changed(self, room: Room) -> None:
        if room.settings.private or room.closed:
            return
        info = room.info()
        if self._listed.get(room.id) == info and not self._listing.waiting(room.id):
            return
        self._listing.offer(room.id, info)

    def _list(self, room_id: str, info: m.Info) -> None:
        """A room's entry, paced: the other nodes and the subscribers hear of it."""
        if self._listed.get(room_id) == info or room_id not in self.rooms:
            return
        self._listed[room_id] = info
        self.peers.room_listed(room_id, info)

    def seat_taken(self, player: str, room: Room) -> None:
        self.seated[player] = room
        self.peers.seat_taken(player, room.id)
        self.reporter.look_up(room, player)

    def report(self, room: Room, result: Result) -> None:
        self.reporter.report(room, result)

    def seat_freed(self, player: str, room: Room) -> None:
        if self.seated.get(player) is room:
            del self.seated[player]
        self.peers.seat_freed(player, room.id)

    def room_closed(self, room: Room) -> None:
        self._listing.forget(room.id)
        self._forget(room)
        if self._listed.pop(room.id, None) is not None:
            self.peers.room_unlisted(room.id)
        self.peers.room_closed(room)
        self.consider_exhibitions()

    async def settle(self) -> None:
        await self.peers.settle()

    async def room_starting(self, room: Room) -> None:
        await self.peers.room_starting(room)

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        self._listing.forget(room.id)
        self._forget(room)
        self._listed.pop(room.id, None)
        self.peers.room_abandoned(room, leftovers)

    def match_ended(self, end: MatchEnd) -> None:
        self.ends.match_ended(end)

    def _forget(self, room: Room) -> None:
        if self.rooms.get(room.id) is room:
            del self.rooms[room.id]
        if room.code is not None and self.codes.get(room.code) == room.id:
            del self.codes[room.code]
        for player, seated in list(self.seated.items()):
            if seated is room:
                del self.seated[player]
        self.exhibitions.pop(room.id, None)
        self.metrics.rooms.set(len(self.rooms))

    # --- LocalRooms: what the peers ask of this node ------------------------------------

    def listing_changed(self, room_id: str, info: m.Info | None) -> None:
        """A room of the list changed or is gone: tell the subscribers."""
        message: m.RoomChanged | m.RoomGone
        message = m.RoomGone(room=room_id) if info is None else m.RoomChanged(info=info)
        fan_out(list(self.subscribers), encode(message))

    def listing(self) -> list[m.Info]:
        return [
            room.info()
            for room in self.rooms.values()
            if not room.settings.private and not room.closed
        ]

    def room(self, room_id: str) -> Room | None:
        return self.rooms.get(room_id)

    def queued(self) -> Sequence[Waiting]:
        return tuple(self.waiting)

    def take_waiting(self, client: Member) -> bool:
        taken = any(w.client is client for w in self.waiting)
        self.waiting = [w for w in self.waiting if w.client is not client]
        return taken

    # --- rooms --------------------------------------------------------------------------

    def _room_seed(self) -> int:
        self._room_counter += 1
        if self.config.seed is None:
            return secrets.randbits(63)
        scope = self.peers.seed_scope
        digest = hashlib.sha256(
            f"room:{self.config.seed}{scope}:{self._room_counter}".encode()
        ).digest()
        return int.from_bytes(digest[:8], "big") >> 1

    def _code_taken(self, code: str) -> bool:
        return code in self.codes or self.peers.room_with_code(code) is not None

    def _new_room(self, settings: m.RoomSettings, kept_names: tuple[str, ...] = ()) -> Room:
        room_id = new_room_id()
        while room_id in self.rooms:
            room_id = new_room_id()
        code = None
        if settings.private:
            code = new_invite_code()
            while self._code_taken(code):
                code = new_invite_code()
            self.codes[code] = room_id
        room = Room(self, room_id, settings, self._room_seed(), code, kept_names)
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
            if seat is not None and seat.bot is None:
                self.seated[seat.player] = room
        self.metrics.rooms.set(len(self.rooms))
        room.start()
        # Its latest results again (the node that saved them may have stopped before it
        # handed them over; a repeat counts once), and the seats' ratings.
        for result in room.state.reports:
            self.reporter.report(room, result)
        self.reporter.look_up(room, *(seat.player for seat in room.seats if seat is not None))

    def create(self, client: Member, message: m.Create) -> None:
        if message.settings.reserved or message.settings.tournament is not None:
            client.error(
                message.id,
                errors.BAD_MESSAGE,
                "only the server keeps seats for players and makes a tournament's rooms",
            )
            return
        if self._busy(client, message.id):
            return
        room = self._new_room(message.settings)
        client.entering(room)
        room.post(Enter(client, message.id, "player"))

    async def open_match(self, settings: m.RoomSettings, kept_names: tuple[str, ...] = ()) -> str:
        """A room whose seats are kept for `settings.reserved` (a tournament's match),
        under `kept_names` (the players' names on the bracket, seat by seat): it waits
        here for its two players, who join it by its id. Returns the id once the room has
        started (in a cluster, its lease taken: a player who comes through another node
        finds its owner); RuntimeError if it could not."""
        room = self._new_room(settings, kept_names)
        await room.started.wait()
        if room.closed:
            raise RuntimeError(f"room {room.id} could not start")
        # Listed now, not when someone first sits in it: the lobby is where a player
        # waiting for the match learns that its table is open (and its no-show time runs).
        self.room_changed(room)
        return room.id

    def join(self, client: Member, message: m.Join) -> None:
        if self._busy(client, message.id, player=message.role == "player"):
            return
        room_id: str | None
        invited = message.code is not None
        if message.code is not None:
            room_id = self.codes.get(message.code)
            if room_id is None:
                room_id = self.peers.room_with_code(message.code)
            if room_id is None or (message.room is not None and message.room != room_id):
                client.error(message.id, errors.BAD_INVITE, "no private room with that code")
                return
        elif message.room is not None:
            room_id = message.room
        else:
            client.error(message.id, errors.BAD_MESSAGE, "join needs a room id or a code")
            return
        practice = self.practice_rooms.get(room_id)
        if practice is not None:
            client.entering(practice)
            practice.post(Enter(client, message.id, message.role))
            return
        room = self.rooms.get(room_id)
        if room is None:
            # Not on this node: the peers reach it where it runs, or say there is none.
            self.peers.enter(client, room_id, message.id, message.role, invited)
            return
        if room.settings.private and not invited:
            # Answered as for a room that does not exist: the id (in every URL of the
            # room) tells an outsider nothing, not even that the room is there.
            client.error(message.id, errors.NO_SUCH_ROOM, "no such room")
            return
        client.entering(room)
        room.post(Enter(client, message.id, message.role))

    def _busy(self, client: Member, request_id: int, player: bool = True) -> bool:
        if client.room is not None:
            client.error(request_id, errors.ALREADY_IN_ROOM, "leave the current room first")
            return True
        if player and client.player is not None and self.seat_of(client.player) is not None:
            client.error(
                request_id,
                errors.ALREADY_IN_ROOM,
                "this player already has a seat in another room",
            )
            return True
        if any(w.client is client for w in self.waiting) or any(
            s.ticket[0] is client for s in self.rated_waiting
        ):
            client.error(request_id, errors.ALREADY_QUEUED, "waiting for a quick match")
            return True
        return False

    def reattach(self, client: Member) -> str | None:
        """A returning player: put them back in their seat. Returns the room id."""
        if client.player is None:
            return None
        practice = self.practising.get(client.player)
        if practice is not None and not practice.closed:
            client.entering(practice)
            practice.post(Reattach(client))
            return practice.id
        room = self.seated.get(client.player)
        if room is not None and not room.closed:
            client.entering(room)
            room.post(Reattach(client))
            return room.id
        return self.peers.reattach(client, client.player)

    # --- practice tables -------------------------------------------------------------------

    def practice(self, client: Member, message: pm.Practice) -> None:
        """A practice table for this player alone (`server.rooms.practice_room`): not
        listed, not stored, spectators welcome by its id."""
        if self._busy(client, message.id) or client.player is None:
            return
        try:
            state = new_practice(self._room_seed(), message.layout, message.drill, message.rules)
        except PracticeError as exc:
            client.error(message.id, exc.code, exc.message)
            return
        room_id = new_room_id()
        while room_id in self.rooms or room_id in self.practice_rooms:
            room_id = new_room_id()
        room = PracticeRoom(self, room_id, client.player, client.name, state)
        self.practice_rooms[room_id] = room
        self.practising[client.player] = room
        room.start()
        client.entering(room)
        room.post(Enter(client, message.id, "player"))

    async def practice_back(self, player: str) -> None:
        """A player says hello again with their token (before the welcome): the practice
        table they left opens here from what is kept — whichever node ran it, alive or
        dead — unless this node's own copy is still the table. A copy here that another
        node has taken since (or that has ended there) is let go."""
        if player in self._reclaiming or self.seated.get(player) is not None:
            return
        if self.practising.get(player) is None and self.peers.seat_of(player) is not None:
            return
        self._reclaiming.add(player)
        try:
            local = self.practising.get(player)
            mine = local.holder if local is not None and not local.closed else None
            claimed = await self.practice_book.claim(player, mine)
        except Exception:
            log.exception("the practice table of a returning player could not be read")
            return
        finally:
            self._reclaiming.discard(player)
        local = self.practising.get(player)
        if claimed is not None and local is not None and local.holder == claimed[0]:
            return  # this node's copy is the table
        if local is not None:
            self.practice_closed(local)
            local.post(LetGo())
        if claimed is None:
            return
        holder, kept = claimed
        if kept.room in self.rooms or kept.room in self.practice_rooms:
            return
        room = PracticeRoom(self, kept.room, player, kept.name, kept.state, holder)
        self.practice_rooms[room.id] = room
        self.practising[player] = room
        room.start()

    def practice_closed(self, room: PracticeRoom) -> None:
        if self.practice_rooms.get(room.id) is room:
            del self.practice_rooms[room.id]
        if self.practising.get(room.player) is room:
            del self.practising[room.player]

    # --- quick match --------------------------------------------------------------------

    def quick(self, client: Member, message: m.Quick) -> None:
        if not message.on:
            if self.unqueue(client):
                client.ok(message.id)
            else:
                client.error(message.id, errors.NOT_QUEUED, "not waiting for a quick match")
            return
        if self._busy(client, message.id):
            return
        waiting = Waiting(client, message.id, message.race_to)
        self.waiting.append(waiting)
        self.peers.queue(waiting)  # paired now, or told it waits
        if any(w is waiting for w in self.waiting):
            self._offer_computer_later(client, lambda: any(w is waiting for w in self.waiting))

    def quick_rated(self, client: Member, message: m.Quick, rating: float) -> None:
        """Wait for a rated quick match, as a player of `rating` (an account's: the
        gateway checked): paired by `server.rooms.matchmaking`, on this node."""
        if self._busy(client, message.id):
            return
        now = asyncio.get_running_loop().time()
        assert client.player is not None
        seeker = matchmaking.Seeker(
            (client, message.id), client.player, message.race_to, rating, now
        )
        self.rated_waiting.append(seeker)
        self._match_rated()
        if seeker in self.rated_waiting:  # not paired at once: told it waits
            client.ok(message.id)
            # As for an unrated wait: nobody rated may come to a quiet server.
            self._offer_computer_later(client, lambda: any(s is seeker for s in self.rated_waiting))

    def _match_rated(self) -> None:
        """Pair whoever fits now, and look again when the next window widens."""
        if self._rated_timer is not None:
            self._rated_timer.cancel()
            self._rated_timer = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        self.rated_waiting = [s for s in self.rated_waiting if not s.ticket[0].closed]
        for first, second in matchmaking.pair(self.rated_waiting, now):
            self.rated_waiting = [s for s in self.rated_waiting if s not in (first, second)]
            self.start_pair(first.race_to, first.ticket, second.ticket, rated=True)
        wait = matchmaking.next_change(self.rated_waiting, now)
        if wait is not None:
            self._rated_timer = loop.call_later(wait + 0.01, self._match_rated)

    def start_pair(
        self,
        race_to: int,
        first: tuple[Member, int],
        second: tuple[Member, int],
        rated: bool = False,
    ) -> Room:
        """A room for two players who asked for a quick match: seated, ready, started."""
        clock = self.config.shot_clock or None
        name = "Rated quick match" if rated else "Quick match"
        settings = m.RoomSettings(name=name, race_to=race_to, shot_clock=clock, rated=rated)
        room = self._new_room(settings)
        for client, _ in (first, second):
            self.waiting = [w for w in self.waiting if w.client is not client]
            client.entering(room)
        room.post(SeatPair(first, second))
        return room

    def _offer_computer_later(self, client: Member, waiting: Callable[[], bool]) -> None:
        """Nobody takes this quick match, rated or not, in `--quick-computer-after` seconds:
        a computer player is offered then, if the player is `waiting` still (they may keep
        waiting; the game against it is rated only if they ask: `Computer.rated`)."""
        after = self.config.computers.quick_computer_after
        if after > 0:
            asyncio.get_running_loop().call_later(after, self._offer_computer, client, waiting)

    def _offer_computer(self, client: Member, waiting: Callable[[], bool]) -> None:
        if waiting() and not client.closed:
            client.send_message(m.ComputerOffer(level=self.config.computers.quick_computer_level))

    # --- computer players ---------------------------------------------------------------

    def computer(self, client: Member, message: m.Computer) -> None:
        """Play the computer: a room of the client's own against a computer player, started
        at once. Taking a quick match's offer ends the wait, rated or not."""
        self.unqueue(client)
        if self._busy(client, message.id):
            return
        # No name: clients name a table by who plays at it, in the reader's language. No
        # shot clock: the quick match's clock keeps a player from stalling another, and
        # nobody waits on a computer's opponent (a first-timer takes their time).
        settings = m.RoomSettings(race_to=message.race_to, rated=message.rated)
        room = self._new_room(settings)
        client.entering(room)
        room.post(SeatBots((client, message.id), (None, message.level)))

    def seat_computer(self, room_id: str, seat: int, player: str, name: str, level: int) -> bool:
        """A computer player takes the seat kept for it in a room of this node (a
        tournament's match, `SeatComputer`); False if the room is not here."""
        return self._post_here(room_id, SeatComputer(seat, player, name, level))

    def walkover(self, room_id: str, absent: int) -> bool:
        """Tell a tournament's match room of this node that the player of seat `absent`
        never came (`Walkover`); False if the room is not here."""
        return self._post_here(room_id, Walkover(absent))

    def _post_here(self, room_id: str, command: Command) -> bool:
        """Hand a command to a running room of this node; False if it is not here."""
        room = self.rooms.get(room_id)
        if room is None or room.closed:
            return False
        room.post(command)
        return True

    def consider_exhibitions(self) -> None:
        """Start the exhibitions the policy wants now (`server.rooms.exhibitions`)."""
        limit = self.config.computers.bot_tables
        if limit <= 0:
            return
        listing = self.peers.listing()
        listed = {info.room for info in listing}
        starting = sum(1 for room_id in self.exhibitions if room_id not in listed)
        count = exhibitions.to_start(listing, starting, limit, bool(self.subscribers))
        # (this node's own, listed or not: a listed one may not have its computers seated yet)
        busy = exhibitions.levels_shown(listing) | {
            level for pair in self.exhibitions.values() for level in pair
        }
        for _ in range(count):
            levels = exhibitions.pairing(self._exhibitions_started, busy)
            busy |= set(levels)
            self._exhibitions_started += 1
            clock = self.config.shot_clock or None
            settings = m.RoomSettings(race_to=exhibitions.EXHIBITION_RACE, shot_clock=clock)
            room = self._new_room(settings)
            self.exhibitions[room.id] = levels
            room.post(SeatBots(None, levels))

    def unqueue(self, client: Member) -> bool:
        rated = any(s.ticket[0] is client for s in self.rated_waiting)
        self.rated_waiting = [s for s in self.rated_waiting if s.ticket[0] is not client]
        if rated:
            return True
        gone = [w for w in self.waiting if w.client is client]
        self.waiting = [w for w in self.waiting if w.client is not client]
        for waiting in gone:
            self.peers.unqueued(waiting)
        return bool(gone)

    # --- room list ----------------------------------------------------------------------

    def subscribe(self, client: Member, message: m.Lobby) -> None:
        if not message.on:
            self.subscribers.discard(client)
            client.ok(message.id)
            return
        self.subscribers.add(client)
        self.consider_exhibitions()
        client.send_message(m.Rooms(id=message.id, rooms=self.peers.listing()))

    def disconnected(self, client: Member) -> None:
        self.subscribers.discard(client)
        self.unqueue(client)
        self.peers.disconnected(client)

    # --- persistence ----------------------------------------------------------------------

    async def restore(self) -> int:
        """Bring back the rooms the store holds (a lone node after a restart), each
        checked first: a damaged one is moved aside (`server.rooms.upkeep`)."""
        count = 0
        for room_id in await self.store.rooms():
            record = None if room_id in self.rooms else await restorable(self.store, room_id)
            if record is None:
                continue
            room = Room(self, room_id, record.settings, record.seed, record.code)
            room.restore(record)
            self._add_restored(room)
            count += 1
        return count

    async def shutdown(self) -> None:
        if self._rated_timer is not None:
            self._rated_timer.cancel()
        loop = asyncio.get_running_loop()
        waits = []
        tables: list[Room | PracticeRoom] = [*self.rooms.values(), *self.practice_rooms.values()]
        for room in tables:
            done: asyncio.Future[None] = loop.create_future()
            room.post(Shutdown(done))
            waits.append(done)
        if waits:
            await asyncio.wait(waits, timeout=10)
        await self.reporter.drain()

    async def replay(self, room_id: str) -> bytes | None:
        """The whole replay document of a room (within `--replay-max-bytes`), for tests
        and tools; `GET /replay/<room>` streams it (`server.edge.replays`)."""
        return await self.replays.document(room_id)
