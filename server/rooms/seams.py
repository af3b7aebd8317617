"""The roles rooms and their members play for each other, and the commands a room takes.

This module is a leaf: it imports nothing of the server, so the connection edge, the
rooms, the lobby and the cluster relay all meet here without knowing each other.

- A `Member` is whatever a room holds in a seat or in the stands: a browser connection
  on this node (`server.edge.client.Client`), a connection on another node seen through
  the cluster (`server.cluster.remote.RemoteClient`), and a computer player
  (`server.rooms.bots.BotMember`). The room never asks which.
- A `RoomPort` is what a member, the gateway and the lobby see of a room: a room of this
  node (`server.rooms.actor.Room`) or the relay of a room another node owns
  (`server.cluster.proxy.RoomProxy`). Both take the same commands.

Membership is said with two calls, never with an assignment that does something behind
it: the lobby or a relay calls `member.entering(room)` when it hands the member to a room
that will decide, the room `member.bind(room)` when it holds the member, and
`member.unbind(room)` when it lets it go.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

import msgspec

from protocol import errors
from protocol import messages as m


class RoomPort(Protocol):
    """A room as its members, the gateway and the lobby reach it."""

    @property
    def id(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    #: The fencing epoch the room is held at (None: a lone node, nothing to fence).
    @property
    def fence(self) -> int | None: ...

    #: The last room event's sequence number, as this node knows it.
    @property
    def seq(self) -> int: ...

    def post(self, command: Command) -> None:
        """Hand the room a command; it is handled in order by the room's own task."""

    def is_spectator(self, member: Member) -> bool:
        """`member` watches from the stands (a spectator that keeps falling behind is
        closed; a player never is)."""


class Member(Protocol):
    """Someone in a room: how the room reaches them and who they are."""

    @property
    def player(self) -> str | None: ...

    @property
    def name(self) -> str: ...

    @property
    def closed(self) -> bool: ...

    @property
    def room(self) -> RoomPort | None: ...

    def entering(self, room: RoomPort) -> None:
        """The member is handed to `room`, which decides on it (a refusal unbinds)."""

    def bind(self, room: RoomPort) -> None:
        """`room` holds this member now."""

    def unbind(self, room: RoomPort) -> None:
        """`room` is done with this member; nothing happens if it is bound elsewhere."""

    def send(self, data: bytes) -> None:
        """A frame for this member alone (a reply, its own snapshot): never skipped."""

    def send_event(self, data: bytes) -> None:
        """A frame of a broadcast: may be skipped while the member is behind (it gets a
        fresh snapshot once it has caught up)."""

    def send_message(self, message: msgspec.Struct) -> None: ...

    def ok(self, request_id: int) -> None: ...

    def error(self, request_id: int | None, code: str, message: str) -> None: ...

    def close(self, code: int, reason: str) -> None: ...

    def may_chat(self) -> bool:
        """Take one chat message from the member's allowance (False: over the limit)."""


@runtime_checkable
class Relayed(Protocol):
    """A member connected to another node (`server.cluster.remote.RemoteClient`), whose
    replies travel between servers and may be lost on the way when one of them fails."""

    @property
    def origin(self) -> str:
        """Where the member is connected, the same on every node: its node and its
        connection's number there (`node/conn`)."""


@dataclass(frozen=True)
class MatchEnd:
    """A room's match is over, and stored so: `winner` is the winning seat (None: none),
    `score` racks won by seat, `reason` the referee's `match_ended_by` (`race`,
    `concede`, `forfeit`). `match` counts the room's matches (a rematch is the next).
    `reserved`: the players the room's seats are kept for (a tournament's match), if any."""

    room: str
    match: int
    winner: int | None
    score: tuple[int, int]
    reason: str
    reserved: tuple[str, ...] = ()


class MatchEnds(Protocol):
    """Who hears that a room's match ended (tournaments: `server.tournament.service`).
    Called in the room's task once the end is stored: it must not block."""

    def match_ended(self, end: MatchEnd) -> None: ...


def fan_out(members: list[Member], data: bytes) -> None:
    """Send one encoded frame to many members (a broadcast: see `Member.send_event`)."""
    for member in members:
        member.send_event(data)


# --- the commands a room takes ------------------------------------------------------------


@dataclass(frozen=True)
class Enter:
    """Join as a player (a free seat, or the member's own seat back) or a spectator."""

    client: Member
    request_id: int
    role: m.Role


@dataclass(frozen=True)
class Reattach:
    """A player with a seat here came back (hello with their token)."""

    client: Member


@dataclass(frozen=True)
class SeatPair:
    """Quick match: seat both players, both ready."""

    first: tuple[Member, int]
    second: tuple[Member, int]


@dataclass(frozen=True)
class SeatBots:
    """A room with computer players (`server.rooms.bots`): `levels` says, seat by seat, a
    computer's level or None for `person` (who asked, with their request's id); both
    computers: an exhibition to watch. Everyone seated is ready, and the match starts."""

    person: tuple[Member, int] | None
    levels: tuple[int | None, int | None]


@dataclass(frozen=True)
class SeatComputer:
    """A computer player of `level` takes seat `seat` of a room whose seats are kept
    (a tournament's match, `RoomSettings.reserved`), as the player `player` the seat is
    kept for, shown as `name`. It is ready at once; the match starts when the other seat
    is taken and ready too (at once if a computer took it). Taking a seat it already
    holds changes nothing (the tournament may ask again after a restart)."""

    seat: int
    player: str
    name: str
    level: int


@dataclass(frozen=True)
class Walkover:
    """A tournament's match whose player in seat `absent` never came (its no-show time,
    `--tournament-no-show`, is up): the player of the other seat wins it by forfeit, and
    if seated is told so at the table (neither came: the bracket's better seed, the table
    ending with that result); the absent player, if seated since (too late), is told the
    match is lost. The tournament decides the same; a room whose match has begun, or that
    is not a tournament's, changes nothing."""

    absent: int


@dataclass(frozen=True)
class Gone:
    """The member's connection ended."""

    client: Member


@dataclass(frozen=True)
class Request:
    """A request from a member (the gateway decoded and validated it)."""

    client: Member
    message: m.ClientMessage


class Completion(Protocol):
    """Something to resolve once a command is carried out (an `asyncio.Future[None]`)."""

    def done(self) -> bool: ...

    def set_result(self, result: None, /) -> None: ...


@dataclass(frozen=True)
class Shutdown:
    """The process is stopping: save, close every member, then resolve `done`."""

    done: Completion


@dataclass(frozen=True)
class Rejoin:
    """A member of the room comes back after the room moved to this node (its owner died
    or went away): a player to their seat, a spectator to the stands, quietly (no
    `joined`); each gets the room's snapshot."""

    client: Member
    role: m.Role


@dataclass(frozen=True)
class Abandon:
    """Another node owns the room now (this node's lease was lost): stop at once."""


@dataclass(frozen=True)
class Tell:
    """A frame for a member when the room gets to it, after what was posted before: the
    `notice` that the room is back, after the snapshot of the `Rejoin` or `Reattach` that
    brought the member back to a room that moved. Nothing else happens."""

    client: Member
    message: msgspec.Struct


@dataclass(frozen=True)
class Rating:
    """One player's rating as the players service says it now."""

    player: str
    rating: int | None
    provisional: bool


@dataclass(frozen=True)
class Rated:
    """The players service says what players' ratings are now (a player's when they took
    a seat; both players' after each rated rack, told together so that no one sees the
    winner's new rating beside the loser's old one): shown next to their names."""

    ratings: tuple[Rating, ...]


Command = (
    Enter
    | Reattach
    | SeatPair
    | SeatBots
    | SeatComputer
    | Walkover
    | Gone
    | Request
    | Shutdown
    | Rejoin
    | Abandon
    | Tell
    | Rated
)


def answer_closed(room: RoomPort, command: object, closed: str) -> None:
    """A command for a room that has ended, answered as a closed room answers: a shutdown
    is done at once, a `leave` is granted, a join or request is refused (`no_such_room`,
    saying `closed`) and its member let go; anything else needs no answer."""
    if isinstance(command, Shutdown):
        if not command.done.done():
            command.done.set_result(None)
    elif isinstance(command, Request) and isinstance(command.message, m.Leave):
        command.client.unbind(room)
        command.client.ok(command.message.id)
    elif isinstance(command, Enter | Request):
        request_id = command.request_id if isinstance(command, Enter) else command.message.id
        command.client.error(request_id, errors.NO_SUCH_ROOM, closed)
        command.client.unbind(room)
    elif isinstance(command, SeatPair):
        for member, request_id in (command.first, command.second):
            member.error(request_id, errors.NO_SUCH_ROOM, closed)
            member.unbind(room)
