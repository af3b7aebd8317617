"""The aim preview's "into a pocket" (`client_web/aim.mjs`, the green line) against the
server's pockets.

The preview turns a ball's line green when it runs into a pocket. A player takes green as
a promise, so it is held to the engine: a lone ball is played along each line (a stun
shot of the cue ball, which leaves sliding without spin as an object ball does after a
hit) at soft to firm speeds, and the engine's answer — did it drop in that pocket on its
way — is set beside the preview's. The lines aim at a pocket from anywhere on the table,
spread across the pocket's mouth and past its jaws, where the two can disagree.

A first-time player saw green, shot, and watched the 1 stop in the jaws: the preview then
called a line in whenever its centre met the cushion within a ball's width of the mouth,
and 45 % of its green lines did not drop. Now a line is green only when it reaches the
hole past both jaw points untouched. It may leave grey a line that drops off a jaw at a
kind speed (that is no promise), but green must be kept at the speeds pots are played at;
hit hard, a ball into a side pocket at a steep angle can still rattle out (measured and
printed: the preview knows no speed).
"""

from __future__ import annotations

import json
import math
import random
import shutil
from collections import Counter
from pathlib import Path

import pytest

from server.physics import DEFAULT_PARAMS, TABLE, Shot, simulate
from tests.node_module import node_json

ROOT = Path(__file__).resolve().parents[2]
#: Soft to firm: the speeds green is held to.
SPEEDS = (1.0, 2.0, 3.0)
#: Hard: measured, and held to for the corners.
FIRM = (4.5, 6.0)

NODE_POCKETS = """
import { readFileSync } from "node:fs";
import { cushionContact } from "%s";
const lines = JSON.parse(readFileSync(process.argv[1], "utf8"));
console.log(JSON.stringify(lines.map((l) => cushionContact(l.start, l.angle).pocket)));
"""


def lines(count: int, seed: int) -> list[dict[str, object]]:
    """Lines at a pocket from anywhere at least 25 cm from it, up to 9 cm either side of
    the middle of its mouth (beyond the jaw points)."""
    rng = random.Random(seed)
    out: list[dict[str, object]] = []
    names = sorted(TABLE.pockets)
    for _ in range(count):
        name = rng.choice(names)
        pocket = TABLE.pockets[name]
        mid = (
            (pocket.mouth[0][0] + pocket.mouth[1][0]) / 2,
            (pocket.mouth[0][1] + pocket.mouth[1][1]) / 2,
        )
        while True:
            x = rng.uniform(0.08, TABLE.length - 0.08)
            y = rng.uniform(0.08, TABLE.width - 0.08)
            distance = math.hypot(mid[0] - x, mid[1] - y)
            if distance > 0.25:
                break
        aside = rng.uniform(-0.09, 0.09)
        angle = math.atan2(mid[1] - y, mid[0] - x) + math.atan2(aside, distance)
        out.append({"start": [x, y], "angle": angle, "pocket": name})
    return out


def first_pocket(line: dict[str, object], speed: float) -> str | None:
    """The pocket the engine drops the ball in first, if any."""
    start = line["start"]
    outcome = simulate(
        {0: (float(start[0]), float(start[1]))},  # type: ignore[index]
        Shot(angle=math.degrees(float(line["angle"])), speed=speed, tip=(0.0, 0.0)),  # type: ignore[arg-type]
        DEFAULT_PARAMS,
    )
    return next((e.pocket for e in outcome.events if e.kind == "pocket"), None)


def kind(pocket: str) -> str:
    return "side" if pocket.startswith("S") else "corner"


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("seed", [11, 3])
def test_a_green_line_drops_in_the_engine(tmp_path: Path, seed: int) -> None:
    cases = lines(900, seed=seed)
    data = tmp_path / "lines.json"
    data.write_text(json.dumps(cases))
    script = NODE_POCKETS % (ROOT / "client_web" / "aim.mjs").as_uri()
    preview = node_json(script, str(data))
    green: Counter[tuple[str, float]] = Counter()
    kept: Counter[tuple[str, float]] = Counter()
    dropped = caught = 0
    for case, pocket in zip(cases, preview, strict=True):
        for speed in SPEEDS + FIRM:
            into = first_pocket(case, speed)
            if speed in SPEEDS and into is not None and into == case["pocket"]:
                dropped += 1  # (a line aimed at this pocket, and in it)
                caught += pocket == into
            if pocket is not None:
                # Green is about the pocket the preview names (a line along a rail past
                # a side pocket is rightly called into the corner beyond).
                green[kind(pocket), speed] += 1
                kept[kind(pocket), speed] += into == pocket
    for (where, speed), n in sorted(green.items()):
        print(f"{where} at {speed} m/s: {n - kept[where, speed]} of {n} green lines did not drop")
    print(f"green on {caught} of the engine's {dropped} drops at {SPEEDS} m/s")
    # Green is kept at the speeds a pot is played at, in corners and sides alike: at most
    # one green line in a hundred fails to drop.
    for (where, speed), n in green.items():
        if speed in SPEEDS:
            assert n - kept[where, speed] <= 0.01 * n, (where, speed, n, kept[where, speed])
    # Firm, a ball that entered a side pocket steeply can still rattle out (the pocket's
    # facings and back send it back over the slate's edge, server/physics/resolve/pocket):
    # the preview knows no speed, and says so where it is described. Corners hold.
    for (where, speed), n in green.items():
        if speed in FIRM and where == "corner":
            assert n - kept[where, speed] <= 0.02 * n, (where, speed, n, kept[where, speed])
    # And it is not grey everywhere: most of what drops is shown green.
    assert caught >= 0.6 * dropped
    assert sum(green.values()) >= 1000
