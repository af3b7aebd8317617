"""A room: one actor (one task, one inbox) that owns everything about one table.

Every change — a request from a member, a disconnect, a reconnect, a timer — arrives as
a command in the inbox and is handled to the end before the next one, so the room's
state needs no locks and its events have one order. The game itself is the pure
`Table` value (`server.rooms.table`); this module adds the people, the clocks, the store and
the fan-out around it.

Each change follows the same path: compute the new values, build the room events with
their `seq`, save the snapshot and the events to the store, then send them. If the
store fails, the room goes back to the last snapshot it saved and nothing is sent.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal, Protocol

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server import physics, rules
from server.rooms.seams import (
    Abandon,
    Command,
    Enter,
    Gone,
    Member,
    Reattach,
    Rejoin,
    Request,
    SeatPair,
    Shutdown,
    fan_out,
)
from server.rooms.simulation import PhysicsPool, SimResult
from server.rooms.table import (
    Step,
    Table,
    TableError,
    apply_action,
    complete_shot,
    decide_lag,
    new_table,
    place_cue_ball,
    player_seat,
    prepare_shot,
    rack_seed,
    seat_player,
)
from server.rooms.views import final_view, shot_report_view, table_view, verdict_view
from server.store import FencedError, LogEntry, Store

if TYPE_CHECKING:
    from server.ops.config import Config
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

Status = Literal["waiting", "lag", "playing", "finished"]

CLOCK_WARNING_SECONDS = 10.0
#: Seconds the lag winner has to choose who breaks when the room has no shot clock (O6).
LAG_CHOICE_SECONDS = 30.0


class RoomHost(Protocol):
    """What a room needs from the process that hosts it (the lobby implements it)."""

    config: Config
    store: Store
    pool: PhysicsPool
    metrics: Metrics

    def room_changed(self, room: Room) -> None: ...

    def seat_taken(self, player: str, room: Room) -> None: ...

    def seat_freed(self, player: str, room: Room) -> None: ...

    def room_closed(self, room: Room) -> None: ...

    async def settle(self) -> None:
        """After a change is stored, before anyone hears of it: what the room told the host
        meanwhile (seats taken, say) is shared too (a cluster's directory)."""

    async def room_starting(self, room: Room) -> None:
        """Before the room handles its first command (a cluster takes the room's lease
        here and sets `room.fence`); raising closes the room."""

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        """The room lost its lease (another node owns it now): it has stopped without
        saving; its members and the commands it had not handled go to the new owner."""


# --- inbox commands ---------------------------------------------------------------------


@dataclass(frozen=True)
class Timer:
    kind: str
    generation: int


Inbox = Command | Timer


# --- what the store keeps ---------------------------------------------------------------


class SeatRecord(msgspec.Struct):
    player: str
    name: str
    ready: bool


class RoomRecord(msgspec.Struct):
    """Everything needed to bring a room back (after a restart, on another node)."""

    room: str
    settings: m.RoomSettings
    code: str | None
    seed: int
    seq: int
    status: Status
    seats: list[SeatRecord | None]
    table: Table | None
    match: int
    lag_shots: dict[int, m.LagShot]
    rematch: list[int]
    extensions: list[int]
    #: Seconds left on the shot clock when the record was written (None: not running).
    clock_left: float | None
    closed: bool = False
    #: The lag (or draw) winner still choosing who breaks (R3, O6); None otherwise.
    lag_winner: int | None = None
    #: Shots and lag shots played in the room's life: a room closed without one is
    #: deleted, a room with one keeps its log for replays (`Store.retire`).
    shots: int = 0


_record_decoder = msgspec.msgpack.Decoder(RoomRecord)


def decode_record(data: bytes) -> RoomRecord:
    return _record_decoder.decode(data)


@dataclass
class Seat:
    player: str
    name: str
    client: Member | None
    ready: bool = False
    grace_until: int | None = None  # epoch ms


@dataclass
class ClockState:
    """The shot clock (O3) as the room runs it."""

    deadline: float | None = None  # loop time
    left: float | None = None  # seconds left while paused
    warned: bool = False


@dataclass
class AimState:
    pending: m.AimRelay | None = None
    last_sent: float = 0.0
    flush_scheduled: bool = False


def now_ms() -> int:
    return int(time.time() * 1000)


def rules_settings(settings: m.RoomSettings) -> rules.Settings:
    return rules.Settings(
        race_to=settings.race_to,
        break_order=settings.break_order,
        stalemate_innings=settings.stalemate_innings,
        forfeit=settings.forfeit,
    )


class Room:
    def __init__(
        self,
        host: RoomHost,
        room_id: str,
        settings: m.RoomSettings,
        seed: int,
        code: str | None,
    ) -> None:
        self.host = host
        self.id = room_id
        self.settings = settings
        self.seed = seed
        self.code = code
        self.seq = 0
        self.status: Status = "waiting"
        self.seats: list[Seat | None] = [None, None]
        self.spectators: list[Member] = []
        self.table: Table | None = None
        self.match = 0
        self.shots = 0
        self.lag_shots: dict[int, m.LagShot] = {}
        #: The lag (or draw) winner while it chooses who breaks (R3, O6).
        self.lag_winner: int | None = None
        self.rematch: set[int] = set()
        self.extensions = [settings.extensions, settings.extensions]
        self.clock = ClockState()
        self.aim = AimState()
        self.inflight: tuple[m.ShotResult, float] | None = None
        self.closed = False
        #: Stopped because another node owns the room now (see `RoomHost.room_abandoned`).
        self.abandoned = False
        #: The fencing epoch of this node's lease on the room (None: a lone node).
        self.fence: int | None = None
        self.inbox: asyncio.Queue[Inbox] = asyncio.Queue()
        self._timer_generation: dict[str, int] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._last_saved: bytes | None = None
        self._task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()

    # --- lifecycle --------------------------------------------------------------------

    def start(self) -> None:
        self._task = self._loop.create_task(self._run(), name=f"room-{self.id}")

    def post(self, command: Inbox) -> None:
        """Hand the room a command; it is handled in order by the room's own task."""
        if self.closed:
            if isinstance(command, Shutdown) and not command.done.done():
                command.done.set_result(None)
            elif isinstance(command, Request) and isinstance(command.message, m.Leave):
                command.client.unbind(self)
                command.client.ok(command.message.id)
            elif isinstance(command, Enter | Request):
                command.client.error(
                    command.request_id if isinstance(command, Enter) else command.message.id,
                    errors.NO_SUCH_ROOM,
                    "the room has closed",
                )
                command.client.unbind(self)
            elif isinstance(command, SeatPair):
                for client, request_id in (command.first, command.second):
                    client.error(request_id, errors.NO_SUCH_ROOM, "the room has closed")
                    client.unbind(self)
            return
        self.inbox.put_nowait(command)

    async def _run(self) -> None:
        try:
            await self.host.room_starting(self)
        except Exception:
            log.exception("room %s could not start", self.id)
            self.closed = True
            self.host.room_closed(self)
        while not self.closed:
            command = await self.inbox.get()
            try:
                await self._handle(command)
            except TableError as exc:
                self._refuse(command, exc.code, exc.message)
            except FencedError:
                # Another node has the room: nothing of this change was stored or sent.
                log.warning("room %s: fenced out, another node owns it now", self.id)
                self._refuse(command, errors.INTERNAL, "the room moved to another server")
                self.abandoned = True
            except Exception:
                log.exception("room %s failed on %s", self.id, type(command).__name__)
                self._refuse(command, errors.INTERNAL, "the server failed; nothing changed")
                await self._recover()
            if isinstance(command, Shutdown) or self.abandoned:
                self.closed = True
        leftovers: list[Inbox] = []
        while not self.inbox.empty():
            leftovers.append(self.inbox.get_nowait())
        if self.abandoned:
            for kind in list(self._timers):
                self._cancel_timer(kind)
            commands = [c for c in leftovers if not isinstance(c, Timer)]
            self.host.room_abandoned(self, commands)
            return
        # Whatever was queued behind the end is answered as a closed room answers.
        for command in leftovers:
            self.post(command)

    def _refuse(self, command: Inbox, code: str, message: str) -> None:
        if isinstance(command, Request):
            command.client.error(command.message.id, code, message)
        elif isinstance(command, Enter):
            command.client.error(command.request_id, code, message)
            if not self._is_member(command.client):
                command.client.unbind(self)

    async def _handle(self, command: Inbox) -> None:
        if isinstance(command, Request):
            await self._request(command.client, command.message)
        elif isinstance(command, Timer):
            if self._timer_generation.get(command.kind) == command.generation:
                self._timers.pop(command.kind, None)
                await self._timer(command.kind)
        elif isinstance(command, Enter):
            await self._enter(command.client, command.request_id, command.role)
        elif isinstance(command, Reattach):
            await self._reattach(command.client)
        elif isinstance(command, Gone):
            await self._gone(command.client)
        elif isinstance(command, SeatPair):
            await self._seat_pair(command)
        elif isinstance(command, Rejoin):
            await self._rejoin(command.client, command.role)
        elif isinstance(command, Abandon):
            self.abandoned = True
        else:
            await self._shutdown(command.done)

    # --- membership ---------------------------------------------------------------------

    def _members(self) -> list[Member]:
        out = [s.client for s in self.seats if s is not None and s.client is not None]
        return out + self.spectators

    def members(self) -> list[Member]:
        """Everyone connected to the room: seated players, then spectators."""
        return self._members()

    def is_spectator(self, member: Member) -> bool:
        """`member` watches from the stands: the send queue closes a spectator that keeps
        falling behind, never a player (see `server.edge.client`)."""
        return member in self.spectators

    def _is_member(self, client: Member) -> bool:
        return client in self._members()

    def _seat_index_of(self, client: Member) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.client is client:
                return index
        return None

    def _seat_index_of_player(self, player: str | None) -> int | None:
        for index, seat in enumerate(self.seats):
            if seat is not None and seat.player == player:
                return index
        return None

    def _match_running(self) -> bool:
        return (
            self.table is not None
            and not self.table.state.match_over
            and self.status in ("lag", "playing")
        )

    async def _enter(self, client: Member, request_id: int, role: m.Role) -> None:
        if self._is_member(client):
            raise TableError(errors.ALREADY_IN_ROOM, "already in this room")
        if role == "player":
            existing = self._seat_index_of_player(client.player)
            if existing is not None:
                await self._reattach(client, request_id)
                return
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise TableError(errors.ROOM_FULL, "both seats are taken")
            index = free[0]
            assert client.player is not None
            self.seats[index] = Seat(player=client.player, name=client.name, client=client)
            self.host.seat_taken(client.player, self)
            client.bind(self)
            client.send_message(
                m.Joined(id=request_id, room=self.id, role="player", seat=index, code=self.code)
            )
            await self._commit([self._snapshot_event()])
            return
        if len(self.spectators) >= self.host.config.spectator_cap:
            raise TableError(errors.SPECTATORS_FULL, "the room has no room for more spectators")
        client.bind(self)
        client.send_message(
            m.Joined(id=request_id, room=self.id, role="spectator", seat=None, code=self.code)
        )
        self.spectators.append(client)
        # The others hear the new count; the newcomer gets the room as it is now.
        await self._commit([self._presence(None, True)], exclude=client)
        client.send_message(self._snapshot_message(self.seq))

    async def _seat_pair(self, pair: SeatPair) -> None:
        for index, (client, request_id) in enumerate((pair.first, pair.second)):
            assert client.player is not None
            self.seats[index] = Seat(
                player=client.player, name=client.name, client=client, ready=True
            )
            self.host.seat_taken(client.player, self)
            client.bind(self)
            client.send_message(
                m.Joined(id=request_id, room=self.id, role="player", seat=index, code=self.code)
            )
        events: list[m.ServerMessage] = [self._snapshot_event()]
        events += self._start_match()
        await self._commit(events)

    async def _reattach(self, client: Member, request_id: int | None = None) -> None:
        index = self._seat_index_of_player(client.player)
        if index is None:
            # The seat was given up meanwhile; the client is simply not in a room.
            client.unbind(self)
            return
        seat = self.seats[index]
        assert seat is not None
        previous = seat.client
        if previous is not None and previous is not client:
            previous.unbind(self)
            previous.close(1000, "replaced by a newer connection")
        seat.client = client
        seat.name = client.name or seat.name
        seat.grace_until = None
        self._cancel_timer(f"grace{index}")
        client.bind(self)
        if request_id is not None:
            client.send_message(
                m.Joined(id=request_id, room=self.id, role="player", seat=index, code=self.code)
            )
        if self._turn_seat() == index:
            self._resume_clock()
        event = self._presence(index, True)
        # The returning player gets the room as it is now (a shot in flight included),
        # everyone else the presence event.
        await self._commit([event], exclude=client)
        client.send_message(self._snapshot_message(self.seq))

    async def _rejoin(self, client: Member, role: m.Role) -> None:
        index = self._seat_index_of_player(client.player)
        if index is not None:
            seat = self.seats[index]
            if seat is not None and seat.client is not None and seat.client is not client:
                # The player is back already on another connection (through another node):
                # that one keeps the seat; this older one is let go.
                client.unbind(self)
                client.close(1000, "replaced by a newer connection")
                return
        if role == "player" or index is not None:
            await self._reattach(client)
            return
        if client not in self.spectators:
            client.bind(self)
            self.spectators.append(client)
            await self._commit([self._presence(None, True)], exclude=client)
        client.send_message(self._snapshot_message(self.seq))

    async def _gone(self, client: Member) -> None:
        if client in self.spectators:
            self.spectators.remove(client)
            client.unbind(self)
            await self._commit([self._presence(None, True)])
            await self._close_if_empty()
            return
        index = self._seat_index_of(client)
        if index is None:
            return
        seat = self.seats[index]
        assert seat is not None
        seat.client = None
        grace = self.host.config.grace
        seat.grace_until = now_ms() + int(grace * 1000)
        self._set_timer(f"grace{index}", grace)
        if self._turn_seat() == index:
            self._pause_clock()
        await self._commit([self._presence(index, False)])

    async def _leave(self, client: Member, request_id: int) -> None:
        if client in self.spectators:
            self.spectators.remove(client)
            client.unbind(self)
            client.ok(request_id)
            await self._commit([self._presence(None, True)])
            await self._close_if_empty()
            return
        index = self._seat_index_of(client)
        if index is None:
            raise TableError(errors.NOT_IN_ROOM, "not in this room")
        events: list[m.ServerMessage] = []
        if self._match_running() and self.table is not None and self.status == "playing":
            step = apply_action(self.table, rules.Concede(by=seat_player(index), what="match"))
            events += self._after_step(step, "concede_match", index)
        elif self.status == "lag":
            self._back_to_waiting()
        client.ok(request_id)
        client.unbind(self)
        self._free_seat(index)
        events.append(self._snapshot_event())
        await self._commit(events)
        await self._close_if_empty()

    def _free_seat(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None:
            return
        self.seats[index] = None
        self._cancel_timer(f"grace{index}")
        self.host.seat_freed(seat.player, self)
        for other in self.seats:
            if other is not None:
                other.ready = False
        self.rematch.clear()

    async def _close_if_empty(self) -> None:
        if any(s is not None for s in self.seats) or self.spectators:
            return
        self.closed = True
        for kind in list(self._timers):
            self._cancel_timer(kind)
        if self.shots:
            await self._save([])
            await self.host.store.retire(self.id)
        else:
            # Nothing was played: there is no replay worth keeping.
            await self.host.store.delete(self.id)
        self.host.room_closed(self)

    # --- requests -----------------------------------------------------------------------

    async def _request(self, client: Member, message: m.ClientMessage) -> None:
        if isinstance(message, m.Leave):
            await self._leave(client, message.id)
            return
        if not self._is_member(client):
            raise TableError(errors.NOT_IN_ROOM, "not in this room")
        if isinstance(message, m.Resync):
            snapshot = self._snapshot_message(self.seq)
            client.send_message(msgspec.structs.replace(snapshot, id=message.id))
            return
        if isinstance(message, m.Chat):
            await self._chat(client, message)
            return
        seat = self._seat_index_of(client)
        if seat is None:
            raise TableError(errors.NOT_A_PLAYER, "spectators cannot act on the table (O1)")
        if isinstance(message, m.Ready):
            await self._ready(client, seat, message)
        elif isinstance(message, m.Rematch):
            await self._rematch(client, seat, message)
        elif isinstance(message, m.LagShot):
            await self._lag_shot(client, seat, message)
        elif isinstance(message, m.LagChoice):
            await self._lag_choice(client, seat, message)
        else:
            await self._table_request(client, seat, message)

    async def _chat(self, client: Member, message: m.Chat) -> None:
        if not client.may_chat():
            raise TableError(errors.RATE_LIMITED, "at most 5 chat messages per 10 seconds")
        seat = self._seat_index_of(client)
        event = m.ChatRelay(
            room=self.id, seq=self._next_seq(), seat=seat, name=client.name, text=message.text
        )
        client.ok(message.id)
        await self._commit([event])

    async def _ready(self, client: Member, index: int, message: m.Ready) -> None:
        if self.status != "waiting":
            raise TableError(errors.INVALID_ACTION, "the match has already started")
        seat = self.seats[index]
        assert seat is not None
        seat.ready = message.ready
        client.ok(message.id)
        events: list[m.ServerMessage] = [self._snapshot_event()]
        if all(s is not None and s.ready for s in self.seats):
            events += self._start_match()
        await self._commit(events)

    async def _rematch(self, client: Member, index: int, message: m.Rematch) -> None:
        if self.status != "finished":
            raise TableError(errors.MATCH_NOT_OVER, "a rematch needs a finished match")
        self.rematch.add(index)
        client.ok(message.id)
        events: list[m.ServerMessage] = []
        if len(self.rematch) == 2 and all(s is not None for s in self.seats):
            events += self._start_match()
        else:
            events.append(self._snapshot_event())
        await self._commit(events)

    def _start_match(self) -> list[m.ServerMessage]:
        """Both players are in and ready: the lag, or the draw and the first rack."""
        self.match += 1
        self.rematch.clear()
        self.lag_shots.clear()
        self.lag_winner = None
        self.inflight = None
        self.extensions = [self.settings.extensions, self.settings.extensions]
        self.table = new_table(rules_settings(self.settings), self.seed, self.match, None)
        if self.settings.first_break == "lag":
            self.status = "lag"
            return [self._snapshot_event()]
        # O6: a fair draw from the room's seeded source.
        winner = random.Random(rack_seed(self.seed, self.match, 0)).randrange(2)
        self.status = "lag"
        self._await_lag_choice(winner, 0.0)
        lag = m.LagResult(
            room=self.id,
            seq=self._next_seq(),
            method="draw",
            lags=[],
            winner=winner,
            table=None,
        )
        return [lag, self._snapshot_event()]

    async def _lag_shot(self, client: Member, index: int, message: m.LagShot) -> None:
        if self.status != "lag" or self.table is None or self.lag_winner is not None:
            raise TableError(errors.NO_LAG, "no lag is being played")
        if index in self.lag_shots:
            raise TableError(errors.ALREADY_LAGGED, "the lag shot is already played")
        physics_shot = physics.Shot(
            angle=message.angle, speed=message.speed, tip=message.tip, elevation=0.0
        )
        try:
            physics.validate_shot(physics_shot)
        except physics.ShotError as exc:
            raise TableError(errors.BAD_SHOT, exc.message) from None
        self.lag_shots[index] = message
        client.ok(message.id)
        if len(self.lag_shots) < 2:
            await self._commit([self._snapshot_event()])
            return
        results = await asyncio.gather(*(self._simulate_lag(s) for s in (0, 1)))
        self.shots += 1
        lags = [self._judge_lag(seat, result) for seat, result in enumerate(results)]
        distances = [lag.distance for lag in lags]
        winner: int | None = None
        if distances[0] is not None and (distances[1] is None or distances[0] < distances[1]):
            winner = 0
        elif distances[1] is not None and (distances[0] is None or distances[1] < distances[0]):
            winner = 1
        self.lag_shots.clear()
        if winner is not None:
            self._await_lag_choice(winner, max(r.duration for r in results))
        event = m.LagResult(
            room=self.id,
            seq=self._next_seq(),
            method="lag",
            lags=lags,
            winner=winner,
            table=None,
        )
        await self._commit([event, self._snapshot_event()])

    def _lag_choice_seconds(self) -> float:
        """Time the lag winner has to choose (the shot clock's, else 30 s)."""
        seconds = self.settings.shot_clock
        return float(seconds) if seconds is not None else LAG_CHOICE_SECONDS

    def _await_lag_choice(self, winner: int, delay: float) -> None:
        """R3/O6: the winner now chooses who breaks; the status stays "lag" meanwhile and,
        if no choice comes in time (`delay` is the lag's animation), the winner breaks."""
        self.lag_winner = winner
        self._set_timer("lag_choice", delay + self._lag_choice_seconds())

    def _decide_first_break(self, breaker: int) -> list[m.ServerMessage]:
        """Apply the lag winner's choice: the match is under way."""
        assert self.table is not None and self.lag_winner is not None
        winner = self.lag_winner
        step = decide_lag(self.table, seat_player(winner), seat_player(breaker))
        self.lag_winner = None
        self._cancel_timer("lag_choice")
        self.status = "playing"
        events = self._after_step(step, "lag_choice", winner)
        return [*events, self._snapshot_event()]

    async def _lag_choice(self, client: Member, index: int, message: m.LagChoice) -> None:
        if self.status != "lag" or self.table is None or self.lag_winner is None:
            raise TableError(errors.NO_LAG_CHOICE, "there is no choice of the first breaker")
        if index != self.lag_winner:
            raise TableError(
                errors.NOT_YOUR_TURN, "the winner of the lag chooses who breaks (R3, O6)"
            )
        breaker = index if message.choice == "break" else 1 - index
        events = self._decide_first_break(breaker)
        client.ok(message.id)
        await self._commit(events)

    async def _lag_choice_expired(self) -> None:
        """Nobody chose in time (the winner may have gone): the winner breaks (O6)."""
        if self.status != "lag" or self.table is None or self.lag_winner is None:
            return
        await self._commit(self._decide_first_break(self.lag_winner))

    def _back_to_waiting(self) -> None:
        """A player left before the first break was decided: the lag starts over."""
        self.status = "waiting"
        self.table = None
        self.lag_shots.clear()
        self.lag_winner = None
        self._cancel_timer("lag_choice")

    async def _simulate_lag(self, seat: int) -> SimResult:
        shot = self.lag_shots[seat]
        balls = {0: physics.lag_spot(seat)}
        physics_shot = physics.Shot(angle=shot.angle, speed=shot.speed, tip=shot.tip)
        return await self.host.pool.simulate(balls, physics_shot, lag=True)

    def _judge_lag(self, seat: int, result: SimResult) -> m.LagView:
        final = result.final.get(0)
        distance = result.lag_distance
        fault = ""
        if final is None:
            fault = "the ball was pocketed or left the table"
        elif distance is None:
            fault = "the ball did not reach the foot rail"
        return m.LagView(
            seat=seat,
            traj=result.traj,
            duration=result.duration,
            final=final,
            distance=distance,
            fault=fault,
        )

    async def _table_request(self, client: Member, index: int, message: m.ClientMessage) -> None:
        if self.status == "finished" or (self.table is not None and self.table.state.match_over):
            raise TableError(errors.MATCH_OVER, "the match is over")
        if self.status != "playing" or self.table is None:
            raise TableError(errors.NOT_STARTED, "the match has not started")
        by = seat_player(index)
        if isinstance(message, m.Shot):
            await self._shot(client, index, message)
        elif isinstance(message, m.Place):
            self.table = place_cue_ball(self.table, by, message.pos)
            client.ok(message.id)
            event = m.Placed(room=self.id, seq=self._next_seq(), seat=index, pos=message.pos)
            await self._commit([event])
        elif isinstance(message, m.Aim):
            self._aim(index, message)
        elif isinstance(message, m.Choose):
            step = apply_action(self.table, rules.Choose(by=by, choice=message.choice))
            client.ok(message.id)
            await self._commit(self._after_step(step, f"choose_{message.choice}", index))
        elif isinstance(message, m.Concede):
            step = apply_action(self.table, rules.Concede(by=by, what=message.what))
            client.ok(message.id)
            await self._commit(self._after_step(step, f"concede_{message.what}", index))
        elif isinstance(message, m.Stalemate):
            if message.action == "accept" and self.table.state.stalemate_proposed_by in (
                None,
                by,
            ):
                raise TableError(errors.NO_STALEMATE_PROPOSAL, "no proposal from the opponent")
            step = apply_action(self.table, rules.Stalemate(by=by, action=message.action))
            client.ok(message.id)
            await self._commit(self._after_step(step, f"stalemate_{message.action}", index))
        elif isinstance(message, m.Extend):
            await self._extend(client, index, message)
        else:
            raise TableError(
                errors.INVALID_ACTION, f"{type(message).__name__} is not a room action"
            )

    def _turn_seat(self) -> int | None:
        if self.table is None or self.status != "playing":
            return None
        return player_seat(self.table.state.turn)

    def _aim(self, index: int, message: m.Aim) -> None:
        if self._turn_seat() != index:
            raise TableError(errors.NOT_YOUR_TURN, "only the player to shoot can aim")
        self.aim.pending = m.AimRelay(
            room=self.id,
            seat=index,
            angle=message.angle,
            speed=message.speed,
            tip=message.tip,
            elevation=message.elevation,
            cue=message.cue,
        )
        interval = self.host.config.aim_interval
        wait = self.aim.last_sent + interval - self._loop.time()
        if wait <= 0:
            self._flush_aim()
        elif not self.aim.flush_scheduled:
            self.aim.flush_scheduled = True
            self._set_timer("aim", wait)

    def _flush_aim(self) -> None:
        self.aim.flush_scheduled = False
        pending = self.aim.pending
        if pending is None:
            return
        self.aim.pending = None
        self.aim.last_sent = self._loop.time()
        shooter = self.seats[pending.seat]
        others = [c for c in self._members() if shooter is None or c is not shooter.client]
        fan_out(others, encode(pending))

    async def _shot(self, client: Member, index: int, message: m.Shot) -> None:
        assert self.table is not None
        started = time.perf_counter()
        by = seat_player(index)
        shot = physics.Shot(
            angle=message.angle, speed=message.speed, tip=message.tip, elevation=message.elevation
        )
        balls, shot = prepare_shot(self.table, by, shot, message.push_out)
        client.ok(message.id)
        self._stop_clock()
        self.aim.pending = None
        sim_started = time.perf_counter()
        result = await self.host.pool.simulate(balls, shot)
        self.host.metrics.simulate_seconds.observe(time.perf_counter() - sim_started)
        step = complete_shot(self.table, by, message.push_out, result.final, result.report)
        self.table = step.table
        self.shots += 1
        # The next player's clock starts once the shot has played out on every screen.
        self._restart_clock(result.duration)
        shot_result = m.ShotResult(
            room=self.id,
            seq=self._next_seq(),
            shooter=index,
            shot=m.ShotInput(
                angle=message.angle,
                speed=message.speed,
                tip=message.tip,
                elevation=message.elevation,
                push_out=message.push_out,
            ),
            traj=result.traj,
            duration=result.duration,
            miscue=result.miscue,
            report=shot_report_view(result),
            verdict=verdict_view(step.verdict),
            table=self._table_view(),
            final=final_view(result),
        )
        events: list[m.ServerMessage] = [shot_result, *self._consequences(step, index)]
        self.inflight = (shot_result, self._loop.time())
        await self._commit(events)
        self.host.metrics.shots.inc()
        self.host.metrics.shot_seconds.observe(time.perf_counter() - started)

    async def _extend(self, client: Member, index: int, message: m.Extend) -> None:
        if self.settings.shot_clock is None:
            raise TableError(errors.NO_SHOT_CLOCK, "this room plays without a shot clock")
        if self._turn_seat() != index:
            raise TableError(errors.NOT_YOUR_TURN, "only the player to shoot can extend")
        if self.extensions[index] <= 0:
            raise TableError(errors.NO_EXTENSIONS, "no extensions left in this game")
        self.extensions[index] -= 1
        extra = float(self.settings.shot_clock)
        if self.clock.deadline is not None:
            self.clock.deadline += extra
            self.clock.warned = False
            self._arm_clock()
        elif self.clock.left is not None:
            self.clock.left += extra
        client.ok(message.id)
        assert self.table is not None
        event = m.Ruling(
            room=self.id,
            seq=self._next_seq(),
            by=index,
            action="extension",
            verdict=None,
            table=self._table_view(),
        )
        await self._commit([event])

    # --- referee steps ------------------------------------------------------------------

    def _after_step(self, step: Step, action: str, by: int | None) -> list[m.ServerMessage]:
        """Events for a non-shot referee action, with the clock restarted."""
        self.table = step.table
        self.inflight = None
        self._restart_clock(0.0)
        ruling = m.Ruling(
            room=self.id,
            seq=self._next_seq(),
            by=by,
            action=action,  # type: ignore[arg-type]
            verdict=verdict_view(step.verdict),
            table=self._table_view(),
        )
        return [ruling, *self._consequences(step, by)]

    def _consequences(self, step: Step, by: int | None) -> list[m.ServerMessage]:
        """Warnings, game and match results that follow a verdict."""
        verdict = step.verdict
        state = step.table.state
        events: list[m.ServerMessage] = []
        warned = player_seat(verdict.warned)
        if warned is not None:
            name = self._name(warned)
            events.append(
                m.Warning(
                    room=self.id,
                    seq=self._next_seq(),
                    kind="three_fouls",
                    seat=warned,
                    msg=f"{name} is on two consecutive fouls: a third loses the game (R13)",
                )
            )
        if verdict.stalemate_warning_given:
            events.append(
                m.Warning(
                    room=self.id,
                    seq=self._next_seq(),
                    kind="stalemate",
                    seat=None,
                    msg="Stalemate warning: three more innings each without a ball pocketed "
                    "and the rack is replayed (R14)",
                )
            )
        if verdict.new_rack or verdict.game_over:
            self.extensions = [self.settings.extensions, self.settings.extensions]
        if verdict.game_over:
            events.append(
                m.GameOver(
                    room=self.id,
                    seq=self._next_seq(),
                    rack=state.rack - (1 if verdict.new_rack else 0),
                    winner=player_seat(verdict.game_winner),
                    reason=verdict.game_end or "",
                    score=list(state.score),
                )
            )
        if verdict.match_over:
            self.status = "finished"
            self._stop_clock()
            events.append(
                m.MatchOver(
                    room=self.id,
                    seq=self._next_seq(),
                    winner=player_seat(verdict.match_winner),
                    reason=state.match_ended_by or "",
                    score=list(state.score),
                )
            )
        return events

    def _name(self, index: int) -> str:
        seat = self.seats[index]
        return seat.name if seat is not None else f"seat {index}"

    # --- timers and the shot clock ------------------------------------------------------

    def _set_timer(self, kind: str, delay: float) -> None:
        self._cancel_timer(kind)
        generation = self._timer_generation.get(kind, 0) + 1
        self._timer_generation[kind] = generation
        self._timers[kind] = self._loop.call_later(
            max(0.0, delay), self.post, Timer(kind, generation)
        )

    def _cancel_timer(self, kind: str) -> None:
        handle = self._timers.pop(kind, None)
        if handle is not None:
            handle.cancel()
        self._timer_generation[kind] = self._timer_generation.get(kind, 0) + 1

    async def _timer(self, kind: str) -> None:
        if kind == "aim":
            self._flush_aim()
        elif kind.startswith("grace"):
            await self._grace_over(int(kind[-1]))
        elif kind == "clock_warn":
            await self._clock_warning()
        elif kind == "clock":
            await self._clock_expired()
        elif kind == "lag_choice":
            await self._lag_choice_expired()

    async def _grace_over(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None or seat.client is not None:
            return
        events: list[m.ServerMessage] = []
        if self.status == "playing" and self.table is not None and not self.table.state.match_over:
            step = apply_action(self.table, rules.Forfeit(by=seat_player(index)))
            events += self._after_step(step, "forfeit", index)
            if self.status == "playing":
                # O5 "game" forfeits one game; the absent player gets a new grace period.
                grace = self.host.config.grace
                seat.grace_until = now_ms() + int(grace * 1000)
                self._set_timer(f"grace{index}", grace)
                if self._turn_seat() == index:
                    self._pause_clock()
                events.append(self._snapshot_event())
                await self._commit(events)
                return
        if self.status == "lag":
            self._back_to_waiting()
        self._free_seat(index)
        events.append(self._snapshot_event())
        await self._commit(events)
        await self._close_if_empty()

    def _restart_clock(self, delay: float) -> None:
        """A new turn: the clock starts once the shot has played out (`delay`)."""
        self._stop_clock()
        seconds = self.settings.shot_clock
        turn = self._turn_seat()
        if seconds is None or turn is None:
            return
        seat = self.seats[turn]
        if seat is None or seat.client is None:
            self.clock.left = seconds + delay
            return
        self.clock.deadline = self._loop.time() + delay + seconds
        self._arm_clock()

    def _arm_clock(self) -> None:
        if self.clock.deadline is None:
            return
        left = self.clock.deadline - self._loop.time()
        self._set_timer("clock", left)
        if not self.clock.warned and left > CLOCK_WARNING_SECONDS:
            self._set_timer("clock_warn", left - CLOCK_WARNING_SECONDS)

    def _stop_clock(self) -> None:
        self.clock = ClockState()
        self._cancel_timer("clock")
        self._cancel_timer("clock_warn")

    def _pause_clock(self) -> None:
        if self.clock.deadline is None:
            return
        left = max(0.0, self.clock.deadline - self._loop.time())
        self._stop_clock()
        self.clock.left = left

    def _resume_clock(self) -> None:
        if self.clock.left is None:
            return
        left = self.clock.left
        self.clock = ClockState(deadline=self._loop.time() + left)
        self._arm_clock()

    async def _clock_warning(self) -> None:
        turn = self._turn_seat()
        if turn is None or self.clock.deadline is None:
            return
        self.clock.warned = True
        event = m.Warning(
            room=self.id,
            seq=self._next_seq(),
            kind="clock",
            seat=turn,
            msg=f"{self._name(turn)}: {int(CLOCK_WARNING_SECONDS)} seconds left to shoot (O3)",
        )
        await self._commit([event])

    async def _clock_expired(self) -> None:
        turn = self._turn_seat()
        if turn is None or self.table is None:
            return
        self.clock = ClockState()
        try:
            step = apply_action(self.table, rules.ClockExpired(by=seat_player(turn)))
        except TableError as exc:
            log.info("room %s: clock expiry not applicable: %s", self.id, exc.message)
            self._restart_clock(0.0)
            return
        await self._commit(self._after_step(step, "clock_expired", turn))

    def _clock_view(self) -> m.ClockView | None:
        seconds = self.settings.shot_clock
        if seconds is None:
            return None
        deadline: int | None = None
        if self.clock.deadline is not None:
            deadline = now_ms() + int((self.clock.deadline - self._loop.time()) * 1000)
        return m.ClockView(
            seconds=seconds,
            deadline=deadline,
            paused=self.clock.deadline is None,
            extensions=list(self.extensions),
        )

    # --- views and events ---------------------------------------------------------------

    def _next_seq(self) -> int:
        self.seq += 1
        return self.seq

    def _table_view(self) -> m.TableView:
        assert self.table is not None
        return table_view(self.table, self._clock_view())

    def info(self) -> m.Info:
        score = [0, 0]
        if self.table is not None:
            score = list(self.table.state.score)
        return m.Info(
            room=self.id,
            name=self.settings.name,
            players=[s.name for s in self.seats if s is not None],
            spectators=len(self.spectators),
            score=score,
            race_to=self.settings.race_to,
            status=self.status,
        )

    def view(self) -> m.RoomView:
        seats: list[m.SeatView | None] = []
        for index, seat in enumerate(self.seats):
            if seat is None:
                seats.append(None)
                continue
            seats.append(
                m.SeatView(
                    seat=index,
                    player=seat.player,
                    name=seat.name,
                    connected=seat.client is not None,
                    ready=seat.ready,
                    grace_until=seat.grace_until,
                )
            )
        inflight = None
        if self.inflight is not None:
            result, started = self.inflight
            offset = self._loop.time() - started
            if offset < result.duration:
                inflight = m.InFlight(result=result, offset=offset)
        show_table = self.table is not None and not self.table.state.awaiting_lag
        return m.RoomView(
            room=self.id,
            settings=self.settings,
            code=self.code,
            status=self.status,
            seats=seats,
            spectators=len(self.spectators),
            table=self._table_view() if show_table else None,
            rematch=sorted(self.rematch),
            lagged=sorted(self.lag_shots),
            inflight=inflight,
            lag_choice=self.lag_winner if self.status == "lag" else None,
        )

    def _snapshot_message(self, seq: int) -> m.Snapshot:
        return m.Snapshot(room=self.id, seq=seq, now=now_ms(), view=self.view())

    def _snapshot_event(self) -> m.Snapshot:
        return self._snapshot_message(self._next_seq())

    def _presence(self, seat: int | None, connected: bool) -> m.Presence:
        grace_until = None
        if seat is not None:
            record = self.seats[seat]
            grace_until = record.grace_until if record is not None else None
        return m.Presence(
            room=self.id,
            seq=self._next_seq(),
            seat=seat,
            connected=connected,
            grace_until=grace_until,
            spectators=len(self.spectators),
        )

    async def _commit(
        self, events: Sequence[m.ServerMessage], exclude: Member | None = None
    ) -> None:
        """Store the snapshot and the events, then send the events to every member."""
        frames = [encode(event) for event in events]
        entries = [
            LogEntry(getattr(event, "seq"), frame)  # noqa: B009 - every room event has seq
            for event, frame in zip(events, frames, strict=True)
        ]
        await self._save(entries)
        await self.host.settle()
        members = [c for c in self._members() if c is not exclude]
        for frame in frames:
            fan_out(members, frame)
        self.host.room_changed(self)

    def record(self) -> RoomRecord:
        clock_left: float | None = self.clock.left
        if self.clock.deadline is not None:
            clock_left = max(0.0, self.clock.deadline - self._loop.time())
        return RoomRecord(
            room=self.id,
            settings=self.settings,
            code=self.code,
            seed=self.seed,
            seq=self.seq,
            status=self.status,
            seats=[
                None if s is None else SeatRecord(player=s.player, name=s.name, ready=s.ready)
                for s in self.seats
            ],
            table=self.table,
            match=self.match,
            lag_shots=dict(self.lag_shots),
            rematch=sorted(self.rematch),
            extensions=list(self.extensions),
            clock_left=clock_left,
            closed=self.closed,
            shots=self.shots,
            lag_winner=self.lag_winner,
        )

    async def _save(self, entries: Sequence[LogEntry]) -> None:
        snapshot = encode(self.record())
        await self.host.store.save(self.id, snapshot, entries, fence=self.fence)
        self._last_saved = snapshot

    async def _recover(self) -> None:
        """After a failure: back to the last saved snapshot, and tell everyone."""
        if self._last_saved is None:
            return
        with contextlib.suppress(Exception):
            self.restore(decode_record(self._last_saved), reconnecting=False)
            snapshot = self._snapshot_message(self.seq)
            fan_out(self._members(), encode(snapshot))

    def restore(self, record: RoomRecord, reconnecting: bool = True) -> None:
        """Take the state of a saved record. With `reconnecting`, nobody is connected yet:
        every seated player gets the grace period (O5) to come back."""
        self.settings = record.settings
        self.code = record.code
        self.seed = record.seed
        self.seq = record.seq
        self.status = record.status
        self.table = record.table
        self.match = record.match
        self.shots = record.shots
        self.lag_shots = dict(record.lag_shots)
        self.lag_winner = record.lag_winner
        self._cancel_timer("lag_choice")
        if self.status == "lag" and self.lag_winner is not None:
            # The choice's time starts again: a restart must not rob the winner of it.
            self._set_timer("lag_choice", self._lag_choice_seconds())
        self.rematch = set(record.rematch)
        self.extensions = list(record.extensions)
        self.inflight = None
        self._stop_clock()
        self.clock.left = record.clock_left
        old_clients = {
            i: s.client for i, s in enumerate(self.seats) if s is not None and not reconnecting
        }
        grace = self.host.config.grace
        for index, seat_record in enumerate(record.seats):
            if seat_record is None:
                self.seats[index] = None
                continue
            client = old_clients.get(index)
            seat = Seat(
                player=seat_record.player,
                name=seat_record.name,
                client=client,
                ready=seat_record.ready,
            )
            self.seats[index] = seat
            if client is None:
                seat.grace_until = now_ms() + int(grace * 1000)
                self._set_timer(f"grace{index}", grace)
        turn = self._turn_seat()
        waiting = self.seats[turn] if turn is not None else None
        if waiting is not None and waiting.client is not None:
            self._resume_clock()

    async def _shutdown(self, done: asyncio.Future[None]) -> None:
        try:
            self._pause_clock()
            await self._save([])
        finally:
            for kind in list(self._timers):
                self._cancel_timer(kind)
            self.closed = True
            for client in self._members():
                client.close(1001, "server shutting down")
            if not done.done():
                done.set_result(None)

    async def stopped(self) -> None:
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def new_room_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: 20 symbols of 32: 100 random bits, so an invite code cannot be guessed (joins after
#: wrong codes are rate-limited as well, see `server/edge/limits.py`).
INVITE_CODE_LENGTH = 20


def new_invite_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


SeedSource = Callable[[], int]
