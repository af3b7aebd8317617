"""The other nodes, as the lobby needs them: one seam, chosen once at start-up.

A lobby serves this node's clients. Whether other nodes exist is not its business: every
question whose answer may lie on another node (is this invite code taken, where does this
player sit, who else waits for a quick match) and every piece of news other nodes may need
(a room listed, a seat taken, a room starting or closing) goes through `Peers`. The lobby
holds no branch on "am I in a cluster"; `server.app` picks the implementation:

- `LonePeers` (below): there are no other nodes, so each call does the local thing (the
  room list goes straight to this node's subscribers, quick match pairs the players
  waiting here, a room not here does not exist).
- `server.cluster.node.ClusterNode`: the cluster-wide directory, relays to rooms other
  nodes own, leases, the quick-match queue in Redis.

The peers reach back into the lobby only through `LocalRooms`, the lobby's side of the
same seam, so neither edits the other's fields.

This module imports nothing of the server but the room seams (and the room's type, for
annotations), so the lobby and the cluster meet here without knowing each other.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from protocol import errors
from protocol import messages as m
from server.rooms.seams import Command, Member

if TYPE_CHECKING:
    from server.rooms.actor import Room, RoomRecord

log = logging.getLogger(__name__)


@dataclass
class Waiting:
    """A client waiting for a quick match (with the request to answer when paired)."""

    client: Member
    request_id: int
    race_to: int


class LocalRooms(Protocol):
    """This node's lobby, as its peers reach it."""

    def room(self, room_id: str) -> Room | None:
        """The room of this node with that id (None: not here); it may have just closed."""

    def adopt(self, record: RoomRecord, fence: int) -> Room:
        """Run a room another node owned, from its stored record, held at `fence`."""

    async def restore(self) -> int:
        """Bring back the open rooms the store holds; returns how many."""

    def start_pair(
        self, race_to: int, first: tuple[Member, int], second: tuple[Member, int]
    ) -> Room:
        """A room here for two players paired by quick match: seated, ready, started."""

    def queued(self) -> Sequence[Waiting]:
        """Who waits for a quick match on this node, longest first."""

    def take_waiting(self, client: Member) -> bool:
        """Take `client` off this node's quick-match queue (False: it was not on it)."""

    def listing(self) -> list[m.Info]:
        """The entries of this node's own public, open rooms."""

    def listing_changed(self, room_id: str, info: m.Info | None) -> None:
        """An entry of the room list changed (None: it is gone): tell the subscribers."""


class Peers(Protocol):
    """What the lobby needs of the other nodes (see the module's docstring)."""

    def attach(self, lobby: LocalRooms) -> None:
        """The lobby these peers answer to; the lobby calls this once, when it is made."""

    # --- life -------------------------------------------------------------------------

    async def start(self) -> None:
        """Before the first client: join the others, or bring this node's rooms back."""

    @property
    def ready(self) -> bool:
        """The other nodes can be reached (always, when there are none)."""

    async def stop_serving(self) -> None:
        """A graceful stop begins: take nothing more from other nodes."""

    async def hand_off(self) -> None:
        """The rooms have saved: let other nodes take them over now (before this node's
        connections are closed and waited for)."""

    async def stop(self) -> None:
        """After the rooms have saved: hand over what is left and leave."""

    # --- the room list ------------------------------------------------------------------

    def room_listed(self, room_id: str, info: m.Info) -> None:
        """A public room of this node has a new entry in the room list."""

    def room_unlisted(self, room_id: str) -> None:
        """A listed room of this node closed: its entry goes."""

    def listing(self) -> list[m.Info]:
        """The whole room list, as a new subscriber gets it."""

    # --- seats and invite codes ---------------------------------------------------------

    def seat_taken(self, player: str, room_id: str) -> None: ...

    def seat_freed(self, player: str, room_id: str) -> None: ...

    def seat_of(self, player: str) -> str | None:
        """The room `player` sits in on another node (None: nowhere else)."""

    def room_with_code(self, code: str) -> str | None:
        """The room another node holds with this invite code (None: none)."""

    @property
    def seed_scope(self) -> str:
        """What keeps this node's room seeds apart from every other node's under the same
        `--seed` ('' on a lone node, whose racks stay what they always were)."""

    # --- rooms owned elsewhere ----------------------------------------------------------

    def enter(
        self, client: Member, room_id: str, request_id: int, role: m.Role, invited: bool
    ) -> None:
        """`client` asks to join a room that is not on this node: reach it wherever it runs
        (or answer that there is no such room)."""

    def reattach(self, client: Member, player: str) -> str | None:
        """Put a returning player back in a seat on another node; returns the room id
        (None: no seat elsewhere)."""

    # --- quick match ----------------------------------------------------------------------

    def queue(self, waiting: Waiting) -> None:
        """`waiting` was just put on this node's queue: pair it, or answer that it waits."""

    def unqueued(self, waiting: Waiting) -> None:
        """`waiting` left this node's queue without a match (called off, disconnected)."""

    # --- this node's rooms -------------------------------------------------------------

    async def room_starting(self, room: Room) -> None:
        """Before the room's first command: a cluster takes the room's lease here and sets
        `room.fence`; raising closes the room."""

    async def settle(self) -> None:
        """After a room stored a change, before anyone hears of it: what it told the lobby
        meanwhile (seats, say) is known to every node."""

    def room_closed(self, room: Room) -> None:
        """The room closed for good (the lobby has forgotten it)."""

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        """The room lost its lease: its members and unhandled commands go to the new owner."""

    def disconnected(self, client: Member) -> None:
        """A connection of this node ended (after the lobby has let it go)."""


class LonePeers:
    """No other nodes: every question is answered here, and nobody else needs news."""

    def __init__(self) -> None:
        self._lobby: LocalRooms | None = None

    @property
    def lobby(self) -> LocalRooms:
        assert self._lobby is not None, "LonePeers used before a lobby attached it"
        return self._lobby

    def attach(self, lobby: LocalRooms) -> None:
        self._lobby = lobby

    async def start(self) -> None:
        """A lone node's rooms are all its own: those the store holds open run again."""
        restored = await self.lobby.restore()
        if restored:
            log.info("restored %d rooms from the store", restored)

    @property
    def ready(self) -> bool:
        return True

    async def stop_serving(self) -> None:
        return None

    async def hand_off(self) -> None:
        return None

    async def stop(self) -> None:
        return None

    def room_listed(self, room_id: str, info: m.Info) -> None:
        self.lobby.listing_changed(room_id, info)

    def room_unlisted(self, room_id: str) -> None:
        self.lobby.listing_changed(room_id, None)

    def listing(self) -> list[m.Info]:
        return self.lobby.listing()

    def seat_taken(self, player: str, room_id: str) -> None:
        return None

    def seat_freed(self, player: str, room_id: str) -> None:
        return None

    def seat_of(self, player: str) -> str | None:
        return None

    def room_with_code(self, code: str) -> str | None:
        return None

    @property
    def seed_scope(self) -> str:
        return ""

    def enter(
        self, client: Member, room_id: str, request_id: int, role: m.Role, invited: bool
    ) -> None:
        client.error(request_id, errors.NO_SUCH_ROOM, "no such room")

    def reattach(self, client: Member, player: str) -> str | None:
        return None

    def queue(self, waiting: Waiting) -> None:
        """Pair with the longest-waiting other player for the same race, or wait."""
        client = waiting.client
        partner = next(
            (
                other
                for other in self.lobby.queued()
                if other.race_to == waiting.race_to and other.client.player != client.player
            ),
            None,
        )
        if partner is None:
            client.ok(waiting.request_id)
            return
        first = (partner.client, partner.request_id)
        self.lobby.start_pair(waiting.race_to, first, (client, waiting.request_id))

    def unqueued(self, waiting: Waiting) -> None:
        return None

    async def room_starting(self, room: Room) -> None:
        return None

    async def settle(self) -> None:
        return None

    def room_closed(self, room: Room) -> None:
        return None

    def room_abandoned(self, room: Room, leftovers: list[Command]) -> None:
        return None  # no leases on a lone node: a room is never taken from it

    def disconnected(self, client: Member) -> None:
        return None
