"""The table's geometry answers queries from several threads at once.

When the physics and the computers' pools run in threads (`--workers 0`, the test suite,
a small machine), a shot being simulated and a computer thinking query the table at the
same time. They once shared one pymunk space, whose query lock Chipmunk keeps in a plain
counter; two queries at once corrupted it and Chipmunk aborted the whole process (the
test suite died with SIGABRT in `point_query`). The hammer runs in a child process, so
an abort fails this test instead of ending the run."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

_HAMMER = """
import random, threading
from server.physics import simulate, Shot, rack, kitchen_spot
from server.physics.world import WORLD

R = 0.028575
answers = {}
spaces = {}

def query(seed):
    rng = random.Random(seed)
    seen = []
    for _ in range(60_000):
        p = (rng.uniform(0.0, 2.54), rng.uniform(0.0, 1.27))
        seen.append((
            WORLD.ball_resting_ok(p, R),
            len(WORLD.candidates(p[0] - 0.1, p[1] - 0.1, p[0] + 0.1, p[1] + 0.1).lines),
            WORLD.hole_at(p) is not None,
        ))
    answers[seed] = seen
    spaces[seed] = WORLD.space

def shoot(seed):
    balls = rack(seed)
    balls[0] = kitchen_spot()
    for k in range(6):
        simulate(balls, Shot(angle=0.001 * k, speed=9.0))

threads = [threading.Thread(target=query, args=(s,)) for s in (1, 2, 3)]
threads += [threading.Thread(target=shoot, args=(4,))]
for t in threads:
    t.start()
for t in threads:
    t.join()
# No two threads queried the same pymunk space (the invariant that keeps Chipmunk's lock
# counter to one thread at a time).
assert len({id(space) for space in spaces.values()}) == len(spaces), "a space was shared"
# The same questions asked again on one thread get the same answers.
for seed in (1, 2, 3):
    before = answers.pop(seed)
    query(seed)
    assert answers[seed] == before, seed
print("ok")
"""


def test_queries_from_several_threads_at_once_neither_crash_nor_differ() -> None:
    done = subprocess.run(
        [sys.executable, "-c", _HAMMER],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert done.stdout.strip() == "ok"
