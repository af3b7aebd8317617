"""The shot clock's transitions (O3): an extension asked for, the warning, the clock run
out. The room keeps the time (the clock's deadline is a value, its timers are effects);
the referee counts extensions and rules a clock foul — time is an input to both, never
read here.
"""

from __future__ import annotations

from dataclasses import replace

from protocol import messages as m
from server import rules
from server.rooms.model import Clock, Playing
from server.rooms.seams import Member
from server.rooms.table import TableError, apply_action, seat_player
from server.rooms.working import Working


class ClockSteps(Working):
    """The room machine's shot-clock transitions (`server.rooms.machine._Tx` is one)."""

    def extend(self, member: Member, index: int, message: m.Extend, phase: Playing) -> None:
        """O3: the referee counts the extension (per player per rack, refusing one too
        many); the room adds its seconds to the running, or paused, clock."""
        step = apply_action(phase.table, rules.Extension(by=seat_player(index)))
        extra = float(rules.extension_seconds(step.table.state.settings))
        clock = phase.clock
        if clock.deadline is not None:
            self.phase = Playing(step.table, Clock(deadline=clock.deadline + extra))
            self.arm_clock()
        else:
            left = None if clock.left is None else clock.left + extra
            self.phase = Playing(step.table, replace(clock, left=left))
        self.ok(member, message.id)
        event = m.Ruling(
            room=self.state.id,
            seq=self.next_seq(),
            by=index,
            action="extension",
            verdict=None,
            table=self.table_view(),
        )
        self.commit([event])

    def clock_warning(self) -> None:
        turn = self.turn_seat()
        clock = self.clock()
        if turn is None or clock.deadline is None:
            return
        self.set_clock(replace(clock, warned=True))
        seconds = self.state.settings.clock_warning
        event = m.Warning(
            room=self.state.id,
            seq=self.next_seq(),
            kind="clock",
            seat=turn,
            msg=f"{self.name(turn)}: {seconds} seconds left to shoot (O3)",
        )
        self.commit([event])

    def clock_expired(self) -> None:
        turn = self.turn_seat()
        phase = self.phase
        if turn is None or not isinstance(phase, Playing):
            return
        self.set_clock(Clock())
        try:
            step = apply_action(phase.table, rules.ClockExpired(by=seat_player(turn)))
        except TableError:
            self.restart_clock(0.0)
            return
        self.commit(self.after_step(step, "clock_expired", turn))
