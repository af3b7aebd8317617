"""Every decision nine-ball asks for gets its kind of answer, and a valid one."""

from __future__ import annotations

import msgspec
import pytest

from server import physics, rules
from server.bot import BotView, Choose, LagChoice, LagShot, Shot, decide, view_of
from server.rooms.table import new_table
from tests.bot.positions import PLAYERS, mid_game, view

R = physics.TABLE.ball_radius


def test_break_places_the_cue_ball_in_the_kitchen() -> None:
    table = new_table(rules.Settings(race_to=1), seed=3, match=1, breaker="0")
    for level in (1, 3, 5):
        decision = decide(view_of(table, "0"), level, seed=11)
        assert isinstance(decision, Shot)
        assert decision.place is not None and not decision.push_out
        others = {b: p for b, p in enumerate(table.balls) if p is not None and b != 0}
        physics.check_placement(others, decision.place, kitchen=True)
        assert decision.speed >= 6.0, "a break is struck hard"


@pytest.mark.parametrize("level", [1, 3, 5])
def test_ball_in_hand_is_placed_legally(level: int) -> None:
    balls = {0: (1.0, 0.6), 3: (1.9, 0.9), 5: (0.7, 0.3), 9: (2.2, 0.2)}
    state = mid_game((3, 5, 9), turn="0", ball_in_hand=True)
    decision = decide(view(state, balls), level, seed=5)
    assert isinstance(decision, Shot) and decision.place is not None
    physics.check_placement({b: p for b, p in balls.items() if b}, decision.place, kitchen=False)


def test_without_ball_in_hand_nothing_is_placed() -> None:
    balls = {0: (1.0, 0.6), 3: (1.9, 0.9), 9: (2.2, 0.2)}
    decision = decide(view(mid_game((3, 9)), balls), 3, seed=1)
    assert isinstance(decision, Shot) and decision.place is None


def _after_break(turn_pocketed: bool) -> rules.MatchState:
    start = rules.new_match(rules.Settings(race_to=1), PLAYERS, "0")
    pocketed = (2,) if turn_pocketed else ()
    action = rules.ShotAction(by="0", first=1, rails=(3, 4, 5, 6), pocketed=pocketed, off_table=())
    return rules.apply(start, action).state


def test_pushes_out_when_the_lowest_ball_is_hidden() -> None:
    """Right after the break, with the 1 frozen behind a wall of balls and nothing to hit
    straight, a push-out is better than a kick."""
    state = _after_break(turn_pocketed=False)
    assert state.turn == "1" and state.push_out_allowed
    wall = {3: (1.55, 0.50), 4: (1.55, 0.56), 5: (1.55, 0.62), 6: (1.55, 0.68), 7: (1.55, 0.74)}
    balls = {0: (1.2, 0.62), 1: (2.49, 0.62), **wall, 8: (1.6, 0.44), 9: (1.6, 0.8)}
    on_table = tuple(sorted(b for b in balls if b))
    state = _with_balls(state, on_table)
    decision = decide(view(state, balls, me="1"), 4, seed=2)
    assert isinstance(decision, Shot)
    assert decision.push_out


def _with_balls(state: rules.MatchState, on_table: tuple[int, ...]) -> rules.MatchState:
    return msgspec.structs.replace(state, on_table=on_table)


def test_the_choice_after_a_push_out_is_answered() -> None:
    state = _after_break(turn_pocketed=False)
    push = rules.ShotAction(
        by="1", first=None, rails=(0,), pocketed=(), off_table=(), push_out=True
    )
    state = rules.apply(state, push).state
    assert state.choice_pending and state.turn == "0"
    easy = {0: (1.0, 0.635), 1: (1.6, 0.635), 9: (2.0, 0.3)}
    hard = {0: (0.3, 1.1), 1: (2.45, 0.1), 9: (2.0, 0.3)}
    for balls, expected in ((easy, "shoot"), (hard, "pass")):
        on = _with_balls(state, tuple(sorted(b for b in balls if b)))
        decision = decide(view(on, balls), 4, seed=3)
        assert isinstance(decision, Choose)
        assert decision.choice == expected, balls


@pytest.mark.parametrize("level", [1, 5])
def test_the_lag(level: int) -> None:
    state = rules.new_match(rules.Settings(race_to=1), PLAYERS, None)
    table_balls = new_table(rules.Settings(race_to=1), seed=1, match=1, breaker=None).balls
    for seat, me in enumerate(PLAYERS):
        lag_view = BotView(me=me, state=state, balls=table_balls, lag="shoot")
        decision = decide(lag_view, level, seed=7)
        assert isinstance(decision, LagShot)
        assert -10.0 <= decision.angle <= 10.0 and 0.0 < decision.speed <= 12.0
        stroke = physics.Shot(angle=decision.angle, speed=decision.speed)
        distance = physics.lag_distance(physics.simulate({0: physics.lag_spot(seat)}, stroke))
        if level == 5:
            assert distance is not None and distance < 0.3, "a strong lag comes back near the rail"


def test_the_lag_winner_chooses() -> None:
    state = rules.new_match(rules.Settings(race_to=1), PLAYERS, None)
    balls = new_table(rules.Settings(race_to=1), seed=1, match=1, breaker=None).balls
    decision = decide(BotView(me="1", state=state, balls=balls, lag="choose"), 3, seed=1)
    assert decision == LagChoice("break")


def test_nothing_to_decide_is_an_error() -> None:
    balls = {0: (1.0, 0.6), 3: (1.9, 0.9), 9: (2.2, 0.2)}
    state = mid_game((3, 9), turn="1")
    with pytest.raises(ValueError):
        decide(view(state, balls, me="0"), 3, seed=1)
    with pytest.raises(ValueError):
        decide(view(mid_game((3, 9)), balls), 6, seed=1)
