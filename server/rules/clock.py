"""The shot clock's rules (O3): how long the player to act has, and what an extension adds.

The referee keeps no time. The room measures it and asks here how much the turn is
allowed: ``shot_clock`` seconds a shot, or ``first_shot_clock`` for the first shot after
the break or after a push-out (the professional format gives that shot longer, since the
table has just changed completely), plus what each extension the player used adds. The
extensions themselves are counted in the match state, per player and per rack, by the
:class:`~server.rules.actions.Extension` action.
"""

from __future__ import annotations

import msgspec

from server.rules.settings import Settings
from server.rules.state import FirstAfter, MatchState


class TurnClock(msgspec.Struct, frozen=True):
    """The clock of the turn under way.

    ``seconds``: the turn's time before any extension. ``warning``: seconds before the
    end when everyone is told whose time runs out (0: none). ``extension_seconds``: what
    one extension adds. ``extensions_left``: per player, in the order of ``players``.
    ``first_after``: why the turn has the longer first-shot time, if it has.
    """

    seconds: int
    warning: int
    extension_seconds: int
    extensions_left: tuple[int, int]
    first_after: FirstAfter | None


def extension_seconds(settings: Settings) -> int:
    """Seconds one extension adds (0 when the match has no clock)."""
    if settings.shot_clock is None:
        return 0
    if settings.extension_seconds is None:
        return settings.shot_clock
    return settings.extension_seconds


def extensions_left(state: MatchState) -> tuple[int, int]:
    """Each player's extensions still to use in this rack."""
    allowed = state.settings.extensions
    used = state.extensions_used
    return (max(0, allowed - used[0]), max(0, allowed - used[1]))


def turn_clock(state: MatchState) -> TurnClock | None:
    """The clock of the player to act, or None (no clock, or nobody is to act)."""
    settings = state.settings
    if settings.shot_clock is None or state.turn is None:
        return None
    seconds = settings.shot_clock
    if state.first_after is not None and settings.first_shot_clock is not None:
        seconds = settings.first_shot_clock
    return TurnClock(
        seconds=seconds,
        warning=settings.clock_warning,
        extension_seconds=extension_seconds(settings),
        extensions_left=extensions_left(state),
        first_after=state.first_after,
    )
