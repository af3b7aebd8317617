"""Where balls may stand: the rack (R2), spotting the 9 (G3), ball in hand (R10), and the
check every ``simulate`` call makes on the positions it is given."""

from __future__ import annotations

import math
import random
from collections.abc import Mapping

from server.physics.table import TABLE
from server.physics.world import WORLD

Point = tuple[float, float]

R = TABLE.ball_radius
CUE = 0
BALL_IDS = range(10)
TOUCH_SLACK = 1e-6  # a placed cue ball closer than this to an object ball "touches" it
OVERLAP_TOLERANCE = 1e-9  # positions from a previous shot may touch to rounding error
RACK_GAP = 2e-6  # smallest gap between racked balls
RACK_JITTER = 20e-6  # seeded displacement of each racked ball (real racks: tens of µm)


class PlacementError(ValueError):
    """A ball position that is not allowed; ``code`` is stable for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def _check_point(pos: object, what: str) -> Point:
    if not (isinstance(pos, tuple | list) and len(pos) == 2):
        raise PlacementError("bad_position", f"{what} must be a pair (x, y), got {pos!r}")
    x, y = pos
    for v in (x, y):
        if isinstance(v, bool) or not isinstance(v, int | float) or not math.isfinite(v):
            raise PlacementError("bad_position", f"{what} must be two finite numbers, got {pos!r}")
    return (float(x), float(y))


def kitchen_spot() -> Point:
    """The default cue-ball spot for the break: centred, a little behind the head string."""
    return (TABLE.head_string_x - 0.135, TABLE.width / 2.0)


def check_placement(balls: Mapping[int, Point], pos: Point, kitchen: bool) -> None:
    """R10: raise ``PlacementError`` unless the cue ball may be placed at ``pos``.

    It must lie on the playing surface clear of cushions and pockets, must not touch or
    overlap an object ball (key 0 in ``balls`` is ignored: it is the ball being placed),
    and for the break (``kitchen``) its centre must be behind the head string.
    """
    point = _check_point(pos, "cue ball position")
    if not WORLD.ball_clear_of_table(point, R):
        raise PlacementError(
            "off_surface",
            f"the cue ball at ({point[0]:.4f}, {point[1]:.4f}) is not on the playing surface "
            "clear of the cushions and pockets",
        )
    if kitchen and point[0] > TABLE.head_string_x:
        raise PlacementError(
            "outside_kitchen",
            f"for the break the cue ball must be behind the head string "
            f"(x <= {TABLE.head_string_x:.4f}), got x = {point[0]:.4f}",
        )
    others = {k: _check_point(v, f"ball {k}") for k, v in balls.items() if k != CUE}
    touching = WORLD.touching_balls(point, R, others, TOUCH_SLACK)
    if touching:
        raise PlacementError(
            "touches_ball", f"the cue ball would touch or overlap ball {touching[0]}"
        )


def validate_positions(balls: Mapping[int, Point]) -> dict[int, Point]:
    """The check ``simulate`` makes: known ids, the cue ball present, every ball on the
    surface and no two overlapping (touching is fine)."""
    if CUE not in balls:
        raise PlacementError("no_cue_ball", "the cue ball (id 0) must be on the table")
    out: dict[int, Point] = {}
    for ball_id in sorted(balls):
        if isinstance(ball_id, bool) or not isinstance(ball_id, int) or ball_id not in BALL_IDS:
            raise PlacementError("bad_ball", f"ball ids are 0 … 9, got {ball_id!r}")
        point = _check_point(balls[ball_id], f"ball {ball_id}")
        # A resting ball may touch a cushion to rounding error; a tolerance keeps positions
        # from a previous shot valid.
        if not WORLD.ball_resting_ok(point, R - OVERLAP_TOLERANCE):
            raise PlacementError(
                "off_surface", f"ball {ball_id} at {point} is not on the playing surface"
            )
        overlap = WORLD.touching_balls(point, R, out, -OVERLAP_TOLERANCE)
        if overlap:
            raise PlacementError("overlap", f"ball {ball_id} overlaps ball {overlap[0]}")
        out[ball_id] = point
    return out


def rack(seed: int) -> dict[int, Point]:
    """R2: balls 1–9 in a diamond, the 1 on the foot spot, the 9 in the centre, the other
    seven in seeded random order, frozen as tightly as possible with seeded micro-gaps."""
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise PlacementError("bad_seed", f"the rack seed must be an integer, got {seed!r}")
    rng = random.Random(seed)
    others = [2, 3, 4, 5, 6, 7, 8]
    rng.shuffle(others)
    spacing = 2.0 * R + RACK_GAP + 2.0 * RACK_JITTER
    row_step = spacing * math.sqrt(3.0) / 2.0
    fx, fy = TABLE.foot_spot
    slots: list[Point] = []
    for row, count in enumerate((1, 2, 3, 2, 1)):
        for k in range(count):
            slots.append((fx + row * row_step, fy + (k - (count - 1) / 2.0) * spacing))
    # Slot 0 is the apex, slot 4 the centre of the diamond.
    order = [1, *others[:3], 9, *others[3:]]
    out: dict[int, Point] = {}
    for ball_id, (x, y) in zip(order, slots, strict=True):
        if ball_id == 1:
            out[ball_id] = (x, y)
            continue
        angle = rng.uniform(0.0, 2.0 * math.pi)
        radius = rng.uniform(0.0, RACK_JITTER)
        out[ball_id] = (x + radius * math.cos(angle), y + radius * math.sin(angle))
    # The micro-gaps are built in; the pymunk check guards the construction itself.
    for ball_id, point in out.items():
        neighbours = {k: p for k, p in out.items() if k != ball_id}
        assert WORLD.ball_clear_of_table(point, R), "rack outside the table"
        assert not WORLD.touching_balls(point, R, neighbours), "racked balls overlap"
    return dict(sorted(out.items()))


def spot_ball(balls: Mapping[int, Point], ball: int = 9) -> Point:
    """G3: the spot for ``ball`` on the long string: the foot spot; if occupied, behind it
    toward the foot rail as close as possible; if no room there, in front of it as close
    as possible. ``ball``'s own entry in ``balls`` is ignored. Never overlaps a ball."""
    others = {k: _check_point(v, f"ball {k}") for k, v in balls.items() if k != ball}
    fx, fy = TABLE.foot_spot
    blocked: list[tuple[float, float]] = []
    for x, y in others.values():
        dy = abs(y - fy)
        if dy < 2.0 * R + TOUCH_SLACK:
            dx = math.sqrt((2.0 * R + TOUCH_SLACK) ** 2 - dy * dy)
            blocked.append((x - dx, x + dx))

    def free(x: float) -> bool:
        return all(not (lo < x < hi) for lo, hi in blocked)

    def clear(x: float) -> bool:
        return free(x) and WORLD.ball_clear_of_table((x, fy), R)

    # Candidates: the foot spot, then every interval edge, nearest first on each side.
    edges = sorted({e for lo_hi in blocked for e in lo_hi})
    behind = [fx] + [e for e in edges if e > fx]
    for x in behind:
        if clear(x):
            return (x, fy)
    ahead = [e for e in reversed(edges) if e < fx]
    for x in ahead:
        if clear(x):
            return (x, fy)
    raise PlacementError("no_room", "there is no free spot on the long string")
