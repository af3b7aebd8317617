"""Breadth-first walk of reachable referee states: snapshots and rejections are exact.

Hypothesis samples long random matches; this walk is the complement: every state
reachable within a few actions from a fixed, rule-rich alphabet (breaks legal and foul,
the 9 on the break, on a foul and on a push-out, scratches, balls off the table, clock
fouls, choices, concessions, forfeits, stalemate proposals, the lag, and actions that
must be refused) is visited once. For each one:

* ``encode_state`` / ``decode_state`` round-trip it exactly and ``check_state`` accepts it;
* every rejected action leaves the state equal to what it was (value and bytes);
* while a game is live the 9 is on the table and exactly one player is to act (O1);
* on an unbroken rack nobody has a consecutive foul counted (R13/R15).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from server.rules import (
    Choose,
    ClockExpired,
    Concede,
    Forfeit,
    LagResult,
    MatchState,
    RuleError,
    Settings,
    ShotAction,
    Stalemate,
    apply,
    decode_state,
    encode_state,
    new_match,
)
from server.rules.actions import Action
from server.rules.errors import ALL_CODES
from server.rules.state import check_state

PLAYERS = ("A", "B")
MAX_STATES = 2500
MAX_DEPTH = 7


def _shots(by: str, state: MatchState) -> Iterator[ShotAction]:
    balls = state.on_table
    low = balls[0]
    other = balls[1] if len(balls) > 1 else low
    yield ShotAction(by, low, (0,), (), ())  # legal miss
    yield ShotAction(by, low, (1, 2, 3, 4), (), ())  # a legal break when breaking
    yield ShotAction(by, low, (), (low,), ())  # pot the lowest
    yield ShotAction(by, low, (), (9,), ())  # the 9 on a legal shot (G5)
    yield ShotAction(by, other, (0,), (9,), ())  # the 9 on a foul (G4, R8)
    yield ShotAction(by, low, (), (), ())  # R9 (R4 on the break)
    yield ShotAction(by, low, (0,), (0,), ())  # scratch (G1)
    yield ShotAction(by, low, (0,), (), (9,))  # the 9 off the table (R11)
    yield ShotAction(by, None, (), (), (), True)  # push-out (legal only after a break)
    yield ShotAction(by, None, (), (9,), (), True)  # the 9 on a push-out (R6.3)
    yield ShotAction(by, None, (), (0,), (), True)  # push-out scratch (R6.2)
    yield ShotAction(by, low, (0,), (0,), (0,))  # contradictory report: rejected
    yield ShotAction(by, 10, (0,), (), ())  # a ball that does not exist: rejected


def _actions(state: MatchState) -> Iterator[Action]:
    yield LagResult("A")
    yield LagResult("B", "A")
    for by in PLAYERS:
        if state.on_table:
            yield from _shots(by, state)
        yield Choose(by, "shoot")
        yield Choose(by, "pass")
        yield ClockExpired(by)
        yield Stalemate(by, "propose")
        yield Stalemate(by, "accept")
    yield Concede("B", "game")
    yield Concede("A", "match")
    yield Forfeit("B")


def _check_live(state: MatchState) -> None:
    check_state(state)
    data = encode_state(state)
    assert decode_state(data) == state
    assert encode_state(decode_state(data)) == data
    if not state.match_over and not state.awaiting_lag:
        assert state.turn in PLAYERS
        assert 9 in state.on_table  # G3/G4: the 9 is never down while a game is live
    if state.is_break:  # R13/R15: no game, so no foul count, before the break
        assert state.consecutive_fouls == (0, 0) and not state.warned


@pytest.mark.parametrize(
    "rules,breaker",
    [
        (Settings(race_to=2, break_order="trailing", stalemate_innings=2), "A"),
        (Settings(race_to=2, break_order="alternate", forfeit="match"), None),
        (Settings(race_to=1, break_order="loser", stalemate_innings=1), "B"),
    ],
)
def test_every_reachable_state_round_trips_and_rejections_change_nothing(
    rules: Settings, breaker: str | None
) -> None:
    start = new_match(rules, PLAYERS, breaker)
    seen = {encode_state(start)}
    frontier = [start]
    rejected = accepted = 0
    for _depth in range(MAX_DEPTH):
        following: list[MatchState] = []
        for state in frontier:
            _check_live(state)
            before = encode_state(state)
            for action in _actions(state):
                try:
                    outcome = apply(state, action)
                except RuleError as exc:
                    rejected += 1
                    assert exc.code in ALL_CODES and exc.message
                    assert encode_state(state) == before, f"{action} changed the state"
                    continue
                accepted += 1
                assert encode_state(state) == before, f"{action} mutated its input"
                _check_live(outcome.state)
                key = encode_state(outcome.state)
                if key not in seen and len(seen) < MAX_STATES:
                    seen.add(key)
                    following.append(outcome.state)
        frontier = following
    assert accepted > 1000 and rejected > 1000  # the walk really explored both kinds
