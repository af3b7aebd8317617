"""The compliant cluster model: an isolated pair keeps the pairwise laws, a rack spreads.

Why these checks: the cluster solver replaces the instantaneous pairwise collision only
where contacts overlap in time, so an isolated Hertz impact must give back what the
pairwise model gives (restitution, momentum), and the rack must leave the lattice the
pairwise model is stuck on — and do what real racks do: from a square side break with a
tight rack the wing ball goes in the foot corner over a wide range of speeds (Alciatore).
"""

from __future__ import annotations

import dataclasses
import math

import pytest
from physics_oracles import in_flight_problems

from server.physics import DEFAULT_PARAMS, TABLE, Shot, kitchen_spot, rack, simulate
from server.physics.motion import height_at
from server.physics.resolve.cluster import hertz, hertz3d

R = TABLE.ball_radius


@pytest.mark.parametrize("speed", [0.5, 2.0, 10.0])
def test_isolated_hertz_pair_gives_the_restitution_and_keeps_momentum(speed: float) -> None:
    a = (0.0, 0.0, speed, 0.0, 0.0, 0.0, 0.0)
    b = (2.0 * R, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
    (va, vb), touched = hertz.resolve([a, b], [(0, 1)], speed, DEFAULT_PARAMS)
    assert touched == [(0, 1)]
    assert va[2] + vb[2] == pytest.approx(speed, rel=1e-12)
    ratio = (vb[2] - va[2]) / speed
    assert ratio == pytest.approx(DEFAULT_PARAMS.e_ball, abs=0.01)


def test_hertz_contact_time_matches_the_textbook_figures() -> None:
    # PHYSICS.md: about 250 µs at 8–10 m/s, 390 µs at 1 m/s.
    assert 230e-6 < hertz.contact_time(9.0, DEFAULT_PARAMS) < 270e-6
    assert 370e-6 < hertz.contact_time(1.0, DEFAULT_PARAMS) < 410e-6


def _square_break(y: float, speed: float, seed: int, cluster_model: str) -> tuple[str, ...]:
    params = dataclasses.replace(DEFAULT_PARAMS, cluster_model=cluster_model)
    balls = {0: (0.55, y), **rack(seed)}
    one = balls[1]
    angle = math.degrees(math.atan2(one[1] - y, one[0] - 0.55))
    out = simulate(balls, Shot(angle, speed), params)
    return tuple(e.pocket or "" for e in out.events if e.kind == "pocket" and e.a != 0)


@pytest.mark.parametrize("speed", [6.0, 9.0, 12.0])
def test_square_side_break_sends_a_wing_ball_to_the_foot_corner(speed: float) -> None:
    for seed in (0, 1):
        assert {"F0", "F1"} & set(_square_break(0.08, speed, seed, "hertz"))


def test_pairwise_rack_stays_on_the_lattice_the_compliant_rack_does_not() -> None:
    balls = {0: (0.5, TABLE.width / 2.0), **rack(4)}
    wing = max(balls, key=lambda b: balls[b][1])  # the top wing ball of the diamond
    directions = {}
    for model in ("pairwise", "hertz"):
        params = dataclasses.replace(DEFAULT_PARAMS, cluster_model=model)
        one = balls[1]
        angle = math.degrees(math.atan2(one[1] - balls[0][1], one[0] - balls[0][0]))
        out = simulate(balls, Shot(angle, 10.0), params)
        first = next(s for s in out.tracks[wing] if s.vx or s.vy)
        directions[model] = math.degrees(math.atan2(first.vy, first.vx))
    assert directions["pairwise"] == pytest.approx(30.0, abs=1.5)
    assert 45.0 < directions["hertz"] < 65.0


def test_cluster_events_start_with_the_cue_ball_hitting_the_one() -> None:
    balls = {0: (0.5, TABLE.width / 2.0), **rack(2)}
    out = simulate(balls, Shot(0.0, 10.0))
    first = out.events[0]
    assert (first.kind, first.a, first.b) == ("ball", 0, 1)
    assert out.report.first == 1
    at_impact = [e for e in out.events if e.t == first.t]
    assert len(at_impact) >= 10  # most racked contacts took part at once


def test_the_3d_solver_on_the_cloth_is_the_plane_solver() -> None:
    # Every ball on the cloth: the three-dimensional form gives the plane's answer (the
    # contacts are horizontal, the slate takes nothing but the balls' weight).
    balls = {0: kitchen_spot(), **rack(5)}
    states = [(*balls[k], 0.0, 0.0, 0.0, 0.0, 0.0) for k in sorted(balls)]
    cue = states[0]
    one = states[1]
    d = math.dist(cue[:2], one[:2])
    ux, uy = (one[0] - cue[0]) / d, (one[1] - cue[1]) / d
    states[0] = (one[0] - 2.0 * R * ux, one[1] - 2.0 * R * uy, 10.0 * ux, 10.0 * uy, 0, 0, 0)
    pairs = [(0, 1)] + [(p, q) for p in range(1, 10) for q in range(p + 1, 10)]
    flat, touched = hertz.resolve(states, pairs, 10.0, DEFAULT_PARAMS)
    after, heights, bed, touched_3d = hertz3d.resolve(
        states, [(0.0, 0.0)] * 10, [True] * 10, pairs, 10.0, DEFAULT_PARAMS
    )
    assert touched_3d == touched
    for a, b in zip(flat, after, strict=True):
        assert a[2:] == pytest.approx(b[2:], abs=1e-9)
    assert all(vz == 0.0 for _, vz in heights)
    assert all(took == 0.0 for took in bed)


def test_a_hopping_cue_ball_meets_the_rack_in_three_dimensions() -> None:
    # A break with the cue elevated 8°: the cue ball hops and meets the 1 above its
    # equator. The rack is resolved at once (every racked contact at the impact), the 1 is
    # pressed into the slate, and the cue ball is thrown up.
    balls = {0: kitchen_spot(), **rack(3)}
    one = balls[1]
    angle = math.degrees(math.atan2(one[1] - balls[0][1], one[0] - balls[0][0]))
    out = simulate(balls, Shot(angle, 10.5, elevation=8.0))
    hit = out.events[0]
    assert (hit.kind, hit.a, hit.b) == ("ball", 0, 1)
    before = next(s for s in reversed(out.tracks[0]) if s.t0 < hit.t)
    z, _ = height_at(before, hit.t)
    assert z > 0.005
    assert len([e for e in out.events if e.t == hit.t]) >= 10
    cue_after = next(s for s in out.tracks[0] if s.t0 == hit.t)
    assert cue_after.state == 6 and cue_after.vz > 0.5
    assert in_flight_problems(out, step=0.001) == []
