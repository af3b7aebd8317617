"""A practice table's actor: one task, one inbox, driving the pure practice core.

A practice table (`server.rooms.practice`) is a room of one player, and spectators if
anyone cares to watch; it is a `RoomPort` like a match's room, so the gateway, the lobby
and its members reach it the same way. Its own actor rather than the room machine's: it
has no seats to fill, no match, no replay. What it is, is one value: after each change it
is written down (`server.rooms.practice_book`), so that its player who comes back through
another node, or after this node died, finds it there. Every command is handled to the
end before the next, and a shot or a preview is simulated in the physics pool, never on
the event loop, while this table's inbox waits.

The player who drops keeps the table for the grace period (`--grace`) and gets it back
with the session token, as a seated player does; then it closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from protocol import errors
from protocol import messages as m
from protocol import practice as pm
from protocol.codec import encode
from server import physics
from server.rooms.practice import (
    Changed,
    Effect,
    Load,
    Played,
    Practice,
    PracticeError,
    Preview,
    Previewed,
    Put,
    Redo,
    Remove,
    Retry,
    SetRules,
    Shoot,
    Simulate,
    Simulated,
    Undo,
    step,
    view,
)
from server.rooms.practice_book import KeptPractice, PracticeBook
from server.rooms.seams import (
    Command,
    Enter,
    Gone,
    Member,
    Reattach,
    Rejoin,
    Request,
    SeatPair,
    Shutdown,
    Tell,
    answer_closed,
    fan_out,
)
from server.rooms.simulation import PhysicsPool
from server.rooms.views import final_view, shot_report_view

if TYPE_CHECKING:
    from protocol.practice import Cause
    from server.ops.config import Config
    from server.ops.metrics import Metrics

log = logging.getLogger(__name__)

#: The match's requests, which a practice table has no use for.
MATCH_ONLY = (
    m.Ready,
    m.LagShot,
    m.LagChoice,
    m.Choose,
    m.Concede,
    m.Stalemate,
    m.Extend,
    m.Chat,
    m.Rematch,
)


class PracticeHost(Protocol):
    """What a practice table needs of the process (the lobby implements it)."""

    config: Config
    pool: PhysicsPool
    metrics: Metrics
    practice_book: PracticeBook

    def practice_closed(self, room: PracticeRoom) -> None: ...


@dataclass(frozen=True)
class _GraceOver:
    """The player stayed away for the grace period (stale if they came back since)."""

    generation: int


@dataclass(frozen=True)
class LetGo:
    """The table goes on elsewhere (or has ended there): this copy closes, its members
    told it is gone, and what is kept is left alone."""


class PracticeRoom:
    """One practice table; implements `server.rooms.seams.RoomPort`."""

    def __init__(
        self,
        host: PracticeHost,
        room_id: str,
        player: str,
        name: str,
        state: Practice,
        holder: str | None = None,
    ) -> None:
        self.host = host
        self._id = room_id
        #: The player id who practises here, and the name shown.
        self.player = player
        self.name = name
        self.state = state
        #: This copy's token for writing the table down (None: not written yet).
        self.holder = holder
        self.owner: Member | None = None
        self.spectators: list[Member] = []
        self.inbox: asyncio.Queue[Command | _GraceOver | LetGo] = asyncio.Queue()
        self._stopped = False
        self._grace: asyncio.TimerHandle | None = None
        self._generation = 0
        self._loop = asyncio.get_running_loop()
        self._task: asyncio.Task[None] | None = None
        self._forgetting: asyncio.Task[None] | None = None

    # --- RoomPort -------------------------------------------------------------------------

    @property
    def id(self) -> str:
        return self._id

    @property
    def closed(self) -> bool:
        return self._stopped

    @property
    def fence(self) -> int | None:
        return None

    @property
    def seq(self) -> int:
        return 0

    def post(self, command: Command | _GraceOver | LetGo) -> None:
        if self._stopped:
            _answer_closed(self, command)
            return
        self.inbox.put_nowait(command)

    def is_spectator(self, member: Member) -> bool:
        return member in self.spectators

    def members(self) -> list[Member]:
        return ([self.owner] if self.owner is not None else []) + self.spectators

    # --- life -----------------------------------------------------------------------------

    def start(self) -> None:
        self._task = self._loop.create_task(self._run(), name=f"practice-{self.id}")
        if self.holder is not None:
            # Opened again for a player on their way back (whose reattach is posted
            # next): kept for the grace period, should they not arrive after all.
            self._await_owner(max(self.host.config.grace, 0.0))

    async def stopped(self) -> None:
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        if self._forgetting is not None:
            with contextlib.suppress(Exception):
                await self._forgetting

    async def _run(self) -> None:
        while not self._stopped:
            command = await self.inbox.get()
            try:
                await self._handle(command)
            except Exception:
                log.exception("practice table %s failed on %s", self.id, type(command).__name__)
                if isinstance(command, Request):
                    command.client.error(
                        command.message.id, errors.INTERNAL, "the server failed; nothing changed"
                    )
                if isinstance(command, Shutdown) and not command.done.done():
                    command.done.set_result(None)
        while not self.inbox.empty():
            _answer_closed(self, self.inbox.get_nowait())

    async def _handle(self, command: Command | _GraceOver | LetGo) -> None:
        if isinstance(command, _GraceOver):
            if command.generation == self._generation and self.owner is None:
                self._close()
        elif isinstance(command, LetGo):
            self._close(forget=False)
        elif isinstance(command, Enter):
            if self.holder is None and not await self._first_keep(command):
                return
            self._enter(command)
        elif isinstance(command, Reattach | Rejoin):
            if command.client.player == self.player:
                self._owner_back(command.client)
            else:
                command.client.unbind(self)
        elif isinstance(command, Gone):
            self._gone(command.client)
        elif isinstance(command, Request):
            await self._request(command.client, command.message)
        elif isinstance(command, Tell):
            if command.client in self.members():
                command.client.send_message(command.message)
        elif isinstance(command, Shutdown):
            for member in self.members():
                member.close(1001, "server shutting down")
            self._close(tell=False, forget=False)  # kept: another node opens it again
            if not command.done.done():
                command.done.set_result(None)
        elif isinstance(command, SeatPair):
            for member, request_id in (command.first, command.second):
                member.error(request_id, errors.ROOM_FULL, "a practice table has one player")
                member.unbind(self)
        else:  # Abandon: a practice table is never relayed; it follows its player
            self._close(forget=False)

    # --- members ------------------------------------------------------------------------

    def _enter(self, command: Enter) -> None:
        client = command.client
        if command.role == "player":
            if client.player != self.player or (
                self.owner is not None and self.owner is not client
            ):
                client.error(
                    command.request_id,
                    errors.ROOM_FULL,
                    "a practice table has one player; watch it instead",
                )
                if client not in self.members():
                    client.unbind(self)
                return
            self._cancel_grace()
            self.owner = client
            client.bind(self)
            client.send_message(
                m.Joined(id=command.request_id, room=self.id, role="player", seat=0, code=None)
            )
            self._tell_all("open")
            return
        if client in self.members():
            client.error(command.request_id, errors.ALREADY_IN_ROOM, "already at this table")
            return
        if len(self.spectators) >= self.host.config.spectator_cap:
            client.error(command.request_id, errors.SPECTATORS_FULL, "no room in the stands")
            client.unbind(self)
            return
        self.spectators.append(client)
        client.bind(self)
        client.send_message(
            m.Joined(id=command.request_id, room=self.id, role="spectator", seat=None, code=None)
        )
        client.send_message(self._state_message("join"))
        self._tell_crowd()

    def _owner_back(self, client: Member) -> None:
        self._cancel_grace()
        if self.owner is not None and self.owner is not client:
            self.owner.unbind(self)
        self.owner = client
        client.bind(self)
        client.send_message(self._state_message("resync"))

    def _gone(self, client: Member) -> None:
        if client is self.owner:
            self.owner = None
            client.unbind(self)
            grace = self.host.config.grace
            if grace <= 0:
                self._close()
                return
            self._await_owner(grace)
        elif client in self.spectators:
            self.spectators.remove(client)
            client.unbind(self)
            self._tell_crowd()

    def _await_owner(self, grace: float) -> None:
        """No player at the table: it closes unless they come back within `grace`."""
        self._generation += 1
        self._grace = self._loop.call_later(grace, self.post, _GraceOver(self._generation))

    def _cancel_grace(self) -> None:
        self._generation += 1
        if self._grace is not None:
            self._grace.cancel()
            self._grace = None

    def _close(self, tell: bool = True, forget: bool = True) -> None:
        """The table ends here: the members are told and let go; unless it goes on
        elsewhere (`forget` False), it is no longer kept."""
        self._cancel_grace()
        self._stopped = True
        if forget and self.holder is not None:
            work = self.host.practice_book.forget(self.player, self.holder)
            self._forgetting = self._loop.create_task(work, name=f"practice-forget-{self.id}")
        members = self.members()
        if tell:
            fan_out(members, encode(m.RoomGone(room=self.id)))
        for member in members:
            member.unbind(self)
        self.owner = None
        self.spectators = []
        self.host.practice_closed(self)

    # --- requests -------------------------------------------------------------------------

    async def _request(self, client: Member, message: m.ClientMessage) -> None:
        if isinstance(message, m.Leave):
            if client is self.owner:
                await self._forget_now()
                client.ok(message.id)
                self._close(forget=False)
                return
            client.ok(message.id)
            if client in self.spectators:
                self._gone(client)
            else:
                client.unbind(self)
            return
        if client not in self.members():
            client.error(message.id, errors.NOT_IN_ROOM, "not at this practice table")
            return
        if isinstance(message, m.Resync):
            client.send_message(self._state_message("resync", message.id))
            return
        if client is not self.owner:
            client.error(message.id, errors.NOT_A_PLAYER, "only the player practises here")
            return
        if isinstance(message, m.Aim):
            relay = m.AimRelay(
                room=self.id,
                seat=0,
                angle=message.angle,
                speed=message.speed,
                tip=message.tip,
                elevation=message.elevation,
                cue=message.cue,
            )
            fan_out(self.spectators, encode(relay))
            return
        if isinstance(message, MATCH_ONLY) or (isinstance(message, m.Shot) and message.push_out):
            what = "a push-out" if isinstance(message, m.Shot) else f"'{type(message).__name__}'"
            client.error(message.id, errors.NOT_AT_PRACTICE, f"no {what} at a practice table")
            return
        action = _action(message)
        if action is None:
            client.error(message.id, errors.PRACTICE_ONLY, "not a practice table's request")
            return
        before = self.state
        try:
            await self._step(client, message.id, action)
        except PracticeError as exc:
            self.state = before
            client.error(message.id, exc.code, exc.message)

    async def _keep(self, state: Practice) -> bool:
        """Write the table down before anyone hears of the change; False: another node
        has taken it since (nothing was written)."""
        kept = KeptPractice(room=self.id, player=self.player, name=self.name, state=state)
        holder = await self.host.practice_book.keep(kept, self.holder)
        if holder is None:
            return False
        self.holder = holder
        return True

    async def _first_keep(self, command: Enter) -> bool:
        """The new table is written down before its player is let in (else refused)."""
        try:
            if await self._keep(self.state):
                return True
        except Exception:
            log.exception("practice table %s could not be kept", self.id)
        command.client.error(
            command.request_id, errors.INTERNAL, "the practice table could not be opened"
        )
        command.client.unbind(self)
        self._close(tell=False, forget=False)
        return False

    async def _forget_now(self) -> None:
        """The player leaves: the table is not kept from here on (before the `ok`, so that
        no node opens it again for them after it)."""
        if self.holder is None:
            return
        try:
            await self.host.practice_book.forget(self.player, self.holder)
        except Exception:  # it expires by itself; the player has left all the same
            log.exception("practice table %s could not be forgotten", self.id)

    def _moved(self, client: Member, request_id: int) -> None:
        """Another connection of the player took the table on another node: it goes on
        there, and this copy closes without changing anything."""
        client.error(
            request_id, errors.NO_SUCH_ROOM, "this practice table went on at your newer connection"
        )
        self._close(forget=False)

    async def _step(
        self,
        client: Member,
        request_id: int,
        action: Put | Remove | Load | SetRules | Undo | Redo | Retry | Shoot | Preview,
    ) -> None:
        state, effects = step(self.state, action)
        follow: Simulated | None = None
        for effect in effects:
            if isinstance(effect, Simulate):
                follow = await self._simulate(effect)
        if follow is not None:
            state, effects = step(state, follow)
        if state is not self.state and not await self._keep(state):
            self._moved(client, request_id)
            return
        self.state = state
        for effect in effects:
            self._carry_out(client, request_id, effect)

    async def _simulate(self, effect: Simulate) -> Simulated:
        started = time.perf_counter()
        result = await self.host.pool.simulate(effect.balls, effect.shot)
        self.host.metrics.simulate_seconds.observe(time.perf_counter() - started)
        return Simulated(effect.shot, effect.preview, result)

    def _carry_out(self, client: Member, request_id: int, effect: Effect) -> None:
        if isinstance(effect, Changed):
            client.ok(request_id)
            self._tell_all(effect.cause)
        elif isinstance(effect, Played):
            client.ok(request_id)
            shot = effect.shot
            result = effect.result
            message = pm.PracticeShot(
                room=self.id,
                shot=m.ShotInput(
                    angle=shot.angle,
                    speed=shot.speed,
                    tip=(shot.tip[0], shot.tip[1]),
                    elevation=shot.elevation,
                    push_out=False,
                ),
                traj=result.traj,
                duration=result.duration,
                miscue=result.miscue,
                report=shot_report_view(result),
                verdict=effect.verdict,
                final=final_view(result),
                view=self._view(),
            )
            fan_out(self.members(), encode(message))
        elif isinstance(effect, Previewed):
            result = effect.result
            client.send_message(
                pm.PracticePreviewed(
                    id=request_id,
                    traj=result.traj,
                    duration=result.duration,
                    miscue=result.miscue,
                    report=shot_report_view(result),
                    verdict=effect.verdict,
                    final=final_view(result),
                )
            )

    # --- what is sent -----------------------------------------------------------------------

    def _view(self) -> pm.PracticeView:
        return view(self.state, self.name, len(self.spectators))

    def _state_message(self, cause: Cause, request_id: int | None = None) -> pm.PracticeState:
        return pm.PracticeState(room=self.id, cause=cause, view=self._view(), id=request_id)

    def _tell_all(self, cause: Cause) -> None:
        fan_out(self.members(), encode(self._state_message(cause)))

    def _tell_crowd(self) -> None:
        if self.owner is not None:
            self.owner.send_message(m.Spectators(room=self.id, count=len(self.spectators)))


def _shot(message: m.Shot | pm.PracticePreview) -> physics.Shot:
    return physics.Shot(
        angle=message.angle,
        speed=message.speed,
        tip=(message.tip[0], message.tip[1]),
        elevation=message.elevation,
    )


def _action(
    message: m.ClientMessage,
) -> Put | Remove | Load | SetRules | Undo | Redo | Retry | Shoot | Preview | None:
    """The practice core's action for a request (None: not one a practice table takes)."""
    if isinstance(message, pm.PracticePut):
        return Put(message.ball, message.pos)
    if isinstance(message, m.Place):
        return Put(0, message.pos)
    if isinstance(message, pm.PracticeRemove):
        return Remove(message.ball)
    if isinstance(message, pm.PracticeLoad):
        return Load(message.layout, message.drill)
    if isinstance(message, pm.PracticeRules):
        return SetRules(message.on)
    if isinstance(message, pm.PracticeUndo):
        return Undo()
    if isinstance(message, pm.PracticeRedo):
        return Redo()
    if isinstance(message, pm.PracticeRetry):
        return Retry()
    if isinstance(message, m.Shot):
        return Shoot(_shot(message))
    if isinstance(message, pm.PracticePreview):
        return Preview(_shot(message))
    return None


def _answer_closed(room: PracticeRoom, command: Command | _GraceOver | LetGo) -> None:
    """A command for a table that has ended."""
    answer_closed(room, command, "the practice table has closed")
