"""What the bracket page shows of a match being played: whether its players have sat
down, whether play has begun, the racks won so far, and until play begins when a player
who has not come forfeits.

A match's room lives on whichever node runs it; its record (`server.rooms.model`),
written after every change, is what any node can read. The tournament itself learns
only the result, so without this a bracket could not tell a table waiting for its
players from a match half played.
"""

from __future__ import annotations

import msgspec

from server.rooms.model import RoomRecord
from server.tournament.model import Match, Tournament


class LiveMatch(msgspec.Struct, frozen=True):
    """A match's room as the bracket shows it, by the match's slots (seat = slot)."""

    #: Whether each slot's player holds their seat.
    seated: tuple[bool, bool]
    #: Play has begun (the lag or a rack), so no one forfeits by not coming.
    started: bool
    #: Racks won so far in each slot.
    score: tuple[int, int]
    #: Until play begins, when a player who has not come forfeits (epoch ms), so the
    #: table can count it down for those waiting; None once play has begun.
    forfeit_at: int | None = None


#: A match's room not written yet: no one has sat down in it.
NOBODY_YET = LiveMatch(seated=(False, False), started=False, score=(0, 0))


def live_match(tournament: Tournament, match: Match, record: RoomRecord) -> LiveMatch:
    """The state of `match` read from its room's `record`."""
    seated = []
    for slot, entrant in enumerate(match.players):
        seat = record.seats[slot] if slot < len(record.seats) else None
        seated.append(
            entrant is not None
            and seat is not None
            and seat.player == tournament.entrants[entrant].player
        )
    score = (0, 0)
    if record.table is not None:
        score = (record.table.state.score[0], record.table.state.score[1])
    return LiveMatch(
        seated=(seated[0], seated[1]),
        started=record.status != "waiting",
        score=score,
    )
