"""The practice table's pure core: every action and every refusal, no sockets.

Shots are simulated here with the server's own physics (`run_shot`, what the worker pool
runs) and fed back as the actor does; a refusal must leave the state exactly as it was.
"""

from __future__ import annotations

import base64
import math

import msgspec
import pytest

from protocol import errors
from protocol.practice import DRILLS, GhostScore
from server import physics
from server.rooms import practice as p
from server.rooms.practice_layout import (
    BALLS,
    Layout,
    PracticeError,
    R,
    check_layout,
    decode_layout,
    encode_layout,
)
from server.rooms.simulation import run_shot

SEED = 11


def blank(rules: bool = False, **spots: tuple[float, float]) -> p.Practice:
    """A table with only the balls named (`b0`, `b5`, ...)."""
    balls: list[tuple[float, float] | None] = [None] * BALLS
    for key, pos in spots.items():
        balls[int(key[1:])] = pos
    return p.Practice(layout=Layout(balls=tuple(balls)), rules=rules, drill=None, seed=SEED)


def shoot(
    state: p.Practice, angle: float, speed: float, preview: bool = False
) -> tuple[p.Practice, list[p.Effect]]:
    shot = physics.Shot(angle=angle, speed=speed)
    action = p.Preview(shot) if preview else p.Shoot(shot)
    same, effects = p.step(state, action)
    assert same is state
    (simulate,) = effects
    assert isinstance(simulate, p.Simulate) and simulate.preview is preview
    result = run_shot(simulate.balls, angle, speed, (0.0, 0.0), 0.0)
    return p.step(state, p.Simulated(shot, preview, result))


def refused(state: p.Practice, action: p.Action, code: str) -> str:
    with pytest.raises(PracticeError) as caught:
        p.step(state, action)
    assert caught.value.code == code, caught.value.message
    return caught.value.message


def test_a_new_table_is_a_rack_to_break() -> None:
    state = p.new_practice(SEED)
    assert all(pos is not None for pos in state.layout.balls)
    assert state.layout.is_break and state.layout.in_hand == "kitchen"
    view = p.view(state, "Ana", 0)
    assert view.undo == 0 and view.redo == 0 and not view.retry and view.lowest == 1


def test_put_move_and_remove_balls_each_undoable() -> None:
    state = blank(b0=(0.5, 0.6))
    state, effects = p.step(state, p.Put(5, (1.5, 0.6)))
    assert effects == [p.Changed("put")]
    assert state.layout.balls[5] == (1.5, 0.6)
    state, _ = p.step(state, p.Put(5, (1.7, 0.3)))  # moved
    state, effects = p.step(state, p.Remove(0))
    assert effects == [p.Changed("remove")]
    assert state.layout.balls[0] is None
    assert len(state.past) == 3
    state, _ = p.step(state, p.Undo())
    assert state.layout.balls[0] == (0.5, 0.6)
    state, _ = p.step(state, p.Undo())
    assert state.layout.balls[5] == (1.5, 0.6)
    state, _ = p.step(state, p.Redo())
    assert state.layout.balls[5] == (1.7, 0.3)
    assert len(state.future) == 1
    # A new change clears what could be redone.
    state, _ = p.step(state, p.Put(9, (2.0, 1.0)))
    assert state.future == ()
    refused(state, p.Redo(), errors.NOTHING_TO_REDO)


def test_frozen_balls_may_touch() -> None:
    state = blank(b0=(0.5, 0.6), b1=(1.5, 0.6))
    state, _ = p.step(state, p.Put(2, (1.5 + 2 * R, 0.6)))
    assert state.layout.balls[2] == (1.5 + 2 * R, 0.6)


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (p.Put(3, (1.51, 0.6)), errors.BALLS_OVERLAP),  # overlaps the 1
        (p.Put(3, (1.0, 1.5)), errors.OFF_BED),  # beyond the side rail
        (p.Put(3, (1.0, 1.26)), errors.OFF_BED),  # into the cushion
        (p.Put(3, (-0.5, 0.6)), errors.OFF_BED),
        (p.Put(3, (0.01, 0.01)), errors.IN_POCKET),  # the head corner's hole
        (p.Put(3, (1.27, 1.28)), errors.IN_POCKET),  # the side pocket's mouth
        (p.Put(3, (math.nan, 0.5)), errors.OFF_BED),
        (p.Put(10, (1.0, 0.5)), errors.NO_SUCH_BALL),
        (p.Put(-1, (1.0, 0.5)), errors.NO_SUCH_BALL),
        (p.Remove(12), errors.NO_SUCH_BALL),
        (p.Remove(4), errors.NOT_ON_TABLE),
        (p.Undo(), errors.NOTHING_TO_UNDO),
        (p.Redo(), errors.NOTHING_TO_REDO),
        (p.Retry(), errors.NOTHING_TO_RETRY),
        (p.Load(layout="not*base64"), errors.BAD_LAYOUT),
        (p.Load(), errors.BAD_LAYOUT),
        (p.Load(layout="AQA", drill="kick"), errors.BAD_LAYOUT),
        (p.Shoot(physics.Shot(angle=0.0, speed=12.9)), errors.BAD_SHOT),
        (p.Preview(physics.Shot(angle=0.0, speed=3.0, tip=(0.9, 0.5))), errors.BAD_SHOT),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(action: p.Action, code: str) -> None:
    state = blank(b0=(0.5, 0.6), b1=(1.5, 0.6))
    before = state
    message = refused(state, action, code)
    assert message
    assert state == before


def test_no_cue_ball_no_shot() -> None:
    state = blank(b1=(1.5, 0.6))
    refused(state, p.Shoot(physics.Shot(angle=0.0, speed=2.0)), errors.NO_CUE_BALL)
    refused(state, p.Preview(physics.Shot(angle=0.0, speed=2.0)), errors.NO_CUE_BALL)


def test_rules_on_the_break_cue_ball_stays_in_the_kitchen() -> None:
    state = p.new_practice(SEED, rules_on=True)
    refused(state, p.Put(0, (1.0, 0.3)), errors.BAD_PLACEMENT)
    state, _ = p.step(state, p.Put(0, (0.4, 0.3)))
    off, _ = p.step(state, p.SetRules(False))
    off, _ = p.step(off, p.Put(0, (1.0, 0.3)))
    assert off.layout.balls[0] == (1.0, 0.3)
    # Put there with the referee off, the break is refused once it is on again.
    on, _ = p.step(off, p.SetRules(True))
    refused(on, p.Shoot(physics.Shot(angle=0.0, speed=9.0)), errors.BAD_PLACEMENT)


def test_shot_undo_redo_retry() -> None:
    state = blank(b0=(0.5, 0.635), b1=(1.5, 0.635))
    start = state.layout
    state, effects = shoot(state, 0.0, 2.0)
    (played,) = effects
    assert isinstance(played, p.Played) and played.verdict is None  # free play
    assert played.result.first == 1
    after = state.layout
    assert after != start and state.shots == 1 and state.shot_from == start
    state, _ = p.step(state, p.Undo())
    assert state.layout == start
    state, _ = p.step(state, p.Redo())
    assert state.layout == after
    # Balls moved after the shot: retry sets the shot's position up again, undoably.
    state, _ = p.step(state, p.Put(7, (2.0, 1.0)))
    state, effects = p.step(state, p.Retry())
    assert effects == [p.Changed("retry")]
    assert state.layout == start
    state, _ = p.step(state, p.Undo())
    assert state.layout.balls[7] == (2.0, 1.0)


def test_preview_changes_nothing_and_matches_the_shot() -> None:
    state = blank(b0=(0.5, 0.635), b1=(1.5, 0.635), b9=(2.0, 0.3))
    same, effects = shoot(state, 0.0, 3.0, preview=True)
    assert same == state
    (previewed,) = effects
    assert isinstance(previewed, p.Previewed)
    _, effects = shoot(state, 0.0, 3.0)
    (played,) = effects
    assert isinstance(played, p.Played)
    assert played.result.final == previewed.result.final  # deterministic physics


def test_free_play_scratch_gives_ball_in_hand_and_pocketed_balls_stay_down() -> None:
    # The cue ball straight into the foot-left corner pocket (F0 at about (2.54, 0)).
    state = blank(b0=(1.9, 0.6), b5=(0.5, 1.0))
    angle = math.degrees(math.atan2(0.0 - 0.6, 2.54 - 1.9))
    state, effects = shoot(state, angle, 3.0)
    (played,) = effects
    assert isinstance(played, p.Played)
    assert 0 in played.result.pocketed
    assert state.layout.balls[0] is not None and state.layout.in_hand == "table"
    check_layout(state.layout.balls)


def test_rules_on_a_foul_is_judged_and_gives_ball_in_hand() -> None:
    # The 2 hit first with the 1 on the table: wrong ball first (R8).
    state = blank(True, b0=(0.5, 0.635), b1=(2.0, 0.2), b2=(1.5, 0.635), b9=(2.0, 1.0))
    state, effects = shoot(state, 0.0, 2.0)
    (played,) = effects
    assert isinstance(played, p.Played) and played.verdict is not None
    assert played.verdict.foul and "R8" in played.verdict.fouls
    assert state.layout.in_hand == "table"


def test_rules_on_the_nine_legally_wins_the_rack() -> None:
    state = blank(True, b0=(1.6, 0.635), b9=(2.2, 0.635))
    state, effects = shoot(state, 0.0, 4.0)
    (played,) = effects
    assert isinstance(played, p.Played) and played.verdict is not None
    if 9 in played.result.pocketed:  # straight into the foot rail, then maybe a pocket
        assert played.verdict.game_over
    else:
        assert not played.verdict.foul


@pytest.mark.parametrize("drill", DRILLS)
def test_every_drill_is_a_valid_layout_and_its_link_opens_it(drill: str) -> None:
    state = p.new_practice(SEED, drill=drill)  # type: ignore[arg-type]
    check_layout(state.layout.balls)
    assert state.drill == drill
    code = p.view(state, "Ana", 0).layout
    layout, rules_on = decode_layout(code)
    assert not rules_on
    for got, want in zip(layout.balls, state.layout.balls, strict=True):
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert math.dist(got, want) < 1e-4


def test_kick_drill_blocks_the_direct_line() -> None:
    layout = p.new_practice(SEED, drill="kick").layout
    cue, one, two = layout.balls[0], layout.balls[1], layout.balls[2]
    assert cue and one and two
    # The 2's centre is within a ball's width of the line from the cue ball to the 1.
    dx, dy = one[0] - cue[0], one[1] - cue[1]
    distance = abs(dx * (two[1] - cue[1]) - dy * (two[0] - cue[0])) / math.hypot(dx, dy)
    assert distance < 2 * R


def test_ghost_drill_gives_ball_in_hand_after_the_break() -> None:
    state = p.new_practice(SEED, drill="nine_ghost")
    state, _ = shoot(state, 0.0, 9.0)
    assert state.layout.in_hand == "table" and not state.layout.is_break


def ghost_rack(**spots: tuple[float, float]) -> p.Practice:
    """The ghost drill after the break, with only the balls named (ball in hand)."""
    state = blank(**spots)
    layout = Layout(balls=state.layout.balls, in_hand="table")
    return msgspec.structs.replace(state, layout=layout, drill="nine_ghost", ghost=p.FRESH_GHOST)


def toward(src: tuple[float, float], dst: tuple[float, float]) -> float:
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0]))


#: The 9 and the cue ball on the diagonal of the foot-rail corner pocket at (2.54, 1.27).
NINE_BY_THE_POCKET = (2.24, 0.97)
CUE_IN_LINE = (1.74, 0.47)


def test_ghost_drill_keeps_a_score_of_racks_won_and_lost() -> None:
    fresh = p.new_practice(SEED, drill="nine_ghost")
    assert fresh.ghost == p.FRESH_GHOST and p.view(fresh, "Ana", 0).ghost == p.FRESH_GHOST
    assert p.new_practice(SEED, drill="three_ball").ghost is None

    # The 9 (the lowest ball up) pocketed on a legal shot: the rack is won.
    won_state = ghost_rack(b0=CUE_IN_LINE, b9=NINE_BY_THE_POCKET)
    state, effects = shoot(won_state, toward(CUE_IN_LINE, NINE_BY_THE_POCKET), 1.2)
    (played,) = effects
    assert isinstance(played, p.Played) and 9 in played.result.pocketed
    # The table's referee is off; the drill judges anyway, and says so.
    assert played.verdict is not None and played.verdict.game_over and not played.verdict.foul
    assert state.ghost == GhostScore(won=1, lost=0, rack="won")
    assert p.view(state, "Ana", 0).ghost == state.ghost

    # Undo and another go at it: the rack is decided, nothing more counts.
    again, _ = p.step(state, p.Undo())
    again, _ = shoot(again, toward(CUE_IN_LINE, NINE_BY_THE_POCKET), 1.2)
    assert again.ghost == GhostScore(won=1, lost=0, rack="won")

    # The next rack: a new rack to break, the score kept.
    state, effects = p.step(again, p.Load(drill="nine_ghost"))
    assert effects == [p.Changed("drill")]
    assert state.layout.is_break and state.ghost == GhostScore(won=1, lost=0, rack="playing")
    assert state.layout != fresh.layout  # each rack its own

    # A shot after the break that pockets nothing: the ghost's rack.
    miss = ghost_rack(b0=(0.5, 0.635), b1=(1.5, 0.635), b9=(2.0, 1.0))
    miss = msgspec.structs.replace(miss, ghost=GhostScore(won=1, lost=0, rack="playing"))
    state, _ = shoot(miss, 0.0, 1.5)
    assert state.layout.balls[1] is not None
    assert state.ghost == GhostScore(won=1, lost=1, rack="lost")


def test_ghost_drill_a_foul_or_a_rack_given_up_goes_to_the_ghost() -> None:
    # The 2 hit first with the 1 up: a foul, with or without the table's referee.
    foul = ghost_rack(b0=(0.5, 0.635), b1=(2.0, 0.2), b2=(1.5, 0.635), b9=(2.0, 1.0))
    state, effects = shoot(foul, 0.0, 2.0)
    assert state.ghost == GhostScore(won=0, lost=1, rack="lost")
    # Said why, with the table's referee off: the foul it was judged by.
    (played,) = effects
    assert isinstance(played, p.Played) and played.verdict is not None and played.verdict.foul
    # The rack decided, the next shots (practising it again) are free play again.
    _, effects = shoot(state, 0.0, 2.0)
    (played,) = effects
    assert isinstance(played, p.Played) and played.verdict is None

    # A ball pocketed without a foul: the rack goes on.
    going = ghost_rack(b0=CUE_IN_LINE, b1=NINE_BY_THE_POCKET, b9=(0.4, 0.3))
    state, _ = shoot(going, toward(CUE_IN_LINE, NINE_BY_THE_POCKET), 1.2)
    assert 1 not in [b for b, pos in enumerate(state.layout.balls) if pos is not None]
    assert state.ghost == p.FRESH_GHOST

    # A new rack before this one is decided: the ghost takes it.
    state, _ = p.step(state, p.Load(drill="nine_ghost"))
    assert state.ghost == GhostScore(won=0, lost=1, rack="playing")
    # An unbroken rack set up again counts for nobody.
    same, _ = p.step(state, p.Load(drill="nine_ghost"))
    assert same.ghost == state.ghost and same.layout == state.layout

    # Another set-up ends the score.
    other, _ = p.step(state, p.Load(drill="kick"))
    assert other.ghost is None and p.view(other, "Ana", 0).ghost is None


def test_a_link_of_a_position_after_shots_opens_the_same_position() -> None:
    state = p.new_practice(SEED)
    state, _ = shoot(state, 1.0, 9.0)  # the break: balls everywhere, some frozen
    code = p.view(state, "Ana", 0).layout
    opened = p.new_practice(SEED + 1, layout=code)
    for got, want in zip(opened.layout.balls, state.layout.balls, strict=True):
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert math.dist(got, want) < 1e-4
    # And it can be shot from.
    shoot(opened, 90.0, 1.0)


def _code(payload: bytes) -> str:
    return base64.urlsafe_b64encode(payload).decode().rstrip("=")


def _ball(ball: int, x: float, y: float) -> bytes:
    gx, gy = round((x + 0.06) / 0.00005), round((y + 0.06) / 0.00005)
    return ((ball << 32) | (gx << 16) | gy).to_bytes(5, "big")


@pytest.mark.parametrize(
    ("code", "error"),
    [
        ("", errors.BAD_LAYOUT),
        ("!!!!", errors.BAD_LAYOUT),
        ("A", errors.BAD_LAYOUT),  # cut short
        (_code(b"\x02\x00"), errors.BAD_LAYOUT),  # another version
        (_code(b"\x01\x80"), errors.BAD_LAYOUT),  # unknown flags
        (_code(b"\x01\x00" + _ball(0, 0.5, 0.5)[:3]), errors.BAD_LAYOUT),
        (_code(b"\x01\x00" + _ball(3, 0.5, 0.5) + _ball(3, 1.5, 0.5)), errors.BAD_LAYOUT),
        (_code(b"\x01\x00" + _ball(12, 0.5, 0.5)), errors.NO_SUCH_BALL),
        (
            _code(b"\x01\x00" + b"".join(_ball(b % 10, 0.1 + b * 0.2, 0.5) for b in range(11))),
            errors.TOO_MANY_BALLS,
        ),
        (_code(b"\x01\x00" + _ball(0, 0.5, 0.5) + _ball(1, 0.52, 0.5)), errors.BALLS_OVERLAP),
        (_code(b"\x01\x00" + _ball(0, 2.59, 0.5)), errors.OFF_BED),
        (_code(b"\x01\x00" + _ball(0, 0.0, 0.0)), errors.IN_POCKET),
    ],
)
def test_a_malformed_link_is_refused_with_its_reason(code: str, error: str) -> None:
    with pytest.raises(PracticeError) as caught:
        decode_layout(code)
    assert caught.value.code == error, caught.value.message
    with pytest.raises(PracticeError):
        p.new_practice(SEED, layout=code)


def test_link_round_trip_keeps_flags() -> None:
    state = p.new_practice(SEED, rules_on=True)
    code = encode_layout(state.layout, True)
    layout, rules_on = decode_layout(code)
    assert rules_on and layout.is_break and layout.in_hand == "kitchen"
    assert len(code) <= 70


def test_history_is_bounded() -> None:
    state = blank(b0=(0.5, 0.6))
    for i in range(p.HISTORY + 20):
        state, _ = p.step(state, p.Put(1, (1.0 + (i % 50) * 0.01, 0.3)))
    assert len(state.past) == p.HISTORY


def test_the_spot_shot_is_played_from_behind_the_head_string() -> None:
    """As its description says: the cue ball in hand in the kitchen (the view says so, and
    with the referee on a shot from past the head string is refused)."""
    state = p.new_practice(SEED, drill="spot_shot", rules_on=True)
    assert state.layout.in_hand == "kitchen"
    with pytest.raises(p.PracticeError) as refused:
        p.step(state, p.Put(0, (1.2, 0.635)))
    assert refused.value.code == errors.BAD_PLACEMENT
    moved, _ = p.step(state, p.Put(0, (0.4, 0.5)))  # behind the head string: fine
    assert moved.layout.balls[0] == (0.4, 0.5) and moved.layout.in_hand == "kitchen"
