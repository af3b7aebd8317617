"""What a seat shows beside the game: its player's name, and the rating next to it.

A seated player's name can change while they play. A guest who makes an account in the
middle of a match (the account takes over the guest's player id, `docs/ACCOUNTS.md`), or
logs in to the account their guest session already is, says `hello` again with the
account's name; the seat comes back to them (`Reattach`, or `Rejoin` when the room has
moved) with the new name on the member. The name changes here, in the room's own step,
and never from outside it: every seat name the room shows — the snapshot, the lobby's
entry, the record a replay and a restored room read — comes from the seat.

The new name is taken unless it could pass for the other seated player's
(`protocol.text.confusable`): a player cannot come back looking like their opponent. In a
tournament's match the seats are kept for its players under their names on the bracket
(`RoomState.kept_names`): nobody sits down, from the door or the stands, or comes back,
under a name like the other player's there (`kept_lookalike`), seated or not yet come — so
the real opponent, who may sit down whatever name is in the other seat (`server.edge.
gateway`), never finds an impostor under their name. A name like one's own kept name is
one's own (a tournament made before lookalikes were refused at registration). The
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

from protocol import errors
from protocol.text import confusable
from server.rooms.model import RoomState, Seat
from server.rooms.seams import Rated
from server.rooms.table import TableError
from server.rooms.working import Working


def own_kept_name(state: RoomState, player: str | None) -> str | None:
    """The name a seat of `state` is kept under for `player` (a tournament's match:
    `RoomState.kept_names`), or None when no seat is kept for them."""
    kept = dict(zip(state.settings.reserved, state.kept_names, strict=False))
    return kept.get(player) if player is not None else None


def kept_lookalike(state: RoomState, player: str | None, name: str) -> str | None:
    """The name a seat of `state` is kept under for another player than `player` that
    `name` could pass for (a tournament's match: `RoomState.kept_names`), or None — also
    when `name` could pass for `player`'s own kept name (`own_kept_name`)."""
    own = own_kept_name(state, player)
    if own is not None and confusable(name, [own]) is not None:
        return None
    kept = zip(state.settings.reserved, state.kept_names, strict=False)
    return confusable(name, [shown for holder, shown in kept if holder != player])


def refuse_kept_lookalike(state: RoomState, player: str | None, name: str) -> None:
    """`name_confusable` for `player` sitting down under `name` (`kept_lookalike`)."""
    like = kept_lookalike(state, player, name)
    if like is not None:
        raise TableError(
            errors.NAME_CONFUSABLE,
            f"your name could pass for {like}'s, whose seat this match keeps; choose another",
        )


def name_back(
    seats: Iterable[Seat | None], player: str | None, name: str, state: RoomState | None = None
) -> str:
    """The name `player`, seated in one of `seats`, plays under on coming back as `name`:
    `name`, unless it could pass for another seated player's, or for another player's kept
    name in `state` (`kept_lookalike`): then the seat's own."""
    seated = [seat for seat in seats if seat is not None]
    mine = next((seat.name for seat in seated if seat.player == player), name)
    others = [seat.name for seat in seated if seat.player != player]
    if not name or confusable(name, others) is not None:
        return mine
    if state is not None and kept_lookalike(state, player, name) is not None:
        return mine
    return name


class Naming(Working):
    """Seat names and ratings (see the module's docstring)."""

    def rename(self, index: int, name: str) -> bool:
        """Seat `index`'s player comes back as `name`: the seat takes it if it may
        (`name_back`). True when the name changed (the room says so to everyone)."""
        seat = self.seats[index]
        assert seat is not None
        taken = name_back(self.seats, seat.player, name, self.state)
        if taken == seat.name:
            return False
        self.seats[index] = replace(seat, name=taken)
        return True

    def rated(self, news: Rated) -> None:
        """Seated players' ratings as the players service says them now: shown to all in
        one snapshot (no game information, so not stored; a restored room asks again)."""
        changed = False
        for told in news.ratings:
            index = self.seat_of_player(told.player)
            seat = self.seats[index] if index is not None else None
            if index is None or seat is None:
                continue
            if (seat.rating, seat.provisional) == (told.rating, told.provisional):
                continue
            self.seats[index] = replace(seat, rating=told.rating, provisional=told.provisional)
            changed = True
        if changed:
            self.broadcast_only(self.snapshot_message(self.seq))
