"""Run conformance scenarios against the referee.

    python -m server.rules.conformance PATH...

Each PATH is a ``.json`` scenario file or a folder searched for them. One line is printed
per scenario — ``PASS`` or ``FAIL`` with the step and the first mismatch — and the last
line is ``N passed, N failed``. The exit status is 0 only when every scenario passed. A
malformed scenario (or an unreadable file) is a failure naming its file and step; the
runner never stops on one with a traceback.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from server.rules.errors import RuleError
from server.rules.referee import apply
from server.rules.scenario import ScenarioError, Step, first_mismatch, read_scenario
from server.rules.state import MatchState, encode_state, new_match
from server.rules.verdict import Verdict


@dataclass(frozen=True)
class Result:
    """One scenario's result; ``problem`` is None when it passed."""

    source: str
    name: str
    problem: str | None

    @property
    def passed(self) -> bool:
        return self.problem is None

    def line(self) -> str:
        if self.problem is None:
            return f"PASS  {self.name}  [{self.source}]"
        return f"FAIL  {self.name}  [{self.source}]: {self.problem}"


def run_scenario(data: object, source: str) -> Result:
    """Play one parsed-JSON scenario through the referee."""
    name = data.get("name") if isinstance(data, dict) else None
    label = name if isinstance(name, str) else "(unnamed scenario)"
    try:
        scenario = read_scenario(data)
    except ScenarioError as exc:
        return Result(source, label, _malformed(exc))
    except Exception as exc:  # never a traceback, whatever the file holds
        return Result(source, label, f"malformed scenario: {type(exc).__name__}: {exc}")
    try:
        state = new_match(scenario.settings, scenario.players, scenario.breaker)
    except RuleError as exc:
        return Result(source, label, f"malformed scenario: {exc.message}")
    verdict = Verdict()
    for step in scenario.steps:
        try:
            problem, state, verdict = _run_step(step, state, verdict)
        except Exception as exc:  # a referee bug must not hide the other scenarios
            problem = f"internal error {type(exc).__name__}: {exc}"
        if problem is not None:
            return Result(source, label, f"step {step.number} ({step.kind}): {problem}")
    return Result(source, label, None)


def _run_step(
    step: Step, state: MatchState, verdict: Verdict
) -> tuple[str | None, MatchState, Verdict]:
    if step.expect is not None:
        return first_mismatch(step.expect, state, verdict), state, verdict
    assert step.action is not None
    if step.error_code is not None:
        before = encode_state(state)
        try:
            apply(state, step.action)
        except RuleError as exc:
            if exc.code != step.error_code:
                return (
                    f"expected error {step.error_code!r}, got {exc.code!r} ({exc.message})",
                    state,
                    verdict,
                )
            if encode_state(state) != before:
                return "the rejected action changed the state", state, verdict
            return None, state, verdict
        return f"expected error {step.error_code!r}, but the action was accepted", state, verdict
    try:
        outcome = apply(state, step.action)
    except RuleError as exc:
        return f"action rejected: {exc.code}: {exc.message}", state, verdict
    return None, outcome.state, outcome.verdict


def _malformed(exc: ScenarioError) -> str:
    where = f"step {exc.step}: " if exc.step is not None else ""
    return f"malformed scenario: {where}{exc.message}"


def scenario_files(paths: Sequence[str]) -> Iterator[tuple[str, Path | None]]:
    """Every ``.json`` file named or found under a folder, in a stable order.

    A path that does not exist is yielded with ``None`` so it is reported as a failure.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for found in sorted(path.rglob("*.json")):
                yield str(found), found
        elif path.is_file():
            yield raw, path
        else:
            yield raw, None


def run_file(source: str, path: Path | None) -> list[Result]:
    """Results for one file: a scenario object, or (as a convenience) a list of them."""
    if path is None:
        return [Result(source, "(no scenario)", "no such file or folder")]
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        return [Result(source, "(unreadable file)", f"cannot read the file: {exc}")]
    except json.JSONDecodeError as exc:
        return [Result(source, "(invalid JSON)", f"invalid JSON: {exc}")]
    if isinstance(data, list):
        return [run_scenario(item, f"{source}#{i}") for i, item in enumerate(data, 1)]
    return [run_scenario(data, source)]


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run every scenario under ``argv`` and return the exit status."""
    stream = out if out is not None else sys.stdout
    paths = list(sys.argv[1:] if argv is None else argv)
    if not paths:
        print("usage: python -m server.rules.conformance PATH...", file=stream)
        print("0 passed, 1 failed", file=stream)
        return 2
    results: list[Result] = []
    for source, path in scenario_files(paths):
        for result in run_file(source, path):
            results.append(result)
            print(result.line(), file=stream)
    if not results:
        results.append(Result(" ".join(paths), "(no scenarios)", "no .json scenario found"))
        print(results[-1].line(), file=stream)
    passed = sum(result.passed for result in results)
    print(f"{passed} passed, {len(results) - passed} failed", file=stream)
    return 0 if passed == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
