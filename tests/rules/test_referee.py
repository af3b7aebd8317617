"""Unit tests of the referee's edges that scenarios do not reach: values, errors, purity."""

from __future__ import annotations

import pickle

import msgspec
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
    lowest_ball,
    new_match,
)
from server.rules.actions import Action

PLAYERS = ("ann", "bob")


def start(**settings: object) -> MatchState:
    return new_match(Settings(**settings), PLAYERS, "ann")  # type: ignore[arg-type]


def legal_break(state: MatchState) -> MatchState:
    return apply(state, ShotAction("ann", 1, (2, 3, 4, 5), (), ())).state


@pytest.mark.parametrize(
    "fields",
    [
        {"race_to": 0},
        {"race_to": 22},
        {"race_to": True},
        {"race_to": "5"},
        {"break_order": "random"},
        {"stalemate_innings": -1},
        {"stalemate_innings": 1001},
        {"forfeit": "set"},
    ],
)
def test_settings_out_of_range_are_rejected(fields: dict[str, object]) -> None:
    with pytest.raises(RuleError) as caught:
        Settings(**fields)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_settings"


def test_settings_defaults() -> None:
    settings = Settings()
    assert (settings.race_to, settings.break_order, settings.forfeit) == (5, "winner", "game")
    assert settings.stalemate_innings == 20  # R14 default: ten fruitless innings each


def test_settings_decoded_from_bad_bytes_are_rejected() -> None:
    data = msgspec.msgpack.encode({"race_to": 40})
    with pytest.raises(RuleError) as caught:
        msgspec.msgpack.decode(data, type=Settings)
    assert caught.value.code == "invalid_settings"


@pytest.mark.parametrize(
    ("players", "breaker"),
    [(("ann",), None), (("ann", "ann"), None), (("ann", ""), None), (PLAYERS, "cid")],
)
def test_new_match_rejects_bad_players(players: tuple[str, ...], breaker: str | None) -> None:
    with pytest.raises(RuleError) as caught:
        new_match(Settings(), players, breaker)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_match"


def test_r2_new_match_racks_and_waits_for_break() -> None:  # R2, O6
    state = start()
    assert state.on_table == (1, 2, 3, 4, 5, 6, 7, 8, 9)
    assert (state.turn, state.ball_in_hand, state.is_break, state.rack) == (
        "ann",
        "kitchen",
        True,
        1,
    )
    assert lowest_ball(state) == 1
    waiting = new_match(Settings(), PLAYERS, None)
    assert waiting.awaiting_lag and waiting.turn is None and waiting.breaker is None


def test_state_round_trips_through_msgpack() -> None:
    state = legal_break(start(race_to=7, break_order="trailing"))
    data = encode_state(state)
    assert isinstance(data, bytes)
    assert decode_state(data) == state
    assert encode_state(decode_state(data)) == data


@pytest.mark.parametrize(
    "data",
    [
        b"",
        b"\xc1",
        msgspec.msgpack.encode({"players": ["a", "b"]}),
        msgspec.msgpack.encode([1, 2, 3]),
    ],
)
def test_decode_state_rejects_garbage(data: bytes) -> None:
    with pytest.raises(RuleError) as caught:
        decode_state(data)
    assert caught.value.code == "invalid_state"


def test_decode_state_rejects_contradictions() -> None:
    state = start()
    for broken in (
        msgspec.structs.replace(state, turn="cid"),
        msgspec.structs.replace(state, on_table=(3, 1)),
        msgspec.structs.replace(state, consecutive_fouls=(2, 0)),  # on two fouls, not warned
        msgspec.structs.replace(state, match_over=True),
        msgspec.structs.replace(state, score=(9, 0)),
    ):
        with pytest.raises(RuleError) as caught:
            decode_state(encode_state(broken))
        assert caught.value.code == "invalid_state"


def test_apply_never_mutates_and_is_deterministic() -> None:
    state = legal_break(start())
    before = encode_state(state)
    shot = ShotAction("bob", 3, (), (9, 0), ())
    first = apply(state, shot)
    assert encode_state(state) == before
    assert apply(state, shot) == first


def test_apply_rejects_non_actions_and_non_states() -> None:
    with pytest.raises(RuleError) as caught:
        apply(start(), "shoot")  # type: ignore[arg-type]
    assert caught.value.code == "invalid_action"
    with pytest.raises(RuleError) as caught:
        apply({"turn": "ann"}, ClockExpired("ann"))  # type: ignore[arg-type]
    assert caught.value.code == "invalid_state"


@pytest.mark.parametrize(
    "shot",
    [
        ShotAction("ann", True, (), (), ()),
        ShotAction("ann", 1, "0", (), ()),  # type: ignore[arg-type]
        ShotAction("ann", 1, (), (1.0,), ()),  # type: ignore[arg-type]
        ShotAction("ann", 1, (), (), (), push_out=1),  # type: ignore[arg-type]
        ShotAction(7, 1, (), (), ()),  # type: ignore[arg-type]
    ],
)
def test_malformed_shot_reports_are_invalid_actions(shot: ShotAction) -> None:
    with pytest.raises(RuleError) as caught:
        apply(start(), shot)
    assert caught.value.code == "invalid_action"


def test_shot_lists_are_accepted_like_tuples() -> None:
    shot = ShotAction("ann", 1, [2, 3, 4, 5], [6], [])  # type: ignore[arg-type]
    outcome = apply(start(), shot)
    assert outcome.state.on_table == (1, 2, 3, 4, 5, 7, 8, 9) and outcome.state.turn == "ann"


def test_r8_r9_reasons_name_the_rule_without_players() -> None:  # R8, R9, R7
    state = legal_break(start())
    verdict = apply(state, ShotAction("bob", 4, (), (0,), (6,))).verdict
    assert verdict.fouls == ("R8", "R9", "R11", "G1")
    assert [rule for rule, _ in verdict.reasons] == list(verdict.fouls)
    text = " ".join(sentence for _, sentence in verdict.reasons + verdict.notes)
    assert "ann" not in text and "bob" not in text
    assert (
        dict(verdict.reasons)["R8"]
        == "The cue ball first contacted the 4, not the lowest ball (the 1)"
    )
    assert dict(verdict.reasons)["R11"] == "The 6 was driven off the table"


def test_r4_reason_counts_numbered_balls() -> None:  # R4
    verdict = apply(start(), ShotAction("ann", 1, (0, 2, 2, 3), (), ())).verdict
    sentence = "The break pocketed no ball and drove only 2 numbered balls to a rail"
    assert verdict.reasons == (("R4", f"{sentence} (four are needed)"),)


def test_r13_warning_is_in_verdict_and_notes() -> None:  # R13
    state = legal_break(start())
    state = apply(state, ShotAction("bob", 1, (), (), ())).state
    state = apply(state, ShotAction("ann", 1, (0,), (), ())).state
    verdict = apply(state, ShotAction("bob", 1, (), (), ())).verdict
    assert verdict.warned == "bob"
    assert ("R13", "Second consecutive foul: a third in a row loses the game") in verdict.notes


def test_r13_clock_before_the_break_counts_for_nobody() -> None:  # R13, R15, O3
    state = start()
    for by in ("ann", "bob", "ann", "bob", "ann"):
        outcome = apply(state, ClockExpired(by))
        state, verdict = outcome.state, outcome.verdict
        assert verdict.foul and verdict.fouls == ("O3",)
        assert verdict.warned is None and not verdict.game_over
        assert [rule for rule, _ in verdict.notes] == ["O3", "R13"]
        assert state.consecutive_fouls == (0, 0) and state.warned == ()
        assert state.is_break and state.breaker == state.turn == state.opponent(by)


def test_r13_counts_start_with_the_break_even_in_an_older_snapshot() -> None:  # R13, R15
    # A snapshot saved when clock fouls before the break still counted: ann, to break, on
    # two. Her break foul is the first foul of the game, not the third.
    older = msgspec.structs.replace(start(), consecutive_fouls=(2, 1), warned=("ann",))
    outcome = apply(decode_state(encode_state(older)), ShotAction("ann", 2, (3, 4, 5, 6), (), ()))
    assert outcome.verdict.fouls == ("R8",) and not outcome.verdict.game_over
    assert outcome.state.consecutive_fouls == (1, 0) and outcome.state.warned == ()


def test_per_player_lookups() -> None:
    state = apply(start(race_to=3), ShotAction("ann", 1, (), (9,), ())).state
    assert state.score_of("ann") == 1 and state.score_of("bob") == 0
    assert state.opponent("ann") == "bob"
    assert state.fouls_of("bob") == 0


def test_actions_are_tagged_for_replay_logs() -> None:
    log: list[Action] = [
        ShotAction("ann", 1, (2, 3, 4, 5), (), ()),
        Choose("bob", "pass"),
        Concede("bob", "game"),
        ClockExpired("ann"),
        Stalemate("ann", "propose"),
        Forfeit("bob"),
        LagResult("ann", None),
    ]
    data = msgspec.msgpack.encode(log)
    assert msgspec.msgpack.decode(data, type=list[Action]) == log


def test_rule_error_survives_pickling() -> None:  # it may cross a process boundary
    error = pickle.loads(pickle.dumps(RuleError("not_your_turn", "It is ann's turn")))
    assert (error.code, error.message) == ("not_your_turn", "It is ann's turn")


def test_the_nine_on_the_break_is_said_to_be_on_the_break() -> None:
    # G5: the same win either way, but a player reads "on the break", not an ordinary
    # shot's words; the note's wording is what tells the client which.
    on_break = apply(start(), ShotAction("ann", 1, (2,), (9,), ())).verdict
    assert on_break.game_over and on_break.game_winner == "ann"
    assert on_break.notes[0] == ("G5", "The 9 was pocketed on the break: the game is won")
    later = apply(legal_break(start()), ShotAction("bob", 1, (2,), (9,), ())).verdict
    assert later.game_over and later.game_winner == "bob"
    assert later.notes[0] == ("G5", "The 9 was pocketed on a legal shot: the game is won")
