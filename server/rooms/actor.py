"""A room's actor: one task, one inbox, driving the room's pure machine.

Every change — a request from a member, a disconnect, a reconnect, a timer — arrives as a
command in the inbox and is handled to the end before the next one, so the room's state
needs no locks and its events have one order. What a command does is decided by the pure
machine (`server.rooms.machine.step`); this module only carries out the effects it asks
for, in order: storing, sending, timers, the physics pool, the host's bookkeeping.

A step that changes what the store keeps begins with its `Save`. If the save fails (or
the physics pool does, for a shot), nothing of the step has been sent yet: the actor keeps
the state it had before the command, answers the request with an error, and sends every
member the room as it is — the state the store holds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import encode
from server.rooms import machine, snapshots
from server.rooms.bots import Aiming, Think, Thought
from server.rooms.model import (
    Applied,
    Bind,
    Broadcast,
    CancelTimer,
    Close,
    CloseMember,
    Effect,
    Input,
    Limits,
    Relay,
    Report,
    Result,
    RoomRecord,
    RoomState,
    Save,
    Seat,
    SeatFreed,
    SeatTaken,
    Send,
    Simulate,
    Simulated,
    StartTimer,
    Stop,
    TimerFired,
    TimerName,
    Unbind,
    decode_record,
    new_room,
)
from server.rooms.seams import (
    Abandon,
    Command,
    Enter,
    MatchEnd,
    Member,
    Rejoin,
    Relayed,
    Request,
    SeatBots,
    SeatPair,
    Shutdown,
    Tell,
    answer_closed,
    fan_out,
)
from server.rooms.simulation import PhysicsPool
from server.rooms.table import TableError
from server.store import FencedError, LogEntry, Store

if TYPE_CHECKING:
    from server.ops.config import Config
    from server.ops.metrics import Metrics

__all__ = [
    "Room",
    "RoomHost",
    "RoomRecord",
    "decode_record",
    "new_invite_code",
    "new_room_id",
    "now_ms",
]

log = logging.getLogger(__name__)


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

    def report(self, room: Room, result: Result) -> None:
        """A rack or match of the room has ended and is stored: hand its result over
        (`server.rooms.reporting`), without waiting."""

    async def settle(self) -> None:
        """After a change is stored, before anyone hears of it: what the room told the host
        meanwhile (seats taken, say) is shared too (a cluster's directory)."""

    async def room_starting(self, room: Room) -> None:
        """Before the room handles its first command (a cluster takes the room's lease
        here and sets `room.fence`); raising closes the room."""

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        """The room lost its lease (another node owns it now): it has stopped without
        saving; its members and the commands it had not handled go to the new owner."""

    def match_ended(self, end: MatchEnd) -> None:
        """A match of the room ended, and that is stored (`server.rooms.seams.MatchEnds`)."""


@dataclass(frozen=True)
class _Fired:
    """A timer's call, with the generation it was set at (a later set or cancel makes it
    stale)."""

    timer: TimerName
    generation: int


#: Between two matches of an exhibition, this many of a computer's pauses between shots.
EXHIBITION_GAP_PAUSES = 5


def now_ms() -> int:
    return int(time.time() * 1000)


def _limits(config: Config) -> Limits:
    return Limits(
        bot_pause=config.computers.bot_pause,
        rack_pause=config.rack_pause,
        exhibition_gap=EXHIBITION_GAP_PAUSES * config.computers.bot_pause,
        grace=config.grace,
        spectator_cap=config.spectator_cap,
        aim_interval=config.aim_interval,
        crowd_interval=config.update_interval,
        log_max=config.room_log_max,
    )


#: Seconds a computer player's decision may take before the room asks again (a level-1
#: decision takes tens of milliseconds, a level-5 one about a second at p95; a machine
#: short of CPU takes many times that, and a decision asked again queues behind the one
#: still running, so this is generous). The shot clock runs meanwhile, as for anyone.
THINK_TIMEOUT = 60.0
#: Seconds before a decision that failed is asked for again.
THINK_RETRY = 1.0

#: What a room's inbox holds: commands, its timers, its computer players' decisions.
Inbound = Command | _Fired | Thought | Aiming


class _StepFailed(Exception):
    """A save or a simulation failed: the step is dropped whole."""


class Room:
    def __init__(
        self,
        host: RoomHost,
        room_id: str,
        settings: m.RoomSettings,
        seed: int,
        code: str | None,
        kept_names: tuple[str, ...] = (),
    ) -> None:
        self.host = host
        self.state: RoomState = new_room(
            room_id, settings, seed, code, _limits(host.config), kept_names
        )
        #: Stopped because another node owns the room now (see `RoomHost.room_abandoned`).
        self.abandoned = False
        #: The fencing epoch of this node's lease on the room (None: a lone node).
        self.fence: int | None = None
        #: Stopped to move to another node (shut down, or its lease lost): what comes now
        #: is refused `room_moving`, to be sent again to the next owner.
        self.moving = False
        #: The latest requests of members of other nodes whose change is stored, oldest
        #: first (`RoomRecord.applied`): answered `ok` again when such a member rejoins.
        self.applied: list[Applied] = []
        #: The request being handled and who sent it, if it may be recorded as applied.
        self._requester: Applied | None = None
        self.inbox: asyncio.Queue[Inbound] = asyncio.Queue()
        #: Computer players' decisions being made (`Think`), cancelled when the room stops.
        self._thinking: set[asyncio.Task[None]] = set()
        self._stopped = False
        self._generation: dict[TimerName, int] = {}
        self._timers: dict[TimerName, asyncio.TimerHandle] = {}
        self._task: asyncio.Task[None] | None = None
        self._loop = asyncio.get_running_loop()
        #: Set once the room has started (in a cluster: its lease taken, its owner known)
        #: or could not: a room made for players who join later is shown to them then.
        self.started = asyncio.Event()

    # --- what the lobby, the cluster and members read --------------------------------------

    @property
    def id(self) -> str:
        return self.state.id

    @property
    def settings(self) -> m.RoomSettings:
        return self.state.settings

    @property
    def code(self) -> str | None:
        return self.state.code

    @property
    def seq(self) -> int:
        return self.state.seq

    @property
    def seats(self) -> tuple[Seat | None, Seat | None]:
        return self.state.seats

    @property
    def closed(self) -> bool:
        return self._stopped or self.state.closed

    def members(self) -> list[Member]:
        """Everyone connected to the room: seated players, then spectators."""
        return self.state.members()

    def is_spectator(self, member: Member) -> bool:
        """`member` watches from the stands: the send queue closes a spectator that keeps
        falling behind, never a player (see `server.edge.client`)."""
        return member in self.state.spectators

    def info(self) -> m.Info:
        return snapshots.info(self.state)

    def view(self) -> m.RoomView:
        return snapshots.view(self.state, time.time())

    def record(self) -> RoomRecord:
        return snapshots.record(self.state, time.time())

    def restore(self, record: RoomRecord) -> None:
        """Take the state of a saved record (after a restart, or on another node): nobody
        is connected yet, and every seated player has the grace period to come back."""
        restored = snapshots.restore(record, _limits(self.host.config), time.time())
        self.state = restored.state
        self.applied = list(record.applied)
        for timer in restored.timers:
            self._start_timer(timer.timer, timer.delay)

    # --- lifecycle ------------------------------------------------------------------------

    def start(self) -> None:
        self._task = self._loop.create_task(self._run(), name=f"room-{self.id}")

    def post(self, command: Inbound) -> None:
        """Hand the room a command; it is handled in order by the room's own task."""
        if self.closed:
            _answer_closed(self, command)
            return
        self.inbox.put_nowait(command)

    async def stopped(self) -> None:
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        try:
            await self.host.room_starting(self)
        except Exception:
            log.exception("room %s could not start", self.id)
            self._stopped = True
            self.host.room_closed(self)
        finally:
            self.started.set()
        while not self.closed:
            command = await self.inbox.get()
            if isinstance(command, _Fired):
                if self._generation.get(command.timer) != command.generation:
                    continue  # set again or cancelled since
                self._timers.pop(command.timer, None)
                await self._handle(command, TimerFired(command.timer))
            else:
                await self._handle(command, command)
            if isinstance(command, Abandon):
                self.abandoned = True
            if self.abandoned:
                self._stopped = True
            if self.abandoned or (self._stopped and isinstance(command, Shutdown)):
                self.moving = True
        leftovers: list[Command] = []
        while not self.inbox.empty():
            item = self.inbox.get_nowait()
            if not isinstance(item, _Fired | Thought | Aiming):
                leftovers.append(item)
        self._cancel_all_timers()
        for task in list(self._thinking):
            task.cancel()
        if self.abandoned:
            self.host.room_abandoned(self, leftovers)
            return
        # Whatever was queued behind the end is answered as a closed room answers (or, if
        # the room moves on, as one that is moving: try again there).
        for command in leftovers:
            _answer_closed(self, command)

    # --- one command --------------------------------------------------------------------------

    async def _handle(self, command: Inbound, event: Input) -> None:
        if (
            isinstance(event, Request)
            and isinstance(event.message, m.Chat)
            and event.client in self.state.members()
            and not event.client.may_chat()
        ):
            self._refuse(command, errors.RATE_LIMITED, "at most 5 chat messages per 10 seconds")
            return
        if isinstance(command, Tell):
            if command.client in self.state.members():
                command.client.send_message(command.message)
            return
        self._requester = _requester(command)
        if isinstance(command, Rejoin) and isinstance(command.client, Relayed):
            # The member's node may have lost answers on the way (a failed owner, a
            # reconnect to Redis): the requests this room's record holds are answered
            # again, before the snapshot; its node passes on only those it still awaits.
            origin = command.client.origin
            for applied in self.applied:
                if applied.origin == origin:
                    command.client.ok(applied.request)
        before = self.state
        started = time.perf_counter()
        try:
            await self._step(event)
        except TableError as exc:
            self.state = before
            self._refuse(command, exc.code, exc.message)
            self._think_again(command)
        except FencedError:
            # Another node has the room: nothing of this change was stored or sent.
            log.warning("room %s: fenced out, another node owns it now", self.id)
            self.state = before
            self._refuse(command, errors.ROOM_MOVING, "the room moved to another server")
            self.abandoned = True
        except Exception:
            log.exception("room %s failed on %s", self.id, type(event).__name__)
            self.state = before
            self._refuse(command, errors.INTERNAL, "the server failed; nothing changed")
            self._think_again(command)
            if isinstance(command, Shutdown):
                self._finish_shutdown(command)
                return
            # Everyone gets the room as it is: the state the store holds.
            with contextlib.suppress(Exception):
                snapshot = snapshots.snapshot(self.state, self.state.seq, time.time())
                fan_out(self.state.members(), encode(snapshot))
        else:
            if isinstance(command, Shutdown):
                self._finish_shutdown(command)
            elif isinstance(event, Request) and isinstance(event.message, m.Shot):
                self.host.metrics.shot_seconds.observe(time.perf_counter() - started)

    async def _step(self, event: Input) -> None:
        """Step the machine with `event`, then carry out its effects; a `Simulate` feeds its
        results straight back in, so a shot is one command from request to result."""
        while True:
            self.state, effects = machine.step(self.state, event, time.time())
            follow_up = await self._run_effects(effects)
            if follow_up is None:
                return
            event = follow_up

    async def _run_effects(self, effects: Sequence[Effect]) -> Simulated | None:
        saved = False
        settled = True
        # What the lobby lists may have changed: a stored change, or the spectator count
        # (sent without a save); the lobby paces what it passes on.
        told = any(isinstance(effect, Broadcast) for effect in effects)
        for effect in effects:
            if isinstance(effect, Save):
                await self._save(effect)
                saved, settled = True, False
                continue
            if isinstance(effect, Simulate):
                return await self._simulate(effect)
            if isinstance(effect, SeatTaken):
                self.host.seat_taken(effect.player, self)
                continue
            if isinstance(effect, SeatFreed):
                self.host.seat_freed(effect.player, self)
                continue
            if isinstance(effect, Close):
                await self._close(effect)
                continue
            if isinstance(effect, Report):
                self.host.report(self, effect.result)
                continue
            if not settled:
                # What the room told the host is shared before anyone hears of the change.
                await self.host.settle()
                settled = True
            self._carry_out(effect)
        if saved and not settled:
            await self.host.settle()
        if (saved or told) and not self.closed:
            self.host.room_changed(self)
        return None

    def _carry_out(self, effect: Effect) -> None:
        if isinstance(effect, Send):
            effect.to.send_message(effect.message)
        elif isinstance(effect, Broadcast):
            members = [c for c in self.state.members() if c is not effect.exclude]
            for event in effect.events:
                fan_out(members, encode(event))
                if isinstance(event, m.ShotResult):
                    self.host.metrics.shots.inc()
        elif isinstance(effect, Relay):
            members = [c for c in self.state.members() if c is not effect.exclude]
            fan_out(members, encode(effect.message))
        elif isinstance(effect, Bind):
            effect.member.bind(self)
        elif isinstance(effect, Unbind):
            effect.member.unbind(self)
        elif isinstance(effect, CloseMember):
            effect.member.close(effect.code, effect.reason)
        elif isinstance(effect, StartTimer):
            self._start_timer(effect.timer, effect.delay)
        elif isinstance(effect, CancelTimer):
            self._cancel_timer(effect.timer)
        elif isinstance(effect, Stop):
            self._stopped = True
        elif isinstance(effect, Think):
            task = self._loop.create_task(self._think(effect), name=f"think-{self.id}")
            self._thinking.add(task)
            task.add_done_callback(self._thinking.discard)

    # --- computer players ---------------------------------------------------------------

    async def _think(self, think: Think) -> None:
        """A computer player's decision, made in the process pool (never on the event
        loop) while the room goes on, and posted as an input once the pace allows."""
        started = self._loop.time()
        decision = None
        wait = think.delay
        if think.view is not None:
            try:
                decision = await asyncio.wait_for(
                    self.host.pool.decide(think.view, think.level, think.seed), THINK_TIMEOUT
                )
            except asyncio.CancelledError:
                raise
            except TimeoutError:
                log.warning(
                    "room %s: the computer in seat %d took over %.0f s to decide",
                    self.id,
                    think.seat,
                    THINK_TIMEOUT,
                )
                wait = max(wait, THINK_RETRY)
            except Exception:
                log.exception(
                    "room %s: the computer in seat %d failed to decide", self.id, think.seat
                )
                wait = max(wait, THINK_RETRY)
        left = wait - (self._loop.time() - started)
        if left > 0:
            if decision is not None:
                # The cue shown lined up meanwhile: a page still playing the last shot keeps
                # the aim for the turn it leads to, and draws it once that shot is over.
                self.post(Aiming(think, decision))
            await asyncio.sleep(left)
        self.post(Thought(think, decision))

    def _think_again(self, command: Inbound) -> None:
        """A decision the room could not play: the bot is asked again, a moment later."""
        if isinstance(command, Thought) and command.decision is not None:
            retry = Thought(command.think, None)
            self._loop.call_later(THINK_RETRY, self.post, retry)

    # --- effects that wait ---------------------------------------------------------------------

    async def _save(self, save: Save) -> None:
        frames = [encode(event) for event in save.events]
        entries = [
            LogEntry(getattr(event, "seq"), frame)  # noqa: B009 - every room event has seq
            for event, frame in zip(save.events, frames, strict=True)
        ]
        record, applied = save.record, self.applied
        requester = self._requester
        if requester is not None:
            # Stored with the change itself: whoever takes the room over knows it was done.
            applied = [*applied, requester][-APPLIED_KEPT:]
            record = msgspec.structs.replace(record, applied=applied)
        await self.host.store.save(self.id, encode(record), entries, fence=self.fence)
        self.applied, self._requester = applied, None
        for event in save.events:
            if isinstance(event, m.MatchOver):
                score = (event.score[0], event.score[1])
                reserved = self.settings.reserved
                end = MatchEnd(self.id, record.match, event.winner, score, event.reason, reserved)
                self.host.match_ended(end)

    async def _simulate(self, simulate: Simulate) -> Simulated:
        started = time.perf_counter()
        pool = self.host.pool
        results = await asyncio.gather(
            *(pool.simulate(job.balls, job.shot, lag=job.lag) for job in simulate.jobs)
        )
        elapsed = time.perf_counter() - started
        self.host.metrics.simulate_seconds.observe(elapsed)
        return Simulated(tuple(results))

    async def _close(self, close: Close) -> None:
        """The last member has gone: the store keeps the log for replays, or forgets a
        room where nothing was played; the lobby forgets the room."""
        self._cancel_all_timers()
        self._stopped = True
        if close.retire:
            await self.host.store.retire(self.id)
        else:
            await self.host.store.delete(self.id)
        self.host.room_closed(self)

    def _finish_shutdown(self, command: Shutdown) -> None:
        self._cancel_all_timers()
        self._stopped = True
        for member in self.state.members():
            member.close(1001, "server shutting down")
        if not command.done.done():
            command.done.set_result(None)

    # --- answers outside the machine -------------------------------------------------------

    def _refuse(self, command: Inbound, code: str, message: str) -> None:
        if isinstance(command, Request):
            command.client.error(command.message.id, code, message)
        elif isinstance(command, Enter):
            command.client.error(command.request_id, code, message)
            if command.client not in self.state.members():
                command.client.unbind(self)
        elif isinstance(command, SeatPair):
            for member, request_id in (command.first, command.second):
                member.error(request_id, code, message)
                member.unbind(self)
        elif isinstance(command, SeatBots) and command.person is not None:
            member, request_id = command.person
            member.error(request_id, code, message)
            member.unbind(self)

    # --- timers ----------------------------------------------------------------------------

    def _start_timer(self, timer: TimerName, delay: float) -> None:
        self._cancel_timer(timer)
        generation = self._generation[timer]
        self._timers[timer] = self._loop.call_later(
            max(0.0, delay), self.post, _Fired(timer, generation)
        )

    def _cancel_timer(self, timer: TimerName) -> None:
        handle = self._timers.pop(timer, None)
        if handle is not None:
            handle.cancel()
        self._generation[timer] = self._generation.get(timer, 0) + 1

    def _cancel_all_timers(self) -> None:
        for timer in list(self._timers):
            self._cancel_timer(timer)


#: Requests of members of other nodes a room's record remembers as applied.
APPLIED_KEPT = 16


def _requester(command: Inbound) -> Applied | None:
    """Who sent this request, if it came from another node and gets an `ok` when done (an
    aim preview gets none)."""
    if not isinstance(command, Request) or isinstance(command.message, m.Aim):
        return None
    if not isinstance(command.client, Relayed):
        return None
    return Applied(command.client.origin, command.message.id)


def _answer_closed(room: Room, command: Inbound) -> None:
    """A command for a room that has ended is answered as a closed room answers; one for a
    room that is moving to another node, `room_moving` (send it again there)."""
    if room.moving and isinstance(command, Enter | Request):
        request_id = command.request_id if isinstance(command, Enter) else command.message.id
        command.client.error(request_id, errors.ROOM_MOVING, "the room is moving; try again")
    elif isinstance(command, SeatBots) and command.person is not None:
        member, request_id = command.person
        code = errors.ROOM_MOVING if room.moving else errors.NO_SUCH_ROOM
        member.error(request_id, code, "the room has closed; try again")
        member.unbind(room)
    elif room.moving and isinstance(command, SeatPair):
        for member, request_id in (command.first, command.second):
            member.error(request_id, errors.ROOM_MOVING, "the room is moving; try again")
            member.unbind(room)
    else:
        answer_closed(room, command, "the room has closed")


def new_room_id() -> str:
    return secrets.token_urlsafe(6).replace("-", "x").replace("_", "y")


_CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: 20 symbols of 32: 100 random bits, so an invite code cannot be guessed (joins after
#: wrong codes are rate-limited as well, see `server/edge/limits.py`).
INVITE_CODE_LENGTH = 20


def new_invite_code() -> str:
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(INVITE_CODE_LENGTH))


SeedSource = Callable[[], int]
