"""The duel CLI's fixed interface: one JSON object of a fixed shape, the same for the same
seed apart from the wall-clock timing."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _duel(*args: str) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, "-m", "server.bot.duel", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=600,
    )
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 1, done.stdout
    result = json.loads(lines[0])
    assert isinstance(result, dict)
    return result


def test_shape_and_determinism() -> None:
    args = ("--a", "1", "--b", "2", "--racks", "4", "--seed", "3")
    first = _duel(*args)
    assert set(first) == {"racks", "won", "break_and_run", "fouls", "decision_ms"}
    assert first["racks"] == 4
    for key in ("won", "break_and_run", "fouls"):
        part = first[key]
        assert isinstance(part, dict) and set(part) == {"a", "b"}
        assert all(isinstance(v, int) and v >= 0 for v in part.values())
    won = first["won"]
    assert isinstance(won, dict) and won["a"] + won["b"] <= 4
    timing = first["decision_ms"]
    assert isinstance(timing, dict) and set(timing) == {"a", "b"}
    for side in timing.values():
        assert set(side) == {"p50", "p95"} and 0 <= side["p50"] <= side["p95"]
    second = _duel(*args, "--jobs", "2")
    first.pop("decision_ms")
    second.pop("decision_ms")
    assert first == second


def test_bad_arguments_are_refused() -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "server.bot.duel",
            "--a",
            "6",
            "--b",
            "1",
            "--racks",
            "1",
            "--seed",
            "1",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "--a" in done.stderr
