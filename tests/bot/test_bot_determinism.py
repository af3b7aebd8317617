"""Same view, level and seed: same decision, in this process or another."""

from __future__ import annotations

import pickle
import random
from concurrent.futures import ProcessPoolExecutor

from server import rules
from server.bot import BotView, Decision, decide, view_of
from server.rooms.table import new_table
from tests.bot.positions import mid_game, random_layout, view


def _views() -> list[BotView]:
    rng = random.Random(5)
    out = [view_of(new_table(rules.Settings(race_to=1), seed=9, match=1, breaker="0"), "0")]
    for _ in range(3):
        balls = random_layout(rng, rng.randint(3, 9))
        out.append(view(mid_game(tuple(sorted(b for b in balls if b))), balls))
    balls = random_layout(rng, 6)
    out.append(view(mid_game(tuple(sorted(b for b in balls if b)), ball_in_hand=True), balls))
    return out


def _decide(args: tuple[BotView, int, int]) -> Decision:
    return decide(*args)


def test_same_seed_same_decision() -> None:
    for v in _views():
        for level in (1, 3, 5):
            assert decide(v, level, 42) == decide(v, level, 42)


def test_the_seed_moves_the_stroke() -> None:
    v = _views()[1]
    assert len({decide(v, 3, seed) for seed in range(4)}) > 1


def test_views_and_decisions_pickle_and_agree_across_processes() -> None:
    work = [(v, level, 7) for v in _views()[:3] for level in (2, 4)]
    for item in work:
        assert pickle.loads(pickle.dumps(item[0])) == item[0]
    here = [_decide(item) for item in work]
    with ProcessPoolExecutor(max_workers=2) as pool:
        there = list(pool.map(_decide, work))
    assert here == there
    assert [pickle.loads(pickle.dumps(d)) for d in here] == here
