"""Time pooltool 0.6.0 on the benchmark's shots (runs inside the pooltool venv only).

This script is the pooltool half of ``bench/physics_vs_pooltool.py``. It must never be
imported by the server: pooltool's dependency pins clash with ours, so it lives in its
own venv (``bench/.scratch/pooltool-venv``) and is driven as a subprocess.

Input (one JSON object, on stdin or from ``--input FILE``), everything in *our* frame:
metres, origin where the head-rail nose meets the y = 0 side-rail nose, x toward the
foot rail, y across; angles in degrees, 0 = +x, counter-clockwise::

    {"table": {"length", "width", "ball_radius", "ball_mass", "corner_mouth",
               "side_mouth", "corner_jaw_deg", "side_jaw_deg", "cushion_height",
               optional: "jaw_tip_radius", "corner_pocket_depth", "corner_pocket_radius",
               "side_pocket_depth", "side_pocket_radius"},
     "coefficients": {"u_s": ..., "u_r": ..., ...},   # pooltool BallParams names, optional
     "break": {"balls": {"0": [x, y], ...}, "shot": {...}, "repeats": 20},
     "shots": [{"balls": {...}, "shot": {"angle", "speed", "tip": [side, height],
                "elevation"}}, ...]}

Output (one JSON object on stdout): per-shot wall (``perf_counter``) and CPU
(``process_time``) seconds, and what happened in each shot (ball-ball and cushion
contact counts, pocketed balls, final positions converted back to our frame) so the
harness can report how far the two engines agree.

The shot is applied by giving the cue ball its post-strike state directly (velocity
along the aim, follow/draw and side spin from the standard centre-of-percussion
formulas in ``docs/PHYSICS.md``), instead of going through pooltool's stick-ball
model, so that both engines start from exactly the same state (pooltool's cue model
takes a stick speed and adds squirt).
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import math
import resource
import sys
import time
from typing import Any

import numpy as np
import pooltool as pt
import pooltool.constants as ptc
from pooltool.events import EventType
from pooltool.objects import PocketTableSpecs

CUE_BALL = "0"

# pooltool's frame: x across the table (0 … width), y along it (0 … length), z up.
# Ours is pooltool's turned by -90° about z: a proper rotation, so spin signs survive.
# ours (x, y) -> pooltool (width - y, x);  pooltool (X, Y) -> ours (Y, width - X).
POCKET_NAMES = {"rb": "H0", "lb": "H1", "rc": "S0", "lc": "S1", "rt": "F0", "lt": "F1"}


class InputError(ValueError):
    """The input JSON does not describe shots this script can run."""


def to_pooltool_xy(x: float, y: float, width: float) -> tuple[float, float]:
    return width - y, x


def to_our_xy(x: float, y: float, width: float) -> tuple[float, float]:
    return y, width - x


def to_pooltool_vec(vx: float, vy: float) -> tuple[float, float]:
    return -vy, vx


def table_specs(table: dict[str, float]) -> PocketTableSpecs:
    """A pooltool pocket table with our playing surface, mouths and jaw angles.

    pooltool draws a corner jaw at ``90° + 45° + corner_pocket_angle`` from the rail
    nose, so a WPA 142° cut is ``corner_pocket_angle = 7``. A side jaw makes
    ``90° + atan(sin(side_pocket_angle))`` with the rail, so 103° is
    ``asin(tan(13°)) ≈ 13.35``. Both measure the mouth between the theoretical jaw
    points and round each point with a circle tangent to nose and facing; the tip radius
    is ours when given. Both drop a ball when its centre enters a circle behind the
    mouth; its depth and radius are ours when given, else pooltool's 7-ft defaults.
    """
    extra: dict[str, float] = {
        name: float(table[name])
        for name in (
            "corner_pocket_depth",
            "corner_pocket_radius",
            "side_pocket_depth",
            "side_pocket_radius",
        )
        if name in table
    }
    if "jaw_tip_radius" in table:
        extra["corner_jaw_radius"] = extra["side_jaw_radius"] = float(table["jaw_tip_radius"])
    corner_angle = table["corner_jaw_deg"] - 135.0
    side_angle = math.degrees(math.asin(math.tan(math.radians(table["side_jaw_deg"] - 90.0))))
    return PocketTableSpecs(
        l=table["length"],
        w=table["width"],
        cushion_height=table["cushion_height"],
        corner_pocket_width=table["corner_mouth"],
        corner_pocket_angle=corner_angle,
        side_pocket_width=table["side_mouth"],
        side_pocket_angle=side_angle,
        **extra,
    )


def cue_ball_state(
    xy: tuple[float, float], shot: dict[str, Any], radius: float, width: float
) -> np.ndarray:
    """The cue ball's rvw just after the strike, in pooltool's frame.

    Horizontal cue, impulse m·v through the point (side·R right, height·R up) of the
    ball: v along the aim, ω about the left axis = 5·height·v / 2R (follow), ω about
    the vertical = 5·side·v / 2R (right english spins it counter-clockwise from above).
    """
    elevation = float(shot.get("elevation", 0.0))
    if elevation != 0.0:
        raise InputError("only level strikes (elevation 0) are compared")
    angle = math.radians(float(shot["angle"]))
    speed = float(shot["speed"])
    side, height = (float(c) for c in shot["tip"])
    if not (math.isfinite(angle) and math.isfinite(speed) and speed > 0.0):
        raise InputError(f"bad shot {shot!r}")
    aim = (math.cos(angle), math.sin(angle))
    left = (-aim[1], aim[0])
    w_left = 5.0 * height * speed / (2.0 * radius)
    w_up = 5.0 * side * speed / (2.0 * radius)
    vx, vy = to_pooltool_vec(speed * aim[0], speed * aim[1])
    wx, wy = to_pooltool_vec(w_left * left[0], w_left * left[1])
    px, py = to_pooltool_xy(xy[0], xy[1], width)
    return np.array([[px, py, radius], [vx, vy, 0.0], [wx, wy, w_up]], dtype=np.float64)


class Scenes:
    """Builds fresh pooltool systems for our inputs on one table."""

    def __init__(self, table: dict[str, float], coefficients: dict[str, float]) -> None:
        self.width = float(table["width"])
        self.radius = float(table["ball_radius"])
        self.specs = table_specs(table)
        self.table = pt.Table.from_table_specs(self.specs)
        self.ball_params = pt.BallParams(m=float(table["ball_mass"]), R=self.radius, **coefficients)

    def system(self, scene: dict[str, Any]) -> pt.System:
        balls: dict[str, pt.Ball] = {}
        for key, xy in scene["balls"].items():
            ball = pt.Ball(id=str(int(key)), params=self.ball_params)
            x, y = to_pooltool_xy(float(xy[0]), float(xy[1]), self.width)
            ball.state.rvw[0] = [x, y, self.radius]
            balls[ball.id] = ball
        if CUE_BALL not in balls:
            raise InputError("every scene needs the cue ball 0")
        cue_xy = (float(scene["balls"][CUE_BALL][0]), float(scene["balls"][CUE_BALL][1]))
        cue = balls[CUE_BALL]
        cue.state.rvw = cue_ball_state(cue_xy, scene["shot"], self.radius, self.width)
        cue.state.s = ptc.sliding
        return pt.System(cue=pt.Cue(cue_ball_id=CUE_BALL), table=self.table.copy(), balls=balls)


def outcome(system: pt.System, width: float) -> dict[str, Any]:
    """What happened, in our frame and vocabulary (for the agreement figures)."""
    ball_ball = 0
    cushion = 0
    first_contact: int | None = None
    pocketed: dict[str, str] = {}
    for event in system.events:
        kind = event.event_type
        if kind == EventType.BALL_BALL:
            ball_ball += 1
            if first_contact is None and CUE_BALL in event.ids:
                first_contact = int(next(i for i in event.ids if i != CUE_BALL))
        elif kind in (EventType.BALL_LINEAR_CUSHION, EventType.BALL_CIRCULAR_CUSHION):
            cushion += 1
        elif kind == EventType.BALL_POCKET:
            ball_id, pocket_id = event.ids
            pocketed[ball_id] = POCKET_NAMES.get(pocket_id, pocket_id)
    final: dict[str, list[float] | None] = {}
    for ball_id, ball in system.balls.items():
        if ball.state.s == ptc.pocketed:
            final[ball_id] = None
        else:
            x, y = to_our_xy(float(ball.state.rvw[0][0]), float(ball.state.rvw[0][1]), width)
            final[ball_id] = [x, y]
    return {
        "ball_ball": ball_ball,
        "cushion": cushion,
        "first_contact": first_contact,
        "pocketed": pocketed,
        "final": final,
        "duration": float(system.t),
        "events": len(system.events),
    }


def timed_simulate(system: pt.System) -> tuple[float, float]:
    """Simulate in place; return (wall seconds, CPU seconds)."""
    wall0, cpu0 = time.perf_counter(), time.process_time()
    pt.simulate(system, inplace=True)
    return time.perf_counter() - wall0, time.process_time() - cpu0


def run(spec: dict[str, Any]) -> dict[str, Any]:
    try:
        scenes = Scenes(spec["table"], dict(spec.get("coefficients") or {}))
        break_scene = spec["break"]
        repeats = int(break_scene.get("repeats", 10))
        shots = list(spec.get("shots", []))
    except (KeyError, TypeError, ValueError) as error:
        raise InputError(f"malformed input: {error!r}") from error

    # Warm-up: the first simulate compiles pooltool's numba kernels (or loads them from
    # NUMBA_CACHE_DIR), and some code paths (pockets, jaw tips, ...) compile only when a
    # shot first needs them, so every input runs once untimed before the timed pass.
    wall0 = time.perf_counter()
    pt.simulate(scenes.system(break_scene), inplace=True)
    first_call_s = time.perf_counter() - wall0
    for scene in shots:
        pt.simulate(scenes.system(scene), inplace=True)
    warmup_s = time.perf_counter() - wall0
    gc.collect()

    break_wall: list[float] = []
    break_cpu: list[float] = []
    break_result: dict[str, Any] = {}
    for _ in range(repeats):
        system = scenes.system(break_scene)
        wall, cpu = timed_simulate(system)
        break_wall.append(wall)
        break_cpu.append(cpu)
        break_result = outcome(system, scenes.width)

    shot_rows: list[dict[str, Any]] = []
    for scene in shots:
        system = scenes.system(scene)
        wall, cpu = timed_simulate(system)
        shot_rows.append({"wall_s": wall, "cpu_s": cpu, **outcome(system, scenes.width)})

    params = scenes.ball_params
    return {
        "engine": "pooltool",
        "version": pt.__version__,
        "python": sys.version.split()[0],
        "first_call_s": first_call_s,
        "warmup_s": warmup_s,
        "table_specs": {
            name: getattr(scenes.specs, name)
            for name in (
                "l",
                "w",
                "cushion_height",
                "corner_pocket_width",
                "corner_pocket_angle",
                "side_pocket_width",
                "side_pocket_angle",
                "corner_jaw_radius",
                "side_jaw_radius",
                "corner_pocket_depth",
                "corner_pocket_radius",
                "side_pocket_depth",
                "side_pocket_radius",
            )
        },
        "ball_params": {
            name: float(getattr(params, name))
            for name in ("m", "R", "u_s", "u_r", "u_sp", "u_b", "e_b", "e_c", "f_c", "g")
        },
        "break": {"wall_s": break_wall, "cpu_s": break_cpu, **break_result},
        "shots": shot_rows,
        # ru_maxrss is in KiB on Linux: the peak RSS of this pooltool process.
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", help="read the input JSON from this file (default: stdin)")
    args = parser.parse_args(argv)
    try:
        if args.input:
            with open(args.input, encoding="utf-8") as handle:
                spec = json.load(handle)
        else:
            spec = json.load(sys.stdin)
        # pooltool may print notices; stdout carries only the result.
        with contextlib.redirect_stdout(sys.stderr):
            result = run(spec)
    except (OSError, json.JSONDecodeError, InputError) as error:
        print(f"pooltool_reference: {error}", file=sys.stderr)
        return 2
    json.dump(result, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
