"""The conformance runner: it passes the real suite, and reports bad files without tracebacks."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

from server.rules.conformance import main

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "tests" / "conformance"

GOOD = {
    "name": "R6: pass after a push-out",
    "settings": {"race_to": 3, "break_order": "winner"},
    "players": ["A", "B"],
    "breaker": "A",
    "steps": [
        {"shot": {"by": "A", "first": 1, "rails": [2, 3, 5, 7], "pocketed": [4], "off_table": []}},
        {"expect": {"turn": "A", "foul": False, "ball_in_hand": False, "push_out_allowed": True}},
        {
            "shot": {
                "by": "A",
                "push_out": True,
                "first": None,
                "rails": [],
                "pocketed": [],
                "off_table": [],
            }
        },
        {"expect": {"turn": "B", "choice_pending": True}},
        {"choose": {"by": "B", "choice": "pass"}},
        {"expect": {"turn": "A", "choice_pending": False, "push_out_allowed": False}},
    ],
}


def run(*paths: Path | str) -> tuple[int, list[str]]:
    out = io.StringIO()
    status = main([str(p) for p in paths], out)
    return status, out.getvalue().splitlines()


def write(tmp_path: Path, name: str, content: object) -> Path:
    path = tmp_path / name
    text = content if isinstance(content, str) else json.dumps(content)
    path.write_text(text, encoding="utf-8")
    return path


def with_steps(*steps: object, **top: object) -> dict[str, object]:
    return {**GOOD, "steps": list(steps), **top}


def test_the_whole_suite_passes() -> None:
    status, lines = run(SUITE)
    assert status == 0, "\n".join(line for line in lines if not line.startswith("PASS"))
    assert lines[-1] == f"{len(lines) - 1} passed, 0 failed"
    assert len(lines) - 1 >= 60


def test_suite_covers_every_rule_the_referee_decides() -> None:
    decided = ["R1", *(f"R{n}" for n in range(3, 12)), "R13", "R14", "R15"]
    decided += ["G1", "G3", "G4", "G5", "O3", "O4", "O5", "O6"]
    names = [json.loads(p.read_text())["name"] for p in SUITE.glob("*.json")]
    for rule in decided:
        assert any(rule in name.replace("/", " ").replace(":", " ").split() for name in names), rule


def test_example_from_the_issue_passes(tmp_path: Path) -> None:
    status, lines = run(write(tmp_path, "ok.json", GOOD))
    assert status == 0
    assert lines[0].startswith("PASS  R6: pass after a push-out")
    assert lines[-1] == "1 passed, 0 failed"


def test_a_wrong_expectation_fails_with_step_and_mismatch(tmp_path: Path) -> None:
    steps = list(GOOD["steps"])
    steps[3] = {"expect": {"turn": "A", "choice_pending": True}}
    status, lines = run(write(tmp_path, "bad.json", with_steps(*steps)))
    assert status == 1
    assert lines[0].startswith("FAIL")
    assert 'step 4 (expect): turn: expected "A", got "B"' in lines[0]
    assert lines[-1] == "0 passed, 1 failed"


def test_expect_error_checks_the_code(tmp_path: Path) -> None:
    shot = {"by": "B", "first": 1, "rails": [2, 3, 4, 5], "pocketed": [], "off_table": []}
    wrong_code = with_steps({"expect_error": {"action": {"shot": shot}, "code": "match_over"}})
    accepted = with_steps(
        {"expect_error": {"action": {"shot": {**shot, "by": "A"}}, "code": "not_your_turn"}}
    )
    status, lines = run(write(tmp_path, "a.json", wrong_code), write(tmp_path, "b.json", accepted))
    assert status == 1
    assert "expected error 'match_over', got 'not_your_turn'" in lines[0]
    assert "expected error 'not_your_turn', but the action was accepted" in lines[1]


def test_a_rejected_action_step_fails(tmp_path: Path) -> None:
    shot = {"by": "B", "first": 1, "rails": [], "pocketed": [], "off_table": []}
    status, lines = run(write(tmp_path, "x.json", with_steps({"shot": shot})))
    assert status == 1 and "step 1 (shot): action rejected: not_your_turn" in lines[0]


def test_malformed_scenarios_name_file_and_step(tmp_path: Path) -> None:
    shot = {"by": "A", "first": 1, "rails": [2, 3, 4, 5], "pocketed": [], "off_table": []}
    cases = {
        "settings.json": with_steps(settings={"race_to": 3, "colour": "red"}),
        "range.json": with_steps(settings={"race_to": 50}),
        "step.json": with_steps({"shot": shot}, {"shoot": shot}),
        "key.json": with_steps({"expect": {"turns": "A"}}),
        "type.json": with_steps({"expect": {"turn": 5}}),
        "missing.json": with_steps({"shot": {"by": "A", "first": 1}}),
        "ball.json": with_steps({"shot": {**shot, "rails": ["two"]}}),
        "players.json": with_steps(players=["A"]),
        "stranger.json": with_steps({"expect": {"score": {"C": 1}}}),
        "top.json": {**GOOD, "stepz": []},
        "list.json": [1, 2],
        "number.json": 7,
        "syntax.json": "{not json",
    }
    paths = [write(tmp_path, name, content) for name, content in cases.items()]
    status, lines = run(*paths, tmp_path / "absent.json")
    assert status == 1
    assert lines[-1] == f"0 passed, {len(lines) - 1} failed"
    text = "\n".join(lines)
    assert "Traceback" not in text
    by_file = {name: next(line for line in lines if name in line) for name in cases}
    assert "settings: unknown key 'colour'" in by_file["settings.json"]
    assert "race_to must be a whole number from 1 to 21" in by_file["range.json"]
    assert "step 2: unknown step 'shoot'" in by_file["step.json"]
    assert "step 1: expect: unknown key 'turns'" in by_file["key.json"]
    assert "step 1: expect.turn must be a string" in by_file["type.json"]
    assert "step 1: shot: missing keys 'off_table', 'pocketed', 'rails'" in by_file["missing.json"]
    assert "step 1: shot.rails must be a list of ball numbers" in by_file["ball.json"]
    assert "players must be two different" in by_file["players.json"]
    assert "'C' is not a player" in by_file["stranger.json"]
    assert "unknown key 'stepz'" in by_file["top.json"]
    assert "invalid JSON" in by_file["syntax.json"]
    assert "absent.json" in lines[-2] and "no such file or folder" in lines[-2]


def test_a_file_may_hold_a_list_of_scenarios(tmp_path: Path) -> None:
    status, lines = run(write(tmp_path, "many.json", [GOOD, GOOD]))
    assert status == 0 and lines[-1] == "2 passed, 0 failed"


def test_an_empty_folder_is_a_failure(tmp_path: Path) -> None:
    status, lines = run(tmp_path)
    assert status == 1 and lines[-1] == "0 passed, 1 failed"


def test_runs_as_a_module(tmp_path: Path) -> None:
    path = write(tmp_path, "ok.json", GOOD)
    done = subprocess.run(
        [sys.executable, "-m", "server.rules.conformance", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "1 passed, 0 failed"
    assert done.stderr == ""
