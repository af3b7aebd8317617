"""The table as a pymunk world: cushion shapes, pocket sensors and the bed, for queries.

pymunk holds the static geometry and answers the spatial questions: which cushion pieces
and pockets a moving ball can reach within a segment (a bounding-box query on the space's
spatial index), whether a ball placed somewhere overlaps a cushion, a pocket or another
ball, and whether it lies on the playing surface. Contact *timing* is not pymunk's job:
the engine solves it in closed form (see README.md for why and for the measurements).
"""

from __future__ import annotations

import threading
from collections.abc import Mapping
from dataclasses import dataclass

import pymunk

from server.physics.table import TABLE, Line, Pocket, Table, Tip

CUSHION = 0b001
POCKET = 0b010
BED = 0b100
BALL = 0b1000

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Candidates:
    """Cushion pieces and pockets a ball may reach: ``lines``, ``tips``, ``pockets``."""

    lines: tuple[Line, ...]
    tips: tuple[Tip, ...]
    pockets: tuple[Pocket, ...]


class _TableSpace:
    """One thread's pymunk space holding the table's cushions, pocket sensors and bed, and
    which item each of its shapes stands for."""

    def __init__(self, table: Table) -> None:
        self.space = pymunk.Space()
        body = self.space.static_body
        self.index: dict[pymunk.Shape, int] = {}
        self.items: list[Line | Tip | Pocket] = []
        shapes: list[pymunk.Shape] = []
        for line in table.lines:
            seg = pymunk.Segment(body, line.start, line.end, 0.0)
            seg.filter = pymunk.ShapeFilter(categories=CUSHION)
            shapes.append(self._register(seg, line))
        for tip in table.tips:
            circle = pymunk.Circle(body, tip.radius, tip.centre)
            circle.filter = pymunk.ShapeFilter(categories=CUSHION)
            shapes.append(self._register(circle, tip))
        for pocket in table.pockets.values():
            sensor = pymunk.Circle(body, pocket.radius, pocket.centre)
            sensor.sensor = True
            sensor.filter = pymunk.ShapeFilter(categories=POCKET)
            shapes.append(self._register(sensor, pocket))
        # The bed: the surface between the noses, plus each pocket's throat between its
        # facings (a ball can come to rest there, on the shelf before the hole).
        outlines = [
            [(0.0, 0.0), (table.length, 0.0), (table.length, table.width), (0.0, table.width)]
        ]
        for pocket in table.pockets.values():
            j0, j1 = pocket.jaws
            outlines.append([j0.point, j0.facing.end, j1.facing.end, j1.point])
        for outline in outlines:
            bed = pymunk.Poly(body, outline)
            bed.sensor = True
            bed.filter = pymunk.ShapeFilter(categories=BED)
            shapes.append(bed)
        self.space.add(*shapes)

    def _register(self, shape: pymunk.Shape, item: Line | Tip | Pocket) -> pymunk.Shape:
        self.index[shape] = len(self.items)
        self.items.append(item)
        return shape


class TableWorld:
    """The table's static geometry for queries, safe to use from any thread.

    Each thread queries a space of its own: Chipmunk locks a space for the length of a
    query with a plain counter, and pymunk's calls into it release the interpreter's lock,
    so two threads querying one space at once (the physics pool's thread and a computer
    thinking in another, when the pools run in threads) could corrupt the counter, and
    Chipmunk then aborts the whole process. Building a space takes well under a
    millisecond, once per thread."""

    def __init__(self, table: Table = TABLE) -> None:
        self.table = table
        self._cushion_filter = pymunk.ShapeFilter(mask=CUSHION | POCKET)
        self._bed_filter = pymunk.ShapeFilter(mask=BED)
        self._solid_filter = pymunk.ShapeFilter(mask=CUSHION | POCKET)
        self._cushion_only = pymunk.ShapeFilter(mask=CUSHION)
        self._pocket_only = pymunk.ShapeFilter(mask=POCKET)
        self._per_thread = threading.local()

    def _static(self) -> _TableSpace:
        """This thread's space of the table."""
        static: _TableSpace | None = getattr(self._per_thread, "table", None)
        if static is None:
            static = self._per_thread.table = _TableSpace(self.table)
        return static

    @property
    def space(self) -> pymunk.Space:
        """This thread's pymunk space of the table."""
        return self._static().space

    def candidates(self, left: float, bottom: float, right: float, top: float) -> Candidates:
        """Cushion pieces and pockets whose shapes meet the box, in a fixed order."""
        static = self._static()
        found = static.space.bb_query(pymunk.BB(left, bottom, right, top), self._cushion_filter)
        order = sorted(static.index[shape] for shape in found)
        lines: list[Line] = []
        tips: list[Tip] = []
        pockets: list[Pocket] = []
        for k in order:
            item = static.items[k]
            if isinstance(item, Line):
                lines.append(item)
            elif isinstance(item, Tip):
                tips.append(item)
            else:
                pockets.append(item)
        return Candidates(tuple(lines), tuple(tips), tuple(pockets))

    def on_bed(self, pos: Point) -> bool:
        """True when the point lies on the slate: between the noses or in a pocket throat."""
        hits = self.space.point_query(pos, 0.0, self._bed_filter)
        return any(hit.distance <= 0.0 for hit in hits)

    def hole_at(self, pos: Point) -> Pocket | None:
        """The pocket whose hole (past the slate's edge) the point is over, if any: where a
        ball landing from the air finds no slate under its centre."""
        static = self._static()
        for hit in static.space.point_query(pos, 0.0, self._pocket_only):
            if hit.distance < 0.0:
                item = static.items[static.index[hit.shape]]
                if isinstance(item, Pocket):
                    return item
        return None

    def ball_clear_of_table(self, pos: Point, radius: float) -> bool:
        """True when a ball centred at ``pos`` lies wholly on the playing surface between
        the cushion noses, clear of cushions and holes: where a ball may be placed by hand."""
        x, y = pos
        t = self.table
        if not (radius <= x <= t.length - radius and radius <= y <= t.width - radius):
            return False
        hits = self.space.point_query(pos, radius, self._solid_filter)
        return not any(hit.distance < radius for hit in hits)

    def ball_resting_ok(self, pos: Point, radius: float) -> bool:
        """True when a ball can rest with its centre at ``pos``: on the slate, clear of the
        cushions, its centre not over a hole (it may hang over the edge of one)."""
        if not self.on_bed(pos):
            return False
        hits = self.space.point_query(pos, radius, self._cushion_only)
        if any(hit.distance < radius for hit in hits):
            return False
        holes = self.space.point_query(pos, 0.0, self._pocket_only)
        return not any(hit.distance < 0.0 for hit in holes)

    def touching_balls(
        self, pos: Point, radius: float, balls: Mapping[int, Point], slack: float = 0.0
    ) -> list[int]:
        """Ids of the balls a ball at ``pos`` would overlap, or touch within ``slack``."""
        index = getattr(self._per_thread, "balls", None)
        if index is None:
            index = self._per_thread.balls = _BallIndex()
        return index.touching(pos, radius, balls, slack)


#: Where a ball circle the current query does not use waits, far off the table.
_PARKED = (1000.0, 1000.0)


class _BallIndex:
    """The balls of a query as circles in a pymunk space kept from one query to the next:
    each query moves them (``unsafe_set_offset``, then one ``reindex_static``) instead of
    building a space and its shapes. pymunk objects refer to one another through cffi
    handles, so a space built per query became a few dozen objects of cyclic garbage; on
    a busy server that was thousands a second, and the collector's pauses stretched the
    tail of shot latency (see bench/README.md, "Load"). One per thread: the space is
    changed by every query."""

    def __init__(self) -> None:
        self.space = pymunk.Space()
        self.circles: list[pymunk.Circle] = []
        self.ids: dict[pymunk.Shape, int] = {}
        self.mask = pymunk.ShapeFilter(mask=BALL)

    def touching(
        self, pos: Point, radius: float, balls: Mapping[int, Point], slack: float
    ) -> list[int]:
        while len(self.circles) < len(balls):
            circle = pymunk.Circle(self.space.static_body, radius, _PARKED)
            circle.filter = pymunk.ShapeFilter(categories=BALL)
            self.space.add(circle)
            self.circles.append(circle)
        self.ids.clear()
        for circle, ball_id in zip(self.circles, sorted(balls), strict=False):
            circle.unsafe_set_offset(balls[ball_id])
            circle.unsafe_set_radius(radius)
            self.ids[circle] = ball_id
        for circle in self.circles[len(balls) :]:
            circle.unsafe_set_offset(_PARKED)
        self.space.reindex_static()
        reach = radius + slack
        hits = self.space.point_query(pos, reach, self.mask)
        return sorted(self.ids[h.shape] for h in hits if h.shape in self.ids and h.distance < reach)


WORLD = TableWorld()
