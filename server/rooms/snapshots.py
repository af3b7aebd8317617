"""A room's state as others see it: the snapshot and lobby entry sent on the wire, and the
record the store keeps (and the state brought back from it). Pure functions of the state
and the wall time `now`."""

from __future__ import annotations

from dataclasses import replace
from typing import Literal

import msgspec

from protocol import messages as m
from server import physics, rules
from server.players.results import MatchResult, RackResult
from server.rooms.bots import BotMember, BotWake
from server.rooms.model import (
    Choosing,
    Clock,
    Finished,
    Grace,
    History,
    LagChoiceOut,
    Lagging,
    Limits,
    Phase,
    Playing,
    RackTally,
    Restored,
    RoomRecord,
    RoomState,
    Seat,
    SeatRecord,
    StartTimer,
    Waiting,
    lag_choice_seconds,
)
from server.rooms.shots import SimResult
from server.rooms.table import Table, player_seat
from server.rooms.views import table_view


def rules_settings(settings: m.RoomSettings) -> rules.Settings:
    """The referee's part of a room's settings: the race, the break order, R14, O5 and
    the shot clock's format (O3)."""
    return rules.Settings(
        race_to=settings.race_to,
        break_order=settings.break_order,
        stalemate_innings=settings.stalemate_innings,
        forfeit=settings.forfeit,
        shot_clock=settings.shot_clock,
        first_shot_clock=settings.first_shot_clock,
        extensions=settings.extensions,
        extension_seconds=settings.extension_seconds,
        clock_warning=settings.clock_warning,
    )


def clock_of(state: RoomState) -> Clock:
    return state.phase.clock if isinstance(state.phase, Playing) else Clock()


def extensions_left(state: RoomState) -> tuple[int, int]:
    """Each seat's extensions left in the rack, as the table's referee state counts them."""
    table = state.table
    if table is None:
        return (state.settings.extensions, state.settings.extensions)
    return rules.extensions_left(table.state)


def clock_view(state: RoomState) -> m.ClockView | None:
    settings = state.settings
    if settings.shot_clock is None:
        return None
    table = state.table
    allowed = rules.turn_clock(table.state) if table is not None else None
    clock = clock_of(state)
    deadline = None if clock.deadline is None else int(clock.deadline * 1000)
    return m.ClockView(
        seconds=allowed.seconds if allowed is not None else settings.shot_clock,
        deadline=deadline,
        paused=clock.deadline is None,
        extensions=list(extensions_left(state)),
        warning=settings.clock_warning,
        extension=rules.extension_seconds(rules_settings(settings)),
        first_after=allowed.first_after if allowed is not None else None,
        left=None if clock.deadline is not None else clock.left,
    )


def table_view_of(state: RoomState, now: float) -> m.TableView:
    table = state.table
    assert table is not None
    return table_view(table, clock_view(state))


def view(state: RoomState, now: float) -> m.RoomView:
    seats: list[m.SeatView | None] = [
        None
        if seat is None
        else m.SeatView(
            seat=index,
            player=seat.player,
            name=seat.name,
            connected=seat.member is not None,
            ready=seat.ready,
            grace_until=seat.grace_until,
            rating=seat.rating,
            provisional=seat.provisional,
            computer=seat.bot,
        )
        for index, seat in enumerate(state.seats)
    ]
    inflight = None
    if state.inflight is not None:
        offset = now - state.inflight.started
        if 0 <= offset < state.inflight.result.duration:
            inflight = m.InFlight(result=state.inflight.result, offset=offset)
    phase = state.phase
    table = state.table
    show_table = table is not None and not table.state.awaiting_lag
    return m.RoomView(
        room=state.id,
        settings=state.settings,
        code=state.code,
        status=state.status,
        seats=seats,
        spectators=len(state.spectators),
        table=table_view_of(state, now) if show_table else None,
        rematch=sorted(phase.rematch) if isinstance(phase, Finished) else [],
        lagged=sorted(seat for seat, _ in phase.shots) if isinstance(phase, Lagging) else [],
        inflight=inflight,
        lag_choice=phase.winner if isinstance(phase, Choosing) else None,
        lag_choice_until=(
            int(phase.until * 1000)
            if isinstance(phase, Choosing) and phase.until is not None
            else None
        ),
        match=state.match,
        lag_until=(
            int(phase.until * 1000)
            if isinstance(phase, Lagging) and phase.until is not None
            else None
        ),
    )


def snapshot(state: RoomState, seq: int, now: float) -> m.Snapshot:
    return m.Snapshot(room=state.id, seq=seq, now=int(now * 1000), view=view(state, now))


def info(state: RoomState) -> m.Info:
    table = state.table
    winner, loser, ended_by, winner_seat = _ending(state)
    return m.Info(
        room=state.id,
        name=state.settings.name,
        players=[s.name for s in state.seats if s is not None],
        computer=[s.bot for s in state.seats if s is not None],
        spectators=len(state.spectators),
        score=list(table.state.score) if table is not None else [0, 0],
        race_to=state.settings.race_to,
        status=state.status,
        rack=table.state.rack if table is not None and not table.state.awaiting_lag else 0,
        balls_left=sum(1 for ball in table.balls[1:] if ball is not None) if table else 9,
        settings=state.settings,
        ratings=[s.rating for s in state.seats if s is not None],
        provisional=[s.provisional for s in state.seats if s is not None],
        rated=state.settings.rated,
        winner=winner,
        loser=loser,
        ended_by=ended_by,
        winner_seat=winner_seat,
        away=[s.bot is None and s.member is None for s in state.seats if s is not None],
    )


def _ending(
    state: RoomState,
) -> tuple[str | None, str | None, m.MatchEndReason | None, m.Seat | None]:
    """A finished match's winner and loser by name, as they sat (they may have left their
    seats since), how it ended, and the winner's seat: what the lobby says of it. Nothing
    before it ends."""
    phase = state.phase
    if not isinstance(phase, Finished) or not phase.table.state.match_over:
        return None, None, None, None
    winner = player_seat(phase.table.state.match_winner)
    if winner is None:
        return None, None, None, None
    seats = ["" if s is None else s.name for s in state.seats]
    names = [kept or seats[i] for i, kept in enumerate(phase.names)]
    ended_by = phase.table.state.match_ended_by
    return names[winner] or None, names[1 - winner] or None, ended_by, winner


def judge_lag(seat: int, result: SimResult) -> m.LagView:
    final = result.final.get(0)
    distance = result.lag_distance
    fault = ""
    code: Literal["", "off_table", "short"] = ""
    if final is None:
        fault, code = "the ball was pocketed or left the table", "off_table"
    elif distance is None:
        fault, code = "the ball did not reach the foot rail", "short"
    return m.LagView(
        seat=seat,
        traj=result.traj,
        duration=result.duration,
        final=final,
        distance=distance,
        fault=fault,
        fault_code=code,
    )


def late_lag(seat: int) -> m.LagView:
    """A lag not played in its time (O6): the ball never left its spot, and it does not
    count."""
    x, y = physics.lag_spot(seat)
    return m.LagView(
        seat=seat,
        traj=b"",
        duration=0.0,
        final=(x, y),
        distance=None,
        fault="the lag was not played in time",
        fault_code="late",
    )


def lag_winner(lags: list[m.LagView]) -> tuple[int | None, m.LagReason]:
    """O6: the lag whose ball stopped nearer the head cushion wins; a lag that does not
    count loses to one that does. Distances are compared to a tenth of a millimetre
    (`m.LAG_RESOLUTION`), finer than any eye at the table: equal at that, or neither
    counting, is a tie and the players lag again — with the reason, so they know why."""
    d0, d1 = (
        None if lag.distance is None else round(lag.distance / m.LAG_RESOLUTION) for lag in lags
    )
    if d0 is None and d1 is None:
        return None, "both_faults"
    if d0 is None or d1 is None:
        return (1 if d0 is None else 0), "fault"
    if d0 == d1:
        return None, "tie"
    return (0 if d0 < d1 else 1), "nearer"


# --- the store's record ------------------------------------------------------------------------


def record(state: RoomState, now: float) -> RoomRecord:
    clock = clock_of(state)
    clock_left = clock.left
    if clock.deadline is not None:
        clock_left = max(0.0, clock.deadline - now)
    phase = state.phase
    return RoomRecord(
        room=state.id,
        settings=state.settings,
        code=state.code,
        seed=state.seed,
        seq=state.seq,
        status=state.status,
        seats=[
            None
            if s is None
            else SeatRecord(player=s.player, name=s.name, ready=s.ready, bot=s.bot)
            for s in state.seats
        ],
        table=state.table,
        match=state.match,
        lag_shots=dict(phase.shots) if isinstance(phase, Lagging) else {},
        rematch=sorted(phase.rematch) if isinstance(phase, Finished) else [],
        extensions=list(extensions_left(state)),
        clock_left=clock_left,
        closed=state.closed,
        shots=state.shots,
        lag_winner=phase.winner if isinstance(phase, Choosing) else None,
        logged=state.logged,
        chat_logged=state.chat_logged,
        seated=list(state.seated),
        tally=None if state.tally == RackTally() else state.tally,
        rack_reports=[r for r in state.reports if isinstance(r, RackResult)],
        match_reports=[r for r in state.reports if isinstance(r, MatchResult)],
        ended_names=list(phase.names) if isinstance(phase, Finished) else [],
        kept_names=list(state.kept_names),
    )


def _table_of(record: RoomRecord) -> Table | None:
    """The record's table, its referee told the room's shot clock (O3): a record written
    before the referee counted extensions has them in `extensions` alone."""
    table = record.table
    if table is None:
        return None
    room = rules_settings(record.settings)
    settings = msgspec.structs.replace(
        table.state.settings,
        shot_clock=room.shot_clock,
        first_shot_clock=room.first_shot_clock,
        extensions=room.extensions,
        extension_seconds=room.extension_seconds,
        clock_warning=room.clock_warning,
    )
    allowed = settings.extensions
    left = [*record.extensions, allowed, allowed][:2]
    used = table.state.extensions_used
    counted = [min(allowed, max(used[i], allowed - left[i])) for i in (0, 1)]
    state = msgspec.structs.replace(
        table.state, settings=settings, extensions_used=(counted[0], counted[1])
    )
    return msgspec.structs.replace(table, state=state)


def _seat_names(record: RoomRecord) -> tuple[str, str]:
    """Who sits in each seat by the record ("": nobody): a finished match's players, as
    far as a record from before `ended_names` knows them."""
    first, second = ("" if s is None else s.name for s in (*record.seats, None, None)[:2])
    return first, second


def _phase_of(record: RoomRecord) -> Phase:
    table = _table_of(record)
    if record.status == "waiting" or table is None:
        return Waiting()
    if record.status == "lag":
        if record.lag_winner is not None:
            return Choosing(table, record.lag_winner)
        return Lagging(table, tuple(sorted(record.lag_shots.items())))
    if record.status == "finished":
        names = record.ended_names
        ended = (names[0], names[1]) if len(names) == 2 else _seat_names(record)
        return Finished(table, frozenset(record.rematch), names=ended)
    # A restored turn's clock waits, paused, for its player to come back.
    return Playing(table, Clock(left=record.clock_left))


def restore(record: RoomRecord, limits: Limits, now: float) -> Restored:
    """The room a record describes, as it resumes after a restart or on another node:
    nobody is connected yet, so every seated player gets the grace period (O5) to come
    back, and a lag winner still choosing gets the choice's whole time again. A
    tournament's room whose one match is over keeps nobody's seat (`server.rooms.walkover`):
    its grace periods end at once, so a player who connects again is not put back at an
    old table but goes on to the bracket's next one."""
    timers: list[StartTimer] = []
    seats: list[Seat | None] = []
    over = bool(record.settings.reserved) and record.status == "finished"
    grace = 0.0 if over else limits.grace
    for index, seat in enumerate(record.seats[:2]):
        if seat is None:
            seats.append(None)
            continue
        if seat.bot is not None:
            # A computer is back in its seat at once; its first step asks it (`BotWake`).
            member = BotMember(seat.player, seat.name, seat.bot)
            seats.append(Seat(seat.player, seat.name, member, seat.ready, None, bot=seat.bot))
            if not any(isinstance(timer.timer, BotWake) for timer in timers):
                timers.append(StartTimer(BotWake(), 0.0))
            continue
        grace_until = int((now + grace) * 1000)
        seats.append(Seat(seat.player, seat.name, None, seat.ready, grace_until))
        timers.append(StartTimer(Grace(index), grace))
    while len(seats) < 2:
        seats.append(None)
    phase = _phase_of(record)
    if isinstance(phase, Choosing):
        seconds = lag_choice_seconds(record.settings)
        timers.append(StartTimer(LagChoiceOut(), seconds))
        phase = replace(phase, until=now + seconds)
    state = RoomState(
        id=record.room,
        settings=record.settings,
        code=record.code,
        seed=record.seed,
        limits=limits,
        phase=phase,
        seq=record.seq,
        match=record.match,
        shots=record.shots,
        seats=(seats[0], seats[1]),
        closed=record.closed,
        logged=record.logged,
        chat_logged=record.chat_logged,
        seated=tuple(record.seated),
        tally=record.tally if record.tally is not None else RackTally(),
        reports=(*record.rack_reports, *record.match_reports),
        history=History(known=False),
        kept_names=tuple(record.kept_names),
    )
    return Restored(state, tuple(timers))


def with_limits(state: RoomState, limits: Limits) -> RoomState:
    return replace(state, limits=limits)
