"""Shot planning for scripted players: the test side uses the real physics to find shots
that do what the script needs (a legal hit, a foul, the 9 in a pocket). The physics is
deterministic, so what the planner sees is what the server will simulate."""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from protocol import messages as m
from server import physics

Point = tuple[float, float]
R = physics.TABLE.ball_radius


@dataclass(frozen=True)
class Plan:
    angle: float
    speed: float
    facts: physics.ShotFacts
    final: dict[int, Point | None]

    def message(self, push_out: bool = False) -> dict[str, Any]:
        return {
            "t": "shot",
            "angle": self.angle,
            "speed": self.speed,
            "tip": [0.0, 0.0],
            "elevation": 0.0,
            "push_out": push_out,
        }


def balls_of(table: m.TableView) -> dict[int, Point]:
    return {ball: (pos[0], pos[1]) for ball, pos in enumerate(table.balls) if pos is not None}


def angle_to(src: Point, dst: Point) -> float:
    return math.degrees(math.atan2(dst[1] - src[1], dst[0] - src[0]))


def simulate(balls: dict[int, Point], angle: float, speed: float) -> Plan:
    outcome = physics.simulate(balls, physics.Shot(angle=angle, speed=speed))
    return Plan(angle, speed, outcome.report, dict(outcome.final))


def is_legal(plan: Plan, lowest: int) -> bool:
    """R8, R9, G1, R11 from the shooter's side (not the break)."""
    facts = plan.facts
    if facts.first != lowest:
        return False
    if 0 in facts.pocketed or 0 in facts.off_table or facts.off_table:
        return False
    return bool(facts.pocketed) or bool(facts.rails)


def _ghost_aims(balls: dict[int, Point], target: int) -> Iterable[float]:
    """Angles from the cue ball to the ghost-ball spots that send `target` at each pocket,
    then the straight line at it with small offsets."""
    cue, obj = balls[0], balls[target]
    for pocket in physics.TABLE.pockets.values():
        mouth = pocket.mouth
        aim = ((mouth[0][0] + mouth[1][0]) / 2, (mouth[0][1] + mouth[1][1]) / 2)
        d = math.hypot(aim[0] - obj[0], aim[1] - obj[1])
        ghost = (obj[0] - 2 * R * (aim[0] - obj[0]) / d, obj[1] - 2 * R * (aim[1] - obj[1]) / d)
        yield angle_to(cue, ghost)
    straight = angle_to(cue, obj)
    for offset in (0.0, 1.5, -1.5, 3.0, -3.0):
        yield straight + offset


def plan_legal(table: m.TableView, prefer: str = "pocket") -> Plan:
    """A legal shot; `prefer` "nine" (pocket the 9), "pocket" (any ball) or "miss" (pocket
    nothing, so the turn passes)."""
    balls = balls_of(table)
    lowest = table.lowest
    assert lowest is not None
    best: tuple[int, Plan] | None = None
    for speed in (2.5, 4.0, 1.6):
        for angle in _ghost_aims(balls, lowest):
            plan = simulate(balls, angle, speed)
            if not is_legal(plan, lowest):
                continue
            pocketed = plan.facts.pocketed
            score = {
                "nine": (100 if 9 in pocketed else 0) + len(pocketed),
                "pocket": len(pocketed) * 10 + (5 if 9 in pocketed else 0),
                "miss": 10 - len(pocketed) * 10,
            }[prefer]
            if best is None or score > best[0]:
                best = (score, plan)
            if prefer == "nine" and 9 in pocketed:
                return plan
            if prefer == "miss" and not pocketed:
                return plan
    if best is None:
        # The lowest ball is hidden (a snooker): kick at it off the cushions.
        for speed in (2.5, 4.0):
            for step in range(360):
                plan = simulate(balls, step * 1.0, speed)
                if not is_legal(plan, lowest):
                    continue
                pocketed = plan.facts.pocketed
                wanted = {"nine": 9 in pocketed, "pocket": bool(pocketed), "miss": not pocketed}
                if wanted[prefer]:
                    return plan
                if best is None:
                    best = (0, plan)
    assert best is not None, "no legal shot found"
    return best[1]


def plan_foul(table: m.TableView) -> Plan:
    """A shot that touches no object ball and keeps the cue ball on the table (R8)."""
    balls = balls_of(table)
    for step in range(36):
        angle = step * 10.0
        plan = simulate(balls, angle, 0.6)
        facts = plan.facts
        if facts.first is None and not facts.pocketed and not facts.off_table:
            return plan
    raise AssertionError("no clean foul found")


def plan_push_out(table: m.TableView) -> Plan:
    """A soft push-out that pockets nothing and keeps the cue ball up (R6)."""
    balls = balls_of(table)
    for step in range(36):
        plan = simulate(balls, step * 10.0, 0.4)
        facts = plan.facts
        if not facts.pocketed and not facts.off_table:
            return plan
    raise AssertionError("no clean push-out found")


def free_spot(table: m.TableView, kitchen: bool = False) -> Point:
    """A legal ball-in-hand spot (R10)."""
    balls = {b: p for b, p in balls_of(table).items() if b != 0}
    limit = physics.TABLE.head_string_x if kitchen else physics.TABLE.length
    for i in range(1, 20):
        for j in range(1, 10):
            pos = (limit * i / 20, physics.TABLE.width * j / 10)
            try:
                physics.check_placement(balls, pos, kitchen)
            except physics.PlacementError:
                continue
            return pos
    raise AssertionError("no free spot")


def break_shot(table: m.TableView) -> dict[str, Any]:
    """A full-ball 10 m/s break at the 1 that neither makes the 9 nor scratches, so the
    scripted games go on past the break (the first of a few nearby speeds that does)."""
    balls = balls_of(table)
    angle = angle_to(balls[0], balls[1])
    for speed in (10.0, 9.5, 10.5, 9.0, 11.0):
        facts = simulate(balls, angle, speed).facts
        if 9 not in facts.pocketed and 0 not in facts.pocketed and not facts.off_table:
            return {"t": "shot", "angle": angle, "speed": speed}
    return {"t": "shot", "angle": angle, "speed": 10.0}
