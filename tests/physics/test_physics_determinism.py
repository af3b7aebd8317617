"""Oracle 8: the same table and shot give byte-identical results, in any process."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

SCRIPT = """
import hashlib, math
from server.physics import Shot, kitchen_spot, rack, simulate
balls = {0: kitchen_spot(), **rack(11)}
dx, dy = balls[1][0] - balls[0][0], balls[1][1] - balls[0][1]
shots = [Shot(math.degrees(math.atan2(dy, dx)), 10.0),
         Shot(12.5, 7.3, (0.21, -0.33), 12.0), Shot(181.0, 2.2, (-0.1, 0.35)),
         Shot(math.degrees(math.atan2(dy, dx)), 10.5, elevation=9.0),  # a hopping break
         Shot(3.0, 3.5, (0.1, -0.2), 50.0)]  # a jump
digest = hashlib.sha256()
for shot in shots:
    digest.update(repr(simulate(balls, shot)).encode())
print(digest.hexdigest())
"""


def run_in_fresh_process(hash_seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": hash_seed, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    return done.stdout.strip()


def test_oracle8_two_processes_give_identical_results() -> None:
    first = run_in_fresh_process("1")
    second = run_in_fresh_process("2")
    assert len(first) == 64
    assert first == second


def test_oracle8_repeated_in_one_process_identical() -> None:
    from server.physics import Shot, rack, simulate

    balls = {0: (0.5, 0.6), **rack(3)}
    shot = Shot(1.0, 9.0, (0.1, 0.2), 5.0)
    assert repr(simulate(balls, shot)) == repr(simulate(balls, shot))
