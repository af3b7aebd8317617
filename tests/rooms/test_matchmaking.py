"""Rated quick match as a pure function: the widening window and who is paired."""

from __future__ import annotations

import math

from server.rooms.matchmaking import (
    ANYONE_AFTER,
    Seeker,
    next_change,
    pair,
    window,
)


def seeker(name: str, rating: float, since: float = 0.0, race_to: int = 3) -> Seeker[str]:
    return Seeker(name, f"p_{name}", race_to, rating, since)


def names(pairs: list[tuple[Seeker[str], Seeker[str]]]) -> list[tuple[str, str]]:
    return [(a.ticket, b.ticket) for a, b in pairs]


def test_the_window_widens_in_steps_then_takes_anyone() -> None:
    assert window(0) == 50 and window(4.9) == 50
    assert window(5) == 100 and window(12) == 150 and window(59.9) == 600
    assert window(ANYONE_AFTER) == math.inf
    assert window(-3) == 50  # a clock that went back: the first window


def test_close_ratings_meet_at_once_far_ones_only_after_waiting() -> None:
    near = [seeker("a", 500), seeker("b", 540)]
    assert names(pair(near, 0.0)) == [("a", "b")]
    far = [seeker("a", 500), seeker("b", 700)]
    assert pair(far, 0.0) == []
    assert pair(far, 14.9) == []  # 150 < 200
    assert names(pair(far, 15.0)) == [("a", "b")]  # 200 fits both windows


def test_the_narrower_window_decides() -> None:
    old, new = seeker("old", 500, since=0.0), seeker("new", 800, since=100.0)
    assert pair([old, new], 101.0) == []  # the newcomer's first window is 50
    assert names(pair([old, new], 100.0 + ANYONE_AFTER)) == [("old", "new")]


def test_longest_waiting_first_with_the_closest_rating() -> None:
    people = [
        seeker("a", 500, since=0.0),
        seeker("b", 530, since=3.0),
        seeker("c", 505, since=4.0),
        seeker("d", 560, since=4.5),
    ]
    assert names(pair(people, 4.9)) == [("a", "c"), ("b", "d")]


def test_no_pairs_across_races_nor_with_oneself() -> None:
    people = [seeker("a", 500, race_to=3), seeker("b", 500, race_to=5)]
    assert pair(people, 1000.0) == []
    same = [Seeker("x", "p_same", 3, 500.0, 0.0), Seeker("y", "p_same", 3, 500.0, 0.0)]
    assert pair(same, 1000.0) == []


def test_when_to_look_again() -> None:
    assert next_change([seeker("a", 500)], 0.0) is None
    assert next_change([seeker("a", 500), seeker("b", 900, since=2.0)], 3.0) == 2.0
    gone = [seeker("a", 500, since=-100.0), seeker("b", 900, since=-100.0)]
    assert next_change(gone, 0.0) is None
