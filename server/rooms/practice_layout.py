"""Where balls may stand on a practice table, the drills' set-ups, and a position as a link.

Pure: values in, values out. A practice table lets a player put any ball anywhere a ball
can rest — the same test `simulate` makes (on the slate, clear of the cushions, not over a
hole, no two balls overlapping; touching is fine, so frozen balls can be set up) — and
shares a position as a link. A link stores each ball on a grid of `GRID` metres, rounded
toward the middle of the table (a ball frozen to a cushion stays off it); balls frozen
together that the rounding left overlapping by a step or two are moved apart as the link
is opened (`settle`), so the link of any position the table held opens, within 0.05 mm.
A link is refused unless every ball in it may stand where it says (`decode_layout`), with
the reason.

A link's code is URL-safe base64 (no padding) of: a version byte (1), a flags byte (bit 0
rules on, bit 1 the next shot is a break, bit 2 the cue ball in hand), then four bytes per
ball on the table, big-endian `ball << 32 | gx << 16 | gy`, where `gx`, `gy` count `GRID`
steps (0.05 mm) from `-ORIGIN_MARGIN` (a ball may hang over a pocket's edge, past the nose
line), rounded toward the middle of the table. Ten balls make 70 characters.
"""

from __future__ import annotations

import base64
import binascii
import math
from collections.abc import Mapping
from typing import Final, Literal

import msgspec

from protocol import errors
from server import physics
from server.physics.world import WORLD

Point = tuple[float, float]
#: Index = ball number (0 the cue ball); None = in the tray.
Balls = tuple[Point | None, ...]
InHand = Literal["table", "kitchen"]

BALLS: Final = 10
CUE: Final = 0
R: Final = physics.TABLE.ball_radius
#: The grid a link's positions lie on, metres (0.05 mm).
GRID: Final = 0.00005
#: Grid coordinates start this far outside the noses (a ball over a pocket's lip).
ORIGIN_MARGIN: Final = 0.06
#: Grid steps on each axis a link may name (16 bits).
GRID_MAX: Final = (1 << 16) - 1
#: Overlaps a link's rounding can leave (two balls each rounded a step toward the
#: other), which decoding moves apart; and the gap it leaves between them.
SETTLE_DEPTH: Final = 3.0 * GRID
SETTLE_GAP: Final = 1e-7
#: What `simulate` forgives of two resting balls or a ball and a cushion (rounding).
TOLERANCE: Final = 1e-9
LAYOUT_VERSION: Final = 1
#: Bytes per ball in a link: `ball << 32 | gx << 16 | gy`.
WORD: Final = 5
_RULES, _BREAK, _IN_HAND = 1, 2, 4


class PracticeError(Exception):
    """A practice request refused, nothing changed; `code` is a protocol error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Layout(msgspec.Struct, frozen=True):
    """One position of a practice table: the balls, and what the next shot is."""

    balls: Balls
    #: The cue ball is in hand (free play: after a scratch; rules on: after a foul, or
    #: "kitchen" for a break).
    in_hand: InHand | None = None
    #: The next shot breaks a full rack.
    is_break: bool = False


def empty_balls() -> Balls:
    return (None,) * BALLS


def on_table(balls: Balls) -> dict[int, Point]:
    return {ball: pos for ball, pos in enumerate(balls) if pos is not None}


# --- where a ball may stand ---------------------------------------------------------------


def check_ball(ball: int) -> None:
    if isinstance(ball, bool) or not isinstance(ball, int) or not 0 <= ball < BALLS:
        raise PracticeError(errors.NO_SUCH_BALL, f"balls are 0 (the cue ball) to 9, not {ball!r}")


def spot_problem(ball: int, pos: Point, others: Mapping[int, Point]) -> PracticeError | None:
    """Why ball `ball` may not stand at `pos` beside `others` (None: it may)."""
    x, y = pos
    if not (math.isfinite(x) and math.isfinite(y)):
        return PracticeError(errors.OFF_BED, f"ball {ball}: the position must be two numbers")
    if not WORLD.ball_resting_ok((x, y), R - TOLERANCE):
        if _in_pocket((x, y)):
            return PracticeError(
                errors.IN_POCKET, f"ball {ball} at ({x:.4f}, {y:.4f}) would be in a pocket"
            )
        return PracticeError(
            errors.OFF_BED,
            f"ball {ball} at ({x:.4f}, {y:.4f}) would not rest on the playing surface",
        )
    rest = {b: p for b, p in others.items() if b != ball}
    overlapping = WORLD.touching_balls((x, y), R, rest, -TOLERANCE)
    if overlapping:
        return PracticeError(
            errors.BALLS_OVERLAP, f"ball {ball} would overlap ball {overlapping[0]}"
        )
    return None


def _in_pocket(pos: Point) -> bool:
    """Over a hole, or in a pocket's throat (within a ball's width of the hole)."""
    if WORLD.hole_at(pos) is not None:
        return True
    return any(
        math.dist(pos, pocket.centre) < pocket.radius + 2.0 * R
        for pocket in physics.TABLE.pockets.values()
    )


def _grid(value: float, towards_centre_of: float) -> int:
    """Grid steps of `value`, rounded toward the table's middle line (a ball frozen to a
    cushion stays clear of it)."""
    steps = (value + ORIGIN_MARGIN) / GRID
    middle = (towards_centre_of / 2.0 + ORIGIN_MARGIN) / GRID
    rounded = math.ceil(steps - 1e-6) if steps < middle else math.floor(steps + 1e-6)
    return min(max(rounded, 0), GRID_MAX)


def _from_grid(steps: int) -> float:
    return round(steps * GRID - ORIGIN_MARGIN, 7)


def settle(balls: Balls) -> Balls:
    """Balls a link's rounding left overlapping by less than `SETTLE_DEPTH` moved apart,
    each pair along the line of their centres (a frozen rack, balls frozen together):
    deterministic, a few passes at most. Deeper overlaps are left for `check_layout`."""
    placed = [None if pos is None else (float(pos[0]), float(pos[1])) for pos in balls]
    for _ in range(20):
        moved = False
        for a in range(BALLS):
            for b in range(a + 1, BALLS):
                pa, pb = placed[a], placed[b]
                if pa is None or pb is None:
                    continue
                dist = math.dist(pa, pb)
                depth = 2.0 * R - dist
                if depth <= 0.0 or depth > SETTLE_DEPTH or dist == 0.0:
                    continue
                push = (depth + SETTLE_GAP) / 2.0
                ux, uy = (pb[0] - pa[0]) / dist, (pb[1] - pa[1]) / dist
                placed[a] = (pa[0] - ux * push, pa[1] - uy * push)
                placed[b] = (pb[0] + ux * push, pb[1] + uy * push)
                moved = True
        if not moved:
            break
    return tuple(placed)


def check_layout(balls: Balls) -> None:
    """PracticeError unless every ball may stand where it is."""
    if len(balls) > BALLS:
        raise PracticeError(errors.TOO_MANY_BALLS, f"at most {BALLS} balls, got {len(balls)}")
    placed: dict[int, Point] = {}
    for ball, pos in enumerate(balls):
        if pos is None:
            continue
        problem = spot_problem(ball, pos, placed)
        if problem is not None:
            raise problem
        placed[ball] = pos


# --- a position as a link -------------------------------------------------------------------


def encode_layout(layout: Layout, rules: bool) -> str:
    """The link code of `layout` (see the module's docstring)."""
    flags = (
        (_RULES if rules else 0)
        | (_BREAK if layout.is_break else 0)
        | (_IN_HAND if layout.in_hand is not None else 0)
    )
    data = bytearray((LAYOUT_VERSION, flags))
    for ball, pos in enumerate(layout.balls):
        if pos is None:
            continue
        gx = _grid(pos[0], physics.TABLE.length)
        gy = _grid(pos[1], physics.TABLE.width)
        data += ((ball << 32) | (gx << 16) | gy).to_bytes(WORD, "big")
    return base64.urlsafe_b64encode(bytes(data)).decode("ascii").rstrip("=")


def decode_layout(code: str) -> tuple[Layout, bool]:
    """The layout and the rules flag a link's code names, or PracticeError saying what is
    wrong with it (`bad_layout`, `too_many_balls`, `no_such_ball`, `off_bed`, `in_pocket`,
    `balls_overlap`)."""
    if not code or len(code) > 200:
        raise PracticeError(errors.BAD_LAYOUT, "a practice link's code is 4 to 200 characters")
    if not all(c.isascii() and (c.isalnum() or c in "-_") for c in code):
        raise PracticeError(
            errors.BAD_LAYOUT, "a practice link's code has only letters, digits, '-' and '_'"
        )
    try:
        data = base64.urlsafe_b64decode(code + "=" * (-len(code) % 4))
    except (binascii.Error, ValueError):
        raise PracticeError(errors.BAD_LAYOUT, "the practice link's code is cut short") from None
    if len(data) < 2 or data[0] != LAYOUT_VERSION:
        raise PracticeError(errors.BAD_LAYOUT, f"not a practice link of version {LAYOUT_VERSION}")
    flags = data[1]
    if flags & ~(_RULES | _BREAK | _IN_HAND):
        raise PracticeError(errors.BAD_LAYOUT, f"unknown flags {flags:#04x} in the link")
    body = data[2:]
    if len(body) % WORD:
        raise PracticeError(errors.BAD_LAYOUT, "the practice link's code is cut short")
    if len(body) // WORD > BALLS:
        raise PracticeError(
            errors.TOO_MANY_BALLS, f"the link names {len(body) // WORD} balls; at most {BALLS}"
        )
    balls: list[Point | None] = [None] * BALLS
    for at in range(0, len(body), WORD):
        word = int.from_bytes(body[at : at + WORD], "big")
        ball, gx, gy = word >> 32, (word >> 16) & GRID_MAX, word & GRID_MAX
        if ball >= BALLS:
            raise PracticeError(errors.NO_SUCH_BALL, f"the link names ball {ball}; balls are 0-9")
        if balls[ball] is not None:
            raise PracticeError(errors.BAD_LAYOUT, f"the link names ball {ball} twice")
        balls[ball] = (_from_grid(gx), _from_grid(gy))
    settled = settle(tuple(balls))
    check_layout(settled)
    balls = list(settled)
    is_break = bool(flags & _BREAK) and _full_rack(tuple(balls))
    in_hand: InHand | None = None
    if flags & _IN_HAND and balls[CUE] is not None:
        in_hand = "kitchen" if is_break else "table"
    return Layout(balls=tuple(balls), in_hand=in_hand, is_break=is_break), bool(flags & _RULES)


def _full_rack(balls: Balls) -> bool:
    return all(pos is not None for pos in balls)


# --- set-ups --------------------------------------------------------------------------------


def racked(seed: int) -> Layout:
    """A full rack (R2) from `seed`, the cue ball in the kitchen to break."""
    balls: list[Point | None] = [None] * BALLS
    balls[CUE] = physics.kitchen_spot()
    for ball, pos in physics.rack(seed).items():
        balls[ball] = (float(pos[0]), float(pos[1]))
    return Layout(balls=tuple(balls), in_hand="kitchen", is_break=True)


def _layout(spots: Mapping[int, Point], in_hand: InHand | None) -> Layout:
    balls: list[Point | None] = [None] * BALLS
    for ball, pos in spots.items():
        balls[ball] = pos
    return Layout(balls=tuple(balls), in_hand=in_hand)


#: The drills and what each sets up. Rules on or off is the player's choice in each.
#:
#: - `three_ball` — the three-ball run: the 7, 8 and 9 spread over the table, cue ball in
#:   hand; run them in order (the usual progression adds a ball each time it is done).
#: - `nine_ghost` — nine-ball against the ghost with ball in hand: break a full rack, then
#:   take the cue ball in hand once and run out; the ghost wins every rack not run.
#: - `break` — break practice: a full rack, the cue ball in the kitchen; "retry" racks the
#:   same balls again for the next break.
#: - `kick` — kick practice: the 2 stands on the line from the cue ball to the 1 near the
#:   foot rail, so the 1 is reached only off a cushion.
#: - `spot_shot` — the spot shot: the 1 on the foot spot, the cue ball behind the head
#:   string (in hand); pot the 1 in a foot corner pocket.
def drill_layout(drill: str, seed: int) -> Layout:
    if drill in ("nine_ghost", "break"):
        return racked(seed)
    if drill == "three_ball":
        return _layout(
            {0: physics.kitchen_spot(), 7: (1.40, 0.36), 8: (2.02, 0.98), 9: (0.98, 0.88)},
            "table",
        )
    if drill == "kick":
        return _layout(
            {0: (0.70, 0.635), 1: (2.20, 0.30), 2: (1.45, 0.4675), 9: (1.90, 0.95)}, None
        )
    if drill == "spot_shot":
        return _layout({0: physics.kitchen_spot(), 1: physics.TABLE.foot_spot}, "kitchen")
    raise PracticeError(errors.BAD_LAYOUT, f"no drill named {drill!r}")
