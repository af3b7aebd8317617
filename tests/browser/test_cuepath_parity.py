"""The aim preview's cue-ball path after contact (`client_web/cuepath.mjs`) against the
server's physics.

The preview draws where the cue ball goes after it hits the object ball, with the draw or
follow the tip gives it: the sliding curve, then the straight roll. Here the engine
(`server.physics.simulate`, with its ball–ball friction, which the preview leaves out) plays
the same shots — cut angles from full to thin, stun, follow and draw, soft and firm, level
and with a raised cue — and
the cue ball's rolling direction after the contact, and where it starts to roll, must agree
with the preview's.

A raised cue also makes the engine's cue ball hop (the slate gives back part of the
stroke's push into it, and each bounce's friction eats some draw or follow); the preview
leaves the hop out, as it leaves out throw, squirt and swerve. So the raised-cue shots are
played on the engine's flat bed (`bed_model="flat"`), which is the preview's model: they
check the extra draw or follow a raised cue gives, not the hop.
"""

from __future__ import annotations

import dataclasses
import json
import math
import shutil
from pathlib import Path

import pytest

from server.physics import DEFAULT_PARAMS, TABLE, Shot, simulate
from tests.node_module import node_json

ROOT = Path(__file__).resolve().parents[2]
R = TABLE.ball_radius
CUE = (0.9, 0.635)
#: The object ball 0.5 m up the table; the cut comes from where it sits across the aim.
OBJECT_DISTANCE = 0.5

NODE_PATHS = """
import { readFileSync } from "node:fs";
import { firstBallContact } from "%s";
import { cueBallPath } from "%s";
const shots = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(shots.map((s) => {
  const contact = firstBallContact(s.cue, s.angle, [{ n: 1, x: s.object[0], y: s.object[1] }]);
  if (!contact) return null;
  const path = cueBallPath(contact, s.angle, s.speed, s.height, s.elevation ?? 0);
  return { rollStart: path.points[path.points.length - 1] ?? null, rollDir: path.rollDir };
})));
"""


def shots() -> list[dict[str, object]]:
    out: list[dict[str, object]] = []
    for cut in (0.0, 15.0, 30.0, 45.0, 60.0):
        # The object ball straight up the table; the aim turned so the contact makes `cut`.
        offset = 2 * R * math.sin(math.radians(cut))  # ghost-ball offset across the line
        obj = (CUE[0] + OBJECT_DISTANCE, CUE[1])
        aim = math.atan2(obj[1] + offset - CUE[1], obj[0] - CUE[0])
        for height in (-0.4, -0.2, 0.0, 0.2, 0.4):
            for speed in (1.0, 2.5):
                out.append(
                    {"cue": CUE, "object": obj, "angle": aim, "speed": speed, "height": height}
                )
            # A raised cue: more draw or follow for the same tip (no side: no swerve).
            for elevation in (30.0, 50.0):
                out.append(
                    {
                        "cue": CUE,
                        "object": obj,
                        "angle": aim,
                        "speed": 2.0,
                        "height": height,
                        "elevation": elevation,
                    }
                )
    return out


def engine_roll(shot: dict[str, object]) -> tuple[tuple[float, float], tuple[float, float]] | None:
    """Where the engine's cue ball starts to roll after the contact, and its direction."""
    angle = float(shot["angle"])  # type: ignore[arg-type]
    raised = float(shot.get("elevation", 0.0)) > 0.0  # type: ignore[arg-type]
    flat = dataclasses.replace(DEFAULT_PARAMS, bed_model="flat")
    outcome = simulate(
        {0: CUE, 1: tuple(shot["object"])},  # type: ignore[dict-item]
        Shot(
            angle=math.degrees(angle),
            speed=float(shot["speed"]),  # type: ignore[arg-type]
            tip=(0.0, float(shot["height"])),  # type: ignore[arg-type]
            elevation=float(shot.get("elevation", 0.0)),  # type: ignore[arg-type]
        ),
        flat if raised else DEFAULT_PARAMS,
    )
    contact = next(e.t for e in outcome.events if e.kind == "ball")
    for segment in outcome.tracks[0]:
        if segment.t0 > contact and segment.state == 3:  # rolling
            speed = math.hypot(segment.vx, segment.vy)
            return (segment.x, segment.y), (segment.vx / speed, segment.vy / speed)
        if segment.t0 > contact and segment.state != 2:
            return None  # stopped (or met a cushion) before rolling
    return None


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_previews_cue_ball_path_follows_the_engine(tmp_path: Path) -> None:
    cases = shots()
    data = tmp_path / "shots.json"
    data.write_text(json.dumps(cases))
    script = NODE_PATHS % (
        (ROOT / "client_web" / "aim.mjs").as_uri(),
        (ROOT / "client_web" / "cuepath.mjs").as_uri(),
    )
    previews = node_json(script, str(data))
    angles: list[float] = []
    worst_start = 0.0
    for case, preview in zip(cases, previews, strict=True):
        engine = engine_roll(case)
        if engine is None or preview is None or preview["rollDir"] == [0, 0]:
            continue
        (ex, ey), (edx, edy) = engine
        px, py = preview["rollStart"]
        pdx, pdy = preview["rollDir"]
        angle = math.degrees(math.acos(max(-1.0, min(1.0, edx * pdx + edy * pdy))))
        start = math.hypot(ex - px, ey - py)
        worst_start = max(worst_start, start)
        angles.append(angle)
        # The engine's ball-ball friction (throw) turns the cue ball a little more than
        # the preview knows, most at near-full hits with draw: up to about 5.5 degrees.
        assert angle < 6.0, f"{case}: rolls {angle:.1f} deg off the engine's direction"
        assert start < 0.03, f"{case}: starts to roll {start * 100:.1f} cm from the engine's"
    mean = sum(angles) / max(1, len(angles))
    print(
        f"{len(angles)} shots: direction off by {mean:.2f} deg on average, "
        f"{max(angles):.2f} at most; roll start {worst_start * 100:.2f} cm at most"
    )
    assert len(angles) >= 60
    assert mean < 2.0
