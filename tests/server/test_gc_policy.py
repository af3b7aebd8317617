"""The garbage collector's policy for a serving process (`server/ops/gc_policy.py`): a frozen
start and young collections spaced out, set by `python -m server` and its flag. Checked in
a child process: the policy is the whole process's, and this one's must stay as it is."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from server.ops.config import config_from_args

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc, json
import server.serve  # everything `python -m server` has imported when it tunes
from server.ops import gc_policy
before = gc.get_threshold()
gc_policy.tune_for_serving({threshold})
after, frozen = gc.get_threshold(), gc.get_freeze_count()
print(json.dumps({{"before": before, "after": after, "frozen": frozen}}))
"""


def probe(threshold: int) -> dict[str, object]:
    result = subprocess.run(
        [sys.executable, "-c", PROBE.format(threshold=threshold)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return dict(json.loads(result.stdout))


def test_a_serving_process_freezes_its_start_and_spaces_young_collections() -> None:
    tuned = probe(20_000)
    before, after = tuned["before"], tuned["after"]
    assert isinstance(before, list) and isinstance(after, list)
    assert after == [20_000, before[1], before[2]]  # only the young generation's threshold
    assert isinstance(tuned["frozen"], int) and tuned["frozen"] > 20_000  # modules, classes…


def test_zero_leaves_the_collector_as_cpython_set_it() -> None:
    untouched = probe(0)
    assert untouched["after"] == untouched["before"] and untouched["frozen"] == 0


def test_the_flag_and_its_variable() -> None:
    assert config_from_args([], environ={}).gc_threshold == 20_000
    assert config_from_args(["--gc-threshold", "0"], environ={}).gc_threshold == 0
    assert config_from_args([], environ={"NINEPOOL_GC_THRESHOLD": "5000"}).gc_threshold == 5000
    with pytest.raises(SystemExit):
        config_from_args(["--gc-threshold", "-1"], environ={})
