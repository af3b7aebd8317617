"""The shot lab's fixed interface, run as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]

EXAMPLE = {
    "balls": {"0": [0.635, 0.635], "1": [1.905, 0.635], "9": [2.2, 0.9]},
    "shot": {"angle": 0.0, "speed": 3.0, "tip": [0.0, 0.0], "elevation": 0.0},
}


def shotlab(stdin: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "server.physics.shotlab", *args],
        input=stdin,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def run_ok(request: Any, *args: str) -> dict[str, Any]:
    done = shotlab(json.dumps(request), *args)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    out = json.loads(done.stdout)
    assert isinstance(out, dict)
    return out


def test_example_shot_output_shape() -> None:
    out = run_ok(EXAMPLE)
    assert set(out) == {"events", "final", "duration", "report"}
    assert set(out["final"]) == {"0", "1", "9"}
    assert out["duration"] > 0.0
    assert out["report"]["first"] == 1
    assert set(out["report"]) == {"first", "rails", "pocketed", "off_table"}
    first = out["events"][0]
    assert first["kind"] == "ball" and first["a"] == 0 and first["b"] == 1
    assert set(first) == {"t", "kind", "a", "b"}
    times = [e["t"] for e in out["events"]]
    assert times == sorted(times)
    for event in out["events"]:
        expected = {
            "ball": {"t", "kind", "a", "b"},
            "rail": {"t", "kind", "a", "rail"},
            "pocket": {"t", "kind", "a", "pocket"},
        }[event["kind"]]
        assert set(event) == expected
        if event["kind"] == "rail":
            assert event["rail"] in {"head", "foot", "y0h", "y0f", "y1h", "y1f"}


def test_pocketed_ball_is_null_in_final() -> None:
    # The 1 sits in front of the F0 pocket and is driven straight in.
    request = {
        "balls": {"0": [2.2, 0.3], "1": [2.35, 0.15]},
        "shot": {"angle": -45.0, "speed": 2.0},
    }
    out = run_ok(request)
    assert out["final"]["1"] is None
    assert 1 in out["report"]["pocketed"]
    assert {
        "t": pytest.approx(out["events"][-1]["t"]),
        "kind": "pocket",
        "a": 1,
        "pocket": "F0",
    } in out["events"]


def test_a_ball_flying_off_the_table_is_an_off_event() -> None:
    # A hard jump near the foot rail clears it: the ball is off the table.
    request = {"balls": {"0": [2.2, 0.635]}, "shot": {"angle": 0, "speed": 4, "elevation": 50}}
    out = run_ok(request)
    off = [e for e in out["events"] if e["kind"] == "off"]
    assert off == [{"t": off[0]["t"], "kind": "off", "a": 0, "rail": "foot"}]
    assert out["report"]["off_table"] == [0]
    assert out["final"]["0"] is None


def test_rack_option_sets_up_a_rack_and_breaks() -> None:
    out = run_ok({"shot": {"angle": 0.0, "speed": 10.0}}, "--rack", "5")
    assert set(out["final"]) == {str(k) for k in range(10)}
    assert out["report"]["first"] == 1
    again = run_ok({"shot": {"angle": 0.0, "speed": 10.0}}, "--rack", "5")
    assert again == out


def test_params_prints_every_constant() -> None:
    done = shotlab("", "--params")
    assert done.returncode == 0
    params = json.loads(done.stdout)
    for key in (
        "ball_radius",
        "ball_mass",
        "mu_slide",
        "mu_roll",
        "mu_spin",
        "mu_ball",
        "e_ball",
        "e_cushion",
        "g",
        "table_length",
        "table_width",
        "corner_mouth",
        "side_mouth",
    ):
        assert isinstance(params[key], float), key
    assert params["table_length"] == 2.54 and params["table_width"] == 1.27


@pytest.mark.parametrize(
    "stdin",
    [
        "{not json",
        "[]",
        json.dumps({"balls": {"0": [0.5, 0.5]}}),
        json.dumps({"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0}}),
        json.dumps({"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 0.0}}),
        json.dumps({"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 12.5}}),
        json.dumps({"balls": {"0": [0.5, 0.5]}, "shot": {"angle": "x", "speed": 1.0}}),
        '{"balls": {"0": [0.5, 0.5]}, "shot": {"angle": NaN, "speed": 1.0}}',
        '{"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0, "speed": Infinity}}',
        json.dumps(
            {"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0, "elevation": 90.0}}
        ),
        json.dumps(
            {"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0, "tip": [0.8, 0.7]}}
        ),
        json.dumps(
            {"balls": {"0": [0.5, 0.5], "1": [0.52, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0}}
        ),
        json.dumps({"balls": {"0": [-0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0}}),
        json.dumps({"balls": {"1": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0}}),
        json.dumps({"balls": {"12": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0}}),
        json.dumps({"balls": {"0": [0.5, 0.5]}, "shot": {"angle": 0.0, "speed": 1.0}, "extra": 1}),
    ],
)
def test_bad_input_is_one_line_error_and_exit_2(stdin: str) -> None:
    done = shotlab(stdin)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.endswith("\n") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr


def test_rack_with_balls_is_an_error() -> None:
    done = shotlab(json.dumps(EXAMPLE), "--rack", "1")
    assert done.returncode == 2


def test_jsonl_batch_answers_each_line_in_order() -> None:
    one = {"balls": {"0": [0.635, 0.635], "1": [1.905, 0.635]}, "shot": {"angle": 0, "speed": 3}}
    two = {"rack": 7, "shot": {"angle": 0, "speed": 10}}
    bad = {"balls": {"0": [0.635, 0.635]}, "shot": {"angle": 0, "speed": 99}}
    three = {
        "balls": {"0": [0.635, 0.635]},
        "shot": {"angle": 90, "speed": 1, "cue": "low_deflection"},
    }
    lines = [json.dumps(one), json.dumps(two), "", json.dumps(bad), json.dumps(three)]
    done = shotlab("\n".join(lines) + "\n", "--jsonl")
    assert done.returncode == 2
    results = [json.loads(line) for line in done.stdout.splitlines()]
    assert len(results) == 4
    assert results[0] == run_ok(one)
    assert results[1]["report"]["first"] == 1
    assert results[1] == run_ok({"shot": two["shot"]}, "--rack", "7")
    assert set(results[2]) == {"error"} and results[2]["error"].startswith("line 4:")
    assert results[3]["report"] == {"first": None, "rails": [0], "pocketed": [], "off_table": []}
    assert "1 bad request line" in done.stderr


def test_jsonl_batch_of_good_lines_exits_0() -> None:
    shot = {"balls": {"0": [0.635, 0.635]}, "shot": {"angle": 0, "speed": 2}}
    done = shotlab(json.dumps(shot) + "\n" + json.dumps(shot) + "\n", "--jsonl")
    assert done.returncode == 0 and done.stderr == ""
    first, second = (json.loads(line) for line in done.stdout.splitlines())
    assert first == second == run_ok(shot)
