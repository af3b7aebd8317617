"""The table as a pure value: validate → physics → referee → new value, without sockets."""

from __future__ import annotations

import pytest

from server import physics, rules
from server.rooms.table import (
    Table,
    TableError,
    apply_action,
    complete_shot,
    decide_lag,
    new_table,
    place_cue_ball,
    prepare_shot,
)

SETTINGS = rules.Settings(race_to=2)


def started(seed: int = 11) -> Table:
    return decide_lag(new_table(SETTINGS, seed=seed, match=1, breaker=None), "0").table


def test_r2_racks_come_from_the_room_seed() -> None:
    a = new_table(SETTINGS, seed=5, match=1, breaker="0")
    b = new_table(SETTINGS, seed=5, match=1, breaker="0")
    c = new_table(SETTINGS, seed=6, match=1, breaker="0")
    assert a.balls == b.balls
    assert a.balls != c.balls
    assert a.balls[0] == physics.kitchen_spot()
    assert all(pos is not None for pos in a.balls)
    assert a.state.ball_in_hand == "kitchen"


def test_o6_lag_result_gives_the_break() -> None:
    waiting = new_table(SETTINGS, seed=5, match=1, breaker=None)
    assert waiting.state.awaiting_lag
    with pytest.raises(TableError) as caught:
        prepare_shot(waiting, "0", physics.Shot(angle=0.0, speed=5.0), False)
    assert caught.value.code == "not_started"
    table = decide_lag(waiting, "1").table
    assert table.state.turn == "1" and table.state.ball_in_hand == "kitchen"


def test_r3_lag_winner_may_give_the_break_away() -> None:
    waiting = new_table(SETTINGS, seed=5, match=1, breaker=None)
    table = decide_lag(waiting, "1", breaker="0").table
    assert not table.state.awaiting_lag
    assert table.state.breaker == "0" and table.state.turn == "0"
    assert table.state.ball_in_hand == "kitchen"
    # Once decided, another lag result is refused as every table request is: a TableError
    # with a protocol code, nothing changed.
    with pytest.raises(TableError) as caught:
        decide_lag(table, "1")
    assert caught.value.code == "invalid_action"


def test_r10_placement_is_checked_and_repeatable() -> None:
    table = started()
    moved = place_cue_ball(table, "0", (0.4, 0.3))
    assert moved.balls[0] == (0.4, 0.3) and table.balls[0] != (0.4, 0.3)
    moved = place_cue_ball(moved, "0", (0.5, 0.9))
    assert moved.balls[0] == (0.5, 0.9)
    for by, pos, code in (
        ("1", (0.4, 0.3), "not_your_turn"),
        ("0", (1.5, 0.6), "bad_placement"),  # outside the kitchen on a break
        ("0", (-0.1, 0.6), "bad_placement"),
    ):
        with pytest.raises(TableError) as caught:
            place_cue_ball(table, by, pos)
        assert caught.value.code == code


def test_o2_and_o1_shots_are_checked_before_simulating() -> None:
    table = started()
    for by, shot, push_out, code in (
        ("1", physics.Shot(angle=0.0, speed=5.0), False, "not_your_turn"),
        ("0", physics.Shot(angle=0.0, speed=5.0, tip=(0.8, 0.8)), False, "bad_shot"),
        ("0", physics.Shot(angle=0.0, speed=5.0), True, "push_out_not_allowed"),
    ):
        with pytest.raises(TableError) as caught:
            prepare_shot(table, by, shot, push_out)
        assert caught.value.code == code


def test_a_real_break_then_the_next_shot() -> None:
    table = started(seed=3)
    cue, one = table.balls[0], table.balls[1]
    assert cue is not None and one is not None
    import math

    angle = math.degrees(math.atan2(one[1] - cue[1], one[0] - cue[0]))
    balls, shot = prepare_shot(table, "0", physics.Shot(angle=angle, speed=10.0), False)
    outcome = physics.simulate(balls, shot)
    step = complete_shot(table, "0", False, dict(outcome.final), outcome.report)
    state = step.table.state
    assert state.rack == 1 and not state.is_break
    # Balls the referee counts as on the table are exactly those with a position.
    on_table = [b for b in range(1, 10) if step.table.balls[b] is not None]
    assert on_table == list(state.on_table)
    assert step.table.balls[0] is not None
    # The input value is untouched (a pure step).
    assert table.state.is_break


def test_g3_the_nine_pocketed_on_a_foul_is_spotted() -> None:
    table = started(seed=3)
    final = {ball: pos for ball, pos in enumerate(table.balls)}
    final[9] = None
    final[0] = (0.3, 0.3)
    report = physics.ShotFacts(first=3, rails=(3,), pocketed=(9,), off_table=())
    step = complete_shot(table, "0", False, final, report)
    assert step.verdict.foul and 9 in step.verdict.spotted
    nine = step.table.balls[9]
    assert nine is not None
    assert nine[1] == pytest.approx(physics.TABLE.foot_spot[1])
    assert step.table.state.turn == "1" and step.table.state.ball_in_hand == "table"


def test_o4_conceding_the_game_racks_again() -> None:
    table = started(seed=3)
    step = apply_action(table, rules.Concede(by="0", what="game"))
    assert step.verdict.game_over and step.verdict.new_rack
    assert step.table.racks == 2 and step.table.state.rack == 2
    assert step.table.balls != table.balls  # a new seeded rack
    assert all(pos is not None for pos in step.table.balls)
