"""The start of a match: the lag or the draw for the first break, and the winner's choice
of who breaks (R3, O6) — the room machine's transitions from `Waiting` to `Playing`.

Under a shot clock the lag is timed. Each player has the room's time for a first shot
(`first_shot_clock`, else its `shot_clock`) to play it; both play at once, so one clock
runs for both, from the moment the lag begins (after the last lag's animation when it is
played again). When it runs out (`LagOut`), a player who has not lagged has a lag that
does not count: the other's lag, played, decides as any lag that counts against one that
does not; if neither player has lagged, the room draws for the break as it would for a
room that chose the draw. A player at a real table who will not lag is lagged against
all the same; untimed, one who never lags would hold the match — and every table
waiting for it, the lobby's computers' exhibition among them — for good (docs/RULES.md,
O6). A room without a shot clock times no shot, and no lag either: its players take
their time (a first-timer against the computer, say).

A player who has not lagged and is away when the time runs out is waited for, as the
shot clock waits for a shooter who is away: their grace period (O5) decides — back in it,
they have the lag's whole time again; not back, their seat is freed and the match never
began. (The time runs on while they are away: one who comes back before it has run out
has what is left of it.) A room brought back after a restart waits the same way, untimed,
until every player who has not lagged is back. A lag that comes after the time has run
out is refused: the lag it was for is being decided.
"""

from __future__ import annotations

import random
from dataclasses import replace

from protocol import errors
from protocol import messages as m
from server import physics
from server.rooms import snapshots
from server.rooms.model import (
    Choosing,
    LagChoiceOut,
    Lagging,
    LagOut,
    PendingLag,
    Playing,
    SimJob,
    Simulate,
    Waiting,
    lag_choice_seconds,
)
from server.rooms.seams import Member
from server.rooms.shots import SimResult
from server.rooms.snapshots import rules_settings
from server.rooms.table import Table, TableError, decide_lag, new_table, rack_seed, seat_player
from server.rooms.working import Working


class LagSteps(Working):
    """The room machine's transitions of a match's start (`server.rooms.machine._Tx`)."""

    def start_match(self) -> list[m.ServerMessage]:
        """Both players are in and ready: the lag, or the draw and the first rack."""
        settings = self.state.settings
        self.match += 1
        self.inflight = None
        table = new_table(rules_settings(settings), self.state.seed, self.match, None)
        if settings.first_break == "lag":
            self.begin_lag(table, 0.0)
            return [self.snapshot_event()]
        return [self.draw(table, "draw"), self.snapshot_event()]

    def draw(self, table: Table, reason: m.LagReason) -> m.LagResult:
        """O6: a fair draw for the first break, from the room's seeded source."""
        winner = random.Random(rack_seed(self.state.seed, self.match, 0)).randrange(2)
        self.await_lag_choice(table, winner, 0.0)
        return m.LagResult(
            room=self.state.id,
            seq=self.next_seq(),
            method="draw",
            lags=[],
            winner=winner,
            table=None,
            reason=reason,
        )

    # --- the lag and its time ---------------------------------------------------------------

    def lag_seconds(self) -> float | None:
        """The time to play the lag: a first shot's under the room's shot clock (O3);
        None, untimed, without one."""
        settings = self.state.settings
        if settings.shot_clock is None:
            return None
        first = settings.first_shot_clock
        return float(first if first is not None else settings.shot_clock)

    def begin_lag(
        self, table: Table, delay: float, shots: tuple[tuple[int, m.LagShot], ...] = ()
    ) -> None:
        """The lag's time starts (after a lag's `delay` seconds of animation), whole."""
        allowed = self.lag_seconds()
        if allowed is None:
            self.phase = Lagging(table, shots)
            return
        seconds = delay + allowed
        self.phase = Lagging(table, shots, until=self.now + seconds)
        self.timer(LagOut(), seconds)

    def lag_shot(self, member: Member, index: int, message: m.LagShot) -> None:
        phase = self.phase
        if not isinstance(phase, Lagging):
            raise TableError(errors.NO_LAG, "no lag is being played")
        if phase.shot_of(index) is not None:
            raise TableError(errors.ALREADY_LAGGED, "the lag shot is already played")
        if phase.until is not None and self.now >= phase.until:
            raise TableError(errors.NO_LAG, "the lag's time has run out (O6)")
        shot = physics.Shot(
            angle=message.angle, speed=message.speed, tip=message.tip, elevation=0.0
        )
        try:
            physics.validate_shot(shot)
        except physics.ShotError as exc:
            raise TableError(errors.BAD_SHOT, exc.message) from None
        self.phase = replace(phase, shots=(*phase.shots, (index, message)))
        if len(self.phase.shots) < 2:
            self.ok(member, message.id)
            self.commit([self.snapshot_event()])
            return
        self.pending = PendingLag(member, message.id)
        self.out.append(Simulate(tuple(self.lag_job(self.phase, seat) for seat in (0, 1))))

    @staticmethod
    def lag_job(phase: Lagging, seat: int) -> SimJob:
        lag = phase.shot_of(seat)
        assert lag is not None
        shot = physics.Shot(angle=lag.angle, speed=lag.speed, tip=lag.tip)
        return SimJob({0: physics.lag_spot(seat)}, shot, lag=True)

    def lag_out(self) -> None:
        """The lag's time ran out (module docstring): the lag played decides, the draw
        when none was, and a player who has not lagged and is away is waited for."""
        phase = self.phase
        if not isinstance(phase, Lagging) or phase.until is None or len(phase.shots) == 2:
            return
        late = [seat for seat in (0, 1) if phase.shot_of(seat) is None]
        if any(self.away(index) for index in late):
            self.phase = replace(phase, until=None)
            self.commit([self.snapshot_event()])
            return
        if len(late) == 2:
            self.commit([self.draw(phase.table, "late"), self.snapshot_event()])
            return
        (missing,) = late
        self.pending = PendingLag(None, 0, late=missing)
        self.out.append(Simulate((self.lag_job(phase, 1 - missing),)))

    def away(self, index: int) -> bool:
        seat = self.seats[index]
        return seat is None or seat.member is None

    def lag_clock_on_return(self) -> bool:
        """A player came back: the lag's time runs again, whole, if it waited for them
        and nobody who has yet to lag is away now. Whether it did."""
        phase = self.phase
        if not isinstance(phase, Lagging) or phase.until is not None or not self.lag_seconds():
            return False
        if any(phase.shot_of(index) is None and self.away(index) for index in (0, 1)):
            return False
        self.begin_lag(phase.table, 0.0, phase.shots)
        return True

    def lag_simulated(
        self, pending: PendingLag, phase: Lagging, sims: tuple[SimResult, ...]
    ) -> None:
        self.shots += 1
        if pending.late is None:
            lags = [snapshots.judge_lag(seat, result) for seat, result in enumerate(sims)]
        else:
            (result,) = sims
            played = snapshots.judge_lag(1 - pending.late, result)
            lags = sorted([played, snapshots.late_lag(pending.late)], key=lambda lag: lag.seat)
        winner, reason = snapshots.lag_winner(lags)
        if pending.member is not None:
            self.ok(pending.member, pending.request_id)
        delay = max(r.duration for r in sims)
        self.cancel(LagOut())
        if winner is not None:
            self.await_lag_choice(phase.table, winner, delay)
        else:
            self.begin_lag(phase.table, delay)  # a tie: the lag is played again
        event = m.LagResult(
            room=self.state.id,
            seq=self.next_seq(),
            method="lag",
            lags=lags,
            winner=winner,
            table=None,
            reason=reason,
        )
        self.commit([event, self.snapshot_event()])

    # --- the winner's choice --------------------------------------------------------------

    def await_lag_choice(self, table: Table, winner: int, delay: float) -> None:
        """R3/O6: the winner now chooses who breaks; if no choice comes in time (`delay` is
        the lag's animation), the winner breaks."""
        seconds = delay + lag_choice_seconds(self.state.settings)
        self.phase = Choosing(table, winner, until=self.now + seconds)
        self.timer(LagChoiceOut(), seconds)

    def decide_first_break(self, breaker: int, late: bool = False) -> list[m.ServerMessage]:
        """The first break decided: by the winner's choice, or (`late`) by its time."""
        phase = self.phase
        assert isinstance(phase, Choosing)
        winner = phase.winner
        step = decide_lag(phase.table, seat_player(winner), seat_player(breaker))
        self.phase = Playing(phase.table)
        self.cancel(LagChoiceOut())
        events = self.after_step(step, "lag_choice", winner, late)
        return [*events, self.snapshot_event()]

    def lag_choice(self, member: Member, index: int, message: m.LagChoice) -> None:
        phase = self.phase
        if not isinstance(phase, Choosing):
            raise TableError(errors.NO_LAG_CHOICE, "there is no choice of the first breaker")
        if index != phase.winner:
            raise TableError(
                errors.NOT_YOUR_TURN, "the winner of the lag chooses who breaks (R3, O6)"
            )
        breaker = index if message.choice == "break" else 1 - index
        events = self.decide_first_break(breaker)
        self.ok(member, message.id)
        self.commit(events)

    def back_to_waiting(self) -> None:
        """A player left before the first break: the lag starts over; the match never began."""
        self.phase = Waiting()
        self.match = max(0, self.match - 1)
        self.cancel(LagOut())
        self.cancel(LagChoiceOut())
