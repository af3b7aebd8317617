"""Account names: what may be claimed, folding, and names that only look alike."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from protocol.messages import Name
from protocol.text import skeleton as rooms_skeleton
from server.players.names import (
    GUEST_RESERVED,
    RESERVED,
    NameProblem,
    check,
    fold,
    is_reserved,
    is_reserved_for_guests,
    skeleton,
)


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        ("Alice", "Alice"),
        ("ａｌｉｃｅ", "alice"),  # full-width letters: NFKC
        ("  Two   Words ", "Two Words"),
        ("José", "José"),
        ("Jose\u0301", "José"),  # a combining accent composed
        ("日本語テスト", "日本語テスト"),  # Han with katakana: one writing system
        ("한국어", "한국어"),
        ("Ελλάδα", "Ελλάδα"),
        ("pool_shark7", "pool_shark7"),
        ("a.b-c d", "a.b-c d"),
    ],
)
def test_names_that_may_be_claimed(raw: str, shown: str) -> None:
    assert check(raw) == shown


@pytest.mark.parametrize(
    ("raw", "why"),
    [
        ("ab", "3 to 20"),
        ("x" * 21, "3 to 20"),
        ("Bob\u200b", "invisible"),  # zero-width space
        ("Bo\u200db", "invisible"),  # zero-width joiner
        ("ab\u202ecd", "invisible"),  # right-to-left override
        ("ab\u2066cd", "invisible"),  # bidi isolate
        ("ab\tcd", "invisible"),
        ("ab\u3164cd", "invisible"),  # a Hangul filler: a letter that shows as nothing
        ("раураl", "one script"),  # Cyrillic with a Latin l
        ("bob!", "not allowed"),
        ("bob😀", "not allowed"),
        ("_bob", "starts and ends"),
        ("bob-", "starts and ends"),
        ("1234", "at least one letter"),
        ("bob٣", "0-9"),
        ("Admin", "reserved"),
        ("Adm1n", "reserved"),
        ("ADMINISTRATOR", "reserved"),
        ("the_admin", "reserved"),
        ("guest42", "reserved"),
        ("Bot 3", "reserved"),
        ("NinePool-team", "reserved"),
        ("Deleted", "reserved"),
    ],
)
def test_names_that_are_refused(raw: str, why: str) -> None:
    with pytest.raises(NameProblem, match=why):
        check(raw)


def test_folding_makes_case_and_width_one() -> None:
    assert fold("ALICE") == fold("alice") == fold("ａｌｉｃｅ") == "alice"
    assert fold("Straße") == fold("STRASSE") == "strasse"
    assert fold("ǅemal") == fold("džemal")


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("paypal", "PayPaI"),  # capital I for l
        ("paypal", "paypa1"),
        ("modern", "rnodern"),
        ("william", "vvilliam"),
        ("cool", "c00l"),
        ("john_doe", "john.doe"),
        ("john_doe", "johndoe"),
        ("Jose", "José"),
        ("papa", "рара"),  # all Cyrillic: a whole-script look-alike
        ("oops", "οοps"),  # Greek omicrons (refused anyway: mixed)
        ("scope", "ѕсоре"),
    ],
)
def test_look_alikes_share_a_skeleton(a: str, b: str) -> None:
    assert skeleton(a) == skeleton(b)


def test_different_names_keep_different_skeletons() -> None:
    assert skeleton("alice") != skeleton("alicia")
    assert skeleton("bob") != skeleton("rob")
    assert skeleton("mail") != skeleton("mall")  # a dotted i is not an l


def test_the_skeleton_is_the_rooms_with_accents_and_separators_left_out() -> None:
    for name in ("PayPaI", "Alice", "рара", "modern", "c00l"):
        assert skeleton(name) == rooms_skeleton(name)
    assert skeleton("José Díaz") == rooms_skeleton("JoseDiaz")


def test_reserved_by_look() -> None:
    assert is_reserved("r00t") and is_reserved("SUPP0RT")
    assert not is_reserved("rooted") and not is_reserved("Alice")


def test_names_a_guest_may_not_play_under() -> None:
    """The computer players' names as every page words them, and the service's voice;
    not the client's default guest name, nor names that merely start the same."""
    for name in ("Bot", "Bot 2", "bot_13", "B0T 7", "Бот 3", "Computer", "Računalo", "Referee"):
        assert is_reserved_for_guests(name), name
    for name in ("TheAdmin", "ninepool-team", "Sudac", "Судья 2", "SYSTEM"):
        assert is_reserved_for_guests(name), name
    for name in ("Player-1234", "Guest 7", "Botan", "Robot", "Ana", "Botić"):
        assert not is_reserved_for_guests(name), name
    # What a guest may not be called, no account may claim either.
    assert GUEST_RESERVED <= RESERVED
    assert is_reserved("Бот 2") and is_reserved("Sudac")


@given(st.text(min_size=1, max_size=30))
def test_every_claimable_name_is_a_valid_name_on_the_wire(raw: str) -> None:
    try:
        name = check(raw)
    except NameProblem:
        return
    assert msgspec.convert(name, Name) == name
    assert check(name) == name  # checking is idempotent
    assert fold(fold(name)) == fold(name)
