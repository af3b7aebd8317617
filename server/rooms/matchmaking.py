"""Rated quick match: who meets whom, by rating, as a pure function of who waits.

A player who asks for a rated quick match is paired with someone close to their own
rating; the longer they wait, the wider the gap they accept, so nobody waits for ever
and nobody meets a far stronger player while a closer one could come along.

The schedule (`window`): a player who has waited `t` seconds accepts a partner whose
rating differs by at most

    WINDOW_START + WINDOW_STEP * floor(t / STEP_SECONDS)     (50, 100, 150, … points)

and anyone at all once they have waited `ANYONE_AFTER` seconds (60). Two players are
paired when their gap fits **both** windows — the narrower decides — so a newcomer is not
thrown at whoever has waited longest. 100 points is 2:1 odds per rack
(docs/RATINGS.md): the first window is a fair match, the window after 30 s (350) one a
weaker player still wins about one rack in twelve of.

`pair` picks pairs greedily, longest waiting first, each with the closest rating its
window allows (ties: who waited longer); players of different races never meet, nor a
player with themself.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final, Generic, TypeVar

WINDOW_START: Final = 50.0
WINDOW_STEP: Final = 50.0
STEP_SECONDS: Final = 5.0
ANYONE_AFTER: Final = 60.0

T = TypeVar("T")


@dataclass(frozen=True)
class Seeker(Generic[T]):
    """One player waiting: who (`ticket`, opaque here), their player id, the race they
    want, their rating, and since when they wait (seconds, any clock)."""

    ticket: T
    player: str
    race_to: int
    rating: float
    since: float


def window(waited: float) -> float:
    """The rating gap a player accepts after waiting `waited` seconds."""
    if waited >= ANYONE_AFTER:
        return math.inf
    steps = math.floor(max(0.0, waited) / STEP_SECONDS)
    return WINDOW_START + WINDOW_STEP * steps


def fits(a: Seeker[T], b: Seeker[T], now: float) -> bool:
    if a.player == b.player or a.race_to != b.race_to:
        return False
    gap = abs(a.rating - b.rating)
    return gap <= min(window(now - a.since), window(now - b.since))


def pair(seekers: Sequence[Seeker[T]], now: float) -> list[tuple[Seeker[T], Seeker[T]]]:
    """The pairs to make now; who is in none waits on (see the module's docstring)."""
    order = sorted(range(len(seekers)), key=lambda i: (seekers[i].since, i))
    taken: set[int] = set()
    pairs: list[tuple[Seeker[T], Seeker[T]]] = []
    for i in order:
        if i in taken:
            continue
        me = seekers[i]
        best: tuple[float, float, int] | None = None
        for j in order:
            if j == i or j in taken or not fits(me, seekers[j], now):
                continue
            key = (abs(me.rating - seekers[j].rating), seekers[j].since, j)
            if best is None or key < best:
                best = key
        if best is not None:
            taken |= {i, best[2]}
            pairs.append((me, seekers[best[2]]))
    return pairs


def next_change(seekers: Sequence[Seeker[T]], now: float) -> float | None:
    """Seconds until some window next widens (None: nobody waits): when to look again."""
    if len(seekers) < 2:
        return None
    waits = []
    for seeker in seekers:
        waited = max(0.0, now - seeker.since)
        if waited >= ANYONE_AFTER:
            continue
        step_end = (math.floor(waited / STEP_SECONDS) + 1) * STEP_SECONDS
        waits.append(min(step_end, ANYONE_AFTER) - waited)
    return min(waits) if waits else None
