"""Two bots play racks through the real referee and physics; one JSON object comes out.

    python -m server.bot.duel --a LEVEL --b LEVEL --racks N --seed S [--jobs J]

prints::

    {"racks": N, "won": {"a": int, "b": int}, "break_and_run": {"a": int, "b": int},
     "fouls": {"a": int, "b": int},
     "decision_ms": {"a": {"p50": float, "p95": float}, "b": {"p50": float, "p95": float}}}

Rack ``i`` (0-based) is a match of one game at a table whose racks come from ``S`` and
``i`` (``server.rooms.table.new_table``), broken by ``a`` when ``i`` is even and by ``b``
when it is odd; ``a`` sits in seat "0". Each decision's seed comes from ``S``, the rack and
the decision's number, so the same arguments give the same games and the same output —
except ``decision_ms``, which is wall-clock time and varies from run to run (and with
``--jobs``, which plays racks side by side in worker processes and changes nothing else).

A break-and-run is a rack the breaker wins after a legal break without the opponent
taking a shot. A rack still unfinished after :data:`MAX_DECISIONS` decisions counts for
neither player (it has never been seen; the referee's stalemate rule, R14, re-racks a
game nobody makes progress in long before).

This module times the decisions, so it lives in its own row of docs/ARCHITECTURE.md:
the bot itself (``server.bot``) reads no clock.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import sys
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from server import physics, rules
from server.bot import Choose, Shot, decide, view_of
from server.bot.levels import LEVELS
from server.rooms import table as tables

MAX_DECISIONS = 400
SEATS = ("0", "1")


@dataclass
class RackRecord:
    """What one rack did, per side (index 0 = a, 1 = b)."""

    rack: int
    breaker: int
    winner: int | None = None
    break_and_run: bool = False
    fouls: list[int] = field(default_factory=lambda: [0, 0])
    shots: list[int] = field(default_factory=lambda: [0, 0])
    decision_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    cpu_ms: tuple[list[float], list[float]] = field(default_factory=lambda: ([], []))
    #: What each decision was: "break", "in_hand", "shot" or "choose".
    kinds: tuple[list[str], list[str]] = field(default_factory=lambda: ([], []))


def decision_seed(seed: int, rack: int, ply: int) -> int:
    """The seed of one decision, from the duel's seed, the rack and the decision's number."""
    digest = hashlib.sha256(f"duel:{seed}:{rack}:{ply}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def play_rack(levels: tuple[int, int], seed: int, rack: int) -> RackRecord:
    """Play rack ``rack`` between levels ``levels`` (a, b) to its end."""
    breaker = rack % 2
    settings = rules.Settings(race_to=1, break_order="winner")
    table = tables.new_table(settings, seed=seed, match=rack + 1, breaker=SEATS[breaker])
    record = RackRecord(rack=rack, breaker=breaker)
    legal_break = False
    opponent_shot = False
    for ply in range(MAX_DECISIONS):
        state = table.state
        if state.match_over:
            break
        player = state.turn
        assert player is not None
        side = SEATS.index(player)
        view = view_of(table, player)
        kind = (
            "choose"
            if state.choice_pending
            else "break"
            if state.is_break
            else "in_hand"
            if state.ball_in_hand
            else "shot"
        )
        record.kinds[side].append(kind)
        wall, cpu = time.perf_counter(), time.process_time()
        decision = decide(view, levels[side], decision_seed(seed, rack, ply))
        record.decision_ms[side].append((time.perf_counter() - wall) * 1000.0)
        record.cpu_ms[side].append((time.process_time() - cpu) * 1000.0)
        if isinstance(decision, Choose):
            step = tables.apply_action(table, rules.Choose(by=player, choice=decision.choice))
            table = step.table
            continue
        if not isinstance(decision, Shot):
            raise AssertionError(f"a table asks for a shot or a choice, got {decision!r}")
        was_break = state.is_break
        if decision.place is not None:
            table = tables.place_cue_ball(table, player, decision.place)
        balls, stroke = tables.prepare_shot(table, player, decision.stroke(), decision.push_out)
        outcome = physics.simulate(balls, stroke)
        step = tables.complete_shot(table, player, decision.push_out, outcome.final, outcome.report)
        table = step.table
        verdict = step.verdict
        record.shots[side] += 1
        if verdict.foul:
            record.fouls[side] += 1
        if was_break:
            legal_break = not verdict.foul and side == breaker
            opponent_shot = False
        elif side != breaker:
            opponent_shot = True
        if verdict.game_over and verdict.game_winner is not None:
            record.winner = SEATS.index(verdict.game_winner)
            record.break_and_run = record.winner == breaker and legal_break and not opponent_shot
    return record


def _play(args: tuple[tuple[int, int], int, int]) -> RackRecord:
    return play_rack(*args)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q`` quantile (0…1) by linear interpolation; 0 for no values."""
    if not values:
        return 0.0
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def play(a: int, b: int, racks: int, seed: int, jobs: int = 1) -> list[RackRecord]:
    """Every rack's record, in rack order (the same whatever ``jobs`` is)."""
    work = [((a, b), seed, rack) for rack in range(racks)]
    if jobs <= 1:
        return [_play(item) for item in work]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(_play, work, chunksize=1))


def summary(records: Sequence[RackRecord]) -> dict[str, object]:
    """The duel's JSON object (the fixed interface in the module's doc)."""

    def per_side(values: Sequence[int]) -> dict[str, int]:
        return {"a": values[0], "b": values[1]}

    won = [sum(1 for r in records if r.winner == side) for side in (0, 1)]
    runs = [sum(1 for r in records if r.break_and_run and r.winner == side) for side in (0, 1)]
    fouls = [sum(r.fouls[side] for r in records) for side in (0, 1)]
    times: list[dict[str, float]] = []
    for side in (0, 1):
        ms = [t for r in records for t in r.decision_ms[side]]
        times.append(
            {
                "p50": round(statistics.median(ms), 1) if ms else 0.0,
                "p95": round(percentile(ms, 0.95), 1),
            }
        )
    return {
        "racks": len(records),
        "won": per_side(won),
        "break_and_run": per_side(runs),
        "fouls": per_side(fouls),
        "decision_ms": {"a": times[0], "b": times[1]},
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m server.bot.duel",
        description="Two bots play racks through the referee and the physics; prints JSON.",
    )
    levels = sorted(LEVELS)
    parser.add_argument("--a", type=int, required=True, choices=levels, help="level of bot a")
    parser.add_argument("--b", type=int, required=True, choices=levels, help="level of bot b")
    parser.add_argument(
        "--racks", type=int, required=True, help="racks to play (a breaks the even ones)"
    )
    parser.add_argument("--seed", type=int, required=True, help="the racks and every decision")
    parser.add_argument(
        "--jobs", type=int, default=1, help="worker processes (timing varies, nothing else)"
    )
    args = parser.parse_args(argv)
    if args.racks < 0 or args.jobs < 1:
        parser.error("--racks must be at least 0 and --jobs at least 1")
    records = play(args.a, args.b, args.racks, args.seed, args.jobs)
    json.dump(summary(records), sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
