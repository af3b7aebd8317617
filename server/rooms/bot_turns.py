"""When a computer player is to act, and how its decision becomes the requests a person's
client would send. Pure, like the room machine that calls it (`server.rooms.machine`).

After every step the machine asks `ask`: if the room's state now asks a bot seat to act
(its lag stroke, its choice of breaker, its turn at the table, a rematch), and that is a
new question, a `Think` effect goes out with what the bot sees (`server.bot.view_of`,
never the room's seed), its level, a seed drawn from the room's seed and the move, and
the pace (`delay`): the time left of the last shot (or of the lag's balls) on screen plus
`Limits.bot_pause`, so a spectator sees shots at a player's intervals and who won the lag,
and at least the rest of the pause between two games (`Limits.rack_pause`) before a break.
A stroke decided before its pace has run out is shown meanwhile as a person's aim would be
(`Aiming`, `BotSteps.bot_aiming`; a page still playing the last shot draws it after).
The question is remembered in the state (`RoomState.thinking`); an answer to any other
question is stale and dropped.

The shot clock runs for a bot as for anyone: if its answer does not come in time the
clock foul (O3) changes the table, and with it the question.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import replace

from protocol import errors
from protocol import messages as m
from server import bot, physics
from server.players.ratings import bot_rating
from server.rooms.bots import Aiming, BotMember, Think, ThinkKind, Thought, bot_name, bot_player
from server.rooms.lagging import LagSteps
from server.rooms.model import (
    Bind,
    Choosing,
    Close,
    Effect,
    Finished,
    Lagging,
    Playing,
    RoomState,
    Seat,
    SeatTaken,
    Simulate,
    Stop,
    Waiting,
    lag_choice_seconds,
)
from server.rooms.seams import Member, SeatBots, SeatComputer
from server.rooms.table import (
    Table,
    TableError,
    place_cue_ball,
    player_seat,
    prepare_shot,
    seat_player,
)

#: After this many questions asked again (decisions that failed or could not be played),
#: the bot plays at the beginner's level, whose search is the shortest.
FALLBACK_AFTER = 2
#: The wire's limits on a lag stroke's angle (`protocol.messages.LagShot`).
LAG_ANGLE_MAX = 10.0


def ask(
    state: RoomState, effects: list[Effect], now: float, attempt: int = 0
) -> tuple[RoomState, list[Effect]]:
    """The state and effects of a step, with a `Think` for a bot newly asked to act."""
    if any(isinstance(effect, Simulate) for effect in effects):
        return state, effects  # the bot's own shot is being simulated
    ending = any(isinstance(effect, Stop | Close) for effect in effects)
    think = None if ending else due(state, now, attempt)
    if think is None:
        return (
            (state, effects) if state.thinking is None else (replace(state, thinking=None), effects)
        )
    if think == state.thinking:
        return state, effects
    return replace(state, thinking=think), [*effects, think]


def is_exhibition(state: RoomState) -> bool:
    """Both seats hold computers: a match to watch."""
    return all(seat is not None and seat.bot is not None for seat in state.seats)


def due(state: RoomState, now: float, attempt: int = 0) -> Think | None:
    """What a seated bot is to do now, if anything."""
    if state.closed or state.pending is not None:
        return None
    bots = [
        index
        for index, seat in enumerate(state.seats)
        if seat is not None and seat.bot is not None and seat.member is not None
    ]
    if not bots:
        return None
    pause = state.limits.bot_pause
    phase = state.phase
    if isinstance(phase, Lagging):
        for index in bots:
            if phase.shot_of(index) is None:
                view = bot.view_of(phase.table, seat_player(index), lag="shoot")
                return _think(state, index, "lag", view, attempt, pause)
        return None
    if isinstance(phase, Choosing):
        if phase.winner in bots:
            view = bot.view_of(phase.table, seat_player(phase.winner), lag="choose")
            # After its pace from when the lag's balls stop on screens, not from the lag's
            # result: its choice and its break came while they still rolled, and the person
            # never saw who had won the lag, or by how much.
            wait = 2 * pause + _lag_rolling(state, phase, now)
            return _think(state, phase.winner, "lag_choice", view, attempt, wait)
        return None
    if isinstance(phase, Playing):
        table_state = phase.table.state
        turn = player_seat(table_state.turn)
        if table_state.match_over or turn not in bots or table_state.awaiting_lag:
            return None
        assert turn is not None
        view = bot.view_of(phase.table, seat_player(turn))
        wait = max(_on_screen(state, now) + pause, _racking(state, now))
        return _think(state, turn, "table", view, attempt, wait)
    if isinstance(phase, Finished):
        exhibition = is_exhibition(state)
        if state.settings.reserved and not exhibition:
            return None  # a tournament's match is one match: a computer asks no rematch
        for index in bots:
            if index in phase.rematch:
                continue
            other = 1 - index
            if exhibition or other in phase.rematch:
                wait = state.limits.exhibition_gap if exhibition and not phase.rematch else pause
                return _think(state, index, "rematch", None, attempt, wait)
    return None


def _lag_rolling(state: RoomState, phase: Choosing, now: float) -> float:
    """Seconds the lag's balls still roll on screens: the winner's time to choose began
    when they stopped (`Choosing.until` is that plus the choice's time). None when the
    computer does not pace its moves."""
    if phase.until is None or state.limits.bot_pause <= 0:
        return 0.0
    return max(0.0, phase.until - lag_choice_seconds(state.settings) - now)


def _racking(state: RoomState, now: float) -> float:
    """Seconds left of the pause between two games (`Limits.rack_pause`), in which
    everyone sees the result: a computer about to break waits for it like the breaker's
    clock does, unless it does not pace its shots."""
    until = state.racking_until
    if until is None or state.limits.bot_pause <= 0:
        return 0.0
    return max(0.0, until - now)


def _on_screen(state: RoomState, now: float) -> float:
    """Seconds the last shot still plays on screens (none when the bot does not pace)."""
    inflight = state.inflight
    if inflight is None or state.limits.bot_pause <= 0:
        return 0.0
    return max(0.0, inflight.result.duration - (now - inflight.started))


def _think(
    state: RoomState,
    index: int,
    kind: ThinkKind,
    view: bot.BotView | None,
    attempt: int,
    delay: float,
) -> Think:
    seat = state.seats[index]
    assert seat is not None and seat.bot is not None
    level = seat.bot if attempt < FALLBACK_AFTER else 1
    return Think(
        seat=index,
        kind=kind,
        view=view,
        level=level,
        seed=decision_seed(state, index, kind, attempt),
        attempt=attempt,
        delay=max(0.0, delay),
    )


def decision_seed(state: RoomState, seat: int, kind: str, attempt: int) -> int:
    """The seed of one decision: the room's seed and the move, so a room brought back
    from its record decides as it would have."""
    table = state.table
    rack = table.state.rack if table is not None else 0
    text = f"bot:{state.seed}:{state.match}:{state.shots}:{rack}:{seat}:{kind}:{attempt}"
    digest = hashlib.sha256(text.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def requests_for(thought: Thought, table: Table | None) -> list[m.ClientMessage] | None:
    """The requests a client would send for this decision (id 0: a bot reads no answer),
    or None when the decision does not fit the question or the table refuses it."""
    decision, kind = thought.decision, thought.think.kind
    by = seat_player(thought.think.seat)
    if kind == "rematch":
        return [m.Rematch(id=0)]
    if table is None:
        return None
    if kind == "lag" and isinstance(decision, bot.LagShot):
        if not (0.0 < decision.speed <= 12.0 and abs(decision.angle) <= LAG_ANGLE_MAX):
            return None
        return [m.LagShot(id=0, speed=decision.speed, angle=decision.angle)]
    if kind == "lag_choice" and isinstance(decision, bot.LagChoice):
        return [m.LagChoice(id=0, choice=decision.choice)]
    if kind != "table":
        return None
    if isinstance(decision, bot.Choose):
        return [m.Choose(id=0, choice=decision.choice)] if table.state.choice_pending else None
    if not isinstance(decision, bot.Shot):
        return None
    angle = math.fmod(decision.angle, 360.0)
    stroke = physics.Shot(
        angle=angle, speed=decision.speed, tip=decision.tip, elevation=decision.elevation
    )
    requests: list[m.ClientMessage] = []
    try:
        if decision.place is not None:
            table = place_cue_ball(table, by, decision.place)
            requests.append(m.Place(id=0, pos=decision.place))
        prepare_shot(table, by, stroke, decision.push_out)
    except TableError:
        return None
    requests.append(
        m.Shot(
            id=0,
            angle=angle,
            speed=decision.speed,
            tip=decision.tip,
            elevation=decision.elevation,
            push_out=decision.push_out,
        )
    )
    return requests


class BotSteps(LagSteps):
    """The room machine's transitions for computer players (`server.rooms.machine._Tx`
    is one): seating them, playing a decision, waking a room brought back."""

    #: The bot's question is asked again (its answer failed or could not be played).
    bot_attempt = 0

    # The machine's own transitions, which a bot's decision goes through.
    def request(self, member: Member, message: m.ClientMessage) -> None:
        raise NotImplementedError

    def end_room(self) -> None:
        raise NotImplementedError

    def seat_bots(self, command: SeatBots) -> None:
        if not isinstance(self.phase, Waiting) or any(s is not None for s in self.seats):
            raise TableError(errors.ROOM_FULL, "the room is taken")
        for index, level in enumerate(command.levels):
            if level is not None:
                player, name = bot_player(index), bot_name(level)
                member: Member = BotMember(player, name, level)
                self.seats[index] = self.computer_seat(player, name, member, level)
                continue
            if command.person is None:
                raise TableError(errors.INVALID_ACTION, "a seat without a player")
            member, request_id = command.person
            assert member.player is not None
            self.seats[index] = Seat(member.player, member.name, member, ready=True)
            self.note_seated(member.player)
            self.out += [SeatTaken(member.player), Bind(member)]
            joined = m.Joined(
                id=request_id, room=self.state.id, role="player", seat=index, code=self.state.code
            )
            self.send(member, joined)
        self.commit([self.snapshot_event(), *self.start_match()])

    def computer_seat(self, player: str, name: str, member: Member, level: int) -> Seat:
        """A computer's seat, ready; in a rated room it shows the computer's fixed rating
        (`server.players.ratings`), the one the person's rating moves against."""
        rating = round(bot_rating(level)) if self.state.settings.rated else None
        return Seat(player, name, member, ready=True, rating=rating, bot=level)

    def seat_computer(self, command: SeatComputer) -> None:
        """A tournament's computer takes the seat kept for it (`SeatComputer`)."""
        reserved = self.state.settings.reserved
        if not 0 <= command.seat < len(reserved) or reserved[command.seat] != command.player:
            raise TableError(errors.ROOM_FULL, "that seat is not kept for this computer")
        seat = self.seats[command.seat]
        if seat is not None and seat.player == command.player:
            return  # seated already
        if not isinstance(self.phase, Waiting) or seat is not None:
            raise TableError(errors.ROOM_FULL, "the seat is taken")
        member: Member = BotMember(command.player, command.name, command.level)
        self.seats[command.seat] = self.computer_seat(
            command.player, command.name, member, command.level
        )
        if all(s is not None and s.ready for s in self.seats):
            self.commit([self.snapshot_event(), *self.start_match()])
        else:
            self.commit([self.snapshot_event()])

    def bot_thought(self, thought: Thought) -> None:
        """A computer player's decision, played as its client's requests would be (a
        decision for a question the room no longer asks is dropped)."""
        think = thought.think
        if think != self.state.thinking:
            return
        seat = self.seats[think.seat]
        if seat is None or seat.member is None or seat.bot is None:
            return
        alone = not self.spectators or bool(self.state.settings.reserved)
        if think.kind == "rematch" and alone and is_exhibition(self.state):
            # Nobody watches this exhibition, or it was a tournament's match (one match
            # only): it ends with its match (`server.rooms.lobby` starts another
            # exhibition when one is wanted).
            self.end_room()
            return
        requests = requests_for(thought, self.state.table)
        if requests is None:
            self.bot_attempt = think.attempt + 1
            return
        for request in requests:
            self.request(seat.member, request)

    def bot_aiming(self, aiming: Aiming) -> None:
        """A computer's stroke decided before its pace ran out: its aim is relayed as a
        person's is (the cue ball where it will be put down, with ball in hand), so whoever
        watches sees the shot lined up. Nothing for a question the room no longer asks,
        nor for any decision but a stroke at the table."""
        think, decision = aiming.think, aiming.decision
        seat = self.seats[think.seat]
        if think != self.state.thinking or think.kind != "table" or seat is None:
            return
        if not isinstance(decision, bot.Shot) or seat.member is None or seat.bot is None:
            return
        aim = m.Aim(
            id=0,
            angle=math.fmod(decision.angle, 360.0),
            speed=decision.speed,
            tip=decision.tip,
            elevation=decision.elevation,
            cue=decision.place,
            push_out=decision.push_out,
        )
        self.request(seat.member, aim)

    def bot_wake(self) -> None:
        """A room brought back with a bot seated: a bot's paused shot clock runs again
        (the bot is asked once the step is done)."""
        turn = self.turn_seat()
        seat = None if turn is None else self.seats[turn]
        if seat is not None and seat.bot is not None:
            self.resume_clock()
            self.dirty = True

    def people(self) -> list[Member]:
        """The members who are people (the seated computers left out)."""
        return [member for member in self.members() if not isinstance(member, BotMember)]
