"""How much of the break's make rate hangs on the wing balls' first direction.

Run from the repository root with the project venv::

    .venv/bin/python bench/wing_probe.py [--breaks 300] [--angles 47,49,50,51,52,53]

Why: from a centred full hit the cluster solver sends the wing balls out at about 55° to
the long string (``bench/rack_impact.py``), and a wing ball needs about 47° to reach a
foot corner. This asks the converse question: if the wings left at another angle, what
would the target set of ``bench/break_stats.py`` make? It plays the same breaks (same
racks, cue spots, speeds and aim errors) with one change: after the rack's impact each
wing ball's velocity is turned so that its direction is the probe angle plus that wing's
own deviation from 54.8° (speed and spin unchanged). Everything after the impact is the
engine as it is.

This is a probe, not a model: the turned wings are not physics, and nothing here is used
by the server. It measures how sharply the target set's make rate depends on the one
quantity the rack's physics fixes, so that a disagreement with a real make rate can be
read as a disagreement about that angle. Nothing here asserts.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
for folder in (REPO, REPO / "bench"):
    if str(folder) not in sys.path:
        sys.path.insert(0, str(folder))

import break_stats  # noqa: E402

from server.physics import DEFAULT_PARAMS, TABLE, simulate  # noqa: E402
from server.physics.resolve import BallState  # noqa: E402
from server.physics.resolve.cluster import MODELS, hertz  # noqa: E402

SOLVER_WING_DEG = 54.8  # the solver's wing direction from a centred full hit (rack_impact)
RACK_SIZE = 9


def turned_wings(probe_deg: float) -> object:
    """The Hertz cluster model, with the wing balls of a full rack's impact turned."""

    def resolve(
        balls: list[BallState], pairs: list[tuple[int, int]], speed: float, params: object
    ) -> tuple[list[BallState], list[tuple[int, int]]]:
        after, touched = hertz.resolve(balls, pairs, speed, params)  # type: ignore[arg-type]
        if len(balls) < RACK_SIZE + 1:
            return after, touched
        # The rack's rows by position before the impact: the cue ball is behind the apex,
        # so in order of x the middle row is the 5th to 7th ball; its outer two are wings.
        by_x = sorted(range(len(balls)), key=lambda k: balls[k][0])
        middle = sorted(by_x[4:7], key=lambda k: balls[k][1])
        out = list(after)
        for k in (middle[0], middle[-1]):
            x, y, vx, vy, wx, wy, wz = out[k]
            speed_k = math.hypot(vx, vy)
            own = math.degrees(math.atan2(abs(vy), vx))
            turned = math.radians(probe_deg + own - SOLVER_WING_DEG)
            side = 1.0 if vy >= 0.0 else -1.0
            vx, vy = speed_k * math.cos(turned), side * speed_k * math.sin(turned)
            out[k] = (x, y, vx, vy, wx, wy, wz)
        return out, touched

    return resolve


def make_rate(scenes: Sequence[dict[str, object]]) -> tuple[float, float]:
    made = balls = 0
    for scene in scenes:
        outcome = simulate(scene["balls"], break_stats.stroke(scene), DEFAULT_PARAMS)  # type: ignore[arg-type]
        potted = [b for b in outcome.report.pocketed if b != 0]
        made += bool(potted)
        balls += len(potted)
    return made / len(scenes), balls / len(scenes)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--breaks", type=int, default=300, help="target-set breaks per angle")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--angles", default="47,49,50,51,52,53", help="probe angles, degrees")
    args = parser.parse_args(argv)
    sets = break_stats.build_sets(
        argparse.Namespace(seed=args.seed, breaks=args.breaks, per_speed=1)
    )
    scenes = sets["target"]
    print(
        f"target set of bench/break_stats.py, {len(scenes)} breaks (seed {args.seed}); "
        f"table {TABLE.length:.3f} m; the wing balls' direction after the rack's impact"
    )
    print("wings leave at            make   balls/break")
    start = time.monotonic()
    rate, balls = make_rate(scenes)
    print(f"  as the solver sends them {rate:6.1%}  {balls:5.2f}")
    for angle in (float(a) for a in args.angles.split(",")):
        MODELS["hertz"] = turned_wings(angle)  # type: ignore[assignment]
        try:
            rate, balls = make_rate(scenes)
        finally:
            MODELS["hertz"] = hertz.resolve
        print(f"  {angle:4.1f}° (± their spread) {rate:6.1%}  {balls:5.2f}")
    print(f"({time.monotonic() - start:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
