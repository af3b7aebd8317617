"""Property tests: random action sequences against the referee's invariants.

Hypothesis plays whole matches from plausible (and some deliberately wrong) actions and
checks, after every one, what must always hold whatever happens at the table.
"""

from __future__ import annotations

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

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
    Verdict,
    apply,
    decode_state,
    encode_state,
    new_match,
)
from server.rules.actions import Action
from server.rules.errors import ALL_CODES, MATCH_OVER, NOT_YOUR_TURN
from server.rules.state import check_state

PLAYERS = ("A", "B")


@st.composite
def match_settings(draw: st.DrawFn) -> Settings:
    return Settings(
        race_to=draw(st.integers(1, 3)),
        break_order=draw(st.sampled_from(["winner", "alternate", "loser", "trailing"])),
        stalemate_innings=draw(st.sampled_from([0, 1, 2, 6])),
        forfeit=draw(st.sampled_from(["game", "match"])),
    )


def _subset(draw: st.DrawFn, pool: list[int], max_size: int) -> tuple[int, ...]:
    if not pool:
        return ()
    return tuple(draw(st.lists(st.sampled_from(pool), max_size=max_size, unique=True)))


@st.composite
def shot_for(draw: st.DrawFn, state: MatchState) -> ShotAction:
    """A shot report: often a plain miss or pot, otherwise random facts (some impossible)."""
    turn = state.turn or "A"
    by = turn if draw(st.integers(0, 9)) else state.opponent(turn) if turn in PLAYERS else "C"
    balls = list(state.on_table)
    lowest = balls[0] if balls else None
    push_out = state.push_out_allowed and draw(st.booleans())
    style = draw(st.integers(0, 9))
    if style < 4:  # a legal miss: lowest ball first, cue ball to a rail, nothing down
        return ShotAction(by, lowest, (0,), (), (), push_out)
    if style < 6 and balls:  # a legal pot of one ball
        return ShotAction(by, lowest, (), (draw(st.sampled_from(balls)),), (), push_out)
    first = draw(st.sampled_from([lowest, lowest, None, *balls]))
    rails = _subset(draw, [0, *balls], 5)
    pocketed = _subset(draw, [0, *balls], 3)
    rest = [b for b in [0, *balls] if b not in pocketed]
    off_table = _subset(draw, rest, 1) if draw(st.integers(0, 5)) == 0 else ()
    if draw(st.integers(0, 19)) == 0:  # a report naming a ball that is not on the table
        pocketed = (*pocketed, draw(st.integers(1, 10)))
    if draw(st.integers(0, 19)) == 0:  # a push-out declared when it may not be
        push_out = True
    return ShotAction(by, first, rails, pocketed, off_table, push_out)


@st.composite
def action_for(draw: st.DrawFn, state: MatchState) -> Action:
    player = st.sampled_from(["A", "B", "A", "B", "C"])
    if state.awaiting_lag and draw(st.integers(0, 4)) > 0:
        return LagResult(draw(st.sampled_from(PLAYERS)), draw(st.sampled_from([None, *PLAYERS])))
    kind = draw(st.integers(0, 99))
    if state.choice_pending and kind < 60:
        return Choose(state.turn or "A", draw(st.sampled_from(["shoot", "pass"])))
    if kind < 80:
        return draw(shot_for(state))
    if kind < 86:
        return ClockExpired(draw(player))
    if kind < 92:
        return Stalemate(draw(player), draw(st.sampled_from(["propose", "accept"])))
    if kind < 94:
        return Concede(draw(player), draw(st.sampled_from(["game", "match"])))
    if kind < 96:
        return Forfeit(draw(player))
    if kind < 98:
        return Choose(draw(player), draw(st.sampled_from(["shoot", "pass"])))
    return LagResult(draw(player))


def _benign_shot(by: str, state: MatchState) -> ShotAction:
    return ShotAction(by, state.on_table[0] if state.on_table else None, (0,), (), ())


def check_invariants(
    before: MatchState, action: Action, after: MatchState, verdict: Verdict
) -> None:
    check_state(after)
    # The state is a plain value: MessagePack round-trips it exactly.
    data = encode_state(after)
    assert decode_state(data) == after
    assert encode_state(decode_state(data)) == data
    # Exactly one player may act while the match is live; nobody after it.
    if after.match_over or after.awaiting_lag:
        assert after.turn is None
    else:
        assert after.turn in PLAYERS
        other = after.opponent(after.turn)
        for wrong in (_benign_shot(other, after), Choose(other, "shoot"), ClockExpired(other)):
            try:
                apply(after, wrong)
            except RuleError as exc:
                assert exc.code == NOT_YOUR_TURN
            else:
                raise AssertionError(f"{other} acted out of turn with {wrong}")
    if after.match_over:
        for player in PLAYERS:
            try:
                apply(after, _benign_shot(player, after))
            except RuleError as exc:
                assert exc.code == MATCH_OVER
            else:
                raise AssertionError("an action was accepted after the match ended")
    # Balls: on the table or down, never both; the 9 never stays down unless it won.
    assert list(after.on_table) == sorted(set(after.on_table))
    assert set(after.on_table) <= set(range(1, 10))
    assert set(verdict.spotted) <= {9}
    if not after.match_over:
        assert 9 in after.on_table
    if isinstance(action, ShotAction) and not verdict.new_rack and not after.match_over:
        down = (set(action.pocketed) | set(action.off_table)) - {0}
        assert set(after.on_table) == (set(before.on_table) - down) | set(verdict.spotted)
        if (verdict.foul or action.push_out) and 9 in down:
            assert verdict.spotted == (9,)
        if verdict.foul:
            assert after.turn == before.opponent(action.by)
            assert after.ball_in_hand == "table"
    # Scores only grow, by one game at most, and the match ends exactly at race_to.
    race_to = after.settings.race_to
    gained = [a - b for a, b in zip(after.score, before.score, strict=True)]
    assert all(g >= 0 for g in gained) and sum(gained) <= 1
    assert max(after.score) <= race_to
    if verdict.game_winner is not None:
        assert gained[after.index(verdict.game_winner)] == 1
    else:
        assert sum(gained) == 0
    assert (max(after.score) == race_to) == (after.match_ended_by == "race")
    if after.match_over:
        assert after.match_winner is not None
        if after.match_ended_by == "race":
            assert after.score_of(after.match_winner) == race_to
    # R13 bookkeeping and the shapes of ball in hand. The counts belong to a game, and a
    # game starts with its break (R15): on an unbroken rack nobody has a foul to count.
    assert max(after.consecutive_fouls) <= 2
    if after.is_break:
        assert after.consecutive_fouls == (0, 0) and after.warned == ()
    if after.turn is not None:
        assert (after.ball_in_hand == "kitchen") == after.is_break
        if after.choice_pending:
            assert after.ball_in_hand is None and not after.push_out_allowed
    assert set(verdict.fouls) <= {"R4", "R8", "R9", "R11", "G1", "O3"}
    assert verdict.foul == bool(verdict.fouls)
    assert [rule for rule, _ in verdict.reasons] == list(verdict.fouls)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rules=match_settings(), breaker=st.sampled_from([None, "A", "B"]))
def test_random_matches_keep_every_invariant(
    data: st.DataObject, rules: Settings, breaker: str | None
) -> None:
    state = new_match(rules, PLAYERS, breaker)
    check_state(state)
    for _ in range(100):
        if state.match_over:
            break
        action = data.draw(action_for(state))
        before_bytes = encode_state(state)
        try:
            outcome = apply(state, action)
        except RuleError as exc:
            # A rejected action has a known code and leaves the state exactly as it was.
            assert exc.code in ALL_CODES
            assert exc.message
            assert encode_state(state) == before_bytes
            continue
        assert encode_state(state) == before_bytes, "apply mutated its input"
        assert apply(state, action) == outcome, "apply is not deterministic"
        check_invariants(state, action, outcome.state, outcome.verdict)
        _record(outcome.verdict)
        state = outcome.state
    event(f"match over: {state.match_over} ({state.match_ended_by})")


def _record(verdict: Verdict) -> None:
    """Labels shown by ``pytest --hypothesis-show-statistics``: what the runs reached."""
    for label, reached in (
        ("foul", verdict.foul),
        ("nine spotted", bool(verdict.spotted)),
        ("R13 warning", verdict.warned is not None),
        ("game lost on three fouls", verdict.game_end == "three_fouls"),
        ("game won on the 9", verdict.game_end == "nine"),
        ("R14 warning", verdict.stalemate_warning_given),
        ("stalemate re-rack", verdict.stalemate),
    ):
        if reached:
            event(label)


@settings(max_examples=60, deadline=None)
@given(rules=match_settings(), breakers_win=st.lists(st.booleans(), min_size=5, max_size=5))
def test_match_stops_exactly_at_race_to(rules: Settings, breakers_win: list[bool]) -> None:
    """Games won one after another: the match ends on the game that reaches race_to."""
    state = new_match(rules, PLAYERS, "A")
    games = 0
    for breaker_wins in breakers_win:
        if state.match_over:
            break
        breaker = state.turn
        assert breaker is not None and state.is_break
        if breaker_wins:
            outcome = apply(state, ShotAction(breaker, 1, (), (9,), ()))
        else:
            missed = apply(state, ShotAction(breaker, 1, (2, 3, 4, 5), (), ()))
            other = state.opponent(breaker)
            outcome = apply(missed.state, ShotAction(other, 1, (), (9,), ()))
        assert outcome.verdict.game_over
        games += 1
        state = outcome.state
        assert max(state.score) <= rules.race_to
        assert state.match_over == (max(state.score) == rules.race_to)
    assert state.match_over  # five games always decide a race to at most 3
    assert sum(state.score) == games
