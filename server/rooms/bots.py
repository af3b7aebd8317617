"""A computer player as a room member: the values the room machine and its actor pass
about a bot's turn.

A bot sits in a seat like a person. Its `BotMember` stands behind the same `Member` seam
as a browser connection (`server.rooms.seams`): the room never asks which it holds. What
differs is where its moves come from. When the room's state asks a bot seat to act, the
pure machine says so with a `Think` effect (what the bot sees, its level, a seed drawn
from the room's seed and the move); the actor runs the bot's `decide` in the process
pool, waits out the pace a spectator can follow (a stroke shown lined up meanwhile, by
an `Aiming` input), and steps the machine with the `Thought`, an ordinary input. The
machine turns the decision into the same requests a client sends
(`server.rooms.bot_turns`). A thought that comes back to a room that has moved on (the
opponent conceded, the shot clock ran out) is dropped: it answers a question nobody asks
any more.

Nothing of a bot lives outside the room's state: its seat record says it is a computer
and at which level (`SeatRecord.bot`), so a room brought back after a restart, or
adopted by another node, seats the same bot and its next `Think` decides the same.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import msgspec

from server.bot import BotView, Decision
from server.rooms.seams import RoomPort

#: The player id of a computer player: its seat's, in its room (never a person's: those
#: are drawn from a different alphabet with no colon, `server.edge.sessions`).
BOT_PLAYER_PREFIX = "computer:"


def bot_player(seat: int) -> str:
    return f"{BOT_PLAYER_PREFIX}{seat}"


def bot_name(level: int) -> str:
    """The name a computer player is shown by (clients add that it is a computer)."""
    return f"Bot {level}"


class BotMember:
    """A computer player seated in a room: a `server.rooms.seams.Member` that never
    reads what it is sent (it decides from the room's state, through `Think`), never
    chats and never disconnects. Equal by what it is, so the one a restored room seats
    is the same player as before."""

    __slots__ = ("level", "name", "player")

    def __init__(self, player: str, name: str, level: int) -> None:
        self.player: str | None = player
        self.name = name
        self.level = level

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, BotMember)
            and other.player == self.player
            and other.level == self.level
            and other.name == self.name
        )

    def __hash__(self) -> int:
        return hash((self.player, self.level, self.name))

    def __repr__(self) -> str:
        return f"BotMember({self.player!r}, level={self.level})"

    @property
    def closed(self) -> bool:
        return False

    @property
    def room(self) -> RoomPort | None:
        return None

    def entering(self, room: RoomPort) -> None:
        pass

    def bind(self, room: RoomPort) -> None:
        pass

    def unbind(self, room: RoomPort) -> None:
        pass

    def send(self, data: bytes) -> None:
        pass

    def send_event(self, data: bytes) -> None:
        pass

    def send_message(self, message: msgspec.Struct) -> None:
        pass

    def ok(self, request_id: int) -> None:
        pass

    def error(self, request_id: int | None, code: str, message: str) -> None:
        pass

    def close(self, code: int, reason: str) -> None:
        pass

    def may_chat(self) -> bool:
        return False


ThinkKind = Literal["lag", "lag_choice", "table", "rematch"]


@dataclass(frozen=True)
class Think:
    """The bot in `seat` is to act: `decide(view, level, seed)` in the process pool, and
    the answer back as a `Thought` no sooner than `delay` seconds from now (the pace).
    `rematch` needs no search (`view` is None): a bot always plays again.

    Two thinks are the same question when all but `delay` agree; the room asks again
    only when the question changed (`attempt` counts questions asked again after a
    decision that could not be played or did not come)."""

    seat: int
    kind: ThinkKind
    view: BotView | None
    level: int
    seed: int
    attempt: int = 0
    delay: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class Thought:
    """What the bot decided for `think` (None: the decision failed or took too long)."""

    think: Think
    decision: Decision | None


@dataclass(frozen=True)
class Aiming:
    """The bot's stroke for `think`, decided before its pace has run out: its cue is shown
    lined up to whoever watches, as a person's aim is, until `Thought` plays it
    (`server.rooms.bot_turns.BotSteps.bot_aiming`). A still table for the whole pause,
    then a shot out of nowhere, was what spectators saw of a computer."""

    think: Think
    decision: Decision


@dataclass(frozen=True)
class BotWake:
    """A timer for a room brought back with a bot seated: its first step asks the bot
    (and runs a bot's paused shot clock again)."""
