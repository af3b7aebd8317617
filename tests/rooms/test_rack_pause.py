"""The pause between two games (`Limits.rack_pause`), driven through the pure machine:
everyone sees a game's result before the next break's shot clock starts, and a computer
about to break waits for it too."""

from __future__ import annotations

from dataclasses import replace

import pytest

from protocol import messages as m
from server.rooms import bot_turns
from server.rooms.model import (
    Choosing,
    ClockOut,
    Effect,
    Finished,
    Lagging,
    Playing,
    RoomState,
    StartTimer,
)
from server.rooms.seams import Request
from server.rooms.table import seat_player
from tests.rooms import test_bot_machine as bots
from tests.rooms.test_machine import ANA, BO, broadcast, playing, run
from tests.rooms.test_room_reports import crafted

NOW = 1000.0


def with_pause(state: RoomState, seconds: float) -> RoomState:
    return replace(state, limits=replace(state.limits, rack_pause=seconds))


def game_over(effects: list[Effect]) -> m.GameOver:
    (event,) = [e for e in broadcast(effects) if isinstance(e, m.GameOver)]
    return event


def clock_out(effects: list[Effect]) -> float:
    (delay,) = [e.delay for e in effects if isinstance(e, StartTimer) and e.timer == ClockOut()]
    return delay


def test_a_game_won_by_a_shot_is_shown_for_the_pause_once_the_shot_has_played_out() -> None:
    state = with_pause(playing(race_to=2, shot_clock=30), 6.0)
    state, effects = crafted(state, ANA, (9,))  # the 9 made on the break
    result = broadcast(effects)[0]
    assert isinstance(result, m.ShotResult) and result.duration > 0
    over = game_over(effects)
    assert over.winner == 0 and over.score == [1, 0]
    ends = NOW + result.duration + 6.0
    assert over.next_rack == int(ends * 1000)
    # The next break's clock starts when the pause ends, and every view says so.
    assert isinstance(state.phase, Playing) and state.phase.table.state.rack == 2
    assert clock_out(effects) == pytest.approx(result.duration + 6.0 + 30)
    assert result.table.clock is not None
    assert result.table.clock.deadline == int((ends + 30) * 1000)
    assert state.racking_until == pytest.approx(ends)


def test_a_conceded_game_is_shown_for_the_pause_and_the_break_may_come_sooner() -> None:
    state = with_pause(playing(race_to=3, shot_clock=30), 4.5)
    state, effects = run(state, Request(BO, m.Concede(id=5, what="game")), NOW)  # type: ignore[arg-type]
    over = game_over(effects)
    assert over.next_rack == int((NOW + 4.5) * 1000)
    assert clock_out(effects) == pytest.approx(4.5 + 30)
    (ruling,) = [e for e in broadcast(effects) if isinstance(e, m.Ruling)]
    assert ruling.table.clock is not None
    assert ruling.table.clock.deadline == int((NOW + 4.5 + 30) * 1000)
    # The breaker (the winner, Ana) need not wait for the pause to end.
    assert isinstance(state.phase, Playing) and state.phase.table.state.turn == seat_player(0)
    shot = m.Shot(id=6, angle=0.0, speed=9.0)
    _, effects = run(state, Request(ANA, shot), NOW + 1)  # type: ignore[arg-type]
    assert [type(e).__name__ for e in effects] == ["Simulate"]


def test_no_pause_is_announced_when_the_game_ends_the_match() -> None:
    state = with_pause(playing(race_to=1, shot_clock=30), 6.0)
    state, effects = run(state, Request(BO, m.Concede(id=5, what="game")), NOW)  # type: ignore[arg-type]
    assert game_over(effects).next_rack is None
    assert isinstance(state.phase, Finished)
    assert not [e for e in effects if isinstance(e, StartTimer) and e.timer == ClockOut()]


def test_without_a_pause_the_break_clock_starts_once_the_shot_has_played_out() -> None:
    state = with_pause(playing(race_to=2, shot_clock=30), 0.0)
    state, effects = crafted(state, ANA, (9,))
    result = broadcast(effects)[0]
    assert isinstance(result, m.ShotResult)
    assert game_over(effects).next_rack == int((NOW + result.duration) * 1000)
    assert clock_out(effects) == pytest.approx(result.duration + 30)


@pytest.mark.parametrize(("pause", "bot_pause", "waits"), [(6.0, 0.5, 6.0), (1.0, 0.5, 1.0)])
def test_a_computer_about_to_break_waits_for_the_pause(
    pause: float, bot_pause: float, waits: float
) -> None:
    """The person concedes a game on their turn; the computer, the winner, breaks next
    (`break_order` "winner") after the rest of the pause, or its own pace if longer."""
    state, effects = bots.against_bot(race_to=3, first_break="draw")
    state = replace(state, limits=replace(state.limits, rack_pause=pause, bot_pause=bot_pause))
    while isinstance(state.phase, Lagging | Choosing) or (
        isinstance(state.phase, Playing) and state.phase.table.state.turn != seat_player(0)
    ):
        if isinstance(state.phase, Choosing) and state.phase.winner == 0:
            state, effects = bots.run(state, Request(bots.ANA, m.LagChoice(id=8, choice="give")))
        elif isinstance(state.phase, Lagging) and state.phase.shot_of(0) is None:
            state, effects = bots.run(state, Request(bots.ANA, m.LagShot(id=6, speed=1.9)))
        else:
            state, effects = bots.settle(state, effects)[:2]
    assert isinstance(state.phase, Playing) and state.phase.table.state.rack == 1
    state, effects = bots.run(state, Request(bots.ANA, m.Concede(id=9, what="game")), NOW + 100)
    assert isinstance(state.phase, Playing) and state.phase.table.state.turn == seat_player(1)
    (think,) = bots.thinks(effects)
    assert think.kind == "table" and think.view is not None and think.view.state.is_break
    assert think.delay == pytest.approx(waits)
    # A computer that does not pace its shots (`bot_pause` 0) breaks as soon as it decides.
    quick = replace(state.limits, bot_pause=0.0)
    due = bot_turns.due(replace(state, limits=quick), NOW + 100)
    assert due is not None and due.delay == 0.0
