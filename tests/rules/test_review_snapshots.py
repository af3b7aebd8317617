"""Snapshots that no play can reach are refused by ``decode_state`` (invalid_state)."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from server.rules import RuleError, Settings, decode_state, encode_state, new_match


def _snapshot(**changes: Any) -> bytes:
    fields = msgspec.msgpack.decode(encode_state(new_match(Settings(), ("A", "B"), "A")))
    fields.update(changes)
    return msgspec.msgpack.encode(fields)


@pytest.mark.parametrize(
    "changes",
    [
        {"on_table": [1, 2, 3]},  # G3/G4: a live game without the 9
        {"on_table": []},
        {"ball_in_hand": "table"},  # R2: the break is played from the kitchen
        {"is_break": False},  # R4.2: after the break, ball in hand is anywhere, not the kitchen
        {"choice_pending": True},  # R6.4: no choice before the break
        {"is_break": False, "ball_in_hand": None, "choice_pending": True, "push_out_allowed": True},
    ],
)
def test_unreachable_snapshot_is_refused(changes: dict[str, Any]) -> None:
    with pytest.raises(RuleError) as caught:
        decode_state(_snapshot(**changes))
    assert caught.value.code == "invalid_state"


def test_a_reachable_snapshot_after_a_push_out_is_accepted() -> None:
    # R6.4: choice pending, no break, no ball in hand, no further push-out.
    state = decode_state(
        _snapshot(is_break=False, ball_in_hand=None, choice_pending=True, push_out_allowed=False)
    )
    assert state.choice_pending
