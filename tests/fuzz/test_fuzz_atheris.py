"""Every atheris target runs clean for a bounded number of inputs.

Each target runs in its own process (`python -m tests.fuzz.atheris_run`), as a long run
would, from a fixed libFuzzer seed so a failure here replays: it must finish its runs,
write no crash file, reach at least a floor of coverage (so the instrumentation is known
to work) and keep what it found in the test's temporary directory, never in the repo.
The long runs are `make fuzz-atheris` (README.md).
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.fuzz.corpus_files import CORPUS

REPO = Path(__file__).resolve().parents[2]
#: What libFuzzer names the inputs it writes beside itself without an artifact prefix.
LIBFUZZER_ARTIFACTS = ("crash-", "leak-", "timeout-", "oom-", "slow-unit-")

pytestmark = pytest.mark.skipif(
    importlib.util.find_spec("atheris") is None,
    reason="atheris is not installed: its wheels exist only for CPython 3.11-3.13 on Linux "
    "x86_64, where the dev extra installs it",
)

#: target -> (inputs to run, least coverage to reach). Coverage levels off early: these
#: budgets reach within 1-3 % of the coverage (libFuzzer's `cov`) of three to six times as
#: many inputs (decoder 209 of 212 at 15,000; trajectory 255 of 258 at 50,000; referee 338
#: of 345 at 10,000; table 1,184 of 1,208 at 1,500), and later inputs run slower as the
#: corpus grows, so the smaller budgets cost a quarter of the time. The floors are about
#: half the coverage they reach. Longer searches are `make fuzz-atheris`.
BUDGETS = {
    "decoder": (4_000, 100),
    "trajectory": (8_000, 120),
    "referee": (3_000, 150),
    "table": (500, 400),
}
#: A guard against a hung run, not a speed limit: on a slow shared machine, next to the
#: rest of the suite, a run can take several times as long as on an idle one.
RUN_TIMEOUT = 600


def run_target(target: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "tests.fuzz.atheris_run", target, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        check=False,
    )


def tail(output: str, lines: int = 60) -> str:
    kept = [line for line in output.splitlines() if not line.startswith("INFO: Instrumenting")]
    return "\n".join(kept[-lines:])


@pytest.mark.parametrize("target", sorted(BUDGETS))
def test_target_runs_without_a_finding(target: str, tmp_path: Path) -> None:
    runs, least_coverage = BUDGETS[target]
    corpus, crashes = tmp_path / "corpus", tmp_path / "crashes"
    kept_before = sorted(CORPUS.iterdir())
    result = run_target(
        target,
        f"--runs={runs}",
        "--seed=1",
        f"--corpus={corpus}",
        f"--artifacts={crashes}",
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, tail(output)
    assert list(crashes.iterdir()) == [], tail(output)
    # The whole budget was run (libFuzzer may finish a mutation past it: "Done 502 runs").
    done = [int(n) for n in re.findall(r"Done (\d+) runs", output)]
    assert done and done[-1] >= runs, tail(output)
    coverage = [int(n) for n in re.findall(r"DONE\s+cov: (\d+)", output)]
    assert coverage and coverage[-1] >= least_coverage, tail(output)
    # What the run found went to the temporary corpus, nothing into the repository.
    assert any(corpus.iterdir()), tail(output)
    assert sorted(CORPUS.iterdir()) == kept_before
    assert not [p for p in REPO.iterdir() if p.name.startswith(LIBFUZZER_ARTIFACTS)]


@pytest.mark.parametrize("target", sorted(BUDGETS))
def test_reproduce_replays_the_kept_corpus(target: str) -> None:
    # The way to replay a crash file, checked on inputs that must pass.
    files = [str(path) for path in sorted(CORPUS.iterdir())]
    result = run_target(target, "--reproduce", *files)
    assert result.returncode == 0, tail(result.stdout + result.stderr)
    assert result.stdout.count("ok     ") == len(files)
