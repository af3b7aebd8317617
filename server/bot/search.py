"""Choosing among candidate shots by simulating them in the server's own physics.

Three stages, each cheaper per candidate than the next is:

1. **Aim correction.** A pot's ghost-ball aim ignores throw (the object ball leaves a few
   degrees off the line of centres on slow cuts and with english) and squirt (side spin
   sends the cue ball off the aim). The shot is first simulated with only the cue ball
   and the object ball on the table; the object ball's actual departure is compared
   with the wanted one and the aim turned to cancel it (the departure turns by about
   ``d1 / (2R·cos θ)`` per unit of aim), twice at most.
2. **One run without noise** of every candidate on the full table, judged by the referee
   and valued (:mod:`server.bot.value`), blended with the geometric chance: a shot that
   works when struck perfectly is not yet a good shot.
3. **Monte-Carlo with successive halving**: many candidates get a few noisy runs, the
   better half more, the best two many. All candidates see the same noise draws (common
   random numbers), so they are compared on equal luck.

All randomness comes from one ``random.Random`` seeded by the caller.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from server import physics
from server.bot.geometry import D, Point, norm, sub, unit
from server.bot.levels import BREAK, KICK, PUSH, SAFETY, Level
from server.bot.value import Judge
from server.physics.shot import MAX_SPEED

MIN_SPEED = 0.05
MAX_TIP = 0.9


@dataclass(frozen=True, slots=True)
class Candidate:
    """A stroke to consider. ``prior``: the geometric chance it does what it is for.
    ``ball``/``goal``: for pots and combinations, the object ball first struck and where
    it should go (for the aim correction). ``place``: the cue ball's spot when in hand."""

    kind: str
    stroke: physics.Shot
    place: Point | None = None
    prior: float = 0.0
    push_out: bool = False
    ball: int | None = None
    goal: Point | None = None


@dataclass(slots=True)
class Trial:
    """A candidate under evaluation: its runs so far."""

    candidate: Candidate
    nominal: float = 0.0
    legal: bool = False
    score: float = 0.0
    total: float = 0.0
    runs: int = 0
    fouls: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.runs if self.runs else self.score


def noise_draws(rng: random.Random, count: int) -> list[tuple[float, float, float, float]]:
    """Standard normal draws for (aim, speed, tip side, tip height), one tuple per run."""
    return [
        (rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1), rng.gauss(0, 1)) for _ in range(count)
    ]


def perturb(
    stroke: physics.Shot, draw: tuple[float, float, float, float], level: Level
) -> physics.Shot:
    """The stroke as the level's hand plays it: normal errors on aim, speed and tip, kept
    inside what the physics accepts (a tip too far off the centre still miscues)."""
    da, ds, dx, dy = draw
    angle = stroke.angle + da * level.angle_sd
    angle = (angle + 180.0) % 360.0 - 180.0
    limit = min(MAX_SPEED, 13.0 * math.cos(math.radians(stroke.elevation)))
    speed = min(max(stroke.speed * (1.0 + ds * level.speed_sd), MIN_SPEED), limit)
    side = stroke.tip[0] + dx * level.tip_sd
    height = stroke.tip[1] + dy * level.tip_sd
    off = math.hypot(side, height)
    if off > MAX_TIP:
        side, height = side * MAX_TIP / off, height * MAX_TIP / off
    return physics.Shot(angle=angle, speed=speed, tip=(side, height), elevation=stroke.elevation)


class Planner:
    """Evaluates candidates for one decision: the table, the referee's view and the level."""

    def __init__(
        self, layout: dict[int, Point], judge: Judge, level: Level, rng: random.Random
    ) -> None:
        self.layout = layout
        self.judge = judge
        self.level = level
        self.draws = noise_draws(rng, level.max_runs)
        self.sims = 0

    def balls(self, candidate: Candidate) -> dict[int, Point]:
        if candidate.place is None:
            return self.layout
        placed = dict(self.layout)
        placed[0] = candidate.place
        return placed

    def simulate(self, balls: dict[int, Point], stroke: physics.Shot) -> physics.ShotOutcome | None:
        self.sims += 1
        try:
            return physics.simulate(balls, stroke)
        except (physics.ShotError, physics.PlacementError):
            return None

    def run(self, candidate: Candidate, stroke: physics.Shot) -> tuple[float, bool]:
        """One simulated run of ``stroke``: its value and whether it fouls."""
        outcome = self.simulate(self.balls(candidate), stroke)
        if outcome is None:
            return 0.0, True
        return self.judge.value(outcome.final, outcome.report, candidate.push_out)

    def corrected(self, candidate: Candidate) -> Candidate:
        """The candidate with its aim turned to cancel throw (stage 1)."""
        ball, goal = candidate.ball, candidate.goal
        if ball is None or goal is None:
            return candidate
        balls = self.balls(candidate)
        cue, target = balls[0], balls[ball]
        stroke = candidate.stroke
        wanted = unit(sub(goal, target))
        for _ in range(2):
            outcome = self.simulate({0: cue, ball: target}, stroke)
            if outcome is None:
                return candidate
            leaving = _departure(outcome, ball)
            if leaving is None:
                return candidate
            error = math.atan2(
                wanted[0] * leaving[1] - wanted[1] * leaving[0],
                wanted[0] * leaving[0] + wanted[1] * leaving[1],
            )
            if abs(error) < 1e-4:
                break
            ghost = (target[0] - D * wanted[0], target[1] - D * wanted[1])
            to_ghost = sub(ghost, cue)
            d1 = max(norm(to_ghost), 1e-3)
            cos_cut = max(unit(to_ghost)[0] * wanted[0] + unit(to_ghost)[1] * wanted[1], 0.1)
            turn = math.degrees(error * D * cos_cut / d1)
            stroke = replace(stroke, angle=(stroke.angle + turn + 180.0) % 360.0 - 180.0)
        return replace(candidate, stroke=stroke)

    def screen(
        self, candidates: list[Candidate], correct: bool, enough: int | None = None
    ) -> list[Trial]:
        """Stages 1 and 2: the corrected aim and one run without noise for each; with
        ``enough``, stop once that many legal ones are found."""
        trials = []
        legal = 0
        for candidate in candidates:
            if enough is not None and legal >= enough:
                break
            if correct:
                candidate = self.corrected(candidate)
            value, foul = self.run(candidate, candidate.stroke)
            trial = Trial(candidate, nominal=value, legal=not foul)
            trial.score = _prescore(candidate, value, foul)
            trials.append(trial)
            legal += not foul
        trials.sort(key=lambda t: t.score, reverse=True)
        return trials

    def halve(
        self, trials: list[Trial], rounds: tuple[tuple[int, int], ...] | None = None
    ) -> list[Trial]:
        """Stage 3: successive halving; returns the survivors, best first."""
        alive = list(trials)
        for keep, runs in rounds if rounds is not None else self.level.rounds:
            alive = alive[:keep]
            for trial in alive:
                while trial.runs < runs:
                    draw = self.draws[trial.runs % len(self.draws)]
                    value, foul = self.run(
                        trial.candidate, perturb(trial.candidate.stroke, draw, self.level)
                    )
                    trial.total += value
                    trial.fouls += foul
                    trial.runs += 1
            alive.sort(key=lambda t: (t.mean, t.score), reverse=True)
        return alive


def _departure(outcome: physics.ShotOutcome, ball: int) -> Point | None:
    """The direction the object ball first moved in, from its motion segments."""
    for seg in outcome.tracks.get(ball, ()):
        if seg.state in (2, 3) and (seg.vx or seg.vy):
            return unit((seg.vx, seg.vy))
    return None


def _prescore(candidate: Candidate, value: float, foul: bool) -> float:
    """How promising a candidate looks before any noisy run: a pot that drops when struck
    perfectly is worth its value only as often as the geometry says it drops."""
    if candidate.kind in (SAFETY, PUSH, BREAK):
        return value
    if candidate.kind == KICK:
        return value * 0.8
    if foul:
        return value * 0.5
    p = min(max(candidate.prior, 0.05), 1.0)
    return p * value + (1.0 - p) * 0.4
