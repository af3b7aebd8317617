"""What the bot may see: exactly what a player at the table sees, nothing more.

The referee's state is public (scores, whose turn, ball in hand, the push-out window, the
choice after a push-out, both foul counts), and so are the balls' positions — the order
of a fresh rack included, since it lies on the table. The room's seed is not: it would
tell the order of racks still to come, so the view is built from the state and the
balls only, never from the whole :class:`~server.rooms.table.Table`.

The lag (O6) is played before the referee has a breaker, so the room says which part of
it is this player's to do: ``lag="shoot"`` (play the lag stroke) or ``lag="choose"``
(this player won it and chooses who breaks).
"""

from __future__ import annotations

from typing import Literal

import msgspec

from server.rooms.table import Table
from server.rules import MatchState

Point = tuple[float, float]
LagStep = Literal["shoot", "choose"]


class BotView(msgspec.Struct, frozen=True):
    """A player's view of the table: ``me`` (the referee's name for this player), the
    referee's ``state``, and ``balls`` indexed by ball number (0 = cue ball, ``None`` =
    not on the table). Frozen and picklable, so it can be sent to a worker process."""

    me: str
    state: MatchState
    balls: tuple[Point | None, ...]
    lag: LagStep | None = None

    @property
    def seat(self) -> int:
        """This player's position in ``state.players`` (the lag spot's side)."""
        return self.state.index(self.me)

    @property
    def opponent(self) -> str:
        return self.state.opponent(self.me)

    @property
    def my_turn(self) -> bool:
        return self.state.turn == self.me

    @property
    def lowest(self) -> int | None:
        """The ball to hit first (R1/R8)."""
        return self.state.on_table[0] if self.state.on_table else None

    @property
    def my_fouls(self) -> int:
        return self.state.fouls_of(self.me)

    @property
    def opponent_fouls(self) -> int:
        return self.state.fouls_of(self.opponent)

    def layout(self) -> dict[int, Point]:
        """The balls on the table as the physics takes them."""
        return {ball: pos for ball, pos in enumerate(self.balls) if pos is not None}


def view_of(table: Table, me: str, lag: LagStep | None = None) -> BotView:
    """The view of ``me`` at ``table``; ``lag`` says which step of the lag is theirs."""
    return BotView(me=me, state=table.state, balls=table.balls, lag=lag)
