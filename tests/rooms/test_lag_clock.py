"""O6: under a shot clock the lag is timed (`server.rooms.lagging`). A player who has not
lagged when its time runs out loses the lag to one who has and whose lag counts; neither
lagging, the room draws for the break; a late player who is away is waited for, as the
shot clock waits. Without a shot clock nothing is timed, the lag neither."""

from __future__ import annotations

import pytest

from protocol import errors
from protocol import messages as m
from server import physics
from server.rooms import snapshots
from server.rooms.model import (
    CancelTimer,
    Choosing,
    Lagging,
    LagOut,
    RoomState,
    Simulate,
    StartTimer,
    TimerFired,
    Waiting,
)
from server.rooms.seams import Gone, Reattach, Request
from server.rooms.table import TableError
from tests.rooms.test_machine import (
    ANA,
    BO,
    Person,
    broadcast,
    kinds,
    run,
    seated,
    sent,
    simulate,
)

#: The rooms' shot clock, and so the lag's time, here.
LAG_SECONDS = 30.0


def lagging(now: float = 1000.0, **settings: object) -> RoomState:
    state = seated(**{"shot_clock": int(LAG_SECONDS), **settings})
    state, _ = run(state, Request(ANA, m.Ready(id=2)), now)  # type: ignore[arg-type]
    state, _ = run(state, Request(BO, m.Ready(id=2)), now)  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging)
    return state


def lag_timer(effects: list[object]) -> float:
    (timer,) = [e for e in effects if isinstance(e, StartTimer) and e.timer == LagOut()]
    return timer.delay


@pytest.mark.parametrize(
    ("settings", "seconds"),
    [({"shot_clock": 20}, 20.0), ({"shot_clock": 20, "first_shot_clock": 45}, 45.0)],
)
def test_under_a_shot_clock_the_lag_has_a_first_shots_time(
    settings: dict[str, object], seconds: float
) -> None:
    state = seated(**settings)
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging)
    assert lag_timer(effects) == seconds
    assert state.phase.until == 1000.0 + seconds
    # Everyone sees when it runs out; the snapshot sent with the lag's start says so.
    (_, started) = broadcast(effects)
    assert isinstance(started, m.Snapshot)
    assert started.view.lag_until == int((1000.0 + seconds) * 1000)


def test_without_a_shot_clock_the_lag_is_not_timed_even_after_a_return() -> None:
    state = seated()
    state, _ = run(state, Request(ANA, m.Ready(id=2)))  # type: ignore[arg-type]
    state, effects = run(state, Request(BO, m.Ready(id=2)))  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.phase.until is None
    assert not [e for e in effects if isinstance(e, StartTimer) and e.timer == LagOut()]
    assert snapshots.view(state, 1000.0).lag_until is None
    state, _ = run(state, Gone(BO), 1010.0)  # type: ignore[arg-type]
    state, effects = run(state, Reattach(Person("p-bo", "Bo")), 1020.0)  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.phase.until is None
    assert not [e for e in effects if isinstance(e, StartTimer) and e.timer == LagOut()]


def test_a_player_who_has_not_lagged_in_time_loses_to_a_lag_that_counts() -> None:
    state = lagging()
    state, _ = run(state, Request(ANA, m.LagShot(id=3, speed=2.0)), 1010.0)  # type: ignore[arg-type]
    # Bo's time runs out: Ana's lag alone is simulated, nobody's request waits on it.
    state, effects = run(state, TimerFired(LagOut()), 1060.0)
    assert kinds(effects) == ["Simulate"]
    (job,) = next(e for e in effects if isinstance(e, Simulate)).jobs
    assert job.lag and job.balls == {0: physics.lag_spot(0)}
    state, effects = run(state, simulate(effects), 1060.0)
    assert sent(effects, ANA) == [] and sent(effects, BO) == []
    lag, snapshot = broadcast(effects)
    assert isinstance(lag, m.LagResult) and isinstance(snapshot, m.Snapshot)
    assert lag.method == "lag" and lag.winner == 0 and lag.reason == "fault"
    played, late = lag.lags
    assert played.seat == 0 and played.distance is not None and played.traj
    assert late.seat == 1 and late.fault_code == "late" and late.distance is None
    assert late.traj == b"" and late.duration == 0.0 and late.final == physics.lag_spot(1)
    assert isinstance(state.phase, Choosing) and state.phase.winner == 0
    assert snapshot.view.lag_until is None and snapshot.view.lag_choice == 0
    # Bo's lag comes too late: there is no lag to play any more.
    with pytest.raises(TableError) as refused:
        run(state, Request(BO, m.LagShot(id=4, speed=2.0)), 1061.0)  # type: ignore[arg-type]
    assert refused.value.code == errors.NO_LAG


def test_a_late_player_against_a_lag_that_does_not_count_lags_again() -> None:
    state = lagging()
    # Bo's lag is far too soft to reach the foot rail; Ana plays none.
    state, _ = run(state, Request(BO, m.LagShot(id=3, speed=0.4)), 1010.0)  # type: ignore[arg-type]
    state, effects = run(state, TimerFired(LagOut()), 1060.0)
    state, effects = run(state, simulate(effects), 1060.0)
    (lag, _) = broadcast(effects)
    assert isinstance(lag, m.LagResult) and lag.winner is None and lag.reason == "both_faults"
    assert [v.fault_code for v in lag.lags] == ["late", "short"]
    # Played again, timed again: its whole time after the lag has played out.
    assert isinstance(state.phase, Lagging) and state.phase.shots == ()
    duration = lag.lags[1].duration
    assert lag_timer(effects) == pytest.approx(duration + LAG_SECONDS)
    assert state.phase.until == pytest.approx(1060.0 + duration + LAG_SECONDS)


def test_neither_lagging_in_time_the_room_draws_for_the_break() -> None:
    state = lagging()
    state, effects = run(state, TimerFired(LagOut()), 1060.0)
    draw, _ = broadcast(effects)
    assert isinstance(draw, m.LagResult)
    assert draw.method == "draw" and draw.reason == "late" and draw.lags == []
    assert isinstance(state.phase, Choosing) and state.phase.winner == draw.winner
    assert kinds(effects)[0] == "Save"


def test_a_late_player_who_is_away_is_waited_for_and_has_the_whole_time_back() -> None:
    state = lagging()
    state, _ = run(state, Request(ANA, m.LagShot(id=3, speed=2.0)), 1010.0)  # type: ignore[arg-type]
    state, _ = run(state, Gone(BO), 1020.0)  # type: ignore[arg-type]
    state, effects = run(state, TimerFired(LagOut()), 1060.0)
    # Nothing is decided while Bo's grace period (O5) runs: the lag waits, and says so.
    assert isinstance(state.phase, Lagging) and state.phase.until is None
    (waiting,) = broadcast(effects)
    assert isinstance(waiting, m.Snapshot) and waiting.view.lag_until is None
    assert waiting.view.lagged == [0]
    back = Person("p-bo", "Bo")
    state, effects = run(state, Reattach(back), 1070.0)  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.phase.until == 1070.0 + LAG_SECONDS
    assert lag_timer(effects) == LAG_SECONDS
    # Ana's lag stands; the others hear the time run again.
    assert [seat for seat, _ in state.phase.shots] == [0]
    snapshot = [e for e in broadcast(effects) if isinstance(e, m.Snapshot)]
    assert snapshot and snapshot[0].view.lag_until == int((1070.0 + LAG_SECONDS) * 1000)


def test_a_player_who_goes_and_comes_back_in_time_changes_nothing_of_the_lags_time() -> None:
    state = lagging()
    assert isinstance(state.phase, Lagging)
    until = state.phase.until
    state, _ = run(state, Gone(BO), 1010.0)  # type: ignore[arg-type]
    state, effects = run(state, Reattach(Person("p-bo", "Bo")), 1020.0)  # type: ignore[arg-type]
    assert isinstance(state.phase, Lagging) and state.phase.until == until
    assert not [e for e in effects if isinstance(e, StartTimer) and e.timer == LagOut()]


def test_a_restored_lag_waits_for_every_player_who_has_not_lagged() -> None:
    state = lagging()
    state, _ = run(state, Request(ANA, m.LagShot(id=3, speed=2.0)), 1010.0)  # type: ignore[arg-type]
    restored = snapshots.restore(snapshots.record(state, 1010.0), state.limits, 2000.0).state
    assert isinstance(restored.phase, Lagging) and restored.phase.until is None
    assert snapshots.view(restored, 2000.0).lag_until is None
    # Ana (who has lagged) comes back first: the time waits for Bo still.
    restored, effects = run(restored, Reattach(Person("p-ana", "Ana")), 2001.0)  # type: ignore[arg-type]
    assert isinstance(restored.phase, Lagging) and restored.phase.until is None
    restored, effects = run(restored, Reattach(Person("p-bo", "Bo")), 2002.0)  # type: ignore[arg-type]
    assert isinstance(restored.phase, Lagging) and restored.phase.until == 2002.0 + LAG_SECONDS
    assert lag_timer(effects) == LAG_SECONDS


def test_leaving_during_the_lag_stops_its_time_and_a_stale_timer_does_nothing() -> None:
    state = lagging()
    state, effects = run(state, Request(BO, m.Leave(id=5)), 1010.0)  # type: ignore[arg-type]
    assert isinstance(state.phase, Waiting) and CancelTimer(LagOut()) in effects
    after, effects = run(state, TimerFired(LagOut()), 1060.0)
    assert after == state and effects == []


def test_a_lag_played_after_its_time_has_run_out_is_refused() -> None:
    state = lagging()
    assert isinstance(state.phase, Lagging) and state.phase.until is not None
    late = state.phase.until + 0.01  # its timer not yet handled
    with pytest.raises(TableError) as refused:
        run(state, Request(BO, m.LagShot(id=3, speed=2.0)), late)  # type: ignore[arg-type]
    assert refused.value.code == errors.NO_LAG
