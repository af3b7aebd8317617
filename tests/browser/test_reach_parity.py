"""The power hint's table lengths (`client_web/reach.mjs`) are the server's physics.

The client tells a player how far a shot carries ("≈ 1½ table lengths") from a table of
speeds and lengths. This runs `server.physics.simulate` on every tabulated speed — a level
centre-ball stroke from one end cushion straight up the table, cushions included, until
the ball stops — and fails, printing the table to paste, if the client's figures are not
the engine's.
"""

from __future__ import annotations

import shutil
from itertools import pairwise
from pathlib import Path

import pytest

from server.physics import TABLE, Shot, simulate
from tests.node_module import node_json

ROOT = Path(__file__).resolve().parents[2]
NODE_TABLE = """
import { REACH } from "%s";
console.log(JSON.stringify(REACH));
"""


def engine_lengths(speed: float) -> float:
    """Table lengths the cue ball's centre travels: straight along the long axis from
    against the head cushion, one length being 2.54 m less two radii."""
    radius = TABLE.ball_radius
    outcome = simulate({0: (radius + 0.001, TABLE.width / 2)}, Shot(angle=0.0, speed=speed))
    track = outcome.tracks[0]
    travelled = sum(abs(b.x - a.x) for a, b in pairwise(track))
    return travelled / (TABLE.length - 2 * radius)


def as_js(rows: list[tuple[float, float]]) -> str:
    return ", ".join(f"[{speed:g}, {lengths:.3f}]" for speed, lengths in rows)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_clients_reach_table_is_the_engines() -> None:
    script = NODE_TABLE % (ROOT / "client_web" / "reach.mjs").as_uri()
    client = [(float(speed), float(lengths)) for speed, lengths in node_json(script)]
    # The table covers every power the client offers, from a nudge to a break.
    assert len(client) >= 40 and client[0][0] <= 0.2 and client[-1][0] >= 12.0
    engine = [(speed, engine_lengths(speed)) for speed, _ in client]
    apart = [
        (speed, mine, theirs)
        for (speed, mine), (_, theirs) in zip(client, engine, strict=True)
        if abs(mine - theirs) > 0.002
    ]
    assert apart == [], (
        f"{len(apart)} speeds differ (speed, client, engine), e.g. {apart[:3]}; "
        f"the engine's table:\n{as_js(engine)}"
    )
    # The hint is only worth reading if the lengths grow with the speed.
    assert all(b[1] > a[1] for a, b in pairwise(engine))
