"""The bot plays legal shots: most of the time at level 3 from random layouts, and always,
when it has found one, on two fouls (R13: a third loses the game)."""

from __future__ import annotations

import random

import pytest

from server.bot import Shot, decide
from tests.bot.positions import judge, mid_game, random_layout, view

LAYOUTS = 30


def test_level_3_is_legal_from_random_layouts() -> None:
    rng = random.Random(2024)
    legal = 0
    for k in range(LAYOUTS):
        balls = random_layout(rng, rng.randint(2, 9))
        state = mid_game(tuple(sorted(b for b in balls if b)))
        shot = decide(view(state, balls), 3, seed=k)
        assert isinstance(shot, Shot)
        legal += not judge(state, balls, shot).foul
    assert legal >= 0.8 * LAYOUTS, f"only {legal} of {LAYOUTS} shots were legal"


# Positions where a careless shot fouls: a scratch along the line to a pocket, the lowest
# ball hidden behind others (only a kick reaches it), the lowest ball frozen to a cushion
# with the cue ball far away, and a crowded corner.
HARD = [
    {0: (2.2, 0.95), 2: (2.36, 1.11), 5: (1.0, 0.5), 9: (1.5, 0.3)},
    {
        0: (0.6, 0.64),
        1: (2.3, 0.64),
        3: (1.3, 0.57),
        4: (1.3, 0.64),
        5: (1.3, 0.71),
        6: (1.3, 0.50),
        7: (1.3, 0.78),
        9: (1.8, 1.0),
    },
    {0: (0.3, 1.0), 4: (2.51, 0.4), 6: (2.0, 0.5), 9: (1.2, 0.9)},
    {0: (0.2, 0.2), 3: (0.12, 0.14), 4: (0.25, 0.08), 7: (0.09, 0.3), 9: (0.4, 0.2)},
]


@pytest.mark.parametrize("level", [1, 3, 5])
@pytest.mark.parametrize("case", range(len(HARD)))
def test_never_a_third_foul(level: int, case: int) -> None:
    balls = HARD[case]
    state = mid_game(tuple(sorted(b for b in balls if b)), fouls=(2, 0))
    for seed in range(3):
        shot = decide(view(state, balls), level, seed=seed)
        verdict = judge(state, balls, shot)
        assert not verdict.foul, (case, seed, verdict.reasons)
        assert not verdict.game_over or verdict.game_winner == "0"


@pytest.mark.parametrize("level", [1, 3])
def test_never_a_third_foul_from_random_layouts(level: int) -> None:
    rng = random.Random(77)
    for k in range(12):
        balls = random_layout(rng, rng.randint(2, 9))
        state = mid_game(tuple(sorted(b for b in balls if b)), fouls=(2, 1))
        shot = decide(view(state, balls), level, seed=k)
        assert not judge(state, balls, shot).foul, (k, balls)


def test_on_two_fouls_with_ball_in_hand_too() -> None:
    balls = {0: (1.0, 0.6), 2: (2.0, 0.3), 8: (2.1, 0.35), 9: (0.5, 1.0)}
    state = mid_game((2, 8, 9), fouls=(2, 0), ball_in_hand=True)
    shot = decide(view(state, balls), 2, seed=4)
    assert isinstance(shot, Shot) and shot.place is not None
    assert not judge(state, balls, shot).foul
