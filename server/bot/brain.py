"""``decide``: the one entry point. It reads what the state asks for and answers it.

What the state asks for, and how the bot answers:

- the lag stroke (``view.lag == "shoot"``): the speed that stops nearest the head rail
  under the level's own speed noise;
- the lag winner's choice (``"choose"``): it breaks — the breaker's edge in nine-ball is
  large;
- the shoot/pass choice after the opponent's push-out: it shoots when its best shot from
  there is worth at least a half;
- the break (cue ball in hand in the kitchen): a kitchen spot and stroke, tried in the
  physics on this very rack;
- ball in hand anywhere: a few spots behind the lowest ball in line with the pockets, each
  searched;
- any other shot: pots, banks, kicks, combinations, caroms, safeties and, when allowed,
  push-outs.

Every search is seeded: the same view, level and seed give the same decision, in any
process. The returned shot already carries the level's execution noise; a bot on two
fouls (R13) strokes with care — if the noisy stroke it drew would foul, it draws again,
and failing that plays the stroke it meant — so it never takes a third foul when it has
found a legal shot.
"""

from __future__ import annotations

import random

import msgspec

from server import physics, rules
from server.bot.candidates import (
    break_group,
    fan_group,
    interleave,
    kick_group,
    placements,
    pot_groups,
    push_group,
    safety_group,
)
from server.bot.decision import Choose, Decision, LagChoice, LagShot, Shot
from server.bot.geometry import Point, hittable, others
from server.bot.levels import Level, level_of
from server.bot.search import Candidate, Planner, Trial, perturb
from server.bot.value import judge_for
from server.bot.view import BotView

CAREFUL_DRAWS = 6
LAG_SPEEDS = tuple(1.45 + 0.025 * k for k in range(29))
LAG_RUNS = 6
LAG_MAX_ANGLE = 10.0
NO_POT = 0.08
"""A best pot chance below this is no pot to a beginner or a casual player: they hit the
ball as safely as they can instead."""


def decide(view: BotView, level: int, seed: int) -> Decision:
    """The decision the state asks ``view.me`` for, at ``level`` (1 … 5).

    Raises ``ValueError`` for a bad level, or when nothing is this player's to decide
    (the opponent's turn, the match over, the lag not this player's step).
    """
    lv = level_of(level)
    plan_rng = random.Random(f"plan:{seed}")
    hand_rng = random.Random(f"hand:{seed}")
    if view.lag == "shoot":
        return _lag_shot(view, lv, plan_rng, hand_rng)
    if view.lag == "choose":
        return LagChoice("break")
    state = view.state
    if state.match_over or state.awaiting_lag or not view.my_turn:
        raise ValueError(f"nothing for {view.me!r} to decide now")
    if state.choice_pending:
        return _choose(view, lv, plan_rng)
    if state.is_break:
        return _break(view, lv, plan_rng, hand_rng)
    return _shot(view, lv, plan_rng, hand_rng)


# --- shots --------------------------------------------------------------------------------


def search(view: BotView, lv: Level, rng: random.Random) -> tuple[Trial, Planner]:
    """The best candidate for the position in ``view`` (ball in hand or not)."""
    state = view.state
    layout = view.layout()
    lowest = view.lowest
    assert lowest is not None and lowest in layout
    judge = judge_for(state, view.me, lv.angle_sd, lv.typical)
    planner = Planner(layout, judge, lv, rng)
    in_hand = state.ball_in_hand == "table"
    spots: list[Point | None] = list(placements(layout, lowest, lv, judge)) if in_hand else [None]
    groups = []
    for spot in spots:
        cue = spot if spot is not None else layout[0]
        groups.extend(pot_groups(layout, cue, lowest, lv, judge, spot))
    groups.sort(key=lambda g: -g[0])
    cands = interleave([g for _, g in groups], lv.variants)
    first = spots[0]
    cue0 = first if first is not None else layout[0]
    blocks = others(layout, 0, lowest)
    open_shot = hittable(cue0, layout[lowest], blocks)
    best_pot = groups[0][0] if groups else 0.0
    if lv.number >= 3 or best_pot < NO_POT:
        # Below club level a player goes for the pot whenever there is one.
        cands += safety_group(layout, cue0, lowest, lv, first)
    if not open_shot or (best_pot < 0.3 and lv.number >= 3):
        cands += kick_group(layout, cue0, lowest, first)
    if state.push_out_allowed:
        cands += push_group(cue0, lv)
    trials = planner.screen(cands, correct=lv.corrects_aim)
    careful = view.my_fouls == 2
    if careful or not any(t.legal for t in trials):
        legal = [t for t in trials if t.legal]
        if not legal:
            # Nothing found is legal: search strokes all round the table for one.
            want = max(4, lv.rounds[0][0] // 2)
            fan = planner.screen(fan_group(cue0, layout[lowest], first), False, want)
            legal = [t for t in fan if t.legal]
        if legal or careful:
            trials = legal or trials
    if not trials:
        trials = planner.screen(fan_group(cue0, layout[lowest], first, step=10.0), False, 1)
    best = planner.halve(trials)[0]
    return best, planner


def _shot(view: BotView, lv: Level, plan: random.Random, hand: random.Random) -> Shot:
    best, planner = search(view, lv, plan)
    return _execute(best.candidate, planner, lv, hand, careful=view.my_fouls == 2)


def _execute(
    candidate: Candidate, planner: Planner, lv: Level, hand: random.Random, careful: bool
) -> Shot:
    """The stroke as played: the chosen one plus the level's noise (see the module doc)."""
    stroke = candidate.stroke
    draws = CAREFUL_DRAWS if careful else 1
    played = stroke
    for _ in range(draws):
        draw = (hand.gauss(0, 1), hand.gauss(0, 1), hand.gauss(0, 1), hand.gauss(0, 1))
        played = perturb(stroke, draw, lv)
        if not careful:
            break
        _, foul = planner.run(candidate, played)
        if not foul:
            break
    else:
        _, foul = planner.run(candidate, stroke)
        if not foul:
            played = stroke
    return Shot(
        angle=played.angle,
        speed=played.speed,
        tip=played.tip,
        elevation=played.elevation,
        push_out=candidate.push_out,
        place=candidate.place,
    )


def _break(view: BotView, lv: Level, plan: random.Random, hand: random.Random) -> Shot:
    layout = view.layout()
    judge = judge_for(view.state, view.me, lv.angle_sd, lv.typical)
    planner = Planner(layout, judge, lv, plan)
    cands = break_group(layout, lv)
    if lv.break_rounds:
        # A break is chaotic: one run without noise says little about it, so every
        # candidate goes straight to the noisy runs.
        trials = [Trial(c) for c in cands]
        best = planner.halve(trials, lv.break_rounds)[0].candidate
    else:
        best = cands[0]
    return _execute(best, planner, lv, hand, careful=False)


# --- the choice after a push-out ----------------------------------------------------------------


def _choose(view: BotView, lv: Level, rng: random.Random) -> Choose:
    """Shoot when the best shot from here is worth at least a half: passing hands the
    same shot to an opponent the bot assumes as good as itself."""
    state = rules.apply(view.state, rules.Choose(by=view.me, choice="shoot")).state
    best, _ = search(msgspec.structs.replace(view, state=state), lv, rng)
    return Choose("shoot" if best.mean >= 0.5 else "pass")


# --- the lag --------------------------------------------------------------------------------


def _lag_distance(spot: Point, speed: float, angle: float) -> float:
    """How far from the head rail the lag stops; a lost lag counts as the table's length."""
    try:
        outcome = physics.simulate({0: spot}, physics.Shot(angle=angle, speed=speed))
    except (physics.ShotError, physics.PlacementError):
        return physics.TABLE.length
    distance = physics.lag_distance(outcome)
    return physics.TABLE.length if distance is None else distance


def _lag_shot(view: BotView, lv: Level, plan: random.Random, hand: random.Random) -> LagShot:
    spot = physics.lag_spot(view.seat)
    draws = [(plan.gauss(0, 1), plan.gauss(0, 1)) for _ in range(LAG_RUNS)]

    def expected(speed: float) -> float:
        total = 0.0
        for ds, da in draws:
            angle = max(-LAG_MAX_ANGLE, min(LAG_MAX_ANGLE, da * lv.angle_sd))
            total += _lag_distance(spot, speed * (1.0 + ds * lv.speed_sd), angle)
        return total / len(draws)

    nominal = sorted(LAG_SPEEDS, key=lambda s: _lag_distance(spot, s, 0.0))[:5]
    speed = min(nominal, key=expected)
    played = speed * (1.0 + hand.gauss(0, 1) * lv.speed_sd)
    angle = max(-LAG_MAX_ANGLE, min(LAG_MAX_ANGLE, hand.gauss(0, 1) * lv.angle_sd))
    return LagShot(speed=min(max(played, 0.1), 12.0), angle=angle)
