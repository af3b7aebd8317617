"""Physics speed: our event-based simulator next to pooltool 0.6.0, same table, same shots.

Run from the repository root with the project venv::

    .venv/bin/python bench/physics_vs_pooltool.py [--shots 300] [--breaks 20] [--seed 1]
                                                  [--json out.json]

What it does, in order:

1. Builds the shared inputs from our own API: the rack ``rack(seed)`` with the cue ball
   on ``kitchen_spot()`` for a 10 m/s centre-ball break at the 1-ball, and ``--shots``
   random shots (seeded ball layouts, aim, speed and tip offset; level cue).
2. Runs ``bench/pooltool_reference.py`` in its own venv (created on first use from
   ``bench/requirements-pooltool.txt``; pooltool never enters our venv) on those inputs.
3. Times our ``simulate`` on the same inputs in this process, warm.
4. Starts a fresh worker process that runs our simulator on the same inputs and reads
   its RSS with psutil, as a physics-pool worker would look after those shots.
5. Prints one table (median / p95 / p99, ratios, CPU per break, RSS) and the agreement
   between the two engines; ``--json`` writes every raw figure.

Wall time is ``time.perf_counter``, CPU time ``time.process_time``. The machine is
shared: read medians first, and rerun before trusting a small difference.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import hashlib
import json
import math
import multiprocessing
import os
import platform
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from multiprocessing.connection import Connection
from pathlib import Path
from types import ModuleType
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BENCH = REPO / "bench"
SCRATCH = BENCH / ".scratch"
POOLTOOL_VENV = SCRATCH / "pooltool-venv"
POOLTOOL_REQUIREMENTS = BENCH / "requirements-pooltool.txt"
POOLTOOL_REFERENCE = BENCH / "pooltool_reference.py"
POOLTOOL_STAMP = POOLTOOL_VENV / ".requirements-sha256"

BREAK_SPEED = 10.0  # m/s, the break
# Random shots: speeds and tip offsets a player uses; tip stays inside the miscue limit.
SHOT_SPEED_RANGE = (0.5, 8.0)
SHOT_TIP_RADIUS = 0.4
PLACEMENT_GAP = 0.002  # m between balls, and between a ball and a cushion nose
MOVED = 1e-6  # m: a ball that ends closer than this to its start did not move
# WPA jaw cuts, used for pooltool's table when our parameters do not name them.
WPA_CORNER_JAW_DEG = 142.0
WPA_SIDE_JAW_DEG = 103.0
WPA_NOSE_HEIGHT_FRACTION = 0.635  # of the ball's height

# Our coefficients that mean the same thing in pooltool's BallParams.
MATCHED_COEFFICIENTS = {
    "mu_slide": "u_s",
    "mu_roll": "u_r",
    "e_ball": "e_b",
    "e_cushion": "e_c",
    "mu_cushion": "f_c",
    "g": "g",
}


class BenchError(RuntimeError):
    """The benchmark cannot run; the message says why and what to do."""


# --------------------------------------------------------------------------- our side


def import_our_physics() -> ModuleType:
    """Import ``server.physics`` from this checkout, or explain why it cannot be."""
    if str(REPO) not in sys.path:
        sys.path.insert(0, str(REPO))
    try:
        import server.physics as physics
    except ImportError as error:
        raise BenchError(
            f"server.physics is not importable yet ({error}). This benchmark needs our "
            "simulator (simulate, rack, Shot, kitchen_spot, params_dict, DEFAULT_PARAMS); "
            "run it again once server/physics/ has landed."
        ) from error
    missing = [
        name
        for name in ("simulate", "rack", "Shot", "kitchen_spot", "params_dict", "DEFAULT_PARAMS")
        if not hasattr(physics, name)
    ]
    if missing:
        raise BenchError(f"server.physics lacks {', '.join(missing)}: it has not fully landed")
    return physics


def our_params(physics: ModuleType) -> dict[str, Any]:
    """Every constant our simulator uses, as the shot lab's ``--params`` prints them."""
    try:
        params = physics.params_dict(physics.DEFAULT_PARAMS)
    except TypeError:
        params = physics.params_dict()
    return dict(params)


def our_shot(physics: ModuleType, shot: Mapping[str, Any]) -> Any:
    side, height = shot["tip"]
    return physics.Shot(
        angle=float(shot["angle"]),
        speed=float(shot["speed"]),
        tip=(float(side), float(height)),
        elevation=float(shot["elevation"]),
    )


def our_balls(scene: Mapping[str, Any]) -> dict[int, tuple[float, float]]:
    return {int(k): (float(xy[0]), float(xy[1])) for k, xy in scene["balls"].items()}


def summarize_ours(outcome: Any) -> dict[str, Any]:
    """What happened in our shot, in the same vocabulary as pooltool_reference.outcome."""
    ball_ball = 0
    cushion = 0
    pocketed: dict[str, str] = {}
    for event in outcome.events:
        if event.kind == "ball":
            ball_ball += 1
        elif event.kind == "rail":
            cushion += 1
        elif event.kind == "pocket":
            pocketed[str(event.a)] = str(event.pocket)
    first = getattr(outcome.report, "first", None)
    return {
        "ball_ball": ball_ball,
        "cushion": cushion,
        "first_contact": None if first is None else int(first),
        "pocketed": pocketed,
        "final": {
            str(ball): None if xy is None else [float(xy[0]), float(xy[1])]
            for ball, xy in outcome.final.items()
        },
        "duration": float(outcome.duration),
        "events": len(outcome.events),
    }


def timed(run: Callable[[], Any]) -> tuple[float, float, Any]:
    wall0, cpu0 = time.perf_counter(), time.process_time()
    result = run()
    return time.perf_counter() - wall0, time.process_time() - cpu0, result


def run_ours(physics: ModuleType, inputs: Mapping[str, Any]) -> dict[str, Any]:
    """Time our simulator, warm: every input runs once untimed, then the timed pass."""
    scenes = [inputs["break"], *inputs["shots"]]
    prepared = [(our_balls(scene), our_shot(physics, scene["shot"])) for scene in scenes]
    for balls, shot in prepared:
        physics.simulate(balls, shot)

    break_balls, break_shot = prepared[0]
    break_wall: list[float] = []
    break_cpu: list[float] = []
    break_result: dict[str, Any] = {}
    for _ in range(int(inputs["break"]["repeats"])):
        wall, cpu, outcome = timed(lambda: physics.simulate(break_balls, break_shot))
        break_wall.append(wall)
        break_cpu.append(cpu)
        break_result = summarize_ours(outcome)

    rows: list[dict[str, Any]] = []
    for balls, shot in prepared[1:]:
        wall, cpu, outcome = timed(functools.partial(physics.simulate, balls, shot))
        rows.append({"wall_s": wall, "cpu_s": cpu, **summarize_ours(outcome)})
    return {"break": {"wall_s": break_wall, "cpu_s": break_cpu, **break_result}, "shots": rows}


def _rss_worker(conn: Connection, inputs: dict[str, Any], repo: str) -> None:
    """Physics-worker stand-in: import our simulator, run the inputs, stay up to be measured."""
    if repo not in sys.path:
        sys.path.insert(0, repo)
    import server.physics as physics

    conn.send("imported")
    conn.recv()
    for scene in [inputs["break"], *inputs["shots"]]:
        physics.simulate(our_balls(scene), our_shot(physics, scene["shot"]))
    conn.send("done")
    conn.recv()


def measure_worker_rss(inputs: dict[str, Any]) -> dict[str, float]:
    """RSS of a fresh spawned process after importing our physics and after the shots."""
    import psutil

    context = multiprocessing.get_context("spawn")
    parent, child = context.Pipe()
    worker = context.Process(target=_rss_worker, args=(child, inputs, str(REPO)), daemon=True)
    worker.start()
    try:
        process = psutil.Process(worker.pid)
        if parent.recv() != "imported":
            raise BenchError("the RSS worker did not start")
        after_import = process.memory_info().rss
        parent.send("go")
        if parent.recv() != "done":
            raise BenchError("the RSS worker did not finish its shots")
        info = process.memory_full_info()
        parent.send("exit")
    finally:
        worker.join(timeout=30)
        if worker.is_alive():
            worker.terminate()
    mib = 1024.0 * 1024.0
    return {
        "rss_after_import_mb": after_import / mib,
        "rss_after_shots_mb": info.rss / mib,
        "uss_after_shots_mb": info.uss / mib,
    }


# --------------------------------------------------------------------------- inputs


@dataclass(frozen=True)
class Geometry:
    length: float
    width: float
    radius: float


def geometry(params: Mapping[str, Any]) -> Geometry:
    try:
        return Geometry(
            float(params["table_length"]),
            float(params["table_width"]),
            float(params["ball_radius"]),
        )
    except KeyError as error:
        raise BenchError(f"params_dict() has no {error}: cannot build the table") from error


def pooltool_table(params: Mapping[str, Any]) -> dict[str, float]:
    """Our table in the terms pooltool_reference.table_specs expects."""
    radius = float(params["ball_radius"])

    def number(name: str, default: float) -> float:
        value = params.get(name)
        return float(value) if isinstance(value, int | float) else default

    table = {
        "length": float(params["table_length"]),
        "width": float(params["table_width"]),
        "ball_radius": radius,
        "ball_mass": float(params["ball_mass"]),
        "corner_mouth": float(params["corner_mouth"]),
        "side_mouth": float(params["side_mouth"]),
        "corner_jaw_deg": number("corner_jaw_angle_deg", WPA_CORNER_JAW_DEG),
        "side_jaw_deg": number("side_jaw_angle_deg", WPA_SIDE_JAW_DEG),
        "cushion_height": number("cushion_height", WPA_NOSE_HEIGHT_FRACTION * 2.0 * radius),
    }
    if isinstance(params.get("jaw_tip_radius"), int | float):
        table["jaw_tip_radius"] = float(params["jaw_tip_radius"])
    return table


def pocket_holes(physics: ModuleType) -> dict[str, float]:
    """Our pocket drop circles as pooltool's pocket depth and radius, where TABLE shows them.

    Both engines drop a ball when its centre enters a circle behind the mouth. pooltool
    puts a corner circle's centre ``depth`` out from the corner along the diagonal and a
    side circle's ``depth`` out from the rail nose; H0 and S0 stand for all six pockets.
    """
    pockets = getattr(getattr(physics, "TABLE", None), "pockets", None)
    try:
        corner, side = pockets["H0"], pockets["S0"]  # type: ignore[index]
        return {
            "corner_pocket_depth": math.hypot(*corner.centre),
            "corner_pocket_radius": float(corner.radius),
            "side_pocket_depth": -float(side.centre[1]),
            "side_pocket_radius": float(side.radius),
        }
    except (TypeError, KeyError, AttributeError):
        return {}


def pooltool_coefficients(params: Mapping[str, Any], mode: str) -> dict[str, float]:
    """pooltool BallParams overrides: ours where the meaning is the same, else its own.

    Both engines define spin decay as 5·mu·g / 2R, but pooltool stores mu / R.
    Ball-ball friction is not a BallParams number in pooltool 0.6.0: its default
    resolver uses Alciatore's fit 0.00995 + 0.108·exp(-1.088·v), the same as our default.
    """
    if mode == "pooltool":
        return {}
    coefficients = {
        theirs: float(params[ours])
        for ours, theirs in MATCHED_COEFFICIENTS.items()
        if isinstance(params.get(ours), int | float)
    }
    if isinstance(params.get("mu_spin"), int | float):
        coefficients["u_sp_proportionality"] = float(params["mu_spin"]) / float(
            params["ball_radius"]
        )
    return coefficients


def random_layout(rng: random.Random, table: Geometry) -> dict[str, list[float]]:
    """Cue ball plus 1-9 object balls placed uniformly, apart and off the cushions."""
    margin = table.radius + PLACEMENT_GAP
    numbers = sorted(rng.sample(range(1, 10), rng.randint(1, 9)))
    balls: dict[str, list[float]] = {}
    for number in [0, *numbers]:
        while True:
            xy = [
                rng.uniform(margin, table.length - margin),
                rng.uniform(margin, table.width - margin),
            ]
            if all(
                math.dist(xy, other) >= 2.0 * table.radius + PLACEMENT_GAP
                for other in balls.values()
            ):
                balls[str(number)] = xy
                break
    return balls


def random_shot(
    rng: random.Random, balls: Mapping[str, list[float]], radius: float
) -> dict[str, Any]:
    """Aimed somewhere onto a random object ball (any cut), random speed and tip."""
    cue = balls["0"]
    target = balls[rng.choice([k for k in balls if k != "0"])]
    bearing = math.atan2(target[1] - cue[1], target[0] - cue[0])
    distance = math.dist(cue, target)
    widest = math.asin(min(1.0, 2.0 * radius / distance))
    angle = math.degrees(bearing + rng.uniform(-widest, widest)) % 360.0
    tip_r = SHOT_TIP_RADIUS * math.sqrt(rng.random())
    tip_a = rng.uniform(0.0, 2.0 * math.pi)
    return {
        "angle": angle,
        "speed": rng.uniform(*SHOT_SPEED_RANGE),
        "tip": [tip_r * math.cos(tip_a), tip_r * math.sin(tip_a)],
        "elevation": 0.0,
    }


def build_inputs(
    physics: ModuleType, seed: int, shots: int, breaks: int, coefficients: str
) -> dict[str, Any]:
    params = our_params(physics)
    table = geometry(params)
    racked = {int(k): v for k, v in dict(physics.rack(seed)).items() if int(k) != 0}
    cue_xy = tuple(physics.kitchen_spot())
    apex = racked[1]
    break_balls = {"0": [float(cue_xy[0]), float(cue_xy[1])]}
    break_balls.update({str(k): [float(xy[0]), float(xy[1])] for k, xy in sorted(racked.items())})
    rng = random.Random(seed)
    shot_list = []
    for _ in range(shots):
        layout = random_layout(rng, table)
        shot_list.append({"balls": layout, "shot": random_shot(rng, layout, table.radius)})
    return {
        "table": {**pooltool_table(params), **pocket_holes(physics)},
        "coefficients": pooltool_coefficients(params, coefficients),
        "break": {
            "balls": break_balls,
            "shot": {
                "angle": math.degrees(math.atan2(apex[1] - cue_xy[1], apex[0] - cue_xy[0])),
                "speed": BREAK_SPEED,
                "tip": [0.0, 0.0],
                "elevation": 0.0,
            },
            "repeats": breaks,
        },
        "shots": shot_list,
        "our_params": params,
    }


# --------------------------------------------------------------------------- pooltool


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def pooltool_python() -> Path:
    return POOLTOOL_VENV / "bin" / "python"


def ensure_pooltool_venv(force: bool = False) -> Path:
    """Create bench/.scratch/pooltool-venv from the pinned requirements when needed.

    Every package is pinned (the full tested closure) and installed with --no-deps:
    pooltool 0.6.0 declares a development build of panda3d that PyPI does not serve,
    and it only needs panda3d for its GUI.
    """
    python = pooltool_python()
    wanted = _sha256(POOLTOOL_REQUIREMENTS)
    if (
        not force
        and python.exists()
        and POOLTOOL_STAMP.exists()
        and POOLTOOL_STAMP.read_text().strip() == wanted
    ):
        return python
    print(f"setting up pooltool in {POOLTOOL_VENV} ...", file=sys.stderr)
    pip = [str(python), "-m", "pip", "install", "-q"]
    steps = [
        [sys.executable, "-m", "venv", "--clear", str(POOLTOOL_VENV)],
        [*pip, "--upgrade", "pip"],
        [*pip, "--no-deps", "-r", str(POOLTOOL_REQUIREMENTS)],
    ]
    for step in steps:
        done = subprocess.run(step, check=False)
        if done.returncode != 0:
            raise BenchError(f"pooltool setup failed at: {' '.join(step)}")
    check = subprocess.run([str(python), "-c", "import pooltool"], env=pooltool_env(), check=False)
    if check.returncode != 0:
        raise BenchError("pooltool was installed but does not import; see the error above")
    POOLTOOL_STAMP.write_text(wanted + "\n")
    return python


def pooltool_env() -> dict[str, str]:
    """pooltool writes its config under HOME and numba caches compiled kernels."""
    home = SCRATCH / "home"
    numba_cache = SCRATCH / "numba-cache"
    home.mkdir(parents=True, exist_ok=True)
    numba_cache.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "HOME": str(home), "NUMBA_CACHE_DIR": str(numba_cache)}


def run_pooltool(python: Path, inputs: Mapping[str, Any], timeout_s: float) -> dict[str, Any]:
    payload = {key: value for key, value in inputs.items() if key != "our_params"}
    try:
        done = subprocess.run(
            [str(python), str(POOLTOOL_REFERENCE)],
            input=json.dumps(payload),
            capture_output=True,
            text=True,
            env=pooltool_env(),
            timeout=timeout_s,
            check=False,
        )
    except subprocess.TimeoutExpired as error:
        raise BenchError(f"the pooltool reference ran longer than {timeout_s:.0f} s") from error
    if done.returncode != 0:
        raise BenchError(
            f"the pooltool reference failed (exit {done.returncode}):\n{done.stderr[-4000:]}"
        )
    result: dict[str, Any] = json.loads(done.stdout)
    return result


# --------------------------------------------------------------------------- figures


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolation percentile (numpy's default), q in 0..100."""
    ordered = sorted(values)
    if not ordered:
        return math.nan
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (rank - low)


def spread(values: Sequence[float]) -> dict[str, float]:
    return {
        "median": percentile(values, 50),
        "p95": percentile(values, 95),
        "p99": percentile(values, 99),
        "mean": statistics.fmean(values) if values else math.nan,
        "max": max(values) if values else math.nan,
        "n": float(len(values)),
    }


def timing_summary(ours: Mapping[str, Any], theirs: Mapping[str, Any]) -> dict[str, Any]:
    summary: dict[str, Any] = {}
    for label, pick in (
        ("break_wall", lambda r: r["break"]["wall_s"]),
        ("break_cpu", lambda r: r["break"]["cpu_s"]),
        ("shot_wall", lambda r: [row["wall_s"] for row in r["shots"]]),
        ("shot_cpu", lambda r: [row["cpu_s"] for row in r["shots"]]),
    ):
        a, b = spread(pick(ours)), spread(pick(theirs))
        summary[label] = {
            "ours": a,
            "pooltool": b,
            "ratio": {k: a[k] / b[k] if b[k] else math.nan for k in ("median", "p95", "p99")},
        }
    return summary


def _on_table(final: Mapping[str, Any], ball: str) -> list[float] | None:
    xy = final.get(ball)
    return None if xy is None else [float(xy[0]), float(xy[1])]


def agreement(
    inputs: Mapping[str, Any], ours: Mapping[str, Any], theirs: Mapping[str, Any]
) -> dict[str, Any]:
    """How alike the two engines' results are on the same inputs (not a verdict).

    Final-position distances count only balls that moved in at least one engine: balls
    neither engine touched would agree exactly and flatter the figure.
    """
    pairs = list(zip(ours["shots"], theirs["shots"], strict=True))
    starts = [scene["balls"] for scene in inputs["shots"]]
    same_count = sum(a["ball_ball"] == b["ball_ball"] for a, b in pairs)
    same_first = sum(a["first_contact"] == b["first_contact"] for a, b in pairs)
    same_pocketed = sum(set(a["pocketed"]) == set(b["pocketed"]) for a, b in pairs)
    cue_d: list[float] = []
    cue_d_no_contact: list[float] = []
    all_d: list[float] = []
    for (a, b), start in zip(pairs, starts, strict=True):
        for ball in a["final"]:
            pa, pb = _on_table(a["final"], ball), _on_table(b["final"], ball)
            if pa is None or pb is None:
                continue
            if max(math.dist(pa, start[ball]), math.dist(pb, start[ball])) < MOVED:
                continue
            distance = math.dist(pa, pb)
            all_d.append(distance)
            if ball == "0":
                cue_d.append(distance)
                if a["ball_ball"] == 0 and b["ball_ball"] == 0:
                    cue_d_no_contact.append(distance)
    duration_ratio = [a["duration"] / b["duration"] for a, b in pairs if b["duration"] > 0]
    ob, tb = ours["break"], theirs["break"]
    n = len(pairs)
    return {
        "shots": n,
        "same_ball_ball_count": same_count,
        "ball_ball_total": {
            "ours": sum(a["ball_ball"] for a, _ in pairs),
            "pooltool": sum(b["ball_ball"] for _, b in pairs),
        },
        "cushion_total": {
            "ours": sum(a["cushion"] for a, _ in pairs),
            "pooltool": sum(b["cushion"] for _, b in pairs),
        },
        "same_first_contact": same_first,
        "same_pocketed_set": same_pocketed,
        "cue_final_distance_m": spread(cue_d),
        "cue_final_distance_no_contact_m": spread(cue_d_no_contact),
        "all_final_distance_m": spread(all_d),
        "duration_ratio": spread(duration_ratio),
        "break": {
            side: {
                "ball_ball": r["ball_ball"],
                "cushion": r["cushion"],
                "pocketed": sorted(r["pocketed"], key=int),
                "duration_s": r["duration"],
            }
            for side, r in (("ours", ob), ("pooltool", tb))
        },
        "per_shot": [
            {
                "ball_ball": [a["ball_ball"], b["ball_ball"]],
                "first_contact": [a["first_contact"], b["first_contact"]],
                "cue_final": [_on_table(a["final"], "0"), _on_table(b["final"], "0")],
            }
            for a, b in pairs
        ],
    }


def render(report: Mapping[str, Any]) -> str:
    t = report["timing"]
    a = report["agreement"]
    rss = report["rss"]
    env = report["environment"]
    ms = 1000.0
    lines = [
        f"Physics speed: ours vs pooltool {report['pooltool']['version']}  "
        f"(seed {report['seed']}, {report['breaks']} breaks, {report['shots']} random shots)",
        f"machine: {env['cpus']} CPUs, load {env['loadavg_before']} before / "
        f"{env['loadavg_after']} after; shared and noisy — trust medians, rerun small gaps",
        "",
        f"{'':18}{'ours':^26}{'pooltool':^26}{'ours/pooltool':^24}",
        f"{'ms':18}"
        + f"{'median':>8}{'p95':>9}{'p99':>9}" * 2
        + f"{'median':>8}{'p95':>8}{'p99':>8}",
    ]
    for key, label in (
        ("break_wall", "break wall"),
        ("break_cpu", "break CPU"),
        ("shot_wall", "random shot wall"),
        ("shot_cpu", "random shot CPU"),
    ):
        row = t[key]
        cells = "".join(
            f"{row[side]['median'] * ms:8.2f}"
            f"{row[side]['p95'] * ms:9.2f}"
            f"{row[side]['p99'] * ms:9.2f}"
            for side in ("ours", "pooltool")
        )
        ratio = row["ratio"]
        lines.append(
            f"{label:18}{cells}{ratio['median']:8.3f}{ratio['p95']:8.3f}{ratio['p99']:8.3f}"
        )
    pt = report["pooltool"]
    lines += [
        "",
        f"our worker RSS: {rss['rss_after_shots_mb']:.1f} MB after the break and the "
        f"{report['shots']} shots ({rss['rss_after_import_mb']:.1f} MB after import, "
        f"USS {rss['uss_after_shots_mb']:.1f} MB); pooltool process peak RSS "
        f"{pt['peak_rss_mb']:.1f} MB",
        f"pooltool first call {pt['first_call_s']:.2f} s (numba JIT or its cache), warm-up pass "
        f"{pt['warmup_s']:.2f} s; both engines ran every input once untimed before timing",
        "",
        "targets (issue 3), CPU first (wall time also counts waiting for a busy core):",
        f"  break median ≤ 20 ms CPU: {_ms(t['break_cpu']['ours']['median'])} "
        f"{_yes(t['break_cpu']['ours']['median'] <= 0.020)}",
        f"  break ≤ ½ pooltool's: ratio of medians CPU {t['break_cpu']['ratio']['median']:.3f} "
        f"{_yes(t['break_cpu']['ratio']['median'] <= 0.5)}, wall "
        f"{t['break_wall']['ratio']['median']:.3f} "
        f"{_yes(t['break_wall']['ratio']['median'] <= 0.5)}",
        f"  random shot p95 ≤ 10 ms: CPU {_ms(t['shot_cpu']['ours']['p95'])} "
        f"{_yes(t['shot_cpu']['ours']['p95'] <= 0.010)}, wall {_ms(t['shot_wall']['ours']['p95'])} "
        f"{_yes(t['shot_wall']['ours']['p95'] <= 0.010)}",
        f"  worker RSS ≤ 100 MB: {rss['rss_after_shots_mb']:.1f} MB "
        f"{_yes(rss['rss_after_shots_mb'] <= 100.0)}",
        "",
        "agreement on the same inputs (different models: reported, not judged)",
    ]
    ob, tb = a["break"]["ours"], a["break"]["pooltool"]
    lines.append(
        f"  break: ball-ball {ob['ball_ball']} vs {tb['ball_ball']}, cushion {ob['cushion']} vs "
        f"{tb['cushion']}, pocketed {ob['pocketed']} vs {tb['pocketed']}, "
        f"duration {ob['duration_s']:.2f} s vs {tb['duration_s']:.2f} s"
    )
    n = a["shots"]
    cue, cue0, every = (
        a["cue_final_distance_m"],
        a["cue_final_distance_no_contact_m"],
        a["all_final_distance_m"],
    )
    lines += [
        f"  random shots: same ball-ball count {a['same_ball_ball_count']}/{n}, same first "
        f"contact {a['same_first_contact']}/{n}, same pocketed set {a['same_pocketed_set']}/{n}",
        f"  ball-ball collisions in all shots: {a['ball_ball_total']['ours']} vs "
        f"{a['ball_ball_total']['pooltool']}; cushion contacts: {a['cushion_total']['ours']} vs "
        f"{a['cushion_total']['pooltool']}",
        f"  cue ball final position, distance between engines: median {cue['median'] * 100:.1f} "
        f"cm, p95 {cue['p95'] * 100:.1f} cm (n={int(cue['n'])})",
        f"  the same, in shots with no ball-ball contact in either engine: median "
        f"{cue0['median']:.2g} m, max {cue0['max']:.2g} m (n={int(cue0['n'])})",
        f"  every ball that moved, on the table in both: median "
        f"{every['median'] * 100:.1f} cm, p95 {every['p95'] * 100:.1f} cm "
        f"(n={int(every['n'])}); shot duration ours/pooltool median "
        f"{a['duration_ratio']['median']:.3f}",
        f"  pooltool coefficients: {report['pooltool']['ball_params']}",
    ]
    return "\n".join(lines)


def _yes(ok: bool) -> str:
    return "(met)" if ok else "(NOT met)"


def _ms(seconds: float) -> str:
    return f"{seconds * 1000.0:.2f} ms"


def _loadavg() -> str:
    with contextlib.suppress(OSError):
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    return "n/a"


def _git_commit() -> str:
    done = subprocess.run(
        ["git", "-C", str(REPO), "rev-parse", "--short", "HEAD"],
        capture_output=True,
        text=True,
        check=False,
    )
    return done.stdout.strip() or "unknown"


# --------------------------------------------------------------------------- main


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shots", type=int, default=300, help="random shots (default 300)")
    parser.add_argument("--breaks", type=int, default=20, help="timed breaks (default 20)")
    parser.add_argument("--seed", type=int, default=1, help="rack and shot seed (default 1)")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument(
        "--coefficients",
        choices=("matched", "pooltool"),
        default="matched",
        help="pooltool's friction and restitution coefficients: ours (default) or its own",
    )
    parser.add_argument(
        "--setup", action="store_true", help="(re)create the pooltool venv, then exit"
    )
    parser.add_argument(
        "--pooltool-timeout", type=float, default=1800.0, help="seconds (default 1800)"
    )
    args = parser.parse_args(argv)
    if args.shots < 1 or args.breaks < 1:
        parser.error("--shots and --breaks must be at least 1")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        if args.setup:
            print(ensure_pooltool_venv(force=True))
            return 0
        physics = import_our_physics()
        python = ensure_pooltool_venv()
        loadavg_before = _loadavg()
        inputs = build_inputs(physics, args.seed, args.shots, args.breaks, args.coefficients)
        print(f"pooltool: {args.breaks} breaks, {args.shots} shots ...", file=sys.stderr)
        theirs = run_pooltool(python, inputs, args.pooltool_timeout)
        print("ours: same inputs, in process ...", file=sys.stderr)
        ours = run_ours(physics, inputs)
        print("ours: RSS of a fresh worker ...", file=sys.stderr)
        rss = measure_worker_rss(inputs)
    except BenchError as error:
        print(f"physics_vs_pooltool: {error}", file=sys.stderr)
        return 2
    report = {
        "seed": args.seed,
        "breaks": args.breaks,
        "shots": args.shots,
        "coefficients": args.coefficients,
        "environment": {
            "cpus": os.cpu_count(),
            "loadavg_before": loadavg_before,
            "loadavg_after": _loadavg(),
            "python": platform.python_version(),
            "machine": platform.machine(),
            "commit": _git_commit(),
        },
        "timing": timing_summary(ours, theirs),
        "rss": rss,
        "agreement": agreement(inputs, ours, theirs),
        "pooltool": {k: v for k, v in theirs.items() if k not in ("break", "shots")},
        "our_params": inputs["our_params"],
    }
    if args.json:
        raw = {**report, "inputs": inputs, "raw": {"ours": ours, "pooltool": theirs}}
        args.json.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
        print(f"wrote {args.json}", file=sys.stderr)
    print(render(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
