"""The fixed CLI: `python -m server.tournament.simulate`, run as a process."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.tournament.simulate", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize(("players", "fmt"), [(16, "double"), (13, "single"), (2, "double")])
def test_prints_one_json_object_with_the_right_counts(players: int, fmt: str) -> None:
    done = run("--players", str(players), "--format", fmt, "--seed", "5")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert done.stdout.count("\n") == 1
    assert set(result) == {"players", "format", "matches", "rounds", "champion", "standings"}
    assert result["players"] == players and result["format"] == fmt
    allowed = {players - 1} if fmt == "single" else {2 * players - 2, 2 * players - 1}
    assert result["matches"] in allowed
    assert result["rounds"] >= 1
    assert result["standings"][0] == {"place": "1", "name": result["champion"]}
    assert len(result["standings"]) == players


def test_same_seed_same_output_and_another_seed_differs() -> None:
    first = run("--players", "24", "--format", "double", "--seed", "9").stdout
    assert first == run("--players", "24", "--format", "double", "--seed", "9").stdout
    others = {run("--players", "24", "--format", "double", "--seed", str(s)).stdout for s in (1, 2)}
    assert others != {first}


@pytest.mark.parametrize(
    "args",
    [
        ["--players", "1", "--format", "single", "--seed", "1"],
        ["--players", "65", "--format", "single", "--seed", "1"],
        ["--players", "ten", "--format", "single", "--seed", "1"],
        ["--players", "8", "--format", "swiss", "--seed", "1"],
        ["--players", "8", "--format", "single", "--seed", "x"],
        ["--players", "8", "--format", "single"],
    ],
)
def test_bad_arguments_exit_2_with_a_message(args: list[str]) -> None:
    done = run(*args)
    assert done.returncode == 2
    assert done.stdout == "" and "error:" in done.stderr
