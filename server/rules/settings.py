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
SHOT_CLOCK_MIN: Final = 5
SHOT_CLOCK_MAX: Final = 300
FIRST_SHOT_CLOCK_MAX: Final = 600
EXTENSIONS_MAX: Final = 5
CLOCK_WARNING_MAX: Final = 60
DEFAULT_CLOCK_WARNING: Final = 10
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

    The shot clock (O3), whose time the room measures and the referee apportions:
    ``shot_clock`` seconds a shot (None: no clock); ``first_shot_clock`` seconds for the
    first shot after a break or after a push-out (None: the ``shot_clock``);
    ``extensions`` per player per rack, each adding ``extension_seconds`` (None: the
    ``shot_clock``) once; ``clock_warning`` seconds before the end, everyone at the table
    is told whose time is running out (0: no warning).
    """

    race_to: int = 5
    break_order: BreakOrder = "winner"
    stalemate_innings: int = DEFAULT_STALEMATE_INNINGS
    forfeit: ForfeitScope = "game"
    shot_clock: int | None = None
    first_shot_clock: int | None = None
    extensions: int = 0
    extension_seconds: int | None = None
    clock_warning: int = DEFAULT_CLOCK_WARNING

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
        problem = clock_problem(
            self.shot_clock,
            self.first_shot_clock,
            self.extensions,
            self.extension_seconds,
            self.clock_warning,
        )
        if problem is not None:
            raise RuleError(INVALID_SETTINGS, problem)


def _whole(value: object) -> int | None:
    """``value`` as a whole number, or None if it is anything else (a bool included)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _seconds_problem(name: str, value: object, low: int, high: int) -> str | None:
    whole = _whole(value)
    if value is None or (whole is not None and low <= whole <= high):
        return None
    return f"{name} must be a whole number of seconds from {low} to {high}, or null for none"


def clock_problem(
    shot_clock: object,
    first_shot_clock: object,
    extensions: object,
    extension_seconds: object,
    clock_warning: object,
) -> str | None:
    """What is wrong with a shot clock's settings (O3), or None: shared by the referee's
    settings and the room's, so both refuse the same values in the same words."""
    for name, value, high in (
        ("shot_clock", shot_clock, SHOT_CLOCK_MAX),
        ("first_shot_clock", first_shot_clock, FIRST_SHOT_CLOCK_MAX),
        ("extension_seconds", extension_seconds, SHOT_CLOCK_MAX),
    ):
        problem = _seconds_problem(name, value, SHOT_CLOCK_MIN, high)
        if problem is not None:
            return problem
    count = _whole(extensions)
    if count is None or not 0 <= count <= EXTENSIONS_MAX:
        return f"extensions must be a whole number from 0 to {EXTENSIONS_MAX}"
    warning = _whole(clock_warning)
    if warning is None or not 0 <= warning <= CLOCK_WARNING_MAX:
        return (
            f"clock_warning must be a whole number of seconds from 0 (none) to {CLOCK_WARNING_MAX}"
        )
    base, first = _whole(shot_clock), _whole(first_shot_clock)
    if first is not None:
        if base is None:
            return "first_shot_clock needs a shot_clock"
        if first < base:
            return "first_shot_clock must be at least the shot_clock"
    if extension_seconds is not None and base is None:
        return "extension_seconds needs a shot_clock"
    return None
