"""The views the server's messages share: a lobby entry, a seat, the shot clock, the table,
a shot's input and report, a verdict. `protocol.messages` re-exports them.
"""

from __future__ import annotations

from typing import Literal

import msgspec
from msgspec import Struct

from protocol.fields import (
    Ball,
    BallPosition,
    EpochMs,
    GameEndReason,
    MatchEndReason,
    RoomSettings,
    Seat,
)

# --- views shared by server messages ------------------------------------------------


class Info(Struct, frozen=True):
    """A room as the lobby lists it."""

    room: str
    name: str
    players: list[str]
    spectators: int
    score: list[int]
    race_to: int
    status: Literal["waiting", "lag", "playing", "finished"]
    #: The rack in play (1-based); 0 before the first break is decided.
    rack: int = 0
    #: Object balls still on the table in that rack (9 before the break); what a viewer
    #: choosing a table to watch reads as "near its end".
    balls_left: int = 9
    #: The room's whole format (race, break order, shot clock, aim aid), for the lobby.
    settings: RoomSettings | None = None
    #: The players' ratings, in the order of `players` (None: a guest, no rating).
    ratings: list[int | None] = msgspec.field(default_factory=list)
    #: Racks played here move ratings (`RoomSettings.rated`).
    rated: bool = False
    #: Beside `players`, one entry each: the level of a computer player, `None` for a
    #: person. Two computers: an exhibition (a bot table) to watch.
    computer: list[int | None] = msgspec.field(default_factory=list)
    #: Beside `ratings`: whether each is still provisional (fewer than 30 rated games),
    #: shown as the table shows it ("500?"). Empty from older servers: none provisional.
    provisional: list[bool] = msgspec.field(default_factory=list)
    #: Once the match is over (`status` "finished"): the winner's and the loser's names as
    #: they sat when it ended (a player who has left since is still named; None: a seat
    #: nobody sat in, a walkover's), and how it ended. None before, and from older servers.
    winner: str | None = None
    loser: str | None = None
    ended_by: MatchEndReason | None = None
    #: The seat the winner sat in, which orders the score (a conceded match's winner may
    #: have fewer games): the names of players who have left go beside their games.
    #: None before the end, and from older servers.
    winner_seat: Seat | None = None
    #: Beside `players`: whether each has lost their connection (their seat kept through
    #: the grace period, O5); a computer never is. A channel choosing a table to show
    #: passes over one whose players are gone. Empty from older servers: none away.
    away: list[bool] = msgspec.field(default_factory=list)


class SeatView(Struct, frozen=True):
    seat: Seat
    player: str
    name: str
    connected: bool
    ready: bool
    #: While disconnected: when the grace period (O5) ends.
    grace_until: EpochMs | None = None
    #: The player's rating (None: a guest, or not known yet); `provisional` until 30
    #: rated racks (docs/RATINGS.md).
    rating: int | None = None
    provisional: bool = False
    #: A computer player's level (1–5); `None`: a person. A client shows which it is.
    computer: int | None = None


class ClockView(Struct, frozen=True):
    """The shot clock (O3) of the player to shoot."""

    #: The turn's time before extensions: `shot_clock`, or `first_shot_clock` on the first
    #: shot after the break or a push-out.
    seconds: int
    #: When the shot must be struck; None while paused (shooter disconnected, shot playing).
    deadline: EpochMs | None
    paused: bool
    #: Extensions left in this rack, per seat.
    extensions: list[int]
    #: Seconds before the end when everyone is warned (0: no warning).
    warning: int = 10
    #: Seconds one extension adds.
    extension: int = 0
    #: The turn is the first after the break or a push-out (`first_shot_clock`).
    first_after: Literal["break", "push_out"] | None = None
    #: While paused for a shooter who is away: the seconds they have left, kept for their
    #: return (None otherwise: running, or paused while a shot plays out).
    left: float | None = None


class TableView(Struct, frozen=True):
    """The referee's state and the balls: everything needed to draw and to act."""

    rack: int
    breaker: Seat
    #: The seat to act (shoot, place, choose), None once the match is over.
    turn: Seat | None
    ball_in_hand: Literal["table", "kitchen"] | None
    push_out_allowed: bool
    choice_pending: bool
    #: Index = ball number; None = pocketed or off the table.
    balls: list[BallPosition | None]
    lowest: Ball | None
    score: list[int]
    #: Consecutive fouls per seat (R13).
    fouls: list[int]
    #: Seats on two consecutive fouls who have been warned (R13).
    warned: list[Seat]
    stalemate_warning: bool
    stalemate_proposed_by: Seat | None
    match_over: bool
    match_winner: Seat | None
    clock: ClockView | None
    #: A stalemate may be proposed now (R14: three innings in a row without a ball
    #: pocketed, no warning in force, no proposal standing).
    stalemate_open: bool = False


class ShotInput(Struct, frozen=True):
    angle: float
    speed: float
    tip: tuple[float, float]
    elevation: float
    push_out: bool


class ShotReport(Struct, frozen=True):
    """The physics facts the referee judged (see the referee's shot report)."""

    first: Ball | None
    rails: list[Ball]
    pocketed: list[Ball]
    off_table: list[Ball]


Reason = tuple[str, str]


class VerdictView(Struct, frozen=True):
    """What the referee decided and why.

    `fouls` are rule ids such as `R8`, `G1`, `O3` (several on one shot are still one foul,
    R7). `reasons` gives one `[rule_id, sentence]` per foul, `notes` the other things the
    action set in motion (the 9 spotted, a warning, a game won, a re-rack), worded so a
    client can show "Foul: <sentence> (<rule_id>)".
    """

    foul: bool
    fouls: list[str]
    reasons: list[Reason]
    notes: list[Reason]
    spotted: list[Ball]
    game_over: bool
    game_winner: Seat | None
    #: How the game ended (`GameEndReason`).
    game_end: GameEndReason | None
    match_over: bool
    match_winner: Seat | None
    new_rack: bool
    #: The seat given the R13 warning by this action.
    warned: Seat | None
    #: The game was re-racked by R14.
    stalemate: bool
    #: This action brought the R14 stalemate warning into force.
    stalemate_warning_given: bool
    #: One code per entry of `reasons` and of `notes`, in order (`protocol.verdicts`):
    #: what a client words in its reader's language instead of the English sentence.
    reason_codes: list[str] = msgspec.field(default_factory=list)
    note_codes: list[str] = msgspec.field(default_factory=list)
