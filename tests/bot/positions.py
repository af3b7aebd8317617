"""Positions for the bot's tests: referee states in the middle of a game, built with the
referee's own rules, and seeded random layouts of balls."""

from __future__ import annotations

import random

import msgspec

from server import physics, rules
from server.bot import BotView
from server.rules.state import check_state

Point = tuple[float, float]
PLAYERS = ("0", "1")


def mid_game(
    on_table: tuple[int, ...],
    turn: str = "0",
    fouls: tuple[int, int] = (0, 0),
    ball_in_hand: bool = False,
) -> rules.MatchState:
    """A state after the break: ``turn`` to shoot, the given balls up, the given counts."""
    start = rules.new_match(rules.Settings(race_to=1), PLAYERS, "0")
    state = msgspec.structs.replace(
        start,
        turn=turn,
        ball_in_hand="table" if ball_in_hand else None,
        is_break=False,
        on_table=tuple(sorted(on_table)),
        consecutive_fouls=fouls,
        warned=tuple(p for p, n in zip(PLAYERS, fouls, strict=True) if n == 2),
    )
    check_state(state)
    return state


def view(state: rules.MatchState, balls: dict[int, Point], me: str | None = None) -> BotView:
    placed: list[Point | None] = [None] * 10
    for ball, pos in balls.items():
        placed[ball] = pos
    return BotView(me=me or state.turn or "0", state=state, balls=tuple(placed))


def random_layout(rng: random.Random, count: int) -> dict[int, Point]:
    """The cue ball and ``count`` object balls (the 9 always among them), anywhere on the
    bed clear of each other and of the cushions."""
    balls = [*sorted(rng.sample(range(1, 9), count - 1)), 9]
    out: dict[int, Point] = {}
    for ball in [0, *balls]:
        while True:
            pos = (rng.uniform(0.08, 2.46), rng.uniform(0.08, 1.19))
            try:
                physics.check_placement({b: p for b, p in out.items() if b != 0}, pos, False)
            except physics.PlacementError:
                continue
            if ball != 0 and 0 in out and physics.TABLE.ball_radius * 2.2 > _dist(pos, out[0]):
                continue
            out[ball] = pos
            break
    return out


def _dist(a: Point, b: Point) -> float:
    return float(((a[0] - b[0]) ** 2 + (a[1] - b[1]) ** 2) ** 0.5)


def judge(state: rules.MatchState, balls: dict[int, Point], shot: object) -> rules.Verdict:
    """The referee's verdict on the bot's shot played in the physics."""
    from server.bot import Shot

    assert isinstance(shot, Shot)
    placed = dict(balls)
    if shot.place is not None:
        placed[0] = shot.place
    outcome = physics.simulate(placed, shot.stroke())
    facts = outcome.report
    action = rules.ShotAction(
        by=state.turn or "0",
        first=facts.first,
        rails=tuple(facts.rails),
        pocketed=tuple(facts.pocketed),
        off_table=tuple(facts.off_table),
        push_out=shot.push_out,
    )
    return rules.apply(state, action).verdict
