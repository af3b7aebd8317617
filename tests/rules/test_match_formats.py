"""Match formats in the referee: the shot clock's settings, the turn's time, extensions.

The conformance scenarios (`tests/conformance/o03_*`, `r03_*`) play the options through
whole racks; these tests pin down what the scenario format cannot say: the settings the
referee refuses and their words, the defaults of old snapshots, the state checks.
"""

from __future__ import annotations

import msgspec
import pytest

from server.rules import (
    Extension,
    RuleError,
    Settings,
    ShotAction,
    apply,
    decode_state,
    encode_state,
    extension_seconds,
    new_match,
    turn_clock,
)
from server.rules.state import check_state

PRO = Settings(
    race_to=5,
    break_order="alternate",
    shot_clock=30,
    first_shot_clock=60,
    extensions=1,
    extension_seconds=30,
)
BREAK = ShotAction(by="A", first=1, rails=(2, 3, 4, 5), pocketed=(), off_table=())


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"race_to": 0}, "race_to must be a whole number from 1 to 21"),
        ({"race_to": 22}, "race_to must be a whole number from 1 to 21"),
        ({"break_order": "coin"}, "break_order must be one of winner, alternate, loser"),
        ({"shot_clock": -30}, "shot_clock must be a whole number of seconds from 5 to 300"),
        ({"shot_clock": 4}, "shot_clock must be a whole number of seconds from 5 to 300"),
        ({"shot_clock": True}, "shot_clock must be a whole number of seconds"),
        ({"shot_clock": 30, "first_shot_clock": 20}, "first_shot_clock must be at least"),
        ({"first_shot_clock": 60}, "first_shot_clock needs a shot_clock"),
        ({"shot_clock": 30, "first_shot_clock": 601}, "from 5 to 600"),
        ({"extension_seconds": 30}, "extension_seconds needs a shot_clock"),
        ({"shot_clock": 30, "extension_seconds": 0}, "extension_seconds must be"),
        ({"extensions": -1}, "extensions must be a whole number from 0 to 5"),
        ({"extensions": 6}, "extensions must be a whole number from 0 to 5"),
        ({"clock_warning": -1}, "clock_warning must be a whole number of seconds from 0"),
        ({"clock_warning": 61}, "clock_warning must be a whole number of seconds from 0"),
    ],
)
def test_bad_settings_are_refused_with_words_that_say_why(
    fields: dict[str, object], words: str
) -> None:
    with pytest.raises(RuleError) as caught:
        Settings(**fields)  # type: ignore[arg-type]
    assert caught.value.code == "invalid_settings"
    assert words in caught.value.message


def test_bad_settings_are_refused_when_decoded_too() -> None:
    data = msgspec.json.encode({"race_to": 3, "shot_clock": -5})
    with pytest.raises(RuleError) as caught:
        msgspec.json.decode(data, type=Settings)
    assert caught.value.code == "invalid_settings"


def test_the_pro_format_apportions_the_time_by_turn() -> None:
    state = new_match(PRO, ("A", "B"), "A")
    clock = turn_clock(state)
    assert clock is not None
    assert (clock.seconds, clock.warning, clock.extension_seconds) == (30, 10, 30)
    assert clock.extensions_left == (1, 1)
    after_break = apply(state, BREAK).state
    clock = turn_clock(after_break)
    assert clock is not None and clock.seconds == 60 and clock.first_after == "break"


def test_no_clock_means_no_turn_clock_and_no_extension_time() -> None:
    state = new_match(Settings(extensions=3), ("A", "B"), "A")
    assert turn_clock(state) is None
    assert extension_seconds(state.settings) == 0
    with pytest.raises(RuleError) as caught:
        apply(state, Extension(by="A"))
    assert caught.value.code == "no_shot_clock"


def test_an_extension_adds_the_shot_clock_unless_told_otherwise() -> None:
    assert extension_seconds(Settings(shot_clock=45)) == 45
    assert extension_seconds(Settings(shot_clock=45, extension_seconds=20)) == 20


def test_an_extension_is_a_note_and_changes_only_the_count() -> None:
    state = new_match(PRO, ("A", "B"), "A")
    outcome = apply(state, Extension(by="A"))
    assert outcome.state.extensions_used == (1, 0)
    assert outcome.verdict.notes == (("O3", "Extension: 30 more seconds for this shot"),)
    assert not outcome.verdict.foul
    unchanged = msgspec.structs.replace(outcome.state, extensions_used=(0, 0))
    assert unchanged == state
    with pytest.raises(RuleError) as caught:
        apply(outcome.state, Extension(by="A"))
    assert caught.value.code == "no_extensions"


def test_a_stalemate_rerack_gives_the_extensions_back() -> None:
    settings = msgspec.structs.replace(PRO, stalemate_innings=1)
    state = apply(new_match(settings, ("A", "B"), "A"), BREAK).state
    assert state.stalemate_warning  # the fruitless break was the one inning allowed
    state = apply(state, Extension(by="B")).state
    assert state.extensions_used == (0, 1)
    miss = {"first": 1, "rails": (0,), "pocketed": (), "off_table": ()}
    rack = state.rack
    for player in ("B", "A", "B", "A", "B", "A"):
        state = apply(state, ShotAction(by=player, **miss)).state  # type: ignore[arg-type]
    assert state.rack == rack + 1
    assert state.extensions_used == (0, 0)
    assert state.first_after is None


def test_a_state_saved_before_the_clock_fields_decodes_with_their_defaults() -> None:
    state = apply(new_match(Settings(race_to=3), ("A", "B"), "A"), BREAK).state
    old = msgspec.to_builtins(state)
    del old["extensions_used"], old["first_after"]
    for key in ("shot_clock", "first_shot_clock", "extensions", "extension_seconds"):
        del old["settings"][key]
    del old["settings"]["clock_warning"]
    decoded = decode_state(msgspec.msgpack.encode(old))
    assert decoded.extensions_used == (0, 0) and decoded.first_after is None
    assert decoded.settings.shot_clock is None
    assert decode_state(encode_state(state)) == state


def test_a_state_with_more_extensions_used_than_allowed_is_refused() -> None:
    state = new_match(PRO, ("A", "B"), "A")
    with pytest.raises(RuleError) as caught:
        check_state(msgspec.structs.replace(state, extensions_used=(2, 0)))
    assert caught.value.code == "invalid_state"
    with pytest.raises(RuleError):
        check_state(msgspec.structs.replace(state, first_after="break"))  # on an unbroken rack
