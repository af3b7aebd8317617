"""Taking an empty seat from the stands (`m.Sit`): the room machine's seat invites.

A room waiting for a player offers its empty seat to whoever watches it; the host's share
link carries the room's seat invite (`Working.invite`, sent to seated players only), so
a friend opening it is offered the seat. Every refusal is raised before anything changed
(`TableError`), in this order: a seated player (`already_seated`), a wrong invite
(`bad_seat_invite`), a private room without its code or an invite (`code_required`), a
match under way (`match_started`), the seat asked for taken (`seat_taken`), no seat free
(`room_full`). A tournament's match keeps each seat for its player
(`RoomSettings.reserved`): anyone else is refused `room_full`, and its player
`seat_taken` for the other one's seat, or `name_confusable` under a name like the other
one's kept name (`server.rooms.naming.kept_lookalike`). The answer is `joined` (role
`player`, the seat, the invite), then the room's snapshot goes to everyone.
"""

from __future__ import annotations

import hmac

from protocol import errors
from protocol import messages as m
from server.rooms.model import Seat, SeatTaken, Waiting
from server.rooms.naming import refuse_kept_lookalike
from server.rooms.seams import Member
from server.rooms.table import TableError
from server.rooms.working import Working


class Seating(Working):
    """The `sit` transition (see the module's docstring)."""

    def sit(self, member: Member, message: m.Sit) -> None:
        if member not in self.spectators or self.seat_of_player(member.player) is not None:
            raise TableError(errors.ALREADY_SEATED, "you already have a seat at this table")
        invite = self.invite
        if message.invite is not None and not hmac.compare_digest(message.invite, invite):
            raise TableError(errors.BAD_SEAT_INVITE, "this seat invite is not this room's")
        code = self.state.code
        if (
            self.state.settings.private
            and message.invite is None
            and (
                code is None or message.code is None or not hmac.compare_digest(message.code, code)
            )
        ):
            raise TableError(errors.CODE_REQUIRED, "a private room's seat needs its code")
        if not isinstance(self.phase, Waiting):
            raise TableError(
                errors.MATCH_STARTED, "the match has begun; watch it, or wait for the next"
            )
        reserved = self.state.settings.reserved
        if reserved:
            # A tournament's match: each player has their own seat, nobody else one.
            if member.player not in reserved:
                raise TableError(errors.ROOM_FULL, "the seats are kept for this match's players")
            index = reserved.index(member.player)
            if message.seat not in (None, index):
                raise TableError(errors.SEAT_TAKEN, "that seat is kept for the other player")
            refuse_kept_lookalike(self.state, member.player, member.name)
        elif message.seat is not None:
            if self.seats[message.seat] is not None:
                raise TableError(errors.SEAT_TAKEN, "that seat is taken")
            index = message.seat
        else:
            free = [i for i, s in enumerate(self.seats) if s is None]
            if not free:
                raise TableError(errors.ROOM_FULL, "both seats are taken")
            index = free[0]
        assert member.player is not None
        self.spectators.remove(member)
        self.seats[index] = Seat(player=member.player, name=member.name, member=member)
        self.note_seated(member.player)
        self.out.append(SeatTaken(member.player))
        joined = m.Joined(
            id=message.id,
            room=self.state.id,
            role="player",
            seat=index,
            code=code,
            invite=invite,
        )
        self.send(member, joined)
        self.crowd_changed()
        self.commit([self.snapshot_event()])
