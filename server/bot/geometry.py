"""Table geometry the bot reasons with before it simulates anything.

Simulating a shot costs one to two milliseconds; a straight-line estimate costs a few
microseconds. So the bot first finds, by geometry alone, which shots can work at all —
ghost-ball pots whose paths are clear, banks and kicks by mirroring across the cushion,
combinations and caroms by chaining ghost balls — and how likely each is under the
level's aiming noise. Only the promising ones are simulated. The same estimate, from the
cue ball's resting place, is how the bot judges the position a shot leaves.

The estimate is the usual one: an aiming error δ at the cue ball moves the contact point
by about ``d1·δ`` and turns the object ball by ``d1·δ / (2R·cos θ)`` (θ the cut angle,
``d1`` the cue ball's travel); the pocket accepts the object ball within a half-width
``w`` that shrinks as the approach leaves the pocket's axis, so it lets through an error
of ``w / d2`` (``d2`` the object ball's travel). With normal noise the chance is the
error function of their ratio. The half-widths were read off the physics by rolling
lone balls at each kind of pocket from every angle.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import pairwise
from typing import Final

from server.physics import TABLE

Point = tuple[float, float]

R: Final = TABLE.ball_radius
D: Final = 2.0 * R
LENGTH: Final = TABLE.length
WIDTH: Final = TABLE.width
MAX_CUT: Final = 80.0
"""Cuts thinner than this (degrees) are not tried as pots: the throw and the slightest
error decide them."""

# (degrees off the pocket's axis, half-width in metres the pocket accepts)
_CORNER_WIDTH: Final = ((0.0, 0.031), (20.0, 0.030), (30.0, 0.027), (40.0, 0.02), (50.0, 0.01))
_SIDE_WIDTH: Final = (
    (0.0, 0.044),
    (15.0, 0.042),
    (30.0, 0.032),
    (45.0, 0.021),
    (55.0, 0.011),
    (60.0, 0.005),
    (64.0, 0.0),
)


@dataclass(frozen=True, slots=True)
class Hole:
    """A pocket as a target: the point an object ball is sent at and the pocket's axis."""

    name: str
    aim: Point
    axis: Point
    side: bool


def _holes() -> tuple[Hole, ...]:
    out = []
    for name, pocket in TABLE.pockets.items():
        (x0, y0), (x1, y1) = pocket.mouth
        out.append(Hole(name, ((x0 + x1) / 2.0, (y0 + y1) / 2.0), pocket.axis, name[0] == "S"))
    return tuple(out)


HOLES: Final = _holes()


@dataclass(frozen=True, slots=True)
class Cushion:
    """A straight cushion a ball's centre rebounds from: the line one radius off the
    nose, and the stretch of it (between the pockets) a ball can bounce along."""

    name: str
    axis: int  # 0: the line is x = value, 1: y = value
    value: float
    lo: float
    hi: float


CUSHIONS: Final = (
    Cushion("head", 0, R, 0.13, WIDTH - 0.13),
    Cushion("foot", 0, LENGTH - R, 0.13, WIDTH - 0.13),
    Cushion("y0h", 1, R, 0.13, LENGTH / 2.0 - 0.09),
    Cushion("y0f", 1, R, LENGTH / 2.0 + 0.09, LENGTH - 0.13),
    Cushion("y1h", 1, WIDTH - R, 0.13, LENGTH / 2.0 - 0.09),
    Cushion("y1f", 1, WIDTH - R, LENGTH / 2.0 + 0.09, LENGTH - 0.13),
)


def sub(a: Point, b: Point) -> Point:
    return (a[0] - b[0], a[1] - b[1])


def norm(v: Point) -> float:
    return math.hypot(v[0], v[1])


def unit(v: Point) -> Point:
    n = math.hypot(v[0], v[1])
    return (v[0] / n, v[1] / n) if n > 0.0 else (1.0, 0.0)


def heading(src: Point, dst: Point) -> float:
    """The aim, in degrees as the physics takes it, from ``src`` toward ``dst``."""
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0]))


def cos_between(u: Point, v: Point) -> float:
    return u[0] * v[0] + u[1] * v[1]


def seg_distance(p: Point, a: Point, b: Point) -> float:
    """Distance from ``p`` to the segment ``a``–``b``."""
    abx, aby = b[0] - a[0], b[1] - a[1]
    apx, apy = p[0] - a[0], p[1] - a[1]
    length2 = abx * abx + aby * aby
    t = 0.0 if length2 <= 0.0 else max(0.0, min(1.0, (apx * abx + apy * aby) / length2))
    return math.hypot(apx - t * abx, apy - t * aby)


def path_clear(a: Point, b: Point, obstacles: Iterable[Point], clearance: float = D) -> bool:
    """No ball in ``obstacles`` stands within ``clearance`` of the centre's path a→b."""
    limit = clearance - 1e-9
    return all(seg_distance(p, a, b) >= limit for p in obstacles)


def half_width(hole: Hole, direction: Point) -> float:
    """How far off the aim point (metres, sideways) a ball rolling along ``direction``
    still drops; 0 when the pocket cannot be reached from that side."""
    cos_axis = cos_between(direction, hole.axis)
    if cos_axis <= 0.0:
        return 0.0
    off = math.degrees(math.acos(min(1.0, cos_axis)))
    table = _SIDE_WIDTH if hole.side else _CORNER_WIDTH
    for (a0, w0), (a1, w1) in pairwise(table):
        if a0 <= off <= a1:
            return w0 + (w1 - w0) * (off - a0) / (a1 - a0)
    return 0.0


def chance(tolerance: float, spread: float) -> float:
    """P(|error| < tolerance) for a normal error of standard deviation ``spread``."""
    if tolerance <= 0.0:
        return 0.0
    if spread <= 0.0:
        return 1.0
    return math.erf(tolerance / (spread * math.sqrt(2.0)))


@dataclass(frozen=True, slots=True)
class Pot:
    """A ghost-ball pot: aim (degrees) and what it takes."""

    hole: Hole
    angle: float
    cut: float  # degrees
    cue_travel: float
    ball_travel: float
    chance: float
    ghost: Point


def direct_pot(
    cue: Point,
    ball: Point,
    hole: Hole,
    obstacles: Iterable[Point],
    sigma: float,
    floor: float,
) -> Pot | None:
    """The straight pot of the ball at ``ball`` into ``hole`` from ``cue``, or None when a
    path is blocked or the cut too thin. ``sigma`` is the aim's spread (radians) and
    ``floor`` an error of the object ball's direction that no aim removes (throw,
    speed): together they make the pot's chance."""
    to_hole = sub(hole.aim, ball)
    d2 = norm(to_hole)
    u = unit(to_hole)
    width = half_width(hole, u)
    if width <= 0.0:
        return None
    ghost = (ball[0] - D * u[0], ball[1] - D * u[1])
    v = sub(ghost, cue)
    d1 = norm(v)
    if d1 < 1e-6:
        v, d1 = u, 1e-6
    cos_cut = cos_between(unit(v), u)
    if cos_cut < math.cos(math.radians(MAX_CUT)):
        return None
    blocks = list(obstacles)
    if not path_clear(cue, ghost, blocks) or not path_clear(ball, hole.aim, blocks):
        return None
    spread = math.hypot(sigma * d1 / (D * cos_cut), floor)
    p = chance(width / max(d2, 1e-6), spread)
    return Pot(
        hole,
        heading(cue, ghost),
        math.degrees(math.acos(min(1.0, cos_cut))),
        d1,
        d2,
        p,
        ghost,
    )


def best_chance(
    cue: Point,
    ball: Point,
    obstacles: list[Point],
    sigma: float,
    floor: float,
) -> float:
    """The best straight pot's chance on ``ball`` from ``cue`` over every pocket."""
    best = 0.0
    for hole in HOLES:
        pot = direct_pot(cue, ball, hole, obstacles, sigma, floor)
        if pot is not None and pot.chance > best:
            best = pot.chance
    return best


def hittable(cue: Point, ball: Point, obstacles: list[Point]) -> bool:
    """Some part of ``ball`` can be hit straight from ``cue``: the full hit or a half-ball
    hit on either side has a clear path."""
    u = unit(sub(ball, cue))
    n = (-u[1], u[0])
    for offset in (0.0, 0.5 * D, -0.5 * D, 0.85 * D, -0.85 * D):
        target = (ball[0] + n[0] * offset, ball[1] + n[1] * offset)
        contact_back = math.sqrt(max(D * D - offset * offset, 0.0))
        end = (target[0] - u[0] * contact_back, target[1] - u[1] * contact_back)
        if path_clear(cue, end, obstacles):
            return True
    return False


def mirror(point: Point, cushion: Cushion) -> Point:
    """``point`` reflected across the line a ball's centre rebounds from."""
    if cushion.axis == 0:
        return (2.0 * cushion.value - point[0], point[1])
    return (point[0], 2.0 * cushion.value - point[1])


def bounce_point(src: Point, mirrored: Point, cushion: Cushion) -> Point | None:
    """Where the straight line ``src``→``mirrored`` crosses the cushion's line, if it does
    on the stretch a ball can bounce along."""
    k = cushion.axis
    denom = mirrored[k] - src[k]
    if abs(denom) < 1e-9:
        return None
    t = (cushion.value - src[k]) / denom
    if not 0.0 < t < 1.0:
        return None
    p = (src[0] + t * (mirrored[0] - src[0]), src[1] + t * (mirrored[1] - src[1]))
    along = p[1 - k]
    return p if cushion.lo <= along <= cushion.hi else None


@dataclass(frozen=True, slots=True)
class Route:
    """A shot found by geometry: the aim (degrees), a rough chance, and what it is for."""

    angle: float
    chance: float
    hole: Hole | None = None
    cut: float = 0.0
    goal: Point | None = None  # where the first object ball is sent (for the aim correction)


def kick_routes(cue: Point, ball: Point, obstacles: list[Point]) -> list[Route]:
    """One-cushion kicks at a full hit on ``ball``: the aim at its mirror image."""
    out = []
    for cushion in CUSHIONS:
        image = mirror(ball, cushion)
        p = bounce_point(cue, image, cushion)
        if p is None:
            continue
        back = unit(sub(ball, p))
        contact = (ball[0] - D * back[0], ball[1] - D * back[1])
        if not path_clear(cue, p, obstacles) or not path_clear(p, contact, obstacles):
            continue
        travel = norm(sub(p, cue)) + norm(sub(contact, p))
        out.append(Route(heading(cue, image), 1.0 / (1.0 + travel)))
    return out


def bank_routes(
    cue: Point, ball: Point, obstacles: list[Point], sigma: float, floor: float
) -> list[Route]:
    """One-cushion banks of ``ball`` into a pocket: the object ball sent at the pocket's
    mirror image, cut from a ghost ball like a straight pot."""
    out = []
    for cushion in CUSHIONS:
        for hole in HOLES:
            image = mirror(hole.aim, cushion)
            p = bounce_point(ball, image, cushion)
            if p is None:
                continue
            leg = unit(sub(hole.aim, p))
            width = half_width(hole, leg)
            if width <= 0.0:
                continue
            u = unit(sub(image, ball))
            ghost = (ball[0] - D * u[0], ball[1] - D * u[1])
            v = sub(ghost, cue)
            d1 = max(norm(v), 1e-6)
            cos_cut = cos_between(unit(v), u)
            if cos_cut < math.cos(math.radians(65.0)):
                continue
            if not (
                path_clear(cue, ghost, obstacles)
                and path_clear(ball, p, obstacles)
                and path_clear(p, hole.aim, obstacles)
            ):
                continue
            d2 = norm(sub(p, ball)) + norm(sub(hole.aim, p))
            spread = math.hypot(sigma * d1 / (D * cos_cut), 2.5 * floor)
            p_bank = 0.6 * chance(width / d2, spread)
            cut = math.degrees(math.acos(min(1.0, cos_cut)))
            out.append(Route(heading(cue, ghost), p_bank, hole, cut, image))
    return out


def combo_routes(
    cue: Point,
    first: Point,
    second: Point,
    obstacles: list[Point],
    sigma: float,
    floor: float,
) -> list[Route]:
    """Combinations: ``first`` (the lowest ball) driven into ``second``, which goes into
    a pocket. The two ghost balls chain: the second's for the pocket, the first's for
    sending the first ball to that spot."""
    out = []
    for hole in HOLES:
        u2 = unit(sub(hole.aim, second))
        width = half_width(hole, u2)
        if width <= 0.0:
            continue
        ghost2 = (second[0] - D * u2[0], second[1] - D * u2[1])
        u1 = unit(sub(ghost2, first))
        cos2 = cos_between(u1, u2)
        if cos2 < math.cos(math.radians(55.0)):
            continue
        ghost1 = (first[0] - D * u1[0], first[1] - D * u1[1])
        v = sub(ghost1, cue)
        d1 = max(norm(v), 1e-6)
        cos1 = cos_between(unit(v), u1)
        if cos1 < math.cos(math.radians(70.0)):
            continue
        if not (
            path_clear(cue, ghost1, obstacles)
            and path_clear(first, ghost2, obstacles)
            and path_clear(second, hole.aim, obstacles)
        ):
            continue
        d12 = max(norm(sub(ghost2, first)), 1e-6)
        d2 = max(norm(sub(hole.aim, second)), 1e-6)
        err1 = math.hypot(sigma * d1 / (D * cos1), floor)
        err2 = math.hypot(err1 * d12 / (D * cos2), floor)
        p = chance(width / d2, err2)
        cut = math.degrees(math.acos(min(1.0, cos1)))
        out.append(Route(heading(cue, ghost1), p, hole, cut, ghost2))
    return out


def carom_routes(
    cue: Point,
    first: Point,
    nine: Point,
    obstacles: list[Point],
) -> list[Route]:
    """The cue ball off ``first`` into ``nine`` and the 9 into a pocket, along the
    tangent line: the cue ball meets ``first`` where the line of centres is square to
    its way on to the 9's ghost ball (a stun shot leaves at right angles)."""
    out = []
    for hole in HOLES:
        u9 = unit(sub(hole.aim, nine))
        width = half_width(hole, u9)
        if width <= 0.0:
            continue
        ghost9 = (nine[0] - D * u9[0], nine[1] - D * u9[1])
        # Contacts C with |C - first| = D and (ghost9 - C)·(first - C) = 0: the circle
        # of radius D about `first` meets the Thales circle over first–ghost9.
        mid = ((first[0] + ghost9[0]) / 2.0, (first[1] + ghost9[1]) / 2.0)
        rad = norm(sub(ghost9, first)) / 2.0
        for contact in _circle_meet(first, D, mid, rad):
            to_first = unit(sub(first, contact))
            way = sub(contact, cue)
            if norm(way) < 1e-6:
                continue
            cos_in = cos_between(unit(way), to_first)
            if cos_in < math.cos(math.radians(70.0)):
                continue
            leave = unit(sub(ghost9, contact))
            if cos_between(leave, u9) < math.cos(math.radians(50.0)):
                continue
            others = [p for p in obstacles if p != nine]
            if not (
                path_clear(cue, contact, obstacles)
                and path_clear(contact, ghost9, others)
                and path_clear(nine, hole.aim, obstacles)
            ):
                continue
            travel = norm(way) + norm(sub(ghost9, contact)) + norm(sub(hole.aim, nine))
            out.append(Route(heading(cue, contact), 0.4 / (1.0 + 2.0 * travel), hole))
    return out


def _circle_meet(c0: Point, r0: float, c1: Point, r1: float) -> list[Point]:
    d = norm(sub(c1, c0))
    if d < 1e-9 or d > r0 + r1 or d < abs(r0 - r1):
        return []
    a = (r0 * r0 - r1 * r1 + d * d) / (2.0 * d)
    h = math.sqrt(max(r0 * r0 - a * a, 0.0))
    ux, uy = (c1[0] - c0[0]) / d, (c1[1] - c0[1]) / d
    px, py = c0[0] + a * ux, c0[1] + a * uy
    return [(px - h * uy, py + h * ux), (px + h * uy, py - h * ux)]


def pot_speed(cut: float, cue_travel: float, ball_travel: float) -> float:
    """About the cue-ball speed (m/s) that sends the object ball to the pocket with a
    little pace left: a ball rolls about 2.7·v² metres on this cloth, the object ball
    leaves with about cos(cut) of the cue ball's speed, and the cue ball loses some on
    its way."""
    object_speed = math.sqrt((ball_travel + 0.25) / 2.7)
    at_contact = object_speed / max(0.975 * math.cos(math.radians(cut)), 0.2)
    return math.sqrt(at_contact * at_contact + 0.25 * cue_travel) * 1.1


def others(layout: Mapping[int, Point], *skip: int) -> list[Point]:
    """Positions of the balls on the table, leaving out ``skip``."""
    return [pos for ball, pos in layout.items() if ball not in skip]
