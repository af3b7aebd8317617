"""R10/R2: the browser's ball-in-hand check agrees with the server's on every spot.

The client marks a spot illegal before anything is sent (`client_web/aim.mjs`), the server
refuses it (`server.physics.check_placement`). Both are run here on the same spots, most
of them near where the answer changes: against a ball, at the head string, in the corners
and at the side pockets.
"""

from __future__ import annotations

import json
import math
import random
import shutil
from pathlib import Path

import pytest

from server.physics import check_placement
from server.physics.placement import PlacementError
from tests.node_module import node_json

ROOT = Path(__file__).resolve().parents[2]
R = 0.028575
BALLS = {1: (1.905, 0.635), 2: (0.4, 0.3), 3: (2.45, 1.18), 4: (1.27, 0.05)}

NODE_CHECK = """
import { readFileSync } from "node:fs";
import { checkPlacement } from "%s";
const d = JSON.parse(readFileSync(process.argv[1], "utf8"));
const balls = Object.entries(d.balls).map(([n, [x, y]]) => ({ n: Number(n), x, y }));
console.log(JSON.stringify(d.spots.map(([x, y, k]) => checkPlacement([x, y], balls, k).ok)));
"""


def spots(count: int, rng: random.Random) -> list[tuple[float, float, bool]]:
    out: list[tuple[float, float, bool]] = []
    for i in range(count):
        kind = i % 5
        if kind == 0:  # anywhere, a little past the rails too
            x, y = rng.uniform(-0.01, 2.55), rng.uniform(-0.01, 1.28)
        elif kind == 1:  # against a ball
            bx, by = BALLS[rng.choice(list(BALLS))]
            a = rng.uniform(0, 2 * math.pi)
            d = 2 * R + rng.uniform(-1e-3, 1e-3)
            x, y = bx + d * math.cos(a), by + d * math.sin(a)
        elif kind == 2:  # at the head string
            x, y = 2.54 / 4 + rng.uniform(-1e-3, 1e-3), rng.uniform(0.1, 1.1)
        elif kind == 3:  # in a corner
            cx, cy = rng.choice([(0.0, 0.0), (0.0, 1.27), (2.54, 0.0), (2.54, 1.27)])
            x = abs(cx - rng.uniform(0, 0.15))
            y = abs(cy - rng.uniform(0, 0.15))
        else:  # along a side rail by the side pocket
            x, y = (
                1.27 + rng.uniform(-0.12, 0.12),
                rng.choice([R, 1.27 - R]) + rng.uniform(-2e-3, 0.01),
            )
        out.append((x, y, rng.random() < 0.4))
    return out


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_r10_client_placement_check_matches_the_server(tmp_path: Path) -> None:
    rng = random.Random(1010)
    points = spots(4000, rng)
    expected = []
    for x, y, kitchen in points:
        try:
            check_placement({0: (0.0, 0.0), **BALLS}, (x, y), kitchen)
            expected.append(True)
        except PlacementError:
            expected.append(False)
    data = tmp_path / "spots.json"
    data.write_text(json.dumps({"balls": BALLS, "spots": points}))
    script = NODE_CHECK % (ROOT / "client_web" / "aim.mjs").as_uri()
    got = node_json(script, str(data))
    differ = [(p, e) for p, e, g in zip(points, expected, got, strict=True) if e != g]
    assert differ == [], f"{len(differ)} spots judged differently, e.g. {differ[:5]}"
    assert 0.2 < sum(expected) / len(expected) < 0.8, "the spots should test both answers"
