"""The nine-ball referee: pure rules from the facts of each shot (see docs/RULES.md).

``apply(state, action)`` returns the next :class:`MatchState` and a :class:`Verdict`
saying what happened and why, or raises :class:`RuleError` with a stable code. The
conformance runner lives in :mod:`server.rules.conformance`
(``python -m server.rules.conformance tests/conformance``).
"""

from server.rules.actions import (
    Action,
    Choose,
    ClockExpired,
    Concede,
    Extension,
    Forfeit,
    LagResult,
    ShotAction,
    Stalemate,
)
from server.rules.clock import TurnClock, extension_seconds, extensions_left, turn_clock
from server.rules.errors import RuleError
from server.rules.referee import apply, stalemate_open
from server.rules.settings import Settings
from server.rules.state import MatchState, decode_state, encode_state, lowest_ball, new_match
from server.rules.verdict import Outcome, Verdict

__all__ = [
    "Action",
    "Choose",
    "ClockExpired",
    "Concede",
    "Extension",
    "Forfeit",
    "LagResult",
    "MatchState",
    "Outcome",
    "RuleError",
    "Settings",
    "ShotAction",
    "Stalemate",
    "TurnClock",
    "Verdict",
    "apply",
    "decode_state",
    "encode_state",
    "extension_seconds",
    "extensions_left",
    "lowest_ball",
    "new_match",
    "stalemate_open",
    "turn_clock",
]
