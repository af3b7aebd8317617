"""Shot input checks, the cue strike, the event engine's bookkeeping and the root finder."""

from __future__ import annotations

import math
import random

import pytest
from physics_oracles import in_flight_problems

from server.physics import (
    DEFAULT_PARAMS,
    TABLE,
    Event,
    Shot,
    ShotError,
    kitchen_spot,
    lag_distance,
    lag_shot,
    lag_spot,
    rack,
    simulate,
    validate_shot,
)
from server.physics.engine import _facts
from server.physics.resolve.strike.instantaneous_point import squirt_angle
from server.physics.roots import first_contact_quartic
from server.physics.shot import CUES

R = TABLE.ball_radius


# Shot input (O2) -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shot", "code"),
    [
        (Shot(math.nan, 1.0), "not_finite"),
        (Shot(0.0, math.inf), "not_finite"),
        (Shot(0.0, 0.0), "bad_speed"),
        (Shot(0.0, -1.0), "bad_speed"),
        (Shot(0.0, 12.0001), "bad_speed"),
        (Shot(0.0, 1.0, elevation=90.0), "bad_elevation"),
        (Shot(0.0, 1.0, elevation=-1.0), "bad_elevation"),
        (Shot(0.0, 1.0, (0.8, 0.6)), "bad_tip"),
        (Shot(0.0, 1.0, (math.nan, 0.0)), "not_finite"),
        (Shot(0.0, 1.0, (0.1,)), "bad_tip"),  # type: ignore[arg-type]
        (Shot(True, 1.0), "not_a_number"),  # type: ignore[arg-type]
        (Shot("0", 1.0), "not_a_number"),  # type: ignore[arg-type]
        (Shot(1e9, 1.0), "bad_angle"),
        (Shot(0.0, 12.0, elevation=30.0), "bad_speed"),  # needs 13.9 m/s along the cue
        (Shot(0.0, 2.3, elevation=80.0), "bad_speed"),
    ],
)
def test_o2_bad_shots_are_rejected_not_clamped(shot: Shot, code: str) -> None:
    with pytest.raises(ShotError) as err:
        validate_shot(shot)
    assert err.value.code == code
    with pytest.raises(ShotError):
        simulate({0: (0.5, 0.5)}, shot)


def test_o2_extreme_valid_shots_are_accepted() -> None:
    extremes = (
        Shot(-360.0, 12.0, (0.0, 0.5), 22.0),
        Shot(0.0, 0.02, (0.35, -0.35), 89.9),
        Shot(360.0, 1e-3, (-0.35, -0.35)),
    )
    for shot in extremes:
        validate_shot(shot)
        simulate({0: (0.5, 0.5)}, shot)


# The strike ---------------------------------------------------------------------------------


def test_o2_miscue_is_a_weak_spinless_push() -> None:
    out = simulate({0: (0.5, 0.5)}, Shot(30.0, 4.0, (0.6, 0.0)))
    assert out.miscue
    first = out.tracks[0][0]
    assert math.hypot(first.vx, first.vy) == pytest.approx(4.0 * DEFAULT_PARAMS.miscue_speed_factor)
    assert (first.wx, first.wy, first.wz) == (0.0, 0.0, 0.0)
    assert not simulate({0: (0.5, 0.5)}, Shot(30.0, 4.0, (0.35, 0.35))).miscue


def test_right_english_spins_counter_clockwise_and_follow_spins_forward() -> None:
    v = 2.0
    seg = simulate({0: (0.5, 0.5)}, Shot(0.0, v, (0.3, 0.2))).tracks[0][0]
    assert seg.wz == pytest.approx(5 * 0.3 * v / (2 * R))
    assert seg.wy == pytest.approx(5 * 0.2 * v / (2 * R))
    assert seg.wx == pytest.approx(0.0)


@pytest.mark.parametrize(("side", "direction"), [(0.3, -1.0), (-0.3, 1.0)])
def test_masse_curves_toward_the_side_of_the_english(side: float, direction: float) -> None:
    start = (0.3, TABLE.width / 2)
    out = simulate({0: start}, Shot(0.0, 1.0, (side, 0.0), 60.0))
    end = out.final[0]
    assert end is not None
    assert (end[1] - start[1]) * direction > 0.02
    # A level cue does not curve the path: the ball goes straight along its squirted
    # heading, which aiming off by the squirt angle brings back onto the long string.
    offset = math.degrees(squirt_angle(side, CUES["standard"]))
    level = simulate({0: start}, Shot(-offset, 1.0, (side, 0.0), 0.0)).final[0]
    assert level is not None and level[1] == pytest.approx(start[1], abs=1e-9)


# The engine ---------------------------------------------------------------------------------


def test_break_trajectory_is_continuous_and_never_overlaps() -> None:
    balls = {0: kitchen_spot(), **rack(3)}
    out = simulate(balls, Shot(0.2, 11.5))
    assert in_flight_problems(out, step=0.001) == []
    for ball, track in out.tracks.items():
        assert track[0].t0 == 0.0
        assert [s.t0 for s in track] == sorted(s.t0 for s in track)
        assert track[-1].state in (0, 4, 5)
        for seg in track:
            if seg.state == 3:  # rolling: the contact point does not slip
                assert seg.vx - R * seg.wy == pytest.approx(0.0, abs=1e-9)
                assert seg.vy + R * seg.wx == pytest.approx(0.0, abs=1e-9)
        assert (out.final[ball] is None) == (track[-1].state >= 4)
    times = [e.t for e in out.events]
    assert times == sorted(times)
    assert out.duration == max(track[-1].t0 for track in out.tracks.values())


def test_touching_row_passes_the_hit_down_the_line() -> None:
    balls = {0: (0.8, 0.6), 1: (0.9, 0.6), 2: (0.9 + 2 * R, 0.6), 3: (0.9 + 4 * R, 0.6)}
    out = simulate(balls, Shot(0.0, 0.7))
    hit = out.events[0]
    assert (hit.kind, hit.a, hit.b) == ("ball", 0, 1)
    # The frozen balls pass the hit on at the same instant.
    at_once = {(e.a, e.b) for e in out.events if e.kind == "ball" and e.t == hit.t}
    assert {(1, 2), (2, 3)} <= at_once
    finals = out.final
    assert finals[3] is not None and finals[1] is not None and finals[2] is not None
    assert finals[3][0] - balls[3][0] > 0.5  # the last ball takes the hit away
    assert abs(finals[1][0] - balls[1][0]) < 0.05
    assert abs(finals[2][0] - balls[2][0]) < 0.05


def test_ball_frozen_to_a_cushion_stays_on_the_table() -> None:
    balls = {0: (2.0, 0.6), 1: (TABLE.length - R, 0.6)}
    for speed in (0.3, 3.0, 12.0):
        out = simulate(balls, Shot(0.0, speed, (0.0, 0.4)))
        assert out.report.off_table == ()
        assert in_flight_problems(out, step=0.001) == []


def test_ball_pocketed_in_side_pocket_reports_it() -> None:
    pocket = TABLE.pockets["S1"]
    out = simulate({0: (1.27, 0.6)}, Shot(90.0, 2.0, (0.0, 0.4)))
    assert out.report.pocketed == (0,)
    assert out.events[-1] == Event(out.events[-1].t, "pocket", 0, pocket=pocket.name)
    assert out.final == {0: None}


def test_no_object_contact_counts_every_rail_touch() -> None:
    out = simulate({0: (0.5, 0.5), 5: (2.0, 1.0)}, Shot(-90.0, 1.5))
    assert out.report.first is None
    assert out.report.rails == (0,)


def test_rails_count_only_after_the_first_contact() -> None:
    events = [
        Event(0.1, "rail", 0, rail="head"),
        Event(0.2, "rail", 3, rail="foot"),
        Event(0.3, "ball", 0, 2),
        Event(0.4, "rail", 2, rail="y0h", jaw="H0"),
        Event(0.5, "ball", 2, 4),
        Event(0.6, "pocket", 4, pocket="S0"),
        Event(0.7, "rail", 0, rail="foot"),
    ]
    facts = _facts(events, [])
    assert facts.first == 2
    assert facts.rails == (0, 2)
    assert facts.pocketed == (4,)


def test_o6_lag_to_the_foot_rail_and_back() -> None:
    good = simulate({0: lag_spot(0)}, lag_shot(2.4))
    distance = lag_distance(good)
    assert distance is not None and 0.0 < distance < TABLE.length
    assert any(e.rail == "foot" for e in good.events)
    short = simulate({0: lag_spot(1)}, lag_shot(0.8))
    assert lag_distance(short) is None
    with pytest.raises(ValueError):
        lag_spot(2)


# Root finding -------------------------------------------------------------------------------


def test_first_contact_quartic_agrees_with_dense_sampling() -> None:
    rng = random.Random(99)
    rho = 2 * R
    checked = hits = 0
    while checked < 300:
        px, py = rng.uniform(-0.2, 0.2), rng.uniform(-0.2, 0.2)
        if math.hypot(px, py) <= rho:
            continue
        vx, vy = rng.uniform(-5, 5), rng.uniform(-5, 5)
        ax, ay = rng.uniform(-3, 3), rng.uniform(-3, 3)
        horizon = rng.uniform(0.05, 2.0)
        coeffs = (
            0.25 * (ax * ax + ay * ay),
            vx * ax + vy * ay,
            vx * vx + vy * vy + px * ax + py * ay,
            2 * (px * vx + py * vy),
            px * px + py * py - rho * rho,
        )
        t = first_contact_quartic(*coeffs, horizon)

        def gap(s: float, p: tuple[float, ...] = (px, py, vx, vy, ax, ay)) -> float:
            x = p[0] + p[2] * s + 0.5 * p[4] * s * s
            y = p[1] + p[3] * s + 0.5 * p[5] * s * s
            return math.hypot(x, y) - rho

        n = 4000
        sampled = next((k * horizon / n for k in range(n + 1) if gap(k * horizon / n) <= 0), None)
        if sampled is None:
            assert t == math.inf or abs(gap(t)) < 1e-9
        else:
            hits += 1
            assert t <= sampled + 1e-12
            assert abs(gap(t)) < 1e-9
            assert t >= sampled - horizon / n - 1e-12
        checked += 1
    assert hits > 30


def test_touching_pair_separating_is_not_a_contact_approaching_is() -> None:
    rho = 2 * R
    # Touching along x, moving apart / together at 1 m/s.
    apart = first_contact_quartic(0.0, 0.0, 1.0, 2 * rho * 1.0, 0.0, 1.0)
    together = first_contact_quartic(0.0, 0.0, 1.0, -2 * rho * 1.0, 0.0, 1.0)
    assert apart == math.inf
    assert together == 0.0
