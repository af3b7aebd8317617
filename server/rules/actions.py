"""What a player (or the room, on a player's behalf) can do at the table.

Each action is a small frozen value, tagged with its class name so a room can log
actions as MessagePack and replay a match from the log. The referee validates every
field itself (these structs do not check their fields on construction), so a hand-built
action with nonsense in it is rejected with ``invalid_action`` rather than trusted.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class ShotAction(msgspec.Struct, frozen=True, tag=True):
    """The facts of one shot, as physics reports them once every ball has stopped (G2).

    ``first``: the first object ball the cue ball touched, or ``None``.
    ``rails``: balls (0 = cue ball) that touched a rail after that first contact; with
    ``first=None``, those that touched a rail at all. Repeats are allowed and ignored.
    ``pocketed`` / ``off_table``: balls (0 allowed) that went down / left the table.
    ``push_out``: the shooter declared a push-out before the shot (R6).
    """

    by: str
    first: int | None
    rails: tuple[int, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]
    push_out: bool = False


class Choose(msgspec.Struct, frozen=True, tag=True):
    """After a legal push-out, the incoming player shoots or passes the shot back (R6.4)."""

    by: str
    choice: Literal["shoot", "pass"]


class Concede(msgspec.Struct, frozen=True, tag=True):
    """A player gives up the current game or the whole match (O4)."""

    by: str
    what: Literal["game", "match"]


class ClockExpired(msgspec.Struct, frozen=True, tag=True):
    """The shot clock of the player to act ran out: a foul (O3, R7)."""

    by: str


class Extension(msgspec.Struct, frozen=True, tag=True):
    """The player to act uses one of their shot-clock extensions for this rack (O3)."""

    by: str


class Stalemate(msgspec.Struct, frozen=True, tag=True):
    """One player proposes the R14 stalemate warning; the other accepts it."""

    by: str
    action: Literal["propose", "accept"]


class Forfeit(msgspec.Struct, frozen=True, tag=True):
    """``by`` stayed disconnected past the grace period (O5); the setting says game or match."""

    by: str


class LagResult(msgspec.Struct, frozen=True, tag=True):
    """The lag (or the room's fair draw) is decided (O6): the winner picks the first breaker.

    ``breaker=None`` means the winner breaks.
    """

    winner: str
    breaker: str | None = None


Action = ShotAction | Choose | Concede | ClockExpired | Extension | Stalemate | Forfeit | LagResult
ACTION_TYPES = (
    ShotAction,
    Choose,
    Concede,
    ClockExpired,
    Extension,
    Stalemate,
    Forfeit,
    LagResult,
)
