"""Balls off the cloth: the slate's bounce, ballistic flight and landing, jumps over balls,
collisions in the air, cushions met in the air, and balls flying off the table."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

import pytest
from physics_oracles import in_flight_problems

from server.physics import DEFAULT_PARAMS, TABLE, Params, Shot, simulate
from server.physics.motion import height_at
from server.physics.outcome import AIRBORNE
from server.physics.shot import MAX_IMPULSE_SPEED

R = TABLE.ball_radius
G = DEFAULT_PARAMS.g
E_SLATE = DEFAULT_PARAMS.e_slate


def test_an_elevated_stroke_leaves_the_cloth_at_e_slate_of_its_push_down() -> None:
    # Centre ball, cue at 45°: the stroke drives the ball down at v·tan θ and the slate
    # gives back e_slate of it; the first segment is a flight under gravity.
    v, theta = 2.0, 45.0
    out = simulate({0: (0.5, 0.635)}, Shot(0.0, v, elevation=theta))
    first = out.tracks[0][0]
    assert first.state == AIRBORNE
    assert first.vz == pytest.approx(E_SLATE * v * math.tan(math.radians(theta)), rel=1e-12)
    assert (first.z, first.az) == (0.0, -G)
    # The bounce's friction turns the sliding ball toward rolling: it stops the slip here
    # (μs·(1 + e)·v·tan θ = 0.3·v exceeds the 2/7·v that stops it), so 5/7 of v is left.
    assert math.hypot(first.vx, first.vy) == pytest.approx(5.0 / 7.0 * v, rel=1e-12)
    assert first.vx - R * first.wy == pytest.approx(0.0, abs=1e-12)


def test_flight_is_ballistic_and_lands_at_the_closed_form_time() -> None:
    out = simulate({0: (0.5, 0.635)}, Shot(0.0, 2.0, elevation=45.0))
    first, second = out.tracks[0][0], out.tracks[0][1]
    vz = first.vz
    assert second.t0 == pytest.approx(2.0 * vz / G, rel=1e-12)  # up and down again
    peak = max(height_at(first, first.t0 + k * second.t0 / 200)[0] for k in range(201))
    assert peak == pytest.approx(vz * vz / (2.0 * G), rel=1e-4)
    # In the air the horizontal velocity and the spin do not change.
    assert (second.x - first.x) == pytest.approx(first.vx * second.t0, rel=1e-12)
    # The landing bounces at e_slate of the speed down, until a bounce is too low to fly.
    flights = [s for s in out.tracks[0] if s.state == AIRBORNE]
    for before, after in itertools.pairwise(flights):
        assert after.vz == pytest.approx(E_SLATE * before.vz, rel=1e-12)
    assert flights[-1].vz * E_SLATE < DEFAULT_PARAMS.hop_min_speed <= flights[-1].vz
    assert out.tracks[0][len(flights)].state in (2, 3)  # back on the cloth
    assert in_flight_problems(out, step=0.001) == []


def test_a_level_or_flat_bed_stroke_never_leaves_the_cloth() -> None:
    level = simulate({0: (0.5, 0.635)}, Shot(0.0, 8.0))
    assert all(s.state != AIRBORNE for s in level.tracks[0])
    flat = simulate({0: (0.5, 0.635)}, Shot(0.0, 2.0, elevation=45.0), Params(bed_model="flat"))
    assert all(s.state != AIRBORNE and s.z == 0.0 for s in flat.tracks[0])


def _jump(speed: float, elevation: float) -> tuple[int | None, set[int]]:
    """Cue ball 15 cm behind a blocking ball, the target 50 cm beyond: the first ball the
    cue ball touches, and every ball it touches."""
    balls = {0: (0.6, 0.635), 1: (0.75, 0.635), 2: (1.25, 0.635)}
    out = simulate(balls, Shot(0.0, speed, elevation=elevation))
    touched = {e.b if e.a == 0 else e.a for e in out.events if e.kind == "ball" and 0 in (e.a, e.b)}
    return out.report.first, touched


def test_oracle_jump_shot_clears_a_ball_15_cm_ahead_and_hits_the_one_behind(
    figure: Callable[[str], None],
) -> None:
    # A grid of strokes within the input limits (speed ≤ 13·cos θ); some must jump the
    # blocker without touching it and hit the target first.
    clean = []
    for elevation in range(20, 80, 5):
        top = min(12.0, MAX_IMPULSE_SPEED * math.cos(math.radians(elevation)))
        for k in range(1, 13):
            speed = top * k / 12.0 * (1.0 - 1e-12)
            first, touched = _jump(speed, elevation)
            if first == 2 and 1 not in touched:
                clean.append((elevation, round(speed, 2)))
    assert clean, "no stroke within the limits jumps the blocking ball"
    figure(f"jump: {len(clean)} of the strokes tried clear the blocker, e.g. {clean[:4]}")


def test_a_ball_in_the_air_passes_over_another_without_touching_it() -> None:
    # At the top of a 45° jump at 3 m/s the cue ball's bottom is 11 cm up: a ball under it
    # is never touched, though their centres pass within a few millimetres in the plane.
    out = simulate({0: (0.5, 0.635), 1: (0.71, 0.637)}, Shot(0.0, 3.0, elevation=45.0))
    landing = out.tracks[0][1].t0
    assert not any(e.kind == "ball" and e.t < landing for e in out.events)
    assert in_flight_problems(out, step=0.0005) == []


def test_a_ball_in_the_air_hits_another_above_its_equator() -> None:
    # A low hop meets the object ball above its equator: the object ball is pressed into
    # the slate (which gives some back) and the cue ball is thrown up.
    out = simulate({0: (0.5, 0.635), 1: (0.62, 0.635)}, Shot(0.0, 3.0, elevation=20.0))
    hit = next(e for e in out.events if e.kind == "ball")
    cue_before = next(s for s in reversed(out.tracks[0]) if s.t0 < hit.t)
    cue_after = next(s for s in out.tracks[0] if s.t0 == hit.t)
    z, vz = height_at(cue_before, hit.t)
    assert z > 0.0
    assert cue_after.state == AIRBORNE and cue_after.vz > vz
    obj = next(s for s in out.tracks[1] if s.t0 == hit.t)
    assert obj.vx > 0.0
    assert in_flight_problems(out, step=0.0005) == []


def test_a_ball_flying_over_the_rail_leaves_the_table() -> None:
    # A hard jump from near the foot rail flies over it: an "off" event, reported to the
    # referee in off_table, and the ball is gone.
    out = simulate({0: (2.2, 0.635)}, Shot(0.0, 4.0, elevation=50.0))
    off = [e for e in out.events if e.kind == "off"]
    assert [(e.a, e.rail) for e in off] == [(0, "foot")]
    assert out.report.off_table == (0,)
    assert out.final[0] is None
    assert out.tracks[0][-1].state == 5
    assert in_flight_problems(out, step=0.001) == []


def test_a_ball_in_the_air_is_lifted_by_the_nose_below_its_centre() -> None:
    # A low jump into the foot rail: the ball meets the nose in the air, below the ball's
    # centre once it is more than 7.7 mm up, and comes off it rising faster than it came.
    out = simulate({0: (2.35, 0.635)}, Shot(0.0, 2.0, elevation=35.0))
    rail = next(e for e in out.events if e.kind == "rail")
    before = next(s for s in reversed(out.tracks[0]) if s.t0 < rail.t)
    after = next(s for s in out.tracks[0] if s.t0 == rail.t)
    z, vz = height_at(before, rail.t)
    assert z > DEFAULT_PARAMS.cushion_height - R  # the nose below the centre
    assert after.vz > vz
    assert after.vx < 0.0  # and back into the table
    assert in_flight_problems(out, step=0.001) == []


def test_a_jump_into_a_pocket_drops() -> None:
    # Over the F1 corner: a ball landing with its centre over the hole falls in.
    p = TABLE.pockets["F1"]
    (x0, y0), (x1, y1) = p.mouth
    mid = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
    start = (mid[0] - 0.5 * p.axis[0], mid[1] - 0.5 * p.axis[1])
    angle = math.degrees(math.atan2(p.axis[1], p.axis[0]))
    dropped = [
        speed
        for speed in (1.0, 1.5, 2.0, 2.5)
        if simulate({0: start}, Shot(angle, speed, elevation=40.0)).report.pocketed == (0,)
    ]
    assert dropped
