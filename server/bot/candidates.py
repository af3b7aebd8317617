"""The strokes worth simulating, found by geometry (:mod:`server.bot.geometry`).

Each way of playing the position is a *route* — the lowest ball into one pocket, a bank,
a combination, a carom on the 9, a kick — and each route comes in *variants*: the
level's speeds and tip offsets. Routes are ranked by their geometric chance and take
variants in turn (the best route's first variant, the next route's first, …, then
second variants), so the level's budget of simulated strokes is spread over the ways to
play rather than spent on one. Safeties and push-outs have their own small budgets:
they are what a position without a pot needs, and a search that ran out of budget on
hopeless pots would never find them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from itertools import product

from server import physics
from server.bot.geometry import (
    HOLES,
    D,
    Point,
    bank_routes,
    carom_routes,
    combo_routes,
    direct_pot,
    heading,
    kick_routes,
    norm,
    others,
    path_clear,
    pot_speed,
    sub,
    unit,
)
from server.bot.levels import BANK, BREAK, CAROM, COMBO, KICK, POT, PUSH, SAFETY, Level
from server.bot.search import Candidate
from server.bot.value import Judge

MIN_CHANCE = 0.02
"""Routes the geometry gives less than this are not simulated."""
MAX_POT_SPEED = 7.5


def _clamp_speed(speed: float) -> float:
    return min(max(speed, 0.4), MAX_POT_SPEED)


def _spread(items: Sequence[tuple[int, int]]) -> list[tuple[int, int]]:
    """The (speed, tip) grid in an order that varies both early: stepping through it by a
    stride coprime with its size."""
    total = len(items)
    if total <= 2:
        return list(items)
    stride = next(s for s in range(max(2, total // 2 + 1), 2 * total) if math.gcd(s, total) == 1)
    return [items[(k * stride) % total] for k in range(total)]


def variants(level: Level, base_speed: float) -> list[tuple[float, tuple[float, float]]]:
    """The level's speeds (times ``base_speed``) and tips, spread (see :func:`_spread`)."""
    grid = list(product(range(len(level.speeds)), range(len(level.tips))))
    return [(_clamp_speed(base_speed * level.speeds[i]), level.tips[j]) for i, j in _spread(grid)]


def interleave(groups: list[list[Candidate]], budget: int) -> list[Candidate]:
    """Up to ``budget`` candidates, taking one from each group in turn (groups in order)."""
    out: list[Candidate] = []
    depth = 0
    while len(out) < budget:
        took = False
        for group in groups:
            if depth < len(group):
                out.append(group[depth])
                took = True
                if len(out) >= budget:
                    break
        if not took:
            break
        depth += 1
    return out


def _stroke(angle: float, speed: float, tip: tuple[float, float] = (0.0, 0.0)) -> physics.Shot:
    return physics.Shot(angle=(angle + 180.0) % 360.0 - 180.0, speed=speed, tip=tip)


def pot_groups(
    layout: dict[int, Point],
    cue: Point,
    lowest: int,
    level: Level,
    judge: Judge,
    place: Point | None = None,
) -> list[tuple[float, list[Candidate]]]:
    """Every route that pockets a ball legally from ``cue``: (geometric chance, variants)."""
    target = layout[lowest]
    blocks = others(layout, 0, lowest)
    sigma, floor = judge.sigma, judge.floor
    groups: list[tuple[float, list[Candidate]]] = []
    for hole in HOLES:
        pot = direct_pot(cue, target, hole, blocks, sigma, floor)
        if pot is None or pot.chance < MIN_CHANCE:
            continue
        base = pot_speed(pot.cut, pot.cue_travel, pot.ball_travel)
        group = [
            Candidate(POT, _stroke(pot.angle, s, tip), place, pot.chance, False, lowest, hole.aim)
            for s, tip in variants(level, base)
        ]
        groups.append((pot.chance, group))
    if COMBO in level.kinds:
        for ball, pos in layout.items():
            if ball in (0, lowest):
                continue
            blocks2 = others(layout, 0, lowest, ball)
            for route in combo_routes(cue, target, pos, blocks2, sigma, floor):
                if route.chance < MIN_CHANCE or route.hole is None:
                    continue
                travel = norm(sub(pos, target)) + norm(sub(route.hole.aim, pos))
                base = pot_speed(route.cut, norm(sub(target, cue)), travel) * 1.2
                weight = route.chance * (1.6 if ball == 9 else 1.0)
                group = [
                    Candidate(
                        COMBO,
                        _stroke(route.angle, _clamp_speed(base * k), tip),
                        place,
                        route.chance,
                        False,
                        lowest,
                        route.goal,
                    )
                    for k, tip in ((1.3, (0.0, 0.0)), (2.0, (0.0, -0.2)), (1.0, (0.0, 0.2)))
                ]
                groups.append((weight, group))
    nine = layout.get(9)
    if CAROM in level.kinds and nine is not None and lowest != 9:
        for route in carom_routes(cue, target, nine, others(layout, 0, lowest, 9)):
            group = [
                Candidate(CAROM, _stroke(route.angle + off, s, (0.0, -0.1)), place, route.chance)
                for s, off in ((2.2, 0.0), (3.2, 0.0), (2.2, 0.4), (2.2, -0.4))
            ]
            groups.append((route.chance, group))
    if BANK in level.kinds:
        banks = sorted(bank_routes(cue, target, blocks, sigma, floor), key=lambda r: -r.chance)
        for route in banks[:3]:
            if route.chance < MIN_CHANCE or route.hole is None:
                continue
            travel = 2.0 * norm(sub(route.hole.aim, target))
            base = pot_speed(route.cut, norm(sub(target, cue)), travel) * 1.3
            group = [
                Candidate(
                    BANK,
                    _stroke(route.angle, _clamp_speed(base * k)),
                    place,
                    route.chance,
                    False,
                    lowest,
                    route.goal,
                )
                for k in (1.0, 1.5)
            ]
            groups.append((route.chance, group))
    groups.sort(key=lambda g: -g[0])
    return groups


def kick_group(
    layout: dict[int, Point], cue: Point, lowest: int, place: Point | None
) -> list[Candidate]:
    """One-cushion kicks at the lowest ball, each with a small fan of aims."""
    target = layout[lowest]
    routes = kick_routes(cue, target, others(layout, 0, lowest))
    out = []
    for route in sorted(routes, key=lambda r: -r.chance)[:4]:
        travel = 1.0 / route.chance - 1.0
        speed = min(1.6 + 0.9 * travel, 6.0)
        for off in (0.0, 0.5, -0.5, 1.0, -1.0):
            out.append(Candidate(KICK, _stroke(route.angle + off, speed), place, route.chance))
    return out


def safety_group(
    layout: dict[int, Point], cue: Point, lowest: int, level: Level, place: Point | None
) -> list[Candidate]:
    """Legal hits on the lowest ball meant to leave the opponent nothing: full to thin
    on either side, soft to firm, with draw or follow."""
    if level.safety_variants <= 0:
        return []
    target = layout[lowest]
    blocks = others(layout, 0, lowest)
    dist = norm(sub(target, cue))
    if dist <= D:
        return []
    base = heading(cue, target)
    u = unit(sub(target, cue))
    n = (-u[1], u[0])
    out = []
    for frac, speed, tip in product(
        (0.0, 0.5, -0.5, 0.82, -0.82), (1.0, 1.8, 0.6, 2.8), ((0.0, -0.3), (0.0, 0.3))
    ):
        offset = frac * D
        if abs(offset) >= dist:
            continue
        end = (
            target[0] + n[0] * offset - u[0] * math.sqrt(max(D * D - offset * offset, 0.0)),
            target[1] + n[1] * offset - u[1] * math.sqrt(max(D * D - offset * offset, 0.0)),
        )
        if not path_clear(cue, end, blocks):
            continue
        angle = base + math.degrees(math.asin(offset / dist))
        out.append(Candidate(SAFETY, _stroke(angle, speed, tip), place, 0.3))
        if len(out) >= level.safety_variants:
            break
    return out


def push_group(cue: Point, level: Level) -> list[Candidate]:
    """Push-outs (R6): soft rolls of the cue ball in every direction."""
    if PUSH not in level.kinds:
        return []
    count = 12 if level.number >= 4 else 8
    return [
        Candidate(PUSH, _stroke(360.0 * k / count, speed), None, 0.5, True)
        for k in range(count)
        for speed in (0.7, 1.3)
    ]


def fan_group(cue: Point, target: Point, place: Point | None, step: float = 2.0) -> list[Candidate]:
    """A last resort: strokes all round the table, nearest the lowest ball first."""
    base = heading(cue, target)
    offsets = sorted((k * step for k in range(-int(180 / step), int(180 / step))), key=abs)
    return [
        Candidate(KICK, _stroke(base + off, speed), place, 0.05)
        for off in offsets
        for speed in (2.0, 4.0)
    ]


def placements(layout: dict[int, Point], lowest: int, level: Level, judge: Judge) -> list[Point]:
    """Ball-in-hand spots (R10) for a pot on the lowest ball: behind it in line with each
    pocket it can go in, straight and at slight cuts (for position), near and farther."""
    target = layout[lowest]
    blocks = others(layout, 0, lowest)
    scored: list[tuple[float, Point]] = []
    for hole in HOLES:
        u = unit(sub(hole.aim, target))
        if not path_clear(target, hole.aim, blocks):
            continue
        ghost = (target[0] - D * u[0], target[1] - D * u[1])
        for cut, dist in product((0.0, 18.0, -18.0, 32.0, -32.0), (0.18, 0.32, 0.55)):
            a = math.atan2(u[1], u[0]) + math.radians(cut)
            spot = (ghost[0] - dist * math.cos(a), ghost[1] - dist * math.sin(a))
            if not _placeable(layout, spot):
                continue
            pot = direct_pot(spot, target, hole, blocks, judge.sigma, judge.floor)
            if pot is None:
                continue
            scored.append((pot.chance - 0.02 * abs(cut) / 18.0, spot))
    scored.sort(key=lambda s: -s[0])
    chosen: list[Point] = []
    for _, spot in scored:
        if all(norm(sub(spot, c)) > 0.12 for c in chosen):
            chosen.append(spot)
        if len(chosen) >= level.placements:
            break
    if not chosen:
        chosen.append(free_spot(layout, target))
    return chosen


def _placeable(layout: dict[int, Point], spot: Point, kitchen: bool = False) -> bool:
    try:
        physics.check_placement({b: p for b, p in layout.items() if b != 0}, spot, kitchen)
    except physics.PlacementError:
        return False
    return True


def free_spot(layout: dict[int, Point], near: Point, kitchen: bool = False) -> Point:
    """The legal spot nearest ``near`` on a grid: where to put the cue ball when nothing
    better was found."""
    limit = physics.TABLE.head_string_x if kitchen else physics.TABLE.length
    spots = [
        (limit * i / 24.0, physics.TABLE.width * j / 12.0)
        for i in range(1, 24)
        for j in range(1, 12)
    ]
    spots.sort(key=lambda p: norm(sub(p, near)) if norm(sub(p, near)) > 3 * D else 9.0)
    for spot in spots:
        if _placeable(layout, spot, kitchen):
            return spot
    return physics.kitchen_spot()


def break_group(layout: dict[int, Point], level: Level) -> list[Candidate]:
    """Break strokes (R4): from the level's kitchen spots, at the 1 as the level aims it
    (full or cut), hard, with a touch of draw."""
    one = layout.get(1)
    target = one if one is not None else physics.TABLE.foot_spot
    out = []
    for (spot, offset), speed in product(level.break_spots, level.break_speeds):
        if not _placeable(layout, spot, kitchen=True):
            spot = free_spot(layout, spot, kitchen=True)
        distance = max(norm(sub(target, spot)), D)
        angle = heading(spot, target) + math.degrees(math.asin(offset / distance))
        tip = (0.0, -0.2) if level.number >= 3 else (0.0, 0.0)
        out.append(Candidate(BREAK, _stroke(angle, speed, tip), spot, 0.5))
    return out
