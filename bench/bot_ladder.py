"""The bot's level ladder: each level against the one below, through the real referee and
physics (``server.bot.duel``), and how long each level thinks.

    .venv/bin/python bench/bot_ladder.py                      # 200 racks a pairing, seed 1
    .venv/bin/python bench/bot_ladder.py --racks 40 --jobs 2  # quicker, rougher
    .venv/bin/python bench/bot_ladder.py --write              # also bench/README.md's section

For k = 2 … 5 it plays level k against level k−1 (alternating breaks) and prints one
table: k's share of the racks won (with a 95 % interval), each level's break-and-runs as
a share of the racks it broke, fouls per rack and the share of its shots that were legal,
and its thinking time per decision — wall clock and CPU, median and p95. A level's row
of breaks, fouls and times pools both pairings it plays in (k−1 and k+1). ``--json``
keeps every figure. Times are of the decisions only (not the physics of the shots they
choose) and, with ``--jobs`` above 1 or on a busy machine, vary from run to run; the
rest is the same for the same seed.
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from server.bot.duel import RackRecord, percentile, play  # noqa: E402

README = ROOT / "bench" / "README.md"
BEGIN = "<!-- bot-ladder:begin -->"
END = "<!-- bot-ladder:end -->"


def wilson(wins: int, n: int) -> tuple[float, float]:
    """The 95 % Wilson interval of a proportion."""
    if n == 0:
        return (0.0, 0.0)
    z = 1.96
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (centre - half, centre + half)


class LevelStats:
    """One level's figures, pooled over the pairings it played."""

    def __init__(self) -> None:
        self.racks = 0
        self.broke = 0
        self.runs = 0
        self.fouls = 0
        self.shots = 0
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def add(self, record: RackRecord, side: int) -> None:
        self.racks += 1
        if record.breaker == side:
            self.broke += 1
            self.runs += record.break_and_run and record.winner == side
        self.fouls += record.fouls[side]
        self.shots += record.shots[side]
        self.wall.extend(record.decision_ms[side])
        self.cpu.extend(record.cpu_ms[side])


def ladder(racks: int, seed: int, jobs: int, top: int) -> dict[str, object]:
    pairings = []
    levels = {k: LevelStats() for k in range(1, top + 1)}
    for k in range(2, top + 1):
        started = time.perf_counter()
        records = play(k, k - 1, racks, seed + k, jobs)
        wins = sum(1 for r in records if r.winner == 0)
        decided = sum(1 for r in records if r.winner is not None)
        lo, hi = wilson(wins, len(records))
        pairings.append(
            {
                "upper": k,
                "lower": k - 1,
                "racks": len(records),
                "won_by_upper": wins,
                "undecided": len(records) - decided,
                "share": wins / len(records) if records else 0.0,
                "interval": [lo, hi],
                "seconds": time.perf_counter() - started,
            }
        )
        for record in records:
            levels[k].add(record, 0)
            levels[k - 1].add(record, 1)
        print(
            f"level {k} vs {k - 1}: {wins}/{len(records)} racks"
            f" ({time.perf_counter() - started:.0f} s)",
            file=sys.stderr,
        )
    per_level = {}
    for k, stats in levels.items():
        per_level[str(k)] = {
            "racks": stats.racks,
            "broke": stats.broke,
            "break_and_run": stats.runs,
            "fouls": stats.fouls,
            "shots": stats.shots,
            "decisions": len(stats.wall),
            "wall_ms": {"p50": _median(stats.wall), "p95": percentile(stats.wall, 0.95)},
            "cpu_ms": {"p50": _median(stats.cpu), "p95": percentile(stats.cpu, 0.95)},
        }
    return {"racks_per_pairing": racks, "seed": seed, "pairings": pairings, "levels": per_level}


def timing(level: int, racks: int, seed: int) -> dict[str, dict[str, float]]:
    """``level`` against itself in this one process: wall and CPU time of each decision,
    by what was decided — what one core gives a bot."""
    records = play(level, level, racks, seed, 1)
    by_kind: dict[str, tuple[list[float], list[float]]] = {}
    for record in records:
        for side in (0, 1):
            for kind, wall, cpu in zip(
                record.kinds[side], record.decision_ms[side], record.cpu_ms[side], strict=True
            ):
                walls, cpus = by_kind.setdefault(kind, ([], []))
                walls.append(wall)
                cpus.append(cpu)
    every = (
        [w for ws, _ in by_kind.values() for w in ws],
        [c for _, cs in by_kind.values() for c in cs],
    )
    out = {}
    for kind, (walls, cpus) in [*sorted(by_kind.items()), ("all", every)]:
        out[kind] = {
            "decisions": len(walls),
            "wall_p50": _median(walls),
            "wall_p95": percentile(walls, 0.95),
            "cpu_p50": _median(cpus),
            "cpu_p95": percentile(cpus, 0.95),
        }
    return out


def timing_table(level: int, racks: int, result: dict[str, dict[str, float]]) -> str:
    lines = [
        f"Level {level} against itself, {racks} racks in one process:",
        "",
        "| decision | count | wall p50 / p95 ms | CPU p50 / p95 ms |",
        "|---|---|---|---|",
    ]
    for kind, t in result.items():
        lines.append(
            f"| {kind} | {t['decisions']:.0f} | {t['wall_p50']:.0f} / {t['wall_p95']:.0f} |"
            f" {t['cpu_p50']:.0f} / {t['cpu_p95']:.0f} |"
        )
    return "\n".join(lines)


def _median(values: Sequence[float]) -> float:
    return statistics.median(values) if values else 0.0


def table(result: dict[str, object]) -> str:
    pairings = result["pairings"]
    levels = result["levels"]
    assert isinstance(pairings, list) and isinstance(levels, dict)
    lines = [
        "| pairing | racks | upper level won | 95 % interval |",
        "|---|---|---|---|",
    ]
    for p in pairings:
        lo, hi = p["interval"]
        lines.append(
            f"| {p['upper']} vs {p['lower']} | {p['racks']} | {p['won_by_upper']}"
            f" ({100 * p['share']:.0f} %) | {100 * lo:.0f}–{100 * hi:.0f} % |"
        )
    lines += [
        "",
        "| level | racks | break-and-runs (of racks broken) | fouls per rack | legal shots |"
        " decisions | wall p50 / p95 ms | CPU p50 / p95 ms |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for k, s in levels.items():
        broke = s["broke"]
        runs = s["break_and_run"]
        share = f"{runs}/{broke} ({100 * runs / broke:.0f} %)" if broke else "–"
        per_rack = s["fouls"] / s["racks"] if s["racks"] else 0.0
        legal = 1 - s["fouls"] / s["shots"] if s["shots"] else 0.0
        lines.append(
            f"| {k} | {s['racks']} | {share} | {per_rack:.2f} | {100 * legal:.0f} % |"
            f" {s['decisions']} | {s['wall_ms']['p50']:.0f} / {s['wall_ms']['p95']:.0f} |"
            f" {s['cpu_ms']['p50']:.0f} / {s['cpu_ms']['p95']:.0f} |"
        )
    return "\n".join(lines)


def write_readme(text: str) -> None:
    readme = README.read_text(encoding="utf-8")
    if BEGIN not in readme or END not in readme:
        raise SystemExit(f"{README} has no {BEGIN} … {END} section to fill")
    head, rest = readme.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--racks", type=int, default=200, help="racks per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--top", type=int, default=5, help="highest level to play")
    parser.add_argument(
        "--timing-racks",
        type=int,
        default=0,
        help="then play the top level against itself this many racks in one process",
    )
    parser.add_argument("--no-ladder", action="store_true", help="only the timing run")
    parser.add_argument("--json", type=Path, help="write every figure here")
    parser.add_argument("--write", action="store_true", help="update bench/README.md")
    args = parser.parse_args(argv)
    result: dict[str, object] = {}
    parts = []
    if not args.no_ladder:
        result = ladder(args.racks, args.seed, args.jobs, args.top)
        parts.append(table(result))
    if args.timing_racks:
        times = timing(args.top, args.timing_racks, args.seed)
        result["timing"] = times
        parts.append(timing_table(args.top, args.timing_racks, times))
    text = "\n\n".join(parts)
    print(text)
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=2), encoding="utf-8")
    if args.write:
        write_readme(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
