"""The room as a pure state machine: `step(state, input, now) -> (state, effects)`.

Nothing here does I/O, reads a clock or draws a random number: `now` (wall seconds) comes
in with each input, the room's randomness comes from its seed, and what should happen in
the world comes out as effects (`server.rooms.model`), which the room's actor
(`server.rooms.actor`) carries out in order. A refusal is a `TableError`, raised before
anything changed. Every step that changes what the store keeps begins its effects with one
`Save`, so an actor whose save fails drops the step whole: nothing of it was sent.

Every transition, by phase (`*` any phase; "seat" = a seated player, "member" = anyone in
the room; a request from a non-member is refused `not_in_room`, a table action from a
spectator `not_a_player`):

| phase    | input                        | next phase        | effects (after `Save`)         |
|----------|------------------------------|-------------------|--------------------------------|
| *        | Enter, player, free seat     | same              | SeatTaken, Bind, joined, snap  |
| Finished | Enter, player not seated, a tournament's | same  | as a spectator (nothing to sit to) |
| *        | Enter, player, own seat      | same              | as Reattach, plus joined       |
| *        | Enter, spectator             | same              | Bind, joined, snap; count (b)  |
| Waiting  | SeatPair (quick match)       | Lagging, Choosing | SeatTaken, Bind, joined, start |
| *        | Reattach, Rejoin of a seat   | same              | SeatTaken, no Grace, presence(c)|
| *        | … under another name         | same              | as above, then snapshot        |
| *        | Gone, spectator              | same              | count (b); Close if empty      |
| *        | Gone, seat                   | same              | Grace, clock paused, presence  |
| *        | Leave, spectator             | same              | Unbind, ok, count (b); Close   |
| Playing  | Leave, seat                  | Finished          | match conceded, Unbind, ok     |
| Lagging, Choosing | Leave, seat (the match uncounted) | Waiting | Unbind, ok, snapshot  |
| other    | Leave, seat                  | same              | Unbind, ok, snapshot; Close    |
| Waiting  | Sit, spectator, seat free    | same              | SeatTaken, joined, snap; count |
| *        | Resync                       | same              | own snapshot (no save)         |
| *        | Chat                         | same              | ok, chat relay                 |
| Waiting  | Ready, not both ready        | same              | ok, snapshot (b, no save)      |
| Waiting  | Ready, both ready            | Lagging, Choosing | ok, snapshot, lag or draw      |
| Finished | Rematch, both asked          | Lagging, Choosing | ok, lag or draw                |
| Lagging  | LagShot, first               | Lagging           | ok, snapshot                   |
| Lagging  | LagShot, second              | Lagging           | Simulate both (no save yet)    |
| Lagging  | Simulated                    | Choosing; a tie: Lagging | ok, lag result, snapshot |
| Lagging  | LagOut timer, one lag played | Lagging           | Simulate it (no save yet)      |
| Lagging  | Simulated (LagOut's)         | Choosing, Lagging | lag result (late), snapshot    |
| Lagging  | LagOut timer, none played    | Choosing          | draw (reason late), snapshot   |
| Lagging  | LagOut, a late player away   | same, time waits  | snapshot; runs on their return |
| Choosing | LagChoice by the winner      | Playing           | ok, ruling, snapshot, clock    |
| Choosing | LagChoiceOut timer           | Playing           | ruling (winner breaks), snap   |
| Playing  | Place, Choose, Concede, Stalemate, Extend | Playing, Finished | ok, ruling, results |
| Playing  | Aim                          | Playing           | Relay or AimFlush (no save)    |
| *        | CrowdFlush timer             | same              | count (b), if it changed       |
| Playing  | Shot                         | Playing           | Simulate (no save yet)         |
| Playing  | Simulated                    | Playing, Finished | ok, shot result, results       |
| Playing  | ClockWarning, ClockOut       | Playing, Finished | warning; clock foul (O3)       |
| Playing  | Grace timer, seat away       | Playing, Finished | forfeit (O5); game: new Grace  |
| Playing  | Grace timer, nobody in room  | Finished          | every game left forfeited (O5) |
| other    | Grace timer, seat away       | same; lag: Waiting | seat freed; Close if empty    |
| *        | Shutdown                     | same              | clock paused, members closed   |
| *        | Rated (seats' ratings)       | same              | snapshot (b, no save)          |
| Waiting  | SeatBots (a computer seated) | Lagging, Choosing | as SeatPair; bots not the host's |
| Waiting  | SeatComputer (a kept seat)   | same, or started  | a tournament's computer, ready |
| Waiting  | Walkover (a tournament's)    | Finished          | forfeit ruling, results (walkover) |
| Waiting  | … no person left seated      | Finished          | as above; Close if nobody watches |
| Finished | Gone, seat, a tournament's   | same              | seat freed at once; Close if empty |
| *        | Thought, the question asked  | as its requests   | a computer's requests (bot_turns) |
| Playing  | Aiming, the question asked   | same              | its stroke's aim (as Aim)      |
| *        | BotWake timer (restored)     | same              | a bot's paused clock runs again |

After every step, a computer seat newly asked to act gets a `Think` (`bot_turns.ask`).

Game results (`warning`, `game_over`, `match_over`) follow each verdict; `match_over`
moves the room to Finished. A rack or a match that ends also gives a `Report` effect
after the step's `Save` (its result for the players service, `server.players.results`).
A member's own snapshot (join, reattach, rejoin, resync) carries what it missed
(`m.Recent`) and, for a seated player, the seat invite (`Sit`, `server.rooms.seating`); a
tie in the lag (to 0.1 mm, or both lags not counting) is played again with its reason
(`LagResult.reason`). (b): broadcast only — not saved, no new `seq` (see
`server.rooms.working`); "count" is the seq-less `spectators`, at most once per
`Limits.crowd_interval` (a change within it waits for the `CrowdFlush` timer). (c): not
when a connection takes over from one still open (another tab): the player never left.
"""

from __future__ import annotations

from dataclasses import replace

import msgspec

from protocol import errors
from protocol import messages as m
from server import physics, rules
from server.rooms import bot_turns
from server.rooms.bot_turns import BotSteps
from server.rooms.bots import Aiming, BotWake, Thought
from server.rooms.clocking import ClockSteps
from server.rooms.model import (
    ALL_TIMERS,
    Aim,
    AimFlush,
    Bind,
    Choosing,
    ClockOut,
    ClockWarning,
    Close,
    CloseMember,
    CrowdFlush,
    Effect,
    Finished,
    Grace,
    InFlight,
    Input,
    LagChoiceOut,
    Lagging,
    LagOut,
    PendingLag,
    PendingShot,
    Playing,
    Relay,
    RoomState,
    Seat,
    SeatFreed,
    SeatTaken,
    SimJob,
    Simulate,
    Simulated,
    Stop,
    TimerFired,
    TimerName,
    Unbind,
    Waiting,
)
from server.rooms.naming import Naming, refuse_kept_lookalike
from server.rooms.seams import (
    Abandon,
    Enter,
    Gone,
    Member,
    Rated,
    Reattach,
    Rejoin,
    Request,
    SeatBots,
    SeatComputer,
    SeatPair,
    Shutdown,
    Tell,
    Walkover,
)
from server.rooms.seating import Seating
from server.rooms.shots import SimResult
from server.rooms.table import (
    TableError,
    apply_action,
    complete_shot,
    place_cue_ball,
    prepare_shot,
    seat_player,
)
from server.rooms.views import final_view, shot_report_view, verdict_view
from server.rooms.walkover import Walkovers


def step(state: RoomState, event: Input, now: float) -> tuple[RoomState, list[Effect]]:
    """The room's next state and what should happen, for one input at wall time `now`.
    Raises `TableError` (and changes nothing) when a member's request is refused."""
    tx = _Tx(state, now)
    tx.handle(event)
    state, effects = tx.finish()
    # A computer player newly asked to act is asked (`server.rooms.bot_turns`).
    return bot_turns.ask(state, effects, now, tx.bot_attempt)


class _Tx(Seating, Naming, BotSteps, ClockSteps, Walkovers):
    """One step in the making (see `server.rooms.working`): the transitions."""

    # --- dispatch -------------------------------------------------------------------------

    def handle(self, event: Input) -> None:
        if isinstance(event, Request):
            self.request(event.client, event.message)
        elif isinstance(event, Simulated):
            self.simulated(event.results)
        elif isinstance(event, TimerFired):
            self.timer_fired(event.timer)
        elif isinstance(event, Enter):
            self.enter(event.client, event.request_id, event.role)
        elif isinstance(event, Reattach):
            self.reattach(event.client, None)
        elif isinstance(event, Gone):
            self.gone(event.client)
        elif isinstance(event, SeatPair):
            self.seat_pair(event)
        elif isinstance(event, SeatBots):
            self.seat_bots(event)
        elif isinstance(event, SeatComputer):
            self.seat_computer(event)
        elif isinstance(event, Walkover):
            if self.walkover(event):
                # No person seated (neither came, the bracket sent the better seed on; or
                # the winner is a computer): nobody is left to tell but whoever watches;
                # the room ends once they have gone.
                self.close_if_empty()
        elif isinstance(event, Thought):
            self.bot_thought(event)
        elif isinstance(event, Aiming):
            self.bot_aiming(event)
        elif isinstance(event, Rejoin):
            self.rejoin(event.client, event.role)
        elif isinstance(event, Shutdown):
            self.shutdown()
        elif isinstance(event, Rated):
            self.rated(event)
        elif isinstance(event, Abandon | Tell):  # the actor alone carries these out
            pass

    # --- membership -------------------------------------------------------------------------

    def enter(self, member: Member, request_id: int, role: m.Role) -> None:
        if member in self.members():
            raise TableError(errors.ALREADY_IN_ROOM, "already in this room")
        room, code = self.state.id, self.state.code
        seated = self.seat_of_player(member.player) is not None
        if role == "player" and not seated and self.one_match_over():
            # A tournament's match already over (a player come after the no-show time ran
            # out, say): nothing to sit down to; they see how it ended, as anyone watching.
            # Seated, the log said they lost by not coming, then that they sat down.
            role = "spectator"
        if role == "player":
            if self.seat_of_player(member.player) is not None:
                self.reattach(member, request_id)
                return
            free = [i for i, s in enumerate(self.seats) if s is None]
            reserved = self.state.settings.reserved
            if reserved:
                # A tournament's match: each player has their own seat, nobody else one.
                if member.player not in reserved:
                    raise TableError(
                        errors.ROOM_FULL, "the seats are kept for this match's players"
                    )
                free = [reserved.index(member.player)]
                refuse_kept_lookalike(self.state, member.player, member.name)
            if not free:
                raise TableError(errors.ROOM_FULL, "both seats are taken")
            index = free[0]
            assert member.player is not None
            self.seats[index] = Seat(player=member.player, name=member.name, member=member)
            self.note_seated(member.player)
            self.out += [SeatTaken(member.player), Bind(member)]
            self.send(
                member,
                m.Joined(
                    id=request_id,
                    room=room,
                    role="player",
                    seat=index,
                    code=code,
                    invite=self.invite,
                ),
            )
            self.commit([self.snapshot_event()])
            return
        if len(self.spectators) >= self.state.limits.spectator_cap:
            raise TableError(errors.SPECTATORS_FULL, "the room has no room for more spectators")
        self.out.append(Bind(member))
        self.send(
            member, m.Joined(id=request_id, room=room, role="spectator", seat=None, code=code)
        )
        self.spectators.append(member)
        # The newcomer gets the room as it is now, the others the new count (coalesced).
        self.send(member, self.own_snapshot(member))
        self.crowd_changed()

    def seat_pair(self, pair: SeatPair) -> None:
        if not isinstance(self.phase, Waiting) or any(s is not None for s in self.seats):
            raise TableError(errors.ROOM_FULL, "the room is taken")
        for index, (member, request_id) in enumerate((pair.first, pair.second)):
            assert member.player is not None
            self.seats[index] = Seat(member.player, member.name, member, ready=True)
            self.note_seated(member.player)
            self.out += [SeatTaken(member.player), Bind(member)]
            joined = m.Joined(
                id=request_id,
                room=self.state.id,
                role="player",
                seat=index,
                code=self.state.code,
                invite=self.invite,
            )
            self.send(member, joined)
        events: list[m.ServerMessage] = [self.snapshot_event()]
        events += self.start_match()
        self.commit(events)

    def reattach(self, member: Member, request_id: int | None) -> None:
        index = self.seat_of_player(member.player)
        if index is None:
            # The seat was given up meanwhile; the member is simply not in a room.
            self.out.append(Unbind(member))
            return
        seat = self.seats[index]
        assert seat is not None
        previous = seat.member
        away = previous is None  # not when taking over from a connection still open
        if previous is not None and previous is not member:
            self.out += [
                Unbind(previous),
                CloseMember(previous, 1000, "replaced by a newer connection"),
            ]
        self.seats[index] = replace(seat, member=member, grace_until=None)
        renamed = self.rename(index, member.name)  # a guest who made an account, say
        self.cancel(Grace(index))
        # The rating is looked up anew: the player may have come back as an account, under
        # a new name or the same (a guest who signed up, logged in).
        self.out += [SeatTaken(seat.player), Bind(member)]
        if request_id is not None:
            joined = m.Joined(
                id=request_id,
                room=self.state.id,
                role="player",
                seat=index,
                code=self.state.code,
                invite=self.invite,
            )
            self.send(member, joined)
        turn = self.turn_seat() == index
        if turn:
            self.resume_clock()
        lag_again = self.lag_clock_on_return()
        # The returning player gets the room as it is now (a shot in flight included),
        # everyone else the presence event, with the clock running again if it is theirs,
        # and the room anew if the player came back under another name, or the lag's time
        # runs again.
        events: list[m.ServerMessage] = [self.presence(index, True, clock=turn)] if away else []
        events += [self.snapshot_event()] if renamed or lag_again else []
        if events:
            self.commit(events, exclude=member)
        self.send(member, self.own_snapshot(member))

    def rejoin(self, member: Member, role: m.Role) -> None:
        index = self.seat_of_player(member.player)
        if index is not None:
            seat = self.seats[index]
            if seat is not None and seat.member is not None and seat.member is not member:
                # The player is back already on another connection (through another node):
                # that one keeps the seat; this older one is let go.
                self.out += [
                    Unbind(member),
                    CloseMember(member, 1000, "replaced by a newer connection"),
                ]
                return
        if role == "player" or index is not None:
            self.reattach(member, None)
            return
        newcomer = member not in self.spectators
        if newcomer:
            self.out.append(Bind(member))
            self.spectators.append(member)
        self.send(member, self.own_snapshot(member))
        if newcomer:
            self.crowd_changed()

    def gone(self, member: Member) -> None:
        if member in self.spectators:
            self.spectators.remove(member)
            self.out.append(Unbind(member))
            self.crowd_changed()
            self.close_if_empty()
            return
        index = self.seat_of(member)
        if index is None:
            return
        if self.one_match_over():  # nothing to come back to (`server.rooms.walkover`)
            self.free_seat(index)
            self.commit([self.snapshot_event()])
            self.close_if_empty()
            return
        seat = self.seats[index]
        assert seat is not None
        self.seats[index] = replace(seat, member=None, grace_until=self.grace_deadline())
        self.timer(Grace(index), self.state.limits.grace)
        turn = self.turn_seat() == index
        if turn:
            self.pause_clock()
        self.commit([self.presence(index, False, clock=turn)])

    def leave(self, member: Member, request_id: int) -> None:
        if member in self.spectators:
            self.spectators.remove(member)
            self.out.append(Unbind(member))
            self.ok(member, request_id)
            self.crowd_changed()
            self.close_if_empty()
            return
        index = self.seat_of(member)
        if index is None:
            raise TableError(errors.NOT_IN_ROOM, "not in this room")
        events: list[m.ServerMessage] = []
        phase = self.phase
        if isinstance(phase, Playing) and not phase.table.state.match_over:
            step = apply_action(phase.table, rules.Concede(by=seat_player(index), what="match"))
            events += self.after_step(step, "concede_match", index)
        elif isinstance(phase, Lagging | Choosing):
            self.back_to_waiting()
        self.ok(member, request_id)
        self.out.append(Unbind(member))
        self.free_seat(index)
        events.append(self.snapshot_event())
        self.commit(events)
        self.close_if_empty()

    def free_seat(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None:
            return
        self.seats[index] = None
        self.cancel(Grace(index))
        if seat.bot is None:
            self.out.append(SeatFreed(seat.player))
        self.seats = [None if s is None else replace(s, ready=False) for s in self.seats]
        if isinstance(self.phase, Finished):
            self.phase = replace(self.phase, rematch=frozenset())

    def close_if_empty(self) -> None:
        # A computer keeps no room open for itself, but an exhibition runs its match out.
        people = any(s is not None and s.bot is None for s in self.seats)
        if people or self.spectators or bot_turns.is_exhibition(self.current()):
            return
        self.end_room()

    def end_room(self) -> None:
        self.closed = True
        self.dirty = True
        for name in ALL_TIMERS:
            self.cancel(name)
        # Nothing played: there is no replay worth keeping. A tournament's room is kept all
        # the same (a match conceded at once): its record says how the match ended.
        self.out.append(Close(retire=self.shots > 0 or bool(self.state.settings.reserved)))

    def shutdown(self) -> None:
        self.pause_clock()
        self.dirty = True
        for name in ALL_TIMERS:
            self.cancel(name)
        self.out += [CloseMember(c, 1001, "server shutting down") for c in self.members()]
        self.out.append(Stop())

    # --- requests ---------------------------------------------------------------------------

    def request(self, member: Member, message: m.ClientMessage) -> None:
        if isinstance(message, m.Leave):
            self.leave(member, message.id)
            return
        if member not in self.members():
            raise TableError(errors.NOT_IN_ROOM, "not in this room")
        if isinstance(message, m.Resync):
            self.send(member, msgspec.structs.replace(self.own_snapshot(member), id=message.id))
            return
        if isinstance(message, m.Chat):
            self.chat(member, message)
            return
        if isinstance(message, m.Sit):
            self.sit(member, message)
            return
        seat = self.seat_of(member)
        if seat is None:
            raise TableError(errors.NOT_A_PLAYER, "spectators cannot act on the table (O1)")
        if isinstance(message, m.Ready):
            self.ready(member, seat, message)
        elif isinstance(message, m.Rematch):
            self.rematch(member, seat, message)
        elif isinstance(message, m.LagShot):
            self.lag_shot(member, seat, message)
        elif isinstance(message, m.LagChoice):
            self.lag_choice(member, seat, message)
        else:
            self.table_request(member, seat, message)

    def chat(self, member: Member, message: m.Chat) -> None:
        seat = self.seat_of(member)
        event = m.ChatRelay(
            room=self.state.id,
            seq=self.next_seq(),
            seat=seat,
            # A player speaks under the seat's name, the name the table shows.
            name=self.name(seat) if seat is not None else member.name,
            text=message.text,
        )
        self.ok(member, message.id)
        self.commit([event])

    def ready(self, member: Member, index: int, message: m.Ready) -> None:
        if not isinstance(self.phase, Waiting):
            raise TableError(errors.INVALID_ACTION, "the match has already started")
        seat = self.seats[index]
        assert seat is not None
        self.seats[index] = replace(seat, ready=message.ready)
        self.ok(member, message.id)
        if all(s is not None and s.ready for s in self.seats):
            self.commit([self.snapshot_event(), *self.start_match()])
        else:
            # A toggle alone is no game information: sent, not stored, no new seq.
            self.broadcast_only(self.snapshot_message(self.seq))

    def rematch(self, member: Member, index: int, message: m.Rematch) -> None:
        if not isinstance(self.phase, Finished):
            raise TableError(errors.MATCH_NOT_OVER, "a rematch needs a finished match")
        if self.state.settings.reserved:
            raise TableError(errors.INVALID_ACTION, "a tournament's match has no rematch")
        self.phase = replace(self.phase, rematch=self.phase.rematch | {index})
        self.ok(member, message.id)
        events: list[m.ServerMessage] = []
        if len(self.phase.rematch) == 2 and all(s is not None for s in self.seats):
            events += self.start_match()
        else:
            events.append(self.snapshot_event())
        self.commit(events)

    # --- the table ----------------------------------------------------------------------------

    def table_request(self, member: Member, index: int, message: m.ClientMessage) -> None:
        phase = self.phase
        if isinstance(phase, Finished) or (
            not isinstance(phase, Waiting) and phase.table.state.match_over
        ):
            raise TableError(errors.MATCH_OVER, "the match is over")
        if not isinstance(phase, Playing):
            raise TableError(errors.NOT_STARTED, "the match has not started")
        table = phase.table
        by = seat_player(index)
        if isinstance(message, m.Shot):
            self.shot(member, index, message, phase)
        elif isinstance(message, m.Place):
            self.phase = replace(phase, table=place_cue_ball(table, by, message.pos))
            self.ok(member, message.id)
            event = m.Placed(room=self.state.id, seq=self.next_seq(), seat=index, pos=message.pos)
            self.commit([event])
        elif isinstance(message, m.Aim):
            # A push-out is said only where one may be played (R6).
            self.aim_at(index, message, message.push_out and table.state.push_out_allowed)
        elif isinstance(message, m.Choose):
            step = apply_action(table, rules.Choose(by=by, choice=message.choice))
            self.ok(member, message.id)
            self.commit(self.after_step(step, f"choose_{message.choice}", index))
        elif isinstance(message, m.Concede):
            step = apply_action(table, rules.Concede(by=by, what=message.what))
            self.ok(member, message.id)
            self.commit(self.after_step(step, f"concede_{message.what}", index))
        elif isinstance(message, m.Stalemate):
            if message.action == "accept" and table.state.stalemate_proposed_by in (None, by):
                raise TableError(errors.NO_STALEMATE_PROPOSAL, "no proposal from the opponent")
            step = apply_action(table, rules.Stalemate(by=by, action=message.action))
            self.ok(member, message.id)
            self.commit(self.after_step(step, f"stalemate_{message.action}", index))
        elif isinstance(message, m.Extend):
            self.extend(member, index, message, phase)
        else:
            raise TableError(
                errors.INVALID_ACTION, f"{type(message).__name__} is not a room action"
            )

    def aim_at(self, index: int, message: m.Aim, push_out: bool) -> None:
        if self.turn_seat() != index:
            raise TableError(errors.NOT_YOUR_TURN, "only the player to shoot can aim")
        pending = m.AimRelay(
            room=self.state.id,
            seat=index,
            angle=message.angle,
            speed=message.speed,
            tip=message.tip,
            elevation=message.elevation,
            cue=message.cue,
            push_out=push_out,
        )
        self.aim = replace(self.aim, pending=pending)
        wait = self.aim.last_sent + self.state.limits.aim_interval - self.now
        if wait <= 0:
            self.flush_aim()
        elif not self.aim.flush_scheduled:
            self.aim = replace(self.aim, flush_scheduled=True)
            self.timer(AimFlush(), wait)

    def flush_aim(self) -> None:
        pending = self.aim.pending
        self.aim = replace(self.aim, flush_scheduled=False)
        if pending is None:
            return
        self.aim = Aim(pending=None, last_sent=self.now, flush_scheduled=False)
        shooter = self.seats[pending.seat]
        self.out.append(Relay(pending, shooter.member if shooter is not None else None))

    def shot(self, member: Member, index: int, message: m.Shot, phase: Playing) -> None:
        shot = physics.Shot(
            angle=message.angle, speed=message.speed, tip=message.tip, elevation=message.elevation
        )
        balls, shot = prepare_shot(phase.table, seat_player(index), shot, message.push_out)
        self.pending = PendingShot(member, index, message, balls, shot)
        self.out.append(Simulate((SimJob(balls, shot),)))

    def shot_simulated(
        self, pending: PendingShot, phase: Playing, results: tuple[SimResult, ...]
    ) -> None:
        (result,) = results
        message, index = pending.message, pending.seat
        step = complete_shot(
            phase.table, seat_player(index), message.push_out, result.final, result.report
        )
        self.note_rack(phase.table.state, index, step.verdict, at_table=True, shot=True)
        self.ok(pending.member, message.id)
        self.stop_clock()
        self.aim = replace(self.aim, pending=None)
        self.phase = Playing(step.table)
        self.shots += 1
        # The next player's clock starts once the shot has played out on every screen.
        self.start_next_turn(step.verdict, result.duration)
        shot_result = m.ShotResult(
            room=self.state.id,
            seq=self.next_seq(),
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
            table=self.table_view(),
            final=final_view(result),
        )
        events: list[m.ServerMessage] = [shot_result, *self.consequences(step, index)]
        self.inflight = InFlight(shot_result, self.now)
        self.commit(events)

    def simulated(self, results: tuple[SimResult, ...]) -> None:
        pending, phase = self.pending, self.phase
        self.pending = None
        if isinstance(pending, PendingShot) and isinstance(phase, Playing):
            self.shot_simulated(pending, phase, results)
        elif isinstance(pending, PendingLag) and isinstance(phase, Lagging):
            self.lag_simulated(pending, phase, results)

    # --- timers and the shot clock ----------------------------------------------------------

    def timer_fired(self, name: TimerName) -> None:
        if isinstance(name, AimFlush):
            self.flush_aim()
        elif isinstance(name, CrowdFlush):
            self.flush_crowd()
        elif isinstance(name, Grace):
            self.grace_over(name.seat)
        elif isinstance(name, ClockWarning):
            self.clock_warning()
        elif isinstance(name, ClockOut):
            self.clock_expired()
        elif isinstance(name, BotWake):
            self.bot_wake()
        elif isinstance(name, LagOut):
            self.lag_out()
        elif isinstance(name, LagChoiceOut) and isinstance(self.phase, Choosing):
            # Nobody chose in time (the winner may have gone): the winner breaks (O6).
            self.commit(self.decide_first_break(self.phase.winner, late=True))

    def grace_over(self, index: int) -> None:
        seat = self.seats[index]
        if seat is None or seat.member is not None:
            return
        events: list[m.ServerMessage] = []
        phase = self.phase
        if isinstance(phase, Playing) and not phase.table.state.match_over:
            step = apply_action(phase.table, rules.Forfeit(by=seat_player(index)))
            events += self.after_step(step, "forfeit", index)
            while not self.people() and isinstance(self.phase, Playing):
                # Nobody is left in the room (the other player away too, no spectator):
                # a new grace period would wait for nobody, and the room would sit in the
                # lobby for race-to grace periods. Every game left is forfeited now (O5,
                # game by game), so the room closes once the last seat's grace runs out.
                step = apply_action(self.phase.table, rules.Forfeit(by=seat_player(index)))
                events += self.after_step(step, "forfeit", index)
            if isinstance(self.phase, Playing):
                # O5 "game" forfeits one game; the absent player gets a new grace period.
                self.seats[index] = replace(seat, grace_until=self.grace_deadline())
                self.timer(Grace(index), self.state.limits.grace)
                if self.turn_seat() == index:
                    self.pause_clock()
                events.append(self.snapshot_event())
                self.commit(events)
                return
        if isinstance(self.phase, Lagging | Choosing):
            self.back_to_waiting()
        self.free_seat(index)
        events.append(self.snapshot_event())
        self.commit(events)
        self.close_if_empty()
