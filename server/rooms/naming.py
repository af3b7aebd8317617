"""What a seat shows beside the game: its player's name, and the rating next to it.

A seated player's name can change while they play. A guest who makes an account in the
middle of a match (the account takes over the guest's player id, `docs/ACCOUNTS.md`), or
logs in to the account their guest session already is, says `hello` again with the
account's name; the seat comes back to them (`Reattach`, or `Rejoin` when the room has
moved) with the new name on the member. The name changes here, in the room's own step,
and never from outside it: every seat name the room shows — the snapshot, the lobby's
entry, the record a replay and a restored room read — comes from the seat.

The new name is taken unless it could pass for the other seated player's
(`protocol.text.confusable`): a player cannot come back looking like their opponent. The
gateway asks the same (`name_back`) to say in the `welcome` the name the player will have;
this check is the one that holds, also when the player comes back through another node of
a cluster, whose gateway does not see the room.

A changed name reaches everyone at once as a stored snapshot: the opponent's and the
spectators' tables name the player anew, the log keeps the change, so a replay names each
player as they were named at each point of the match, and the lobby's entry follows the
stored change. Only the name changes: whether the room is rated, who sits where, the
score, the ratings are the room's as before.

A seated player's rating is the players service's to say (`Rated`): shown next to the
name, sent without being stored (no game information; a restored room asks again).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from protocol.text import confusable
from server.rooms.model import Seat
from server.rooms.seams import Rated
from server.rooms.working import Working


def name_back(seats: Iterable[Seat | None], player: str | None, name: str) -> str:
    """The name `player`, seated in one of `seats`, plays under on coming back as `name`:
    `name`, unless it could pass for another seated player's (then the seat's own)."""
    seated = [seat for seat in seats if seat is not None]
    mine = next((seat.name for seat in seated if seat.player == player), name)
    others = [seat.name for seat in seated if seat.player != player]
    return mine if not name or confusable(name, others) is not None else name


class Naming(Working):
    """Seat names and ratings (see the module's docstring)."""

    def rename(self, index: int, name: str) -> bool:
        """Seat `index`'s player comes back as `name`: the seat takes it if it may
        (`name_back`). True when the name changed (the room says so to everyone)."""
        seat = self.seats[index]
        assert seat is not None
        taken = name_back(self.seats, seat.player, name)
        if taken == seat.name:
            return False
        self.seats[index] = replace(seat, name=taken)
        return True

    def rated(self, news: Rated) -> None:
        """A seated player's rating as the players service says it now: shown to all (no
        game information, so not stored; a restored room asks again)."""
        index = self.seat_of_player(news.player)
        seat = self.seats[index] if index is not None else None
        if index is None or seat is None:
            return
        if (seat.rating, seat.provisional) == (news.rating, news.provisional):
            return
        self.seats[index] = replace(seat, rating=news.rating, provisional=news.provisional)
        self.broadcast_only(self.snapshot_message(self.seq))
