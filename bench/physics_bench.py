"""Physics benchmark: timings of our simulator and the accuracy oracles' figures.

    .venv/bin/python bench/physics_bench.py                 # break, 300 random shots, oracles
    .venv/bin/python bench/physics_bench.py --random 10000  # oracle 5 over 10,000 shots
    .venv/bin/python bench/physics_bench.py --json          # the same, as one JSON object

CPU time is ``time.process_time`` per call, after one warm-up run of each input. Figures are
medians, p95 and p99. Nothing here asserts a time: this measures, the tests check behaviour.
The side-by-side run with pooltool is ``bench/physics_vs_pooltool.py``.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "physics"))

import physics_oracles as oracles  # noqa: E402

from server.physics import DEFAULT_PARAMS, Params, Shot, kitchen_spot, rack, simulate  # noqa: E402

BREAK_SEED = 1
BREAK_SPEED = 10.0


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, math.ceil(q / 100.0 * len(ordered)) - 1))
    return ordered[k]


def summary_ms(values: list[float]) -> dict[str, float]:
    return {
        "median_ms": statistics.median(values) * 1e3,
        "p95_ms": percentile(values, 95) * 1e3,
        "p99_ms": percentile(values, 99) * 1e3,
        "max_ms": max(values) * 1e3,
    }


def break_scene() -> tuple[dict[int, tuple[float, float]], Shot]:
    balls = {0: kitchen_spot(), **rack(BREAK_SEED)}
    (x0, y0), (x1, y1) = balls[0], balls[1]
    return balls, Shot(math.degrees(math.atan2(y1 - y0, x1 - x0)), BREAK_SPEED)


def time_break(repeats: int) -> dict[str, Any]:
    balls, shot = break_scene()
    simulate(balls, shot)
    cpu: list[float] = []
    wall: list[float] = []
    outcome = None
    for _ in range(repeats):
        w0, c0 = time.perf_counter(), time.process_time()
        outcome = simulate(balls, shot)
        cpu.append(time.process_time() - c0)
        wall.append(time.perf_counter() - w0)
    assert outcome is not None
    return {
        "cpu": summary_ms(cpu),
        "wall": summary_ms(wall),
        "events": len(outcome.events),
        "segments": sum(len(t) for t in outcome.tracks.values()),
        "pocketed": list(outcome.report.pocketed),
        "rails": list(outcome.report.rails),
        "duration_s": outcome.duration,
    }


def time_random(count: int, seed: int = 2024) -> dict[str, Any]:
    rng = random.Random(seed)
    scenes = [(oracles.random_layout(rng), oracles.random_shot(rng)) for _ in range(count)]
    for balls, shot in scenes:
        simulate(balls, shot)
    cpu: list[float] = []
    events: list[int] = []
    for balls, shot in scenes:
        c0 = time.process_time()
        out = simulate(balls, shot)
        cpu.append(time.process_time() - c0)
        events.append(len(out.events))
    return {
        "count": count,
        "cpu": summary_ms(cpu),
        "events_median": statistics.median(events),
        "events_max": max(events),
    }


def rss_mb() -> float:
    try:
        import psutil
    except ImportError:
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return float(psutil.Process().memory_info().rss) / (1024.0 * 1024.0)


def oracle_figures() -> dict[str, Any]:
    """The worst measured error of each accuracy oracle over its grid."""
    frictionless = Params(mu_ball=0.0)
    elastic = Params(mu_ball=0.0, e_ball=1.0)
    e = DEFAULT_PARAMS.e_ball
    rolls = [oracles.centre_ball_roll(v) for v in (0.2, 0.5, 0.7)]
    stuns = [oracles.stun_full_ball(v) for v in (0.5, 2.0, 5.0, 10.0)]
    speeds = (0.5, 2.0, 5.0, 10.0)
    cuts = [c * 5.0 for c in range(18)]
    line_errors = [
        abs(r.object_dir - r.line_of_centres)
        for r in (oracles.cut_shot(c, v, frictionless) for c in cuts for v in speeds)
    ]
    throws = [
        oracles.cut_shot(c, v).throw
        for c in (10.0, 30.0, 45.0, 60.0, 80.0)
        for v in (0.5, 1.0, 3.0, 10.0)
    ]
    separations = [oracles.cut_shot(c, 2.0, elastic).separation for c in cuts[1:]]
    deflections = [
        abs(
            -oracles.cut_shot(
                c, 2.0, Params(mu_ball=0.0, e_ball=ee), stun=False, distance=0.5
            ).cue_final_deflection
            - oracles.rolling_deflection_closed_form(c, ee)
        )
        for c in (10.0, 20.0, 30.0, 45.0, 60.0, 75.0)
        for ee in (1.0, e)
    ]
    thin = [oracles.thin_cut_makes_contact(c, 10.0) for c in (85.0, 87.0, 88.0, 89.0, 89.5)]
    cushion_speeds = (0.5, 1.0, 2.0, 4.0, 8.0)
    ratios = [oracles.cushion_square_ratio(v) for v in cushion_speeds]
    expected_ratios = [
        DEFAULT_PARAMS.e_cushion_at(oracles.cushion_impact_speed(v)) for v in cushion_speeds
    ]
    english = {s: oracles.cushion_rebound_angle(s) for s in (-0.3, 0.0, 0.3)}
    drops = [
        oracles.corner_pocket_shot(v, p).report.pocketed == (0,)
        for v in (1.0, 2.0, 4.0, 6.0, 8.0)
        for p in ("H0", "H1", "F0", "F1")
    ]
    jaws = [
        not any(
            ev.kind == "pocket" and ev.pocket == p for ev in oracles.jaw_point_shot(v, p, j).events
        )
        for v in (1.0, 3.0, 6.0)
        for p, j in (("F1", 0), ("F1", 1), ("S0", 0))
    ]
    return {
        "1_roll_speed_rel_error": max(abs(r.roll_ratio / (5 / 7) - 1) for r in rolls),
        "1_distance_rel_error": max(abs(r.distance / r.expected_distance - 1) for r in rolls),
        "2_cue_keeps_max": max(c for c, _ in stuns),
        "2_cue_limit": (1 - e) / 2,
        "2_object_rel_error": max(abs(o / ((1 + e) / 2) - 1) for _, o in stuns),
        "3_line_of_centres_error_deg_max": max(line_errors),
        "3_throw_deg_range": [min(throws), max(throws)],
        "4_stun_separation_error_deg_max_e1": max(abs(s - 90.0) for s in separations),
        "4_rolling_deflection_error_deg_max": max(deflections),
        "5_thin_cuts_up_to_89_5_contact": all(thin),
        "6_cushion_ratio_rel_error": max(
            abs(r / e - 1) for r, e in zip(ratios, expected_ratios, strict=True)
        ),
        "6_cushion_ratio_0_5_to_8_m_s": ratios,
        "6_rebound_deg_running_plain_reverse": [english[-0.3], english[0.0], english[0.3]],
        "7_corner_drops": f"{sum(drops)}/{len(drops)}",
        "7_jaw_point_rattles_out": f"{sum(jaws)}/{len(jaws)}",
    }


def random_oracle(count: int, seed: int = 5) -> dict[str, Any]:
    rng = random.Random(seed)
    bad = []
    for k in range(count):
        out = simulate(oracles.random_layout(rng), oracles.random_shot(rng))
        problems = oracles.final_state_problems(out)
        if problems:
            bad.append((k, problems))
    return {"shots": count, "with_problems": len(bad), "first": bad[:3]}


def pymunk_fixed_step_cut(
    cut_deg: float, speed: float, step: float, offset: float
) -> tuple[float | None, float, int]:
    """A plain fixed-step pymunk loop (tiny collision slop, elastic, frictionless): the
    object ball's departure error from the line of centres (None if the cue ball passed
    through it), the CPU seconds spent until contact and the steps taken."""
    import pymunk

    r, m = oracles.R, DEFAULT_PARAMS.ball_mass
    space = pymunk.Space()
    space.collision_slop = 1e-7
    space.iterations = 30

    def ball(pos: tuple[float, float]) -> pymunk.Body:
        body = pymunk.Body(m, pymunk.moment_for_circle(m, 0.0, r))
        body.position = pos
        shape = pymunk.Circle(body, r)
        shape.elasticity, shape.friction = 1.0, 0.0
        space.add(body, shape)
        return body

    phi = math.radians(cut_deg)
    cue = ball((0.5 + offset, 0.3))
    obj = ball((1.2 + 2 * r * math.cos(phi), 0.3 + 2 * r * math.sin(phi)))
    cue.velocity = (speed, 0.0)
    c0 = time.process_time()
    steps = 0
    while steps * step < 0.3 and obj.velocity.length < 1e-9:
        space.step(step)
        steps += 1
    cpu = time.process_time() - c0
    if obj.velocity.length < 1e-9:
        return None, cpu, steps
    error = abs(math.degrees(math.atan2(obj.velocity.y, obj.velocity.x)) - cut_deg)
    return error, cpu, steps


def pymunk_baseline() -> dict[str, Any]:
    """What a fixed time step gives at 10 m/s, over ten contact phases per cut."""
    out: dict[str, Any] = {}
    for step in (1e-3, 1e-4):
        for cut in (30.0, 60.0, 80.0, 85.0, 89.0):
            runs = [pymunk_fixed_step_cut(cut, 10.0, step, k * 0.00137) for k in range(10)]
            errors = [e for e, _, _ in runs if e is not None]
            out[f"step {step * 1e3:g} ms, cut {cut:g}°"] = {
                "max_error_deg": max(errors) if errors else None,
                "missed": sum(e is None for e, _, _ in runs),
                "cpu_per_step_us": 1e6 * sum(c for _, c, _ in runs) / sum(n for _, _, n in runs),
            }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed breaks")
    parser.add_argument("--shots", type=int, default=300, help="timed random shots")
    parser.add_argument(
        "--random", type=int, default=0, metavar="N", help="also check oracle 5 over N random shots"
    )
    parser.add_argument("--no-oracles", action="store_true")
    parser.add_argument(
        "--pymunk-baseline",
        action="store_true",
        help="also measure a plain fixed-step pymunk loop on cut shots",
    )
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    report: dict[str, Any] = {
        "break": time_break(args.repeats),
        "random_shots": time_random(args.shots),
    }
    if not args.no_oracles:
        report["oracles"] = oracle_figures()
    if args.random:
        report["oracle5_random"] = random_oracle(args.random)
    if args.pymunk_baseline:
        report["pymunk_fixed_step"] = pymunk_baseline()
    report["rss_mb"] = rss_mb()
    if args.json:
        print(json.dumps(report, indent=2))
        return 0
    b, r = report["break"], report["random_shots"]
    print(
        f"break 10 m/s (rack {BREAK_SEED}): CPU median {b['cpu']['median_ms']:.2f} ms, "
        f"p95 {b['cpu']['p95_ms']:.2f}, p99 {b['cpu']['p99_ms']:.2f}; "
        f"{b['events']} events, {b['segments']} segments, pocketed {b['pocketed']}"
    )
    print(
        f"{r['count']} random shots: CPU median {r['cpu']['median_ms']:.2f} ms, "
        f"p95 {r['cpu']['p95_ms']:.2f}, p99 {r['cpu']['p99_ms']:.2f}, "
        f"max {r['cpu']['max_ms']:.2f}; events median {r['events_median']}, "
        f"max {r['events_max']}"
    )
    for key, value in report.get("oracles", {}).items():
        print(f"oracle {key}: {value}")
    if "oracle5_random" in report:
        o5 = report["oracle5_random"]
        print(
            f"oracle 5: {o5['shots']} random shots, {o5['with_problems']} with a ball off "
            f"the table or overlapping"
        )
    for key, value in report.get("pymunk_fixed_step", {}).items():
        print(f"pymunk fixed step, {key}: {value}")
    print(f"RSS {report['rss_mb']:.1f} MB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
