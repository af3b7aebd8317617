"""Measurements behind the accuracy oracles of the physics issue.

Each function sets up a shot on the real table, simulates it and returns what it measured,
next to the closed-form value where there is one. The tests assert on them and the
benchmark prints them.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from server.physics import DEFAULT_PARAMS, TABLE, Params, Shot, ShotOutcome, simulate
from server.physics.motion import height_at, state_at
from server.physics.outcome import Segment
from server.physics.world import WORLD

R = TABLE.ball_radius
Point = tuple[float, float]


def segment_at(track: tuple[Segment, ...], t: float) -> Segment:
    """The segment that starts at or last before ``t``."""
    current = track[0]
    for seg in track:
        if seg.t0 <= t:
            current = seg
    return current


def velocity_after(outcome: ShotOutcome, ball: int, t: float) -> tuple[float, float]:
    seg = segment_at(outcome.tracks[ball], t)
    _, _, vx, vy, *_ = state_at(seg, t)
    return vx, vy


def velocity_before(outcome: ShotOutcome, ball: int, t: float) -> tuple[float, float]:
    track = outcome.tracks[ball]
    previous = track[0]
    for seg in track:
        if seg.t0 < t:
            previous = seg
    _, _, vx, vy, *_ = state_at(previous, t)
    return vx, vy


def position_at(outcome: ShotOutcome, ball: int, t: float) -> Point:
    x, y, *_ = state_at(segment_at(outcome.tracks[ball], t), t)
    return x, y


def angle_deg(v: Point) -> float:
    return math.degrees(math.atan2(v[1], v[0]))


def angle_between(a: Point, b: Point) -> float:
    """Signed angle from a to b in degrees, in (−180, 180]."""
    d = angle_deg(b) - angle_deg(a)
    return (d + 180.0) % 360.0 - 180.0


def stun_tip_height(speed: float, distance: float, params: Params = DEFAULT_PARAMS) -> float:
    """The draw that leaves the ball spinless (stun) after sliding ``distance``."""
    a = params.mu_slide * params.g
    return -1.0 + math.sqrt(1.0 - 2.0 * distance * a / (speed * speed))


def stun_distance(speed: float, params: Params = DEFAULT_PARAMS) -> float:
    """A travel distance short enough that a stun needs little draw at this speed."""
    return min(0.4, 0.15 * speed * speed / (params.mu_slide * params.g))


# -- 1. the natural roll ------------------------------------------------------------------


@dataclass(frozen=True)
class RollResult:
    roll_ratio: float  # speed at the start of rolling / initial speed (5/7 expected)
    distance: float
    expected_distance: float
    first_state: int


def centre_ball_roll(
    speed: float, tip_height: float = 0.0, params: Params = DEFAULT_PARAMS
) -> RollResult:
    start = (0.2, TABLE.width / 2.0)
    out = simulate({0: start}, Shot(0.0, speed, (0.0, tip_height)), params)
    track = out.tracks[0]
    rolling = next(seg for seg in track if seg.state == 3)
    end = out.final[0]
    assert end is not None
    ms, mr, g = params.mu_slide, params.mu_roll, params.g
    v_roll = 5.0 * speed / 7.0
    expected = (speed**2 - v_roll**2) / (2 * ms * g) + v_roll**2 / (2 * mr * g)
    return RollResult(
        math.hypot(rolling.vx, rolling.vy) / speed, end[0] - start[0], expected, track[0].state
    )


# -- 2. full-ball stun hit ----------------------------------------------------------------


def stun_full_ball(speed: float, params: Params = DEFAULT_PARAMS) -> tuple[float, float]:
    """(cue ball speed after / before, object ball speed after / cue ball before)."""
    d = stun_distance(speed, params)
    cue = (0.6, TABLE.width / 2.0)
    obj = (cue[0] + d + 2.0 * R, cue[1])
    tip = stun_tip_height(speed, d, params)
    out = simulate({0: cue, 1: obj}, Shot(0.0, speed, (0.0, tip)), params)
    hit = next(e for e in out.events if e.kind == "ball")
    before = math.hypot(*velocity_before(out, 0, hit.t))
    return (
        math.hypot(*velocity_after(out, 0, hit.t)) / before,
        math.hypot(*velocity_after(out, 1, hit.t)) / before,
    )


# -- 3 & 4. cut shots ---------------------------------------------------------------------


@dataclass(frozen=True)
class CutResult:
    line_of_centres: float  # degrees
    object_dir: float
    cue_dir: float
    throw: float  # object direction − line of centres, + toward the cue ball's path
    separation: float  # angle between the departing cue and object balls
    cue_final_deflection: float  # cue ball's rolling direction after the hit vs its aim


def cut_shot(
    cut_deg: float,
    speed: float,
    params: Params = DEFAULT_PARAMS,
    *,
    stun: bool = True,
    distance: float | None = None,
) -> CutResult:
    """The cue ball travels along +x and hits the object ball at ``cut_deg`` (the object
    ball on the left, so it departs toward +y and the cue ball toward −y)."""
    d = stun_distance(speed, params) if distance is None else distance
    cue = (0.5, 0.3)
    contact = (cue[0] + d, cue[1])
    phi = math.radians(cut_deg)
    obj = (contact[0] + 2.0 * R * math.cos(phi), contact[1] + 2.0 * R * math.sin(phi))
    tip = (0.0, stun_tip_height(speed, d, params)) if stun else (0.0, 0.4)
    out = simulate({0: cue, 1: obj}, Shot(0.0, speed, tip), params)
    hit = next(e for e in out.events if e.kind == "ball")
    cp, op = position_at(out, 0, hit.t), position_at(out, 1, hit.t)
    loc = angle_deg((op[0] - cp[0], op[1] - cp[1]))
    ov = velocity_after(out, 1, hit.t)
    cv = velocity_after(out, 0, hit.t)
    # The cue ball's last rolling segment before it touches anything else.
    later = [seg for seg in out.tracks[0] if seg.t0 > hit.t]
    next_contact = min(
        (e.t for e in out.events if e.t > hit.t and 0 in (e.a, e.b)), default=math.inf
    )
    rolling = [seg for seg in later if seg.state == 3 and seg.t0 < next_contact]
    final_dir = angle_deg((rolling[0].vx, rolling[0].vy)) if rolling else math.nan
    # Positive throw = the object ball turned from the line of centres toward the cue
    # ball's direction of travel (+x): a clockwise turn here.
    throw = -angle_between(_unit(loc), ov)
    return CutResult(
        loc, angle_deg(ov), angle_deg(cv), throw, abs(angle_between(ov, cv)), final_dir
    )


def _unit(deg: float) -> Point:
    return (math.cos(math.radians(deg)), math.sin(math.radians(deg)))


def rolling_deflection_closed_form(cut_deg: float, e: float) -> float:
    """Deflection of a rolling cue ball's final path after a frictionless hit at cut φ.

    Just after the hit the cue ball keeps its tangential speed v·sinφ and (1 − e)/2 of the
    normal v·cosφ, and its rolling spin (worth v along the aim); the cloth then brings it
    to rolling at (5·v_after + 2·v_spin) / 7. For e = 1 this is
    atan((5/7)·sinφ·cosφ / (sin²φ + (2/7)·cos²φ)).
    """
    phi = math.radians(cut_deg)
    # Frame: x along the aim; the line of centres at +φ, the tangent at φ − 90°.
    nx, ny = math.cos(phi), math.sin(phi)
    vt = math.sin(phi)  # along t = (sinφ, −cosφ)
    vn = (1.0 - e) / 2.0 * math.cos(phi)
    ax = vt * math.sin(phi) + vn * nx
    ay = -vt * math.cos(phi) + vn * ny
    fx, fy = (5.0 * ax + 2.0) / 7.0, 5.0 * ay / 7.0
    return -math.degrees(math.atan2(fy, fx))


# -- 5. thin cuts and random shots --------------------------------------------------------


def thin_cut_makes_contact(cut_deg: float, speed: float) -> bool:
    out = simulate(*_thin_cut_setup(cut_deg), Shot(0.0, speed))
    return any(e.kind == "ball" and {e.a, e.b} == {0, 1} for e in out.events)


def _thin_cut_setup(cut_deg: float) -> tuple[dict[int, Point]]:
    cue = (0.5, 0.3)
    contact = (1.2, 0.3)
    phi = math.radians(cut_deg)
    obj = (contact[0] + 2.0 * R * math.cos(phi), contact[1] + 2.0 * R * math.sin(phi))
    return ({0: cue, 1: obj},)


def random_layout(rng: random.Random) -> dict[int, Point]:
    margin = R + 1e-4
    balls: dict[int, Point] = {}
    numbers = sorted(rng.sample(range(1, 10), rng.randint(1, 9)))
    for number in [0, *numbers]:
        while True:
            p = (
                rng.uniform(margin, TABLE.length - margin),
                rng.uniform(margin, TABLE.width - margin),
            )
            if WORLD.ball_clear_of_table(p, R) and all(
                math.dist(p, q) >= 2.0 * R + 1e-4 for q in balls.values()
            ):
                balls[number] = p
                break
    return balls


def random_shot(rng: random.Random) -> Shot:
    r = 0.5 * math.sqrt(rng.random())
    a = rng.uniform(0.0, 2.0 * math.pi)
    elevation = rng.choice([0.0, 0.0, rng.uniform(0.0, 75.0)])
    top = min(12.0, 13.0 * math.cos(math.radians(elevation)))  # the hardest stroke
    return Shot(
        rng.uniform(0.0, 360.0),
        rng.uniform(0.05, top),
        (r * math.cos(a), r * math.sin(a)),
        elevation,
    )


def final_state_problems(out: ShotOutcome) -> list[str]:
    """Balls resting outside the playing surface or overlapping another ball, and balls
    reported off the table that did not fly off it (an ``"off"`` event)."""
    problems = []
    rest = {k: p for k, p in out.final.items() if p is not None}
    for k, p in rest.items():
        if not WORLD.ball_resting_ok(p, R - 1e-7):
            problems.append(f"ball {k} off the surface at {p}")
    ids = sorted(rest)
    for i, a in enumerate(ids):
        for b in ids[i + 1 :]:
            gap = math.dist(rest[a], rest[b]) - 2.0 * R
            if gap < -1e-7:
                problems.append(f"balls {a} and {b} overlap by {-gap:.3g} m")
    flown = [e.a for e in out.events if e.kind == "off"]
    if list(out.report.off_table) != flown:
        problems.append(f"off the table without flying off: {out.report.off_table}")
    return problems


# -- 6. cushions --------------------------------------------------------------------------


def cushion_square_ratio(speed: float, params: Params = DEFAULT_PARAMS, stun: bool = True) -> float:
    """Rebound speed / approach speed of a ball driven square into the foot rail."""
    d = stun_distance(speed, params)
    start = (TABLE.length - R - d, TABLE.width / 2.0)
    tip = (0.0, stun_tip_height(speed, d, params)) if stun else (0.0, 0.4)
    out = simulate({0: start}, Shot(0.0, speed, tip), params)
    hit = next(e for e in out.events if e.kind == "rail")
    return math.hypot(*velocity_after(out, 0, hit.t)) / math.hypot(*velocity_before(out, 0, hit.t))


def cushion_impact_speed(speed: float, params: Params = DEFAULT_PARAMS) -> float:
    """The speed at which ``cushion_square_ratio``'s ball meets the rail."""
    d = stun_distance(speed, params)
    start = (TABLE.length - R - d, TABLE.width / 2.0)
    out = simulate({0: start}, Shot(0.0, speed, (0.0, stun_tip_height(speed, d, params))), params)
    hit = next(e for e in out.events if e.kind == "rail")
    return math.hypot(*velocity_before(out, 0, hit.t))


def cushion_rebound_angle(
    side: float, speed: float = 2.0, params: Params = DEFAULT_PARAMS
) -> float:
    """Rebound angle from the rail's normal (degrees) of a rolling ball hitting the foot
    rail at 45° with side spin ``side``; the ball heads up-table to the shooter's left,
    so left english (side < 0) is running english."""
    start = (TABLE.length - 0.45, 0.35)
    out = simulate({0: start}, Shot(45.0, speed, (side, 0.3)), params)
    hit = next(e for e in out.events if e.kind == "rail")
    vx, vy = velocity_after(out, 0, hit.t)
    return math.degrees(math.atan2(vy, -vx))


# -- 7. pockets ---------------------------------------------------------------------------


def corner_pocket_shot(speed: float, pocket: str = "F1") -> ShotOutcome:
    p = TABLE.pockets[pocket]
    (x0, y0), (x1, y1) = p.mouth
    mid = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
    start = (mid[0] - 0.6 * p.axis[0], mid[1] - 0.6 * p.axis[1])
    return simulate({0: start}, Shot(angle_deg(p.axis), speed, (0.0, 0.4)))


def jaw_point_shot(speed: float, pocket: str = "F1", jaw: int = 1) -> ShotOutcome:
    """A ball driven from the table straight at the rounded point of a jaw: its centre
    heads for the tip's centre, so it meets the tip square on, on the arc between the
    rail's and the facing's normals (a quarter of the way from the rail's)."""
    p = TABLE.pockets[pocket]
    j = p.jaws[jaw]
    rail = TABLE.rails[j.rail]
    nx, ny = rail.normal
    fx, fy = j.facing.normal
    u = (3.0 * nx + fx, 3.0 * ny + fy)
    n = math.hypot(*u)
    u = (u[0] / n, u[1] / n)
    c = j.tip.centre
    start = (c[0] + 0.3 * u[0], c[1] + 0.3 * u[1])
    return simulate({0: start}, Shot(angle_deg((-u[0], -u[1])), speed, (0.0, 0.4)))


def in_flight_problems(out: ShotOutcome, step: float = 0.002) -> list[str]:
    """Sample every ball's trajectory and report overlaps (as spheres: a ball in the air
    may pass over another) or balls outside the outline at any moment (not just at rest),
    balls below the cloth anywhere but over a hole, and jumps between consecutive
    segments (in height too, except a ball rattling out of a hole back onto the slate)."""
    problems: list[str] = []
    for ball, track in out.tracks.items():
        for prev, seg in itertools.pairwise(track):
            x, y, *_ = state_at(prev, seg.t0)
            z, _ = height_at(prev, seg.t0)
            if math.hypot(x - seg.x, y - seg.y) > 1e-9:
                problems.append(f"ball {ball} jumps at t = {seg.t0}")
            if abs(z - seg.z) > 1e-9 and not (z < 0.0 and seg.z == 0.0):
                problems.append(f"ball {ball} jumps in height at t = {seg.t0}")
    n = int(out.duration / step) + 2
    for k in range(n):
        t = k * step
        pos: dict[int, tuple[float, float, float]] = {}
        for ball, track in out.tracks.items():
            seg = segment_at(track, t)
            if seg.state >= 4 and seg.state != 6 and seg.t0 <= t:
                continue
            x, y, *_ = state_at(seg, t)
            z, _ = height_at(seg, t)
            pos[ball] = (x, y, z)
            if not WORLD.on_bed((x, y)):
                problems.append(f"ball {ball} off the slate at t = {t:.3f}: {(x, y)}")
            if z < -1e-9 and WORLD.hole_at((x, y)) is None:
                problems.append(f"ball {ball} under the cloth at t = {t:.3f}: {(x, y, z)}")
        ids = sorted(pos)
        for i, a in enumerate(ids):
            for b in ids[i + 1 :]:
                if math.dist(pos[a], pos[b]) < 2.0 * R - 1e-7:
                    problems.append(f"balls {a} and {b} overlap at t = {t:.3f}")
    return problems


def drops_first_time(out: ShotOutcome, pocket: str, travel: float, speed: float) -> bool:
    """The cue ball dropped in ``pocket`` on its way in, not after rattling out and coming
    back: within the time a rolling ball needs for ``travel`` metres, plus 0.25 s."""
    limit = 1.5 * travel / speed + 0.25
    return any(e.kind == "pocket" and e.pocket == pocket and e.t < limit for e in out.events)


def rail_roll_drops(speed: float, params: Params = DEFAULT_PARAMS) -> int:
    """Of eleven balls rolled along the y = 0 long rail into the F0 corner, 0–25 mm off
    the cushion, how many drop on the way in."""
    drops = 0
    for k in range(11):
        start = (TABLE.length - 0.8, R + 0.0025 * k + 1e-6)
        out = simulate({0: start}, Shot(0.0, speed, (0.0, 0.4)), params)
        drops += drops_first_time(out, "F0", 0.8, speed)
    return drops


def corner_window(speed: float, params: Params = DEFAULT_PARAMS, step: float = 0.002) -> float:
    """Width (m) of the band of straight-in lines along the F1 pocket's axis on which a
    rolling ball drops: the lines are ``step`` apart across the axis."""
    p = TABLE.pockets["F1"]
    (x0, y0), (x1, y1) = p.mouth
    mid = ((x0 + x1) / 2.0, (y0 + y1) / 2.0)
    across = (-p.axis[1], p.axis[0])
    width = 0.0
    for k in range(-40, 41):
        off = k * step
        start = (
            mid[0] - 0.6 * p.axis[0] + off * across[0],
            mid[1] - 0.6 * p.axis[1] + off * across[1],
        )
        out = simulate({0: start}, Shot(angle_deg(p.axis), speed, (0.0, 0.4)), params)
        width += step * drops_first_time(out, "F1", 0.6, speed)
    return width
