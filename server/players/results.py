"""What a room reports when a rack or a match ends, and which racks count. Pure values.

A room (server/rooms) builds a `RackResult` when the referee's verdict says a game is
over, and a `MatchResult` when the match is; `server.players.service.Players` takes them.
Both are keyed by where they happened — (room, match, rack) and (room, match) — so a
report repeated after a failover, or replayed from a room's log, changes nothing the
second time.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Final, Literal

from server.players.ratings import bot_level

#: How a rack ended (the referee's `GameEnd`; `concede` also for the rack under way when
#: a match is conceded): which of them count is `RATED_ENDS`.
RackEnd = Literal["nine", "three_fouls", "concede", "forfeit", "stalemate"]
#: How a match ended (the referee's `MatchEnd`).
MatchEnd = Literal["race", "concede", "forfeit"]
#: What only a room's own ids for computers hold (`computer:<seat>`): never a person's
#: id, an account's (`p_…`) nor a rated computer's (`bot_<level>`).
BOT_SEAT_MARK: Final = ":"
#: Rack endings that move ratings: the 9 made, the opponent's third foul in a row, and a
#: game conceded — on its own, or with the match while the rack was under way (a
#: deliberate loss: were it not counted, a player about to lose a rack could concede it
#: and never lose a point). A rack forfeited (the player gone past the grace period, which
#: a dropped network can cause) or stalemated does not count.
RATED_ENDS: Final = frozenset({"nine", "three_fouls", "concede"})


@dataclass(frozen=True, slots=True)
class RackResult:
    """One finished rack, as the room saw it.

    `room`, `match` (the room's match counter: a rematch is the next one) and `rack` (the
    referee's 1-based rack number) identify it. `winner` and `loser` are player ids (a
    bot's is `ratings.bot_player_id(level)`). `rated` is the room's setting. `breaker`
    broke the rack; `break_and_run`: the breaker won it without the opponent coming to
    the table; `nine_on_break`: the 9 fell on the break (a win on the break).
    `fouls`: fouls each player committed in the rack (absent: none). `ended_by`: the
    verdict's `game_end`. `at`: when, in wall-clock milliseconds (None: when it is
    recorded) — its UTC month is the monthly leaderboard it counts in.
    """

    room: str
    match: int
    rack: int
    winner: str
    loser: str
    rated: bool
    breaker: str
    break_and_run: bool = False
    nine_on_break: bool = False
    fouls: Mapping[str, int] = field(default_factory=dict)
    ended_by: RackEnd = "nine"
    at: int | None = None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """One finished match: its players (seat order), the winner, the score in racks (seat
    order), how it ended, and whether the room was rated. Recorded for each player with
    an account (their recent matches, with a link to the replay)."""

    room: str
    match: int
    players: tuple[str, str]
    winner: str | None
    score: tuple[int, int]
    ended_by: MatchEnd
    rated: bool
    at: int | None = None


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A rating as shown next to a name (rounded), and whether it is still provisional."""

    rating: int
    provisional: bool


def rack_refusal(result: RackResult) -> str | None:
    """Why this rack cannot move ratings whoever played it, or None if it can (the store
    still checks that each player is an account or a bot)."""
    if not result.rated:
        return "unrated room"
    if result.ended_by not in RATED_ENDS:
        return f"rack ended by {result.ended_by}"
    if result.winner == result.loser:
        return "one player on both sides"
    if any(BOT_SEAT_MARK in player for player in (result.winner, result.loser)):
        # A computer named by its seat (`computer:<seat>`) says nothing of its level, so
        # nothing of its rating: rooms report computers as `bot_<level>`.
        return "a computer without its level"
    if bot_level(result.winner) is not None and bot_level(result.loser) is not None:
        return "bots against each other"
    if result.breaker not in (result.winner, result.loser):
        return "the breaker did not play the rack"
    if any(count < 0 for count in result.fouls.values()):
        return "negative foul count"
    return None


def month_of(at_ms: int) -> str:
    """The UTC month `at_ms` falls in, as `YYYY-MM` (the monthly leaderboards' key)."""
    return datetime.fromtimestamp(at_ms / 1000, tz=UTC).strftime("%Y-%m")


@dataclass(frozen=True, slots=True)
class RackRecord:
    """A rack as the store applies it: the result and the moment, settled."""

    result: RackResult
    at: int

    @property
    def key(self) -> str:
        r = self.result
        return f"{r.room}\x1f{r.match}\x1f{r.rack}"

    @property
    def month(self) -> str:
        return month_of(self.at)

    def fouls_of(self, player: str) -> int:
        return int(self.result.fouls.get(player, 0))

    def broke(self, player: str) -> bool:
        return self.result.breaker == player

    def ran_out(self, player: str) -> bool:
        r = self.result
        return r.break_and_run and r.breaker == player and r.winner == player

    def nine_broke(self, player: str) -> bool:
        r = self.result
        return r.nine_on_break and r.breaker == player
