"""The rack's first millisecond: where each racked ball goes when the cue ball arrives.

Run from the repository root with the project venv::

    .venv/bin/python bench/rack_impact.py [--racks 20] [--speed 10]

Why: the break's make rate hangs on the directions the racked balls leave in, above all
the wing balls (the outer balls of the middle row): from a centred break a wing ball must
leave at about 47° to the long string to reach a foot corner. This measures those
directions with the engine's cluster sub-solver, and how they change with each thing that
might set them: ball–ball friction and restitution, the rack's gaps (frozen, the seeded
micro-gaps of ``rack()``, wider; the 1 pressed against the 2 and 3 as a template presses
it), the cue ball's state at impact (sliding, rolling, drawing), a hopping cue ball, the
solver's step. Two frozen racks hit head-on are printed row by row as well: the
nine-ball diamond and the fifteen-ball triangle; then the frozen diamond's energy budget
(what the impact keeps as motion, what leaves in the wing balls), how far one gap of 25,
50 or 100 µm at each place in the diamond turns the wing balls (a tight rack's gaps are
at most 0.1 mm), and the wing balls' direction at break speeds from 6 to 12 m/s (Alciatore:
speed has little or no effect on it).

Nothing here asserts: it prints measurements for ``docs/PHYSICS.md``.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from server.physics import (  # noqa: E402
    DEFAULT_PARAMS,
    TABLE,
    Params,
    Shot,
    kitchen_spot,
    placement,
    rack,
    simulate,
)
from server.physics.resolve.cluster import hertz  # noqa: E402

R = TABLE.ball_radius
Point = tuple[float, float]


def frozen_rows(rows: Sequence[int], speed: float, params: Params) -> list[str]:
    """A frozen triangle or diamond hit head-on at ``speed``: each row's departures as
    (angle to the long string in degrees, speed in m/s), the cue ball's speed after."""
    step = 2.0 * R * math.sqrt(3.0) / 2.0
    balls = [(-2.0 * R, 0.0, speed, 0.0, 0.0, 0.0, 0.0)]
    row_of = []
    for row, count in enumerate(rows):
        for k in range(count):
            balls.append((row * step, (k - (count - 1) / 2.0) * 2.0 * R, 0.0, 0.0, 0, 0, 0))
            row_of.append(row)
    n = len(balls)
    pairs = [(0, 1)] + [(p, q) for p in range(1, n) for q in range(p + 1, n)]
    after, _ = hertz.resolve(balls, pairs, speed, params)
    lines = []
    for row in range(len(rows)):
        departures = [
            f"{math.degrees(math.atan2(abs(b[3]), b[2])):5.1f}° {math.hypot(b[2], b[3]):4.2f}"
            for b, r in zip(after[1:], row_of, strict=True)
            if r == row
        ]
        lines.append(f"    row {row + 1}: " + ", ".join(departures))
    lines.append(f"    cue ball after: {math.hypot(after[0][2], after[0][3]):.2f} m/s")
    return lines


# Gaps that can be opened without pressing any other pair together: behind a row (every
# ball from the next row back moves straight back) or beside a wing ball (it moves out).
GAPS: dict[str, tuple[tuple[int, ...], float, float]] = {
    "behind the apex": ((1, 2, 3, 4, 5, 6, 7, 8), 1.0, 0.0),
    "behind the 2nd row": ((3, 4, 5, 6, 7, 8), 1.0, 0.0),
    "behind the middle row": ((6, 7, 8), 1.0, 0.0),
    "before the back ball": ((8,), 1.0, 0.0),
    "beside one wing": ((5,), 0.0, 1.0),
}


def diamond(gap_name: str | None = None, gap: float = 0.0) -> list[list[float]]:
    """The frozen diamond's centres (index 0 the apex, 1–2 the second row, 3–5 the middle
    row with the wings at 3 and 5, 6–7 the fourth row, 8 the back ball), apex at the
    origin, rows along +x; ``gap_name`` (a ``GAPS`` key) opens one gap of ``gap``."""
    step = 2.0 * R * math.sqrt(3.0) / 2.0
    out = [
        [row * step, (k - (count - 1) / 2.0) * 2.0 * R]
        for row, count in enumerate((1, 2, 3, 2, 1))
        for k in range(count)
    ]
    if gap_name is not None:
        moved, dx, dy = GAPS[gap_name]
        for k in moved:
            out[k][0] += dx * gap
            out[k][1] += dy * gap
    return out


def hit_diamond(
    centres: Sequence[Sequence[float]], speed: float, params: Params
) -> list[tuple[float, ...]]:
    """A cue ball at ``speed`` straight into the apex; every state after the impact."""
    balls = [(centres[0][0] - 2.0 * R - 1e-9, centres[0][1], speed, 0.0, 0.0, 0.0, 0.0)]
    balls += [(x, y, 0.0, 0.0, 0.0, 0.0, 0.0) for x, y in centres]
    n = len(balls)
    pairs = [(0, 1)] + [(p, q) for p in range(1, n) for q in range(p + 1, n)]
    after, _ = hertz.resolve(balls, pairs, speed, params)
    return after


def wing_pair(after: Sequence[Sequence[float]]) -> tuple[float, float]:
    """The two wing balls' directions (degrees to the long string) after ``hit_diamond``."""
    low, high = after[4], after[6]
    return (
        math.degrees(math.atan2(abs(low[3]), low[2])),
        math.degrees(math.atan2(abs(high[3]), high[2])),
    )


def energy_and_gaps(speed: float, params: Params) -> list[str]:
    """The frozen diamond's energy budget, and the wing balls under one gap at a time."""
    after = hit_diamond(diamond(), speed, params)
    moving = sum(b[2] ** 2 + b[3] ** 2 for b in after) / speed**2
    spin = sum(0.4 * R * R * (b[4] ** 2 + b[5] ** 2 + b[6] ** 2) for b in after) / speed**2
    wings = (after[4][2] ** 2 + after[4][3] ** 2 + after[6][2] ** 2 + after[6][3] ** 2) / speed**2
    lines = [
        f"frozen diamond at {speed:g} m/s: the impact keeps {moving:.1%} of the energy as "
        f"motion and {spin:.2%} as spin; the two wing balls carry {wings:.1%}",
        "one gap in the frozen diamond: the wing balls' directions, degrees to the long "
        "string (a tight rack's gaps are at most 0.1 mm; folded paper is 0.1–0.3 mm)",
    ]
    for name in GAPS:
        row = []
        for gap in (25e-6, 100e-6, 300e-6, 1e-3):
            low, high = wing_pair(hit_diamond(diamond(name, gap), speed, params))
            row.append(f"{gap * 1e3:5.3f} mm {low:4.1f}/{high:4.1f}")
        lines.append(f"    {name:22} " + "   ".join(row))
    by_speed = []
    for v in (6.0, 8.0, 10.0, 12.0):
        low, high = wing_pair(hit_diamond(diamond(), v, params))
        by_speed.append(f"{v:g} m/s {low:.2f}")
    lines.append("frozen diamond, wing direction by break speed: " + ", ".join(by_speed))
    return lines


def apex_frozen(balls: dict[int, Point]) -> dict[int, Point]:
    """The 1 pressed against both second-row balls (as a racking template presses it):
    moved onto the point 2R from each of them, on the foot-spot side."""
    one = balls[1]
    second = sorted((b for b in balls if b != 1), key=lambda b: math.dist(balls[b], one))[:2]
    (ax, ay), (bx, by) = balls[second[0]], balls[second[1]]
    mx, my = (ax + bx) / 2.0, (ay + by) / 2.0
    half = math.dist((ax, ay), (bx, by)) / 2.0
    back = math.sqrt((2.0 * R) ** 2 - half * half)
    ux, uy = (by - ay) / (2.0 * half), -(bx - ax) / (2.0 * half)
    if ux > 0.0:
        ux, uy = -ux, -uy
    return {**balls, 1: (mx + back * ux, my + back * uy)}


def wing_angles(
    racks: int,
    speed: float,
    params: Params = DEFAULT_PARAMS,
    tip: tuple[float, float] = (0.0, 0.0),
    elevation: float = 0.0,
    gaps: tuple[float, float] | None = None,
    arrange: Callable[[dict[int, Point]], dict[int, Point]] | None = None,
) -> tuple[float, float, float]:
    """Mean and spread of the wing balls' first directions (degrees to the long string),
    and the share of these breaks that make a ball, from the kitchen spot at the 1."""
    saved = placement.RACK_GAP, placement.RACK_JITTER
    angles: list[float] = []
    made = 0
    try:
        if gaps is not None:
            placement.RACK_GAP, placement.RACK_JITTER = gaps
        for seed in range(racks):
            balls = rack(seed)
            if arrange is not None:
                balls = arrange(balls)
            cue = kitchen_spot()
            one = balls[1]
            aim = math.degrees(math.atan2(one[1] - cue[1], one[0] - cue[0]))
            out = simulate({0: cue, **balls}, Shot(aim, speed, tip, elevation), params)
            made += any(b != 0 for b in out.report.pocketed)
            middle = sorted(balls, key=lambda b: balls[b][0])[3:6]
            for wing in (
                min(middle, key=lambda b: balls[b][1]),
                max(middle, key=lambda b: balls[b][1]),
            ):
                first = next((s for s in out.tracks[wing] if s.vx or s.vy), None)
                if first is not None:
                    angles.append(math.degrees(math.atan2(abs(first.vy), first.vx)))
    finally:
        placement.RACK_GAP, placement.RACK_JITTER = saved
    return statistics.mean(angles), statistics.pstdev(angles), made / racks


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--racks", type=int, default=20)
    parser.add_argument("--speed", type=float, default=10.0)
    args = parser.parse_args(argv)
    frictionless = dataclasses.replace(DEFAULT_PARAMS, mu_ball=0.0)
    for name, rows in (
        ("nine-ball diamond", (1, 2, 3, 2, 1)),
        ("fifteen-ball triangle", (1, 2, 3, 4, 5)),
    ):
        for label, params in (("frictionless", frictionless), ("default", DEFAULT_PARAMS)):
            print(f"frozen {name}, {label}, {args.speed:g} m/s head-on:")
            print("\n".join(frozen_rows(rows, args.speed, params)))
    print("\n".join(energy_and_gaps(args.speed, DEFAULT_PARAMS)))
    print(
        f"\nwing balls' first direction, {args.racks} racks from the kitchen spot at "
        f"{args.speed:g} m/s (degrees to the long string; a foot corner needs about 47):"
    )
    variants: list[tuple[str, dict[str, object]]] = [
        ("default", {}),
        ("ball-ball friction off", {"params": frictionless}),
        ("e_ball 0.92", {"params": dataclasses.replace(DEFAULT_PARAMS, e_ball=0.92)}),
        ("e_ball 0.98", {"params": dataclasses.replace(DEFAULT_PARAMS, e_ball=0.98)}),
        ("solver steps x2", {"params": dataclasses.replace(DEFAULT_PARAMS, cluster_steps=80.0)}),
        ("frozen rack (1 nm gaps)", {"gaps": (1e-9, 0.0)}),
        ("gaps 2-162 um", {"gaps": (2e-6, 40e-6)}),
        ("gaps 0-200 um", {"gaps": (1e-9, 100e-6)}),
        ("the 1 pressed on the 2-3", {"arrange": apex_frozen}),
        ("cue ball rolling (tip 0.4)", {"tip": (0.0, 0.4)}),
        ("cue ball drawing (tip -0.3)", {"tip": (0.0, -0.3)}),
        ("cue elevated 5 deg (hops)", {"elevation": 5.0}),
        ("cue elevated 8 deg (hops)", {"elevation": 8.0}),
    ]
    for label, options in variants:
        mean, spread, made = wing_angles(args.racks, args.speed, **options)  # type: ignore[arg-type]
        print(f"  {label:30} {mean:6.2f} ± {spread:4.2f}   breaks making a ball {made:4.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
