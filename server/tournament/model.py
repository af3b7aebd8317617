"""A tournament as a pure value: its settings, entrants, matches and where each match's
winner and loser go. Values only; what changes them is `server.tournament.bracket`.

Everything here is a frozen msgspec Struct, so one encoding serves the stores (SQLite,
Redis), the JSON API and the tests alike, and a value read back equals the one saved.

Matches are named by where they stand: `W<round>-<n>` in the winners' bracket (single
elimination has only these), `L<round>-<n>` in the losers' bracket, `GF1` the grand
final and `GF2` its reset (played only when the losers' side wins `GF1`).
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

import msgspec
from msgspec import Meta, Struct

#: Most entrants a tournament takes (a 64-slot bracket).
MAX_PLAYERS: Final = 64
#: Fewest entrants a tournament can start with.
MIN_PLAYERS: Final = 2
#: Computer players' levels (`server/bot/levels.py`).
BOT_LEVELS: Final = (1, 2, 3, 4, 5)
#: Longest race a stage may have (the room's own limit).
MAX_RACE: Final = 21
#: The shot clock a tournament's tables may have, in seconds a shot (the room's own
#: limits, `protocol.fields.RoomSettings.shot_clock`).
MIN_SHOT_CLOCK: Final = 5
MAX_SHOT_CLOCK: Final = 300

Format = Literal["single", "double"]
Seeding = Literal["rating", "random"]
#: How every match's first break is decided (O6): drawn by the table, or lagged for.
FirstBreak = Literal["draw", "lag"]
Status = Literal["registering", "running", "finished", "cancelled"]
Bracket = Literal["winners", "losers", "final"]
MatchStatus = Literal["waiting", "ready", "playing", "done", "void"]
#: How a match was decided: at the table, by a no-show or withdrawal, or by a bye.
Decided = Literal["played", "forfeit", "bye"]
Race = Annotated[int, Meta(ge=1, le=MAX_RACE)]


class TournamentError(ValueError):
    """A change the tournament cannot take (why is in the message); nothing changed."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Races(Struct, frozen=True, forbid_unknown_fields=True):
    """Race lengths per stage: the winners' side, the losers' side, the grand final (and
    its reset). A single elimination plays its final at `final` too."""

    winners: Race = 3
    losers: Race = 3
    final: Race = 5


class Entrant(Struct, frozen=True):
    """One registered player: their player id (what their connection's session names),
    the name shown, their rating when they registered (seeding), and whether a computer
    player fills the place."""

    player: str
    name: str
    rating: float = 1500.0
    bot: bool = False
    #: A computer player's level (1-5; 0: a person).
    level: int = 0
    #: The rating is not yet a measure: an account's still provisional, or a guest's, who
    #: has none and is seeded where a new account starts. Shown with a "?" as elsewhere.
    provisional: bool = False
    #: A guest's place (no account): the rating is only the seed a new account starts at,
    #: and no rated game will move it, which the "?" beside it must say.
    guest: bool = False


class Feed(Struct, frozen=True, array_like=True):
    """Where a slot of a match is filled from: entrant `seed` (first round; a seed above
    the field is a bye), or the winner or loser of match `match`."""

    kind: Literal["seed", "winner", "loser"]
    seed: int = 0
    match: str = ""


class Match(Struct, frozen=True):
    id: str
    bracket: Bracket
    #: The round within its bracket, from 1 (the grand final's reset is round 2).
    round: int
    feeds: tuple[Feed, Feed]
    #: Entrant indices in the slots (None: not known yet, or a bye once `filled`).
    players: tuple[int | None, int | None] = (None, None)
    #: Which slots' feeds have resolved (a resolved slot with no player is a bye).
    filled: tuple[bool, bool] = (False, False)
    status: MatchStatus = "waiting"
    #: The slot that won (0 or 1), once done.
    winner: int | None = None
    decided: Decided | None = None
    #: Racks won in each slot (a forfeit or bye: none).
    score: tuple[int, int] = (0, 0)
    #: The room the match is played in, once made.
    room: str | None = None
    #: When the room was made (epoch ms): a player not seated by the no-show limit forfeits.
    room_at: int | None = None
    #: Which slots' players have sat down at the match's table: in a room made for it
    #: before this one (closed when it emptied, lost with its node), as its record said
    #: when the room was made again. A player who came is no no-show (`bracket.no_shows`),
    #: whichever room of the match they sat in.
    came: tuple[bool, bool] = (False, False)
    #: Which slots' players were not at the table when its no-show time ran out (the
    #: match forfeited by them, `bracket.forfeit`): both, when neither was and the better
    #: seed went on. Neither in a match decided otherwise, nor in one saved before this.
    no_show: tuple[bool, bool] = (False, False)

    @property
    def winner_entrant(self) -> int | None:
        return None if self.winner is None else self.players[self.winner]

    @property
    def loser_entrant(self) -> int | None:
        return None if self.winner is None else self.players[1 - self.winner]


class Tournament(Struct, frozen=True):
    id: str
    name: str
    format: Format
    #: Registration cap: most entrants (2–64).
    cap: int
    races: Races
    seeding: Seeding
    #: The random draw's seed (also breaks rating ties).
    seed: int
    #: When play starts (epoch ms); registration closes then.
    starts_at: int
    #: The player id of whoever made it.
    organiser: str
    #: The organiser lets computer players fill empty places at the start.
    bots: bool = False
    #: The level of every computer player filling a place, 1-5; 0: spread from the
    #: strongest to the weakest (`server.tournament.service.computer_entrants`).
    bot_level: int = 0
    status: Status = "registering"
    #: Before the start: in registration order; from the start: in seed order (seed 1 first).
    entrants: tuple[Entrant, ...] = ()
    matches: tuple[Match, ...] = ()
    #: Why it was cancelled (too few entrants at the start, say).
    note: str = ""
    #: Seconds a shot at every match's table (O3), as a table made in the lobby with that
    #: clock has; None: no shot clock (and a tournament saved before it had this setting).
    shot_clock: int | None = None
    #: The player ids the organiser took off the list before the start: they may not
    #: register again (a removal undone by registering at once was no removal).
    removed: tuple[str, ...] = ()
    #: How each match's first break is decided: drawn (the default, and every tournament
    #: saved before this setting), or lagged for at the table as the WPA's rules have it.
    first_break: FirstBreak = "draw"

    def match(self, match_id: str) -> Match:
        for match in self.matches:
            if match.id == match_id:
                return match
        raise TournamentError("no_such_match", f"no match {match_id!r} in this tournament")

    def entrant_of(self, player: str) -> int | None:
        for index, entrant in enumerate(self.entrants):
            if entrant.player == player:
                return index
        return None


def encode_tournament(tournament: Tournament) -> bytes:
    return msgspec.json.encode(tournament)


def decode_tournament(data: bytes) -> Tournament:
    return msgspec.json.decode(data, type=Tournament)
