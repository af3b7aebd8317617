"""Match settings the referee needs, validated when they are built or decoded."""

from __future__ import annotations

from typing import Final, Literal

import msgspec

from server.rules.errors import INVALID_SETTINGS, RuleError

BreakOrder = Literal["winner", "alternate", "loser", "trailing"]
ForfeitScope = Literal["game", "match"]

BREAK_ORDERS: Final[tuple[str, ...]] = ("winner", "alternate", "loser", "trailing")
FORFEIT_SCOPES: Final[tuple[str, ...]] = ("game", "match")
RACE_TO_MAX: Final = 21
STALEMATE_INNINGS_MAX: Final = 1000
DEFAULT_STALEMATE_INNINGS: Final = 20
"""R14: innings in a row (both players' innings counted) with no ball pocketed before the
automatic stalemate warning. Twenty is ten fruitless visits each: long enough that an
honest safety battle never trips it, short enough that a match cannot be stalled for long."""


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


class Settings(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The rules a match is played under.

    ``race_to``: games needed to win the match (1–21). ``break_order``: who breaks
    games after the first (R3). ``stalemate_innings``: innings in a row without a
    ball pocketed before the automatic R14 warning (0 turns the automatic warning
    off; the players can still agree to it). ``forfeit``: what a disconnected player
    forfeits after the grace period (O5).
    """

    race_to: int = 5
    break_order: BreakOrder = "winner"
    stalemate_innings: int = DEFAULT_STALEMATE_INNINGS
    forfeit: ForfeitScope = "game"

    def __post_init__(self) -> None:
        if not _is_int(self.race_to) or not 1 <= self.race_to <= RACE_TO_MAX:
            raise RuleError(
                INVALID_SETTINGS, f"race_to must be a whole number from 1 to {RACE_TO_MAX}"
            )
        if self.break_order not in BREAK_ORDERS:
            raise RuleError(
                INVALID_SETTINGS, f"break_order must be one of {', '.join(BREAK_ORDERS)}"
            )
        if not _is_int(self.stalemate_innings) or not (
            0 <= self.stalemate_innings <= STALEMATE_INNINGS_MAX
        ):
            raise RuleError(
                INVALID_SETTINGS,
                f"stalemate_innings must be a whole number from 0 (off) to {STALEMATE_INNINGS_MAX}",
            )
        if self.forfeit not in FORFEIT_SCOPES:
            raise RuleError(INVALID_SETTINGS, "forfeit must be 'game' or 'match'")
