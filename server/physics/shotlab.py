"""The shot lab: one shot in as JSON on stdin, everything that happened out as JSON.

    python -m server.physics.shotlab < shot.json
    python -m server.physics.shotlab --rack 7 < shot.json    # rack + cue ball in the kitchen
    python -m server.physics.shotlab --params                # every constant in use
    python -m server.physics.shotlab --jsonl < shots.jsonl   # one request a line, in order

Input: ``{"balls": {"0": [x, y], …}, "shot": {"angle": …, "speed": …, "tip": [side, height],
"elevation": …, "cue": "standard" | "low_deflection"}}`` (``tip`` and ``elevation``
default to 0, ``cue`` to ``"standard"``). Output: ``{"events": […],
"final": {"0": [x, y] | null, …}, "duration": s, "report": {"first", "rails", "pocketed",
"off_table"}}``; an event's ``kind`` is ``"ball"`` (with ``b``), ``"rail"`` (``rail``),
``"pocket"`` (``pocket``) or ``"off"``, a ball that flew off the table (``rail``, and
``pocket`` when it flew over a pocket's back). Bad JSON or values: a one-line message on
stderr and exit status 2.

Batch mode (``--jsonl``): one request per input line, one result per output line, in the
same order, so a tuning or regression script pays for one process instead of one a shot.
A line may also give ``"rack": SEED`` instead of ``"balls"`` (what ``--rack`` does for the
whole batch). A bad line gives ``{"error": "…"}`` on its output line and the batch goes on;
the exit status is then 2. Blank lines are skipped.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from typing import Any

from server.physics.engine import simulate
from server.physics.outcome import Event, ShotOutcome
from server.physics.params import DEFAULT_PARAMS, params_dict
from server.physics.placement import PlacementError, kitchen_spot, rack
from server.physics.shot import Shot, ShotError

EXIT_BAD_INPUT = 2


class InputError(ValueError):
    """The input is not a valid shot-lab request."""


def _number(value: Any, what: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise InputError(f"{what} must be a number, got {json.dumps(value)}")
    return float(value)


def _point(value: Any, what: str) -> tuple[float, float]:
    if not isinstance(value, list) or len(value) != 2:
        raise InputError(f"{what} must be [x, y], got {json.dumps(value)}")
    return (_number(value[0], what), _number(value[1], what))


def parse_shot(data: Any) -> Shot:
    if not isinstance(data, dict):
        raise InputError('"shot" must be an object')
    unknown = set(data) - {"angle", "speed", "tip", "elevation", "cue"}
    if unknown:
        raise InputError(f"unknown shot field(s): {', '.join(sorted(unknown))}")
    for name in ("angle", "speed"):
        if name not in data:
            raise InputError(f'shot needs "{name}"')
    tip = _point(data.get("tip", [0.0, 0.0]), "shot tip")
    cue = data.get("cue", "standard")
    if not isinstance(cue, str):
        raise InputError(f"shot cue must be a string, got {json.dumps(cue)}")
    return Shot(
        angle=_number(data["angle"], "shot angle"),
        speed=_number(data["speed"], "shot speed"),
        tip=tip,
        elevation=_number(data.get("elevation", 0.0), "shot elevation"),
        cue=cue,
    )


def parse_balls(data: Any) -> dict[int, tuple[float, float]]:
    if not isinstance(data, dict):
        raise InputError('"balls" must be an object of "id": [x, y]')
    balls: dict[int, tuple[float, float]] = {}
    for key, value in data.items():
        if not (isinstance(key, str) and key.isdigit() and int(key) <= 9):
            raise InputError(f'ball ids are "0" … "9", got {json.dumps(key)}')
        balls[int(key)] = _point(value, f"ball {key}")
    return balls


def parse_request(
    text: str, rack_seed: int | None, allow_rack_field: bool = False
) -> tuple[dict[int, tuple[float, float]], Shot]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(f"bad JSON: {error}") from error
    if not isinstance(data, dict):
        raise InputError("the input must be one JSON object")
    if allow_rack_field and "rack" in data:
        seed = data.pop("rack")
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise InputError(f'"rack" must be an integer seed, got {json.dumps(seed)}')
        if rack_seed is not None:
            raise InputError('give "rack" or --rack, not both')
        rack_seed = seed
    unknown = set(data) - {"balls", "shot"}
    if unknown:
        raise InputError(f"unknown field(s): {', '.join(sorted(unknown))}")
    if "shot" not in data:
        raise InputError('the input needs "shot"')
    shot = parse_shot(data["shot"])
    if rack_seed is not None:
        if "balls" in data:
            raise InputError('give "balls" or --rack, not both')
        return {0: kitchen_spot(), **rack(rack_seed)}, shot
    if "balls" not in data:
        raise InputError('the input needs "balls" (or use --rack SEED)')
    return parse_balls(data["balls"]), shot


def event_json(event: Event) -> dict[str, Any]:
    out: dict[str, Any] = {"t": event.t, "kind": event.kind, "a": event.a}
    if event.kind == "ball":
        out["b"] = event.b
    elif event.kind == "rail":
        out["rail"] = event.rail
    elif event.kind == "off":  # flew off the table: over a cushion, or a pocket's back
        out["rail"] = event.rail
        if event.pocket is not None:
            out["pocket"] = event.pocket
    else:
        out["pocket"] = event.pocket
    return out


def outcome_json(outcome: ShotOutcome) -> dict[str, Any]:
    report = outcome.report
    return {
        "events": [event_json(e) for e in outcome.events],
        "final": {
            str(k): None if xy is None else [xy[0], xy[1]] for k, xy in outcome.final.items()
        },
        "duration": outcome.duration,
        "report": {
            "first": report.first,
            "rails": list(report.rails),
            "pocketed": list(report.pocketed),
            "off_table": list(report.off_table),
        },
    }


def run_one(text: str, rack_seed: int | None, allow_rack_field: bool = False) -> str:
    """One request → one line of result JSON (raises InputError, ShotError, PlacementError)."""
    balls, shot = parse_request(text, rack_seed, allow_rack_field)
    outcome = simulate(balls, shot)
    assert math.isfinite(outcome.duration)
    return json.dumps(outcome_json(outcome), allow_nan=False)


def run_batch(lines: list[str], rack_seed: int | None) -> tuple[list[str], int]:
    """Every non-blank line's result, in order, and how many lines were bad."""
    out: list[str] = []
    bad = 0
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            out.append(run_one(line, rack_seed, allow_rack_field=True))
        except (InputError, ShotError, PlacementError) as error:
            bad += 1
            message = " ".join(str(error).split())
            out.append(json.dumps({"error": f"line {number}: {message}"}))
    return out, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m server.physics.shotlab",
        description="Simulate one shot: JSON on stdin, JSON on stdout.",
    )
    parser.add_argument("--rack", type=int, metavar="SEED", help="rack with this seed")
    parser.add_argument("--params", action="store_true", help="print every constant and exit")
    parser.add_argument(
        "--jsonl", action="store_true", help="one request per line in, one result per line out"
    )
    args = parser.parse_args(argv)
    if args.params:
        sys.stdout.write(json.dumps(params_dict(DEFAULT_PARAMS)) + "\n")
        return 0
    if args.jsonl:
        results, bad = run_batch(sys.stdin.read().splitlines(), args.rack)
        for line in results:
            sys.stdout.write(line + "\n")
        if bad:
            sys.stderr.write(f"shotlab: {bad} bad request line(s); see their error lines\n")
            return EXIT_BAD_INPUT
        return 0
    try:
        text = run_one(sys.stdin.read(), args.rack)
    except (InputError, ShotError, PlacementError) as error:
        message = " ".join(str(error).split())
        sys.stderr.write(f"shotlab: {message}\n")
        return EXIT_BAD_INPUT
    sys.stdout.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
