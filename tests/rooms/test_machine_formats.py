"""The room machine under a match format: the time each turn is given by the referee (the
longer first shot after the break), the warning time, extensions counted by the referee and
added to the running or paused clock. Pure steps, no sockets: the live match is played in
`tests/server/test_match_formats_live.py`."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from protocol import errors
from protocol import messages as m
from server.rooms.machine import step
from server.rooms.model import (
    Broadcast,
    Choosing,
    ClockOut,
    ClockWarning,
    Effect,
    Limits,
    Playing,
    RoomState,
    Simulate,
    Simulated,
    StartTimer,
    TimerFired,
    new_room,
)
from server.rooms.seams import Enter, Request
from server.rooms.simulation import run_shot
from server.rooms.table import TableError

PRO = {"shot_clock": 30, "first_shot_clock": 60, "extensions": 1, "extension_seconds": 15}


@dataclass(eq=False)
class Person:
    player: str | None
    name: str


ANA, BO = Person("p-ana", "Ana"), Person("p-bo", "Bo")


def run(state: RoomState, event: object, now: float = 1000.0) -> tuple[RoomState, list[Effect]]:
    return step(state, event, now)  # type: ignore[arg-type]


def starts(effects: list[Effect]) -> dict[object, float]:
    return {e.timer: e.delay for e in effects if isinstance(e, StartTimer)}


def events(effects: list[Effect]) -> list[m.ServerMessage]:
    return [ev for e in effects if isinstance(e, Broadcast) for ev in e.events]


def playing(**settings: object) -> RoomState:
    """Ana (seat 0) to break, the room's settings as given."""
    room_settings = m.RoomSettings(first_break="draw", **settings)  # type: ignore[arg-type]
    state = new_room("room1", room_settings, 1234, None, Limits(grace=60.0))
    state, _ = run(state, Enter(ANA, 1, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Enter(BO, 1, "player"))  # type: ignore[arg-type]
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, _ = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Choosing)
    winner = ANA if state.phase.winner == 0 else BO
    choice = "break" if winner is ANA else "give"
    state, _ = run(state, Request(winner, m.LagChoice(id=3, choice=choice)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Playing) and state.phase.table.state.turn == "0"
    return state


def simulated(effects: list[Effect]) -> Simulated:
    (job,) = [e for e in effects if isinstance(e, Simulate)]
    return Simulated(
        tuple(
            run_shot(dict(j.balls), j.shot.angle, j.shot.speed, j.shot.tip, j.shot.elevation, j.lag)
            for j in job.jobs
        )
    )


def test_the_first_shot_after_the_break_gets_the_first_shot_clock() -> None:
    state = playing(**PRO, clock_warning=5)
    assert state.phase.clock.deadline == pytest.approx(1030.0)  # type: ignore[union-attr]
    state, effects = run(state, Request(ANA, m.Shot(id=9, angle=0.0, speed=9.0)))  # type: ignore[arg-type]
    state, effects = run(state, simulated(effects), now=1001.0)
    result = events(effects)[0]
    assert isinstance(result, m.ShotResult)
    clock = result.table.clock
    assert clock is not None and clock.seconds == 60 and clock.first_after == "break"
    assert (clock.warning, clock.extension, clock.extensions) == (5, 15, [1, 1])
    timers = starts(effects)
    assert timers[ClockOut()] == pytest.approx(result.duration + 60.0)
    assert timers[ClockWarning()] == pytest.approx(result.duration + 55.0)


def test_no_warning_timer_when_the_warning_is_off() -> None:
    state = playing(shot_clock=20, clock_warning=0)
    state, effects = run(state, Request(ANA, m.Extend(id=4)))  # type: ignore[arg-type]
    assert ClockOut() in starts(effects) and ClockWarning() not in starts(effects)


def test_the_warning_names_the_seat_and_the_player_with_the_room_s_time() -> None:
    state = playing(shot_clock=30, clock_warning=7)
    state, effects = run(state, TimerFired(ClockWarning()), now=1023.0)
    (warning,) = events(effects)
    assert isinstance(warning, m.Warning) and warning.kind == "clock" and warning.seat == 0
    assert warning.msg == "Ana: 7 seconds left to shoot (O3)"


def test_an_extension_is_counted_by_the_referee_and_adds_its_seconds_once() -> None:
    state = playing(**PRO)
    with pytest.raises(TableError) as refused:
        run(state, Request(BO, m.Extend(id=4)))  # type: ignore[arg-type]
    assert refused.value.code == errors.NOT_YOUR_TURN
    state, effects = run(state, Request(ANA, m.Extend(id=4)), now=1010.0)  # type: ignore[arg-type]
    assert isinstance(state.phase, Playing)
    assert state.phase.clock.deadline == pytest.approx(1045.0)  # 1030 + 15
    assert state.phase.table.state.extensions_used == (1, 0)
    assert starts(effects)[ClockOut()] == pytest.approx(35.0)
    (ruling,) = events(effects)
    assert isinstance(ruling, m.Ruling) and ruling.action == "extension" and ruling.by == 0
    assert ruling.table.clock is not None and ruling.table.clock.extensions == [0, 1]
    with pytest.raises(TableError) as none_left:
        run(state, Request(ANA, m.Extend(id=5)))  # type: ignore[arg-type]
    assert none_left.value.code == errors.NO_EXTENSIONS


def test_an_extension_after_the_warning_gives_the_turn_another_warning() -> None:
    state = playing(**PRO, clock_warning=10)
    state, _ = run(state, TimerFired(ClockWarning()), now=1020.0)
    state, effects = run(state, Request(ANA, m.Extend(id=4)), now=1021.0)  # type: ignore[arg-type]
    timers = starts(effects)
    assert timers[ClockOut()] == pytest.approx(24.0)  # 1030 + 15 - 1021
    assert timers[ClockWarning()] == pytest.approx(14.0)


def test_no_extension_without_a_clock() -> None:
    state = playing(extensions=3)
    with pytest.raises(TableError) as refused:
        run(state, Request(ANA, m.Extend(id=4)))  # type: ignore[arg-type]
    assert refused.value.code == errors.NO_SHOT_CLOCK
