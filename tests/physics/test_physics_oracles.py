"""The accuracy oracles of the physics issue, each measured on the real table."""

from __future__ import annotations

import math
import random
from collections.abc import Callable

import pytest
from physics_oracles import (
    centre_ball_roll,
    corner_pocket_shot,
    corner_window,
    cushion_impact_speed,
    cushion_rebound_angle,
    cushion_square_ratio,
    cut_shot,
    final_state_problems,
    in_flight_problems,
    jaw_point_shot,
    rail_roll_drops,
    random_layout,
    random_shot,
    rolling_deflection_closed_form,
    stun_full_ball,
    thin_cut_makes_contact,
)

from server.physics import DEFAULT_PARAMS, Params, Shot, ShotError, simulate
from server.physics.resolve.strike.instantaneous_point import squirt_angle
from server.physics.shot import CUES

Figure = Callable[[str], None]
FRICTIONLESS = Params(mu_ball=0.0)
ELASTIC_FRICTIONLESS = Params(mu_ball=0.0, e_ball=1.0)


# 1 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("speed", [0.2, 0.5, 0.7])
def test_oracle1_centre_ball_rolls_at_five_sevenths(speed: float, figure: Figure) -> None:
    result = centre_ball_roll(speed)
    ratio_error = result.roll_ratio / (5.0 / 7.0) - 1.0
    distance_error = result.distance / result.expected_distance - 1.0
    figure(
        f"1 natural roll v={speed}: roll speed error {ratio_error:+.2e}, "
        f"distance to rest error {distance_error:+.2e}"
    )
    assert result.first_state == 2  # a centre-ball hit slides first
    assert abs(ratio_error) <= 0.005
    assert abs(distance_error) <= 0.01


@pytest.mark.parametrize("speed", [0.5, 3.0, 8.0])
def test_oracle1_tip_height_04_has_no_sliding_phase(speed: float) -> None:
    out = simulate({0: (0.3, 0.635)}, Shot(0.0, speed, (0.0, 0.4)))
    first_contact = out.events[0].t if out.events else math.inf
    before = [seg for seg in out.tracks[0] if seg.t0 < first_contact]
    assert before[0].state == 3
    assert all(seg.state != 2 for seg in before)


# 2 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("speed", [0.5, 2.0, 5.0, 10.0])
def test_oracle2_full_ball_stun_hit(speed: float, figure: Figure) -> None:
    e = DEFAULT_PARAMS.e_ball
    cue_ratio, object_ratio = stun_full_ball(speed)
    figure(
        f"2 stun full ball v={speed}: cue keeps {cue_ratio:.6f} (limit {(1 - e) / 2:.4f}), "
        f"object {object_ratio:.6f} (expected {(1 + e) / 2:.4f})"
    )
    assert cue_ratio <= (1.0 - e) / 2.0 + 0.01
    assert object_ratio == pytest.approx((1.0 + e) / 2.0, rel=0.01)


# 3 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("speed", [0.5, 2.0, 5.0, 10.0])
@pytest.mark.parametrize("cut", [0.0, 15.0, 30.0, 45.0, 60.0, 75.0, 85.0])
def test_oracle3_frictionless_object_ball_follows_line_of_centres(
    cut: float, speed: float, figure: Figure
) -> None:
    result = cut_shot(cut, speed, FRICTIONLESS)
    error = abs(result.object_dir - result.line_of_centres)
    figure(
        f"3 frictionless cut {cut}° v={speed}: object ball off the line of centres by {error:.2e}°"
    )
    assert error <= 0.1
    assert result.line_of_centres == pytest.approx(cut, abs=0.01)


@pytest.mark.parametrize("speed", [0.5, 1.0, 3.0, 10.0])
@pytest.mark.parametrize("cut", [10.0, 30.0, 45.0, 60.0, 80.0])
def test_oracle3_throw_with_friction(cut: float, speed: float, figure: Figure) -> None:
    result = cut_shot(cut, speed)
    figure(f"3 throw cut {cut}° v={speed}: {result.throw:.3f}°")
    # Cut-induced throw turns the object ball toward the cue ball's path.
    assert 0.0 < result.throw <= 6.0


def test_oracle3_spin_induced_throw_side() -> None:
    # A full hit with side spin: right english (ω_z > 0, counter-clockwise from above)
    # moves the cue ball's front contact point toward +y (its left), and the friction
    # drags the object ball that way: right english throws it left, left english right.
    # The aim allows for squirt (back-hand english), so the hit is full.
    cue, obj = (0.5, 0.635), (0.5 + 0.3 + 2 * 0.028575, 0.635)
    offset = math.degrees(squirt_angle(0.3, CUES["standard"]))
    right = simulate({0: cue, 1: obj}, Shot(-offset, 1.0, (0.3, 0.0)))
    left = simulate({0: cue, 1: obj}, Shot(offset, 1.0, (-0.3, 0.0)))

    def object_vy(out: object) -> float:
        seg = next(s for s in out.tracks[1] if s.state != 0)  # type: ignore[attr-defined]
        return float(seg.vy)

    assert object_vy(right) > 0.0 > object_vy(left)


# 4 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [5.0, 20.0, 30.0, 45.0, 60.0, 75.0, 85.0])
def test_oracle4_stun_cut_separates_at_90_degrees(cut: float, figure: Figure) -> None:
    elastic = cut_shot(cut, 2.0, ELASTIC_FRICTIONLESS)
    default_e = cut_shot(cut, 2.0, FRICTIONLESS)
    figure(
        f"4 stun cut {cut}°: separation {elastic.separation:.4f}° (e = 1), "
        f"{default_e.separation:.3f}° (e = {DEFAULT_PARAMS.e_ball})"
    )
    assert elastic.separation == pytest.approx(90.0, abs=2.0)
    if cut >= 40.0:  # with e < 1 the cue ball keeps (1 − e)/2 of the normal speed
        assert default_e.separation == pytest.approx(90.0, abs=2.0)


@pytest.mark.parametrize("cut", [10.0, 20.0, 30.0, 45.0, 60.0, 75.0])
@pytest.mark.parametrize("e", [1.0, 0.95])
def test_oracle4_rolling_cue_ball_deflection(cut: float, e: float, figure: Figure) -> None:
    params = Params(mu_ball=0.0, e_ball=e)
    result = cut_shot(cut, 2.0, params, stun=False, distance=0.5)
    measured = -result.cue_final_deflection  # the cue ball turns toward −y
    expected = rolling_deflection_closed_form(cut, e)
    figure(f"4 rolling deflection cut {cut}° e={e}: {measured:.4f}° vs {expected:.4f}°")
    assert measured == pytest.approx(expected, abs=1.0)


def test_oracle4_half_ball_deflection_is_33_7_degrees() -> None:
    assert rolling_deflection_closed_form(30.0, 1.0) == pytest.approx(33.7, abs=0.05)
    result = cut_shot(30.0, 2.0, ELASTIC_FRICTIONLESS, stun=False, distance=0.5)
    assert -result.cue_final_deflection == pytest.approx(33.7, abs=1.0)


# 5 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("cut", [80.0, 85.0, 87.0, 88.0, 89.0, 89.5])
def test_oracle5_thin_cuts_make_contact_at_10_ms(cut: float) -> None:
    assert thin_cut_makes_contact(cut, 10.0)


def test_oracle5_random_shots_leave_no_ball_off_table_or_overlapping(figure: Figure) -> None:
    # A ball may now fly off the table (an elevated stroke, a ball thrown up): that is
    # play, reported by an "off" event. What must never happen is a ball resting off the
    # slate or overlapping another, or one reported off the table without flying off.
    rng = random.Random(20240501)
    failures = []
    events = flown = 0
    for k in range(500):
        balls = random_layout(rng)
        out = simulate(balls, random_shot(rng))
        events += len(out.events)
        flown += bool(out.report.off_table)
        problems = final_state_problems(out)
        if problems:
            failures.append((k, problems))
    figure(
        f"5 random shots: 500 simulated, {len(failures)} with a ball off the surface or "
        f"overlapping, {flown} with a ball flown off the table, {events} events"
    )
    assert not failures


def test_oracle5_no_overlap_or_escape_at_any_moment() -> None:
    rng = random.Random(7)
    for _ in range(25):
        out = simulate(random_layout(rng), random_shot(rng))
        assert in_flight_problems(out, step=0.005) == []


# 6 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("speed", [0.5, 1.0, 2.0, 4.0, 8.0])
def test_oracle6_cushion_rebound_ratio(speed: float, figure: Figure) -> None:
    ratio = cushion_square_ratio(speed)
    # The stun ball slows a little on its way in: the impact speed is the speed before.
    e = DEFAULT_PARAMS.e_cushion_at(cushion_impact_speed(speed))
    figure(f"6 cushion v={speed}: rebound ratio {ratio:.5f} vs e(v) {e:.5f} ({ratio / e - 1:+.2e})")
    assert ratio == pytest.approx(e, rel=1e-9)


def test_oracle6_cushion_restitution_falls_with_speed() -> None:
    ratios = [cushion_square_ratio(v) for v in (0.5, 1.0, 2.0, 4.0, 8.0)]
    assert ratios == sorted(ratios, reverse=True)
    assert ratios[0] > 0.87 and ratios[-1] < 0.7
    flat = Params(e_cushion_falloff=0.0)
    assert cushion_square_ratio(8.0, flat) == pytest.approx(flat.e_cushion, rel=1e-9)


def test_oracle6_running_english_widens_reverse_narrows(figure: Figure) -> None:
    plain = cushion_rebound_angle(0.0)
    running = cushion_rebound_angle(-0.3)
    reverse = cushion_rebound_angle(0.3)
    figure(f"6 english at 45°: plain {plain:.2f}°, running {running:.2f}°, reverse {reverse:.2f}°")
    assert running > plain + 1.0
    assert reverse < plain - 1.0


def test_oracle6_han2005_model_is_selectable() -> None:
    han = Params(ball_cushion_model="han2005")
    ratio = cushion_square_ratio(2.0, han)
    theta = han.cushion_angle
    e = han.e_cushion_at(cushion_impact_speed(2.0, han))
    expected = (1 + e) * math.cos(theta) ** 2 + 2 / 7 * math.sin(theta) ** 2 - 1
    assert ratio == pytest.approx(expected, rel=0.01)


# 7 -------------------------------------------------------------------------------------


@pytest.mark.parametrize("pocket", ["H0", "H1", "F0", "F1"])
@pytest.mark.parametrize("speed", [1.0, 2.0, 4.0, 6.0, 8.0])
def test_oracle7_ball_rolled_at_corner_pocket_centre_drops(pocket: str, speed: float) -> None:
    out = corner_pocket_shot(speed, pocket)
    assert out.report.pocketed == (0,)
    assert [e.kind for e in out.events] == ["pocket"]
    assert out.events[0].pocket == pocket
    assert out.final[0] is None
    assert out.tracks[0][-1].state == 4


@pytest.mark.parametrize(("pocket", "jaw"), [("F1", 0), ("F1", 1), ("H0", 0), ("S0", 0), ("S1", 1)])
@pytest.mark.parametrize("speed", [1.0, 3.0, 6.0])
def test_oracle7_ball_driven_into_jaw_point_rattles_out(
    pocket: str, jaw: int, speed: float
) -> None:
    out = jaw_point_shot(speed, pocket, jaw)
    first = out.events[0]
    assert first.kind == "rail" and first.jaw == pocket
    assert not any(e.kind == "pocket" and e.pocket == pocket for e in out.events)


# 8 (determinism across processes) is in test_physics_determinism.py.


@pytest.mark.parametrize("speed", [0.5, 1.0, 2.0, 4.0, 6.0])
def test_oracle7_ball_frozen_to_the_rail_runs_into_the_corner(speed: float) -> None:
    # Rolling along the y0f nose (centre one radius off it) into F0: it brushes the
    # y0f jaw's point at most, and drops.
    r = DEFAULT_PARAMS.ball_radius
    out = simulate({0: (2.0, r)}, Shot(0.0, speed, (0.0, 0.4)))
    assert out.report.pocketed == (0,)
    assert out.events[-1].pocket == "F0"


# Squirt ---------------------------------------------------------------------------------


def _heading_after_strike(side: float, cue: str, speed: float = 2.0) -> float:
    out = simulate({0: (0.5, 0.635)}, Shot(0.0, speed, (side, 0.0), cue=cue))
    first = out.tracks[0][0]
    return math.degrees(math.atan2(first.vy, first.vx))


@pytest.mark.parametrize("speed", [1.0, 4.0, 10.0])
def test_squirt_half_tip_standard_shaft_is_1_to_3_degrees_away_from_the_english(
    speed: float, figure: Figure
) -> None:
    right = _heading_after_strike(0.5, "standard", speed)
    left = _heading_after_strike(-0.5, "standard", speed)
    low = _heading_after_strike(0.5, "low_deflection", speed)
    figure(f"squirt half a tip at {speed} m/s: standard {right:.2f}°, low-deflection {low:.2f}°")
    # Right english leaves to the left of the aim (counter-clockwise), left to the right.
    assert 1.0 <= right <= 3.0
    assert left == pytest.approx(-right, abs=1e-12)
    assert 0.0 < low < right / 1.8
    assert _heading_after_strike(0.0, "standard", speed) == 0.0


def test_squirt_matches_alciatore_tp_a31() -> None:
    # TP A.31 at b/R = 0.5: 2.7° for m_ball/m_end = 20, 1.9° for 30, 1.0° for 60.
    for ratio, expected in ((20.0, 2.7), (30.0, 1.9), (60.0, 1.0)):
        assert math.degrees(squirt_angle(0.5, ratio)) == pytest.approx(expected, abs=0.05)


def test_unknown_cue_is_rejected() -> None:
    with pytest.raises(ShotError) as caught:
        simulate({0: (0.5, 0.635)}, Shot(0.0, 1.0, cue="bent"))
    assert caught.value.code == "bad_cue"


# Pockets in three dimensions -------------------------------------------------------------


def test_pocket_rail_rolled_ball_drops_less_at_speed(figure: Figure) -> None:
    slow, fast = rail_roll_drops(1.2), rail_roll_drops(6.0)
    figure(f"7 rail-rolled into the corner, 0-25 mm off: {slow}/11 drop at 1.2 m/s, {fast}/11 at 6")
    assert slow == 11
    assert fast <= slow - 4
    flat = Params(pocket_model="drop")
    assert rail_roll_drops(1.2, flat) == rail_roll_drops(6.0, flat) == 11


def test_pocket_straight_in_window_shrinks_at_speed(figure: Figure) -> None:
    slow, fast = corner_window(1.0), corner_window(8.0)
    figure(f"7 straight-in corner window: {slow * 1000:.0f} mm at 1 m/s, {fast * 1000:.0f} at 8")
    assert slow > 0.05
    assert 0.0 < fast <= 0.7 * slow


def test_pocket_ball_is_gone_once_it_has_dropped() -> None:
    # A slow ball crosses the slate edge and is pocketed one drop time later.
    out = corner_pocket_shot(1.0)
    pocket = next(e for e in out.events if e.kind == "pocket")
    track = out.tracks[0]
    over = next(s for s in track if s.state == 6)  # off the cloth, over the hole
    drop = math.sqrt(2.0 * DEFAULT_PARAMS.pocket_drop_depth / DEFAULT_PARAMS.g)
    assert pocket.t - over.t0 == pytest.approx(drop, rel=1e-9)
    assert (over.z, over.vz, over.az) == (0.0, 0.0, -DEFAULT_PARAMS.g)
    assert in_flight_problems(out, step=0.002) == []
