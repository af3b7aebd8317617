"""A room everybody has left is gone within the grace period, not race-to grace periods
later: the room machine, driven as a pure function (see `test_machine.py`)."""

from __future__ import annotations

from protocol import messages as m
from server.rooms.model import Close, Finished, Grace, Playing, SeatFreed, StartTimer, TimerFired
from server.rooms.seams import Enter, Gone
from tests.rooms.test_machine import ANA, BO, EVE, broadcast, playing, run


def test_when_nobody_is_left_the_grace_period_ends_the_match_and_the_room() -> None:
    state = playing(race_to=9)
    state, _ = run(state, Gone(ANA), now=1000.0)  # type: ignore[arg-type]
    state, _ = run(state, Gone(BO), now=1010.0)  # type: ignore[arg-type]
    # Ana's grace runs out with nobody in the room: every game left goes (O5, one by one).
    state, effects = run(state, TimerFired(Grace(0)), now=1061.0)
    events = broadcast(effects)
    forfeits = [e for e in events if isinstance(e, m.Ruling) and e.action == "forfeit"]
    assert len(forfeits) == 9
    over = [e for e in events if isinstance(e, m.MatchOver)]
    assert len(over) == 1 and over[0].winner == 1 and over[0].score == [0, 9]
    assert isinstance(state.phase, Finished)
    assert SeatFreed("p-ana") in effects and StartTimer(Grace(0), 60.0) not in effects
    assert not any(isinstance(e, Close) for e in effects)  # Bo's seat keeps its grace
    # Bo's grace runs out (his own 60 s): the room closes, and leaves the lobby.
    state, effects = run(state, TimerFired(Grace(1)), now=1071.0)
    assert state.closed and any(isinstance(e, Close) for e in effects)


def test_a_spectator_keeps_the_match_going_one_game_per_grace_period() -> None:
    state = playing(race_to=9)
    state, _ = run(state, Enter(EVE, 7, "spectator"))  # type: ignore[arg-type]
    state, _ = run(state, Gone(ANA), now=1000.0)  # type: ignore[arg-type]
    state, _ = run(state, Gone(BO), now=1010.0)  # type: ignore[arg-type]
    state, effects = run(state, TimerFired(Grace(0)), now=1061.0)
    forfeits = [e for e in broadcast(effects) if isinstance(e, m.Ruling)]
    assert len(forfeits) == 1  # somebody is watching: O5 as before, one game
    assert StartTimer(Grace(0), 60.0) in effects
    assert isinstance(state.phase, Playing) and state.phase.table.state.score == (0, 1)


def test_the_other_player_still_here_gets_one_game_per_grace_period() -> None:
    state = playing(race_to=9)
    state, _ = run(state, Gone(ANA), now=1000.0)  # type: ignore[arg-type]
    state, effects = run(state, TimerFired(Grace(0)), now=1061.0)
    assert len([e for e in broadcast(effects) if isinstance(e, m.Ruling)]) == 1
    assert StartTimer(Grace(0), 60.0) in effects
