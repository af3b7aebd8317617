"""The referee's one error type and its stable codes.

Every illegal action is rejected with a :class:`RuleError` whose ``code`` never
changes between releases (clients and the wire protocol match on it) and whose
``message`` is a plain sentence a person can read. A rejected action changes
nothing: the referee only ever builds new states, so the caller's state is intact.
"""

from __future__ import annotations

from typing import Final

NOT_YOUR_TURN: Final = "not_your_turn"
"""The actor may not act now (O1): it is the other player's turn, or nobody's."""
NOT_A_PLAYER: Final = "not_a_player"
"""The actor is not one of the two players of the match (a spectator cannot act)."""
PUSH_OUT_NOT_ALLOWED: Final = "push_out_not_allowed"
"""A push-out was declared on a shot that is not the one right after a legal break (R6)."""
NO_CHOICE_PENDING: Final = "no_choice_pending"
"""A shoot/pass choice was made when no push-out is waiting for one (R6.4)."""
CHOICE_PENDING: Final = "choice_pending"
"""A shot was played while the shoot/pass choice after a push-out is still open (R6.4)."""
MATCH_OVER: Final = "match_over"
"""Any action after the match has ended."""
AWAITING_LAG: Final = "awaiting_lag"
"""A table action before the lag has decided who breaks the first game (O6)."""
NO_STALEMATE_PROPOSAL: Final = "no_stalemate_proposal"
"""A stalemate acceptance with no proposal from the opponent standing (R14)."""
NO_SHOT_CLOCK: Final = "no_shot_clock"
"""An extension was asked for in a match played without a shot clock (O3)."""
NO_EXTENSIONS: Final = "no_extensions"
"""An extension was asked for by a player with none left in this rack (O3)."""
STALEMATE_TOO_EARLY: Final = "stalemate_too_early"
"""A stalemate proposed before three innings in a row without progress (R14 reading)."""
INVALID_ACTION: Final = "invalid_action"
"""The action itself is malformed or impossible (unknown ball, bad value, wrong type)."""
INVALID_SETTINGS: Final = "invalid_settings"
"""A match setting is out of range or of the wrong type."""
INVALID_MATCH: Final = "invalid_match"
"""The players or the first breaker given to ``new_match`` do not make a match."""
INVALID_STATE: Final = "invalid_state"
"""Bytes given to ``decode_state`` (or a value given to ``apply``) are not a match state."""

ALL_CODES: Final = frozenset(
    {
        NOT_YOUR_TURN,
        NOT_A_PLAYER,
        PUSH_OUT_NOT_ALLOWED,
        NO_CHOICE_PENDING,
        CHOICE_PENDING,
        MATCH_OVER,
        AWAITING_LAG,
        NO_STALEMATE_PROPOSAL,
        NO_SHOT_CLOCK,
        NO_EXTENSIONS,
        STALEMATE_TOO_EARLY,
        INVALID_ACTION,
        INVALID_SETTINGS,
        INVALID_MATCH,
        INVALID_STATE,
    }
)


class RuleError(Exception):
    """An action the rules do not allow, with a stable ``code`` and a readable ``message``."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message

    def __reduce__(self) -> tuple[type[RuleError], tuple[str, str]]:
        # Keeps the two-argument constructor working across process boundaries (pickling).
        return (type(self), (self.code, self.message))
