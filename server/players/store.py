"""The `PlayerStore` interface: accounts, ratings, statistics, leaderboards, sign-in
throttles and revoked tokens, kept by SQLite on a lone node and by Redis in a cluster.

Every method is one atomic step of the store: a rack's two rating updates, its
statistics, its place in the leaderboards and the mark that it was counted are written
together or not at all, so two nodes finishing racks at once, or one node repeating a
rack after a failover, never lose or double an update (SQLite: `BEGIN IMMEDIATE`;
Redis: WATCH/MULTI). One contract suite runs against both (tests/players/).

The values here are plain records; the rating arithmetic is `server.players.ratings`,
called by both stores inside their transactions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from server.players.ratings import START, Side, bot_level, bot_rating, rate_rack
from server.players.results import MatchResult, RackRecord

#: Rating points kept per player for the profile's history (newest last).
HISTORY_KEPT = 200
#: Matches kept per player for the profile (newest first).
MATCHES_KEPT = 50
#: How long a counted rack or match is remembered against a repeat (seconds): far longer
#: than a failover or a replay of a room's log can take.
SEEN_FOR = 30 * 86400


class PlayerStoreError(Exception):
    """The store could not do what was asked (unreachable, damaged, refused)."""


class NameTaken(PlayerStoreError):
    """Another account has this name, or one that looks the same."""


class PlayerTaken(PlayerStoreError):
    """This player id has an account already, or had one that was deleted."""


@dataclass(frozen=True, slots=True)
class Account:
    player: str
    name: str
    password_hash: str
    #: Bumped by "log out everywhere": tokens of an older generation are refused.
    generation: int
    created: int


@dataclass(frozen=True, slots=True)
class Stats:
    """A player's rating and what their rated racks add up to."""

    rating: float = START
    racks: int = 0
    won: int = 0
    lost: int = 0
    breaks: int = 0
    break_and_runs: int = 0
    nines_on_break: int = 0
    fouls: int = 0


@dataclass(frozen=True, slots=True)
class RackApplied:
    """What a counted rack did: each player's rating after it (a bot's is unchanged)."""

    winner_rating: float
    loser_rating: float


@dataclass(frozen=True, slots=True)
class LeaderRow:
    player: str
    name: str
    rating: float
    racks: int


@dataclass(frozen=True, slots=True)
class HistoryPoint:
    at: int
    rating: float


@dataclass(frozen=True, slots=True)
class MatchLine:
    """One finished match from one player's side (`opponent` is a player id)."""

    room: str
    match: int
    at: int
    opponent: str
    won: bool | None
    score: tuple[int, int]
    ended_by: str
    rated: bool


@dataclass(frozen=True, slots=True)
class Profile:
    account: Account
    stats: Stats
    history: tuple[HistoryPoint, ...]
    matches: tuple[MatchLine, ...]


@dataclass(frozen=True, slots=True)
class Attempts:
    """Failures counted against one key in its current window, and the seconds left of it."""

    count: int
    retry_after: int


class PlayerStore(Protocol):
    """What the players service needs of its storage (see the module's docstring)."""

    async def create_account(
        self, player: str, name: str, folded: str, skeleton: str, password_hash: str, now: int
    ) -> None:
        """Claim `name` for `player`. `NameTaken` when an account has the same folded name
        or skeleton; `PlayerTaken` when `player` has (or had) an account."""

    async def account(self, player: str) -> Account | None: ...

    async def set_password_hash(self, player: str, password_hash: str) -> bool:
        """Replace the account's password hash (a rehash with new parameters); False: no
        such account."""

    async def account_by_name(self, folded: str) -> Account | None: ...

    async def name_holder(self, folded: str, skeleton: str) -> str | None:
        """The player id of the account whose name folds to `folded` or looks like
        `skeleton` (None: no account does): a guest may not play under it."""

    async def names(self, players: list[str]) -> dict[str, str]:
        """The names of those of `players` that have accounts."""

    async def delete_account(self, player: str) -> bool:
        """Erase the account and everything personal it held: name, password hash,
        ratings, statistics, history, its list of matches. Matches it played stay in
        the other players' lists, its side shown as nobody's. False: no such account."""

    async def new_generation(self, player: str) -> int | None:
        """Invalidate every token of `player` (log out everywhere); the new generation,
        None if there is no account."""

    async def revoke(self, token_id: str, until: int) -> None:
        """Refuse one token from now until `until` (wall-clock seconds, its expiry)."""

    async def token_state(self, player: str, token_id: str) -> int | None:
        """The account's token generation, or None when there is no account or this
        token was revoked."""

    async def fail(self, key: str, window: int) -> Attempts:
        """Count one failed attempt against `key`; its window (seconds) starts with the
        first failure and ends `window` seconds later."""

    async def attempts(self, key: str) -> Attempts: ...

    async def forgive(self, key: str) -> None: ...

    async def apply_rack(self, rack: RackRecord) -> RackApplied | None:
        """Count one rack: both ratings, both players' statistics, the leaderboards, all
        at once. None (and nothing changed) when this rack was counted before or a side is
        neither an account nor a bot."""

    async def record_match(self, match: MatchResult, at: int) -> bool:
        """Add the match to the recent matches of its players with accounts; False when
        it was recorded before."""

    async def stats(self, player: str) -> Stats | None: ...

    async def leaderboard(self, limit: int, month: str | None = None) -> list[LeaderRow]:
        """Established accounts (not provisional) by rating, best first; with `month`
        (`YYYY-MM`), those of them who played a rated rack that month, with that month's
        racks."""

    async def profile(self, player: str) -> Profile | None: ...

    async def close(self) -> None: ...


# --- shared by the implementations ------------------------------------------------------------


def side(stats: Stats | None, player: str) -> Side | None:
    """How the rating sees `player` (None: neither an account nor a bot)."""
    level = bot_level(player)
    if level is not None:
        return Side(bot_rating(level), 0, fixed=True)
    if stats is None:
        return None
    return Side(stats.rating, stats.racks)


def after_rack(rack: RackRecord, player: str, stats: Stats, rating: float) -> Stats:
    """`player`'s statistics once `rack` is counted, with the new rating."""
    won = rack.result.winner == player
    return Stats(
        rating=rating,
        racks=stats.racks + 1,
        won=stats.won + (1 if won else 0),
        lost=stats.lost + (0 if won else 1),
        breaks=stats.breaks + (1 if rack.broke(player) else 0),
        break_and_runs=stats.break_and_runs + (1 if rack.ran_out(player) else 0),
        nines_on_break=stats.nines_on_break + (1 if rack.nine_broke(player) else 0),
        fouls=stats.fouls + rack.fouls_of(player),
    )


def rated_pair(
    rack: RackRecord, winner: Stats | None, loser: Stats | None
) -> tuple[float, float] | None:
    """Both new ratings, or None when a side cannot be rated."""
    result = rack.result
    winner_side, loser_side = side(winner, result.winner), side(loser, result.loser)
    if winner_side is None or loser_side is None:
        return None
    return rate_rack(winner_side, loser_side)


def match_line(match: MatchResult, player: str, at: int) -> MatchLine:
    index = match.players.index(player)
    mine, theirs = match.score[index], match.score[1 - index]
    return MatchLine(
        room=match.room,
        match=match.match,
        at=at,
        opponent=match.players[1 - index],
        won=None if match.winner is None else match.winner == player,
        score=(mine, theirs),
        ended_by=match.ended_by,
        rated=match.rated,
    )
