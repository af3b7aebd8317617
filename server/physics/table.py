"""The WPA 9-ft table: playing surface, cushion noses, pockets with real jaws, markings.

Coordinates are metres with the origin where the head-rail nose meets the y = 0 side-rail
nose; x runs toward the foot rail (0 … 2.54), y across (0 … 1.27).

The cushion outline is built from two primitives a ball centre can touch:

* straight lines (the rail noses between pockets and the jaw facings), touched when the
  ball centre is one ball radius from the line;
* circles (the rounded jaw tips), touched when the centre is ``R + tip_radius`` away.

Each jaw is a facing cut into the rail at the WPA angle (142° at the corners, 103° at the
sides, measured between the nose and the facing through the cushion), with its point
rounded by a small circle tangent to both the nose and the facing, so the outline is
smooth and closed except at the pocket holes. A ball drops once its centre enters the
pocket's hole circle (the edge of the slate, a shelf depth past the mouth line).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

Point = tuple[float, float]

TABLE_LENGTH = 2.54
TABLE_WIDTH = 1.27
BALL_RADIUS = 0.028575
CORNER_MOUTH = 0.1159  # WPA 114.3–117.5 mm, between the jaw points
SIDE_MOUTH = 0.1286  # WPA 127–130.2 mm
CORNER_JAW_ANGLE = 142.0  # degrees between nose and facing, through the cushion
SIDE_JAW_ANGLE = 103.0
JAW_TIP_RADIUS = 0.004  # the rounded point of a jaw
CORNER_SHELF = 0.030  # mouth line to the slate edge, along the pocket axis
SIDE_SHELF = 0.0095
CORNER_HOLE_RADIUS = 0.070
SIDE_HOLE_RADIUS = 0.065
FACING_LENGTH = 0.12  # long enough to reach well inside the hole circle
CUSHION_HEIGHT = 0.0363  # nose height above the bed: 63.5 % of the ball's height
DIAMOND_OFFSET = 0.0935  # from the cushion nose out to the diamond sights on the rail top


@dataclass(frozen=True, slots=True)
class Line:
    """A straight cushion piece from ``start`` to ``end``; ``normal`` points into the table."""

    name: str
    rail: str
    start: Point
    end: Point
    normal: Point
    pocket: str | None = None  # set for a jaw facing


@dataclass(frozen=True, slots=True)
class Tip:
    """A rounded jaw point, part of ``rail``'s cushion at pocket ``pocket``."""

    name: str
    rail: str
    pocket: str
    centre: Point
    radius: float


@dataclass(frozen=True, slots=True)
class Jaw:
    """One side of a pocket: the theoretical point, the rounded tip and the facing."""

    rail: str
    point: Point
    tip: Tip
    facing: Line


@dataclass(frozen=True, slots=True)
class Pocket:
    """A pocket: ``mouth`` between the jaw points, and the hole a ball drops into."""

    name: str
    mouth: tuple[Point, Point]
    mouth_width: float
    jaw_angle: float
    jaws: tuple[Jaw, Jaw]
    centre: Point
    radius: float
    axis: Point  # unit vector from the mouth into the pocket


@dataclass(frozen=True, slots=True)
class Table:
    """Everything about the table that is not a tunable coefficient."""

    length: float
    width: float
    ball_radius: float
    cushion_height: float
    head_string_x: float
    foot_spot: Point
    centre_spot: Point
    head_spot: Point
    pockets: dict[str, Pocket]
    rails: dict[str, Line]
    diamonds: tuple[Point, ...]

    @property
    def lines(self) -> tuple[Line, ...]:
        """Every straight cushion piece: the six rail noses and the twelve jaw facings."""
        facings = tuple(jaw.facing for p in self.pockets.values() for jaw in p.jaws)
        return tuple(self.rails.values()) + facings

    @property
    def tips(self) -> tuple[Tip, ...]:
        return tuple(jaw.tip for p in self.pockets.values() for jaw in p.jaws)


def _add(p: Point, q: Point, k: float = 1.0) -> Point:
    return (p[0] + k * q[0], p[1] + k * q[1])


def _unit(p: Point) -> Point:
    n = math.hypot(p[0], p[1])
    return (p[0] / n, p[1] / n)


@dataclass(frozen=True, slots=True)
class _JawSpec:
    rail: str
    point: Point
    along: Point  # unit vector along the nose, away from the pocket
    out: Point  # unit vector out of the table, into the rail


def _jaw(spec: _JawSpec, pocket: str, angle_deg: float, side: str) -> tuple[Jaw, Point]:
    """Build one jaw; returns it and the tangency point where the rail nose ends."""
    a = math.radians(angle_deg)
    facing_dir = _add(
        (math.cos(a) * spec.along[0], math.cos(a) * spec.along[1]), spec.out, math.sin(a)
    )
    bisector = _unit(_add(spec.along, facing_dir))
    half = a / 2.0
    tip_centre = _add(spec.point, bisector, JAW_TIP_RADIUS / math.sin(half))
    tangent = JAW_TIP_RADIUS / math.tan(half)
    nose_end = _add(spec.point, spec.along, tangent)
    facing_start = _add(spec.point, facing_dir, tangent)
    facing_end = _add(spec.point, facing_dir, FACING_LENGTH)
    # The facing's playing side faces the pocket: rotate the direction toward the mouth.
    normal = (facing_dir[1], -facing_dir[0])
    if normal[0] * spec.along[0] + normal[1] * spec.along[1] > 0:
        normal = (-normal[0], -normal[1])
    tip = Tip(f"{pocket}.{side}.tip", spec.rail, pocket, tip_centre, JAW_TIP_RADIUS)
    facing = Line(f"{pocket}.{side}.facing", spec.rail, facing_start, facing_end, normal, pocket)
    return Jaw(spec.rail, spec.point, tip, facing), nose_end


def _pocket(
    name: str,
    mouth: float,
    angle: float,
    shelf: float,
    hole: float,
    specs: tuple[_JawSpec, _JawSpec],
) -> tuple[Pocket, dict[str, Point]]:
    jaw0, end0 = _jaw(specs[0], name, angle, "0")
    jaw1, end1 = _jaw(specs[1], name, angle, "1")
    p0, p1 = specs[0].point, specs[1].point
    mid = ((p0[0] + p1[0]) / 2.0, (p0[1] + p1[1]) / 2.0)
    axis = _unit(_add(specs[0].out, specs[1].out))
    centre = _add(mid, axis, shelf + hole)
    pocket = Pocket(name, (p0, p1), mouth, angle, (jaw0, jaw1), centre, hole, axis)
    return pocket, {specs[0].rail + name: end0, specs[1].rail + name: end1}


def build_table() -> Table:
    """Lay out the WPA 9-ft table from the module constants."""
    length, width = TABLE_LENGTH, TABLE_WIDTH
    d = CORNER_MOUTH / math.sqrt(2.0)
    s = SIDE_MOUTH / 2.0
    half = length / 2.0
    corner = (CORNER_MOUTH, CORNER_JAW_ANGLE, CORNER_SHELF, CORNER_HOLE_RADIUS)
    side = (SIDE_MOUTH, SIDE_JAW_ANGLE, SIDE_SHELF, SIDE_HOLE_RADIUS)
    layout: list[tuple[str, tuple[float, float, float, float], tuple[_JawSpec, _JawSpec]]] = [
        (
            "H0",
            corner,
            (
                _JawSpec("y0h", (d, 0.0), (1.0, 0.0), (0.0, -1.0)),
                _JawSpec("head", (0.0, d), (0.0, 1.0), (-1.0, 0.0)),
            ),
        ),
        (
            "H1",
            corner,
            (
                _JawSpec("y1h", (d, width), (1.0, 0.0), (0.0, 1.0)),
                _JawSpec("head", (0.0, width - d), (0.0, -1.0), (-1.0, 0.0)),
            ),
        ),
        (
            "S0",
            side,
            (
                _JawSpec("y0h", (half - s, 0.0), (-1.0, 0.0), (0.0, -1.0)),
                _JawSpec("y0f", (half + s, 0.0), (1.0, 0.0), (0.0, -1.0)),
            ),
        ),
        (
            "S1",
            side,
            (
                _JawSpec("y1h", (half - s, width), (-1.0, 0.0), (0.0, 1.0)),
                _JawSpec("y1f", (half + s, width), (1.0, 0.0), (0.0, 1.0)),
            ),
        ),
        (
            "F0",
            corner,
            (
                _JawSpec("y0f", (length - d, 0.0), (-1.0, 0.0), (0.0, -1.0)),
                _JawSpec("foot", (length, d), (0.0, 1.0), (1.0, 0.0)),
            ),
        ),
        (
            "F1",
            corner,
            (
                _JawSpec("y1f", (length - d, width), (-1.0, 0.0), (0.0, 1.0)),
                _JawSpec("foot", (length, width - d), (0.0, -1.0), (1.0, 0.0)),
            ),
        ),
    ]
    pockets: dict[str, Pocket] = {}
    ends: dict[str, Point] = {}
    for name, (mouth, angle, shelf, hole), specs in layout:
        pocket, pocket_ends = _pocket(name, mouth, angle, shelf, hole, specs)
        pockets[name] = pocket
        ends.update(pocket_ends)
    rails = {
        "head": Line("head", "head", ends["headH0"], ends["headH1"], (1.0, 0.0)),
        "foot": Line("foot", "foot", ends["footF0"], ends["footF1"], (-1.0, 0.0)),
        "y0h": Line("y0h", "y0h", ends["y0hH0"], ends["y0hS0"], (0.0, 1.0)),
        "y0f": Line("y0f", "y0f", ends["y0fS0"], ends["y0fF0"], (0.0, 1.0)),
        "y1h": Line("y1h", "y1h", ends["y1hH1"], ends["y1hS1"], (0.0, -1.0)),
        "y1f": Line("y1f", "y1f", ends["y1fS1"], ends["y1fF1"], (0.0, -1.0)),
    }
    diamonds: list[Point] = []
    for k in range(1, 8):
        if k != 4:
            x = length * k / 8.0
            diamonds += [(x, -DIAMOND_OFFSET), (x, width + DIAMOND_OFFSET)]
    for k in range(1, 4):
        y = width * k / 4.0
        diamonds += [(-DIAMOND_OFFSET, y), (length + DIAMOND_OFFSET, y)]
    return Table(
        length=length,
        width=width,
        ball_radius=BALL_RADIUS,
        cushion_height=CUSHION_HEIGHT,
        head_string_x=length / 4.0,
        foot_spot=(3.0 * length / 4.0, width / 2.0),
        centre_spot=(length / 2.0, width / 2.0),
        head_spot=(length / 4.0, width / 2.0),
        pockets=pockets,
        rails=rails,
        diamonds=tuple(diamonds),
    )


TABLE = build_table()
