"""Players on a lone node: one SQLite file beside the rooms' (`var/players.db`).

As with the room store, the connection lives on one worker thread of its own and every
call queues there, so nothing blocks the event loop (`server.store.threaded_sqlite`).
Every change is one `BEGIN IMMEDIATE` transaction: it takes the file's write lock before
it reads, so a rack's read-rate-write cannot interleave with another's — not on this
thread, and not in another process on the same file (which waits up to `BUSY_TIMEOUT`
for the lock).

The schema carries its version in a table of its own (`schema_version`). Opening a file
of an older version brings it up to date in one transaction, step by step
(`MIGRATIONS`); a newer or unknown file is refused.
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from server.players.ratings import PROVISIONAL_RACKS, START
from server.players.results import MatchResult, RackRecord
from server.players.store import (
    HISTORY_KEPT,
    MATCHES_KEPT,
    SEEN_FOR,
    Account,
    Attempts,
    HistoryPoint,
    LeaderRow,
    MatchLine,
    NameTaken,
    PlayerStoreError,
    PlayerTaken,
    Profile,
    RackApplied,
    Stats,
    after_rack,
    match_line,
    rated_pair,
)
from server.store.threaded_sqlite import ThreadedSqlite

#: Each version's statements, applied in order to reach it from the one before.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE schema_version (version INTEGER NOT NULL)",
        "INSERT INTO schema_version (version) VALUES (0)",
        # Claimed names: `folded` and `skeleton` (server.players.names) are each unique.
        "CREATE TABLE accounts (player TEXT PRIMARY KEY, name TEXT NOT NULL,"
        " folded TEXT NOT NULL UNIQUE, skeleton TEXT NOT NULL UNIQUE, hash TEXT NOT NULL,"
        " generation INTEGER NOT NULL DEFAULT 0, created INTEGER NOT NULL)",
        # Player ids whose account was deleted: never claimed again.
        "CREATE TABLE deleted (player TEXT PRIMARY KEY) WITHOUT ROWID",
        "CREATE TABLE ratings (player TEXT PRIMARY KEY, rating REAL NOT NULL,"
        " racks INTEGER NOT NULL DEFAULT 0, won INTEGER NOT NULL DEFAULT 0,"
        " lost INTEGER NOT NULL DEFAULT 0, breaks INTEGER NOT NULL DEFAULT 0,"
        " break_and_runs INTEGER NOT NULL DEFAULT 0, nines_on_break INTEGER NOT NULL DEFAULT 0,"
        " fouls INTEGER NOT NULL DEFAULT 0, history_n INTEGER NOT NULL DEFAULT 0)",
        # The leaderboard reads this index alone: established players, best first.
        f"CREATE INDEX ratings_board ON ratings (rating DESC) WHERE racks >= {PROVISIONAL_RACKS}",
        "CREATE TABLE history (player TEXT NOT NULL, n INTEGER NOT NULL, at INTEGER NOT NULL,"
        " rating REAL NOT NULL, PRIMARY KEY (player, n)) WITHOUT ROWID",
        # Racks and matches counted, against repeats; `at` (ms) for pruning.
        "CREATE TABLE seen (key TEXT PRIMARY KEY, at INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE INDEX seen_by_age ON seen (at)",
        "CREATE TABLE matches (player TEXT NOT NULL, at INTEGER NOT NULL, room TEXT NOT NULL,"
        " match INTEGER NOT NULL, opponent TEXT, won INTEGER, mine INTEGER NOT NULL,"
        " theirs INTEGER NOT NULL, ended_by TEXT NOT NULL, rated INTEGER NOT NULL,"
        " PRIMARY KEY (player, at, room, match)) WITHOUT ROWID",
        "CREATE INDEX matches_by_opponent ON matches (opponent)",
        "CREATE TABLE revoked (token TEXT PRIMARY KEY, until INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE TABLE failures (key TEXT PRIMARY KEY, count INTEGER NOT NULL,"
        " until INTEGER NOT NULL) WITHOUT ROWID",
    ),
    2: (
        # Monthly leaderboards: each player's rating at their last rated rack of the month,
        # their racks that month, and whether they were established by then.
        "CREATE TABLE monthly (month TEXT NOT NULL, player TEXT NOT NULL,"
        " rating REAL NOT NULL, racks INTEGER NOT NULL, established INTEGER NOT NULL,"
        " PRIMARY KEY (month, player)) WITHOUT ROWID",
        "CREATE INDEX monthly_board ON monthly (month, rating DESC) WHERE established = 1",
        "CREATE INDEX monthly_by_player ON monthly (player)",
    ),
}
SCHEMA_VERSION = max(MIGRATIONS)
#: How often, in counted racks, rows of `seen`, `revoked` and `failures` past their time
#: are deleted (a bounded amount of work each time).
_PRUNE_EVERY = 1000


class SqlitePlayerStore(ThreadedSqlite):
    """Players in one SQLite file (or in memory, for an in-process server)."""

    def __init__(self, path: str | Path, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._counted = 0
        super().__init__(path, what="players", error=PlayerStoreError, prepare=_prepare)

    def _seconds(self) -> int:
        return int(self._clock())

    # --- accounts ----------------------------------------------------------------------------

    async def create_account(
        self, player: str, name: str, folded: str, skeleton: str, password_hash: str, now: int
    ) -> None:
        def create(db: sqlite3.Connection) -> None:
            taken = db.execute(
                "SELECT 1 FROM accounts WHERE folded = ? OR skeleton = ?", (folded, skeleton)
            ).fetchone()
            if taken is not None:
                raise NameTaken(name)
            had = db.execute(
                "SELECT 1 FROM accounts WHERE player = ? UNION ALL"
                " SELECT 1 FROM deleted WHERE player = ?",
                (player, player),
            ).fetchone()
            if had is not None:
                raise PlayerTaken(player)
            db.execute(
                "INSERT INTO accounts (player, name, folded, skeleton, hash, generation, created)"
                " VALUES (?, ?, ?, ?, ?, 0, ?)",
                (player, name, folded, skeleton, password_hash, now),
            )
            db.execute("INSERT INTO ratings (player, rating) VALUES (?, ?)", (player, START))

        await self._write(create)

    async def set_password_hash(self, player: str, password_hash: str) -> bool:
        changed = await self._write(
            lambda db: (
                db.execute(
                    "UPDATE accounts SET hash = ? WHERE player = ?", (password_hash, player)
                ).rowcount
            )
        )
        return bool(changed)

    async def account(self, player: str) -> Account | None:
        return await self._call(lambda db: _account(db, "player", player))

    async def account_by_name(self, folded: str) -> Account | None:
        return await self._call(lambda db: _account(db, "folded", folded))

    async def name_holder(self, folded: str, skeleton: str) -> str | None:
        def read(db: sqlite3.Connection) -> str | None:
            row = db.execute(
                "SELECT player FROM accounts WHERE folded = ? OR skeleton = ? LIMIT 1",
                (folded, skeleton),
            ).fetchone()
            return None if row is None else str(row[0])

        return await self._call(read)

    async def names(self, players: list[str]) -> dict[str, str]:
        if not players:
            return {}

        def read(db: sqlite3.Connection) -> dict[str, str]:
            marks = ",".join("?" * len(players))
            rows = db.execute(
                f"SELECT player, name FROM accounts WHERE player IN ({marks})", players
            ).fetchall()
            return {str(player): str(name) for player, name in rows}

        return await self._call(read)

    async def delete_account(self, player: str) -> bool:
        def erase(db: sqlite3.Connection) -> bool:
            gone = db.execute("DELETE FROM accounts WHERE player = ?", (player,)).rowcount
            if not gone:
                return False
            for table in ("ratings", "history", "matches", "monthly"):
                db.execute(f"DELETE FROM {table} WHERE player = ?", (player,))
            db.execute("UPDATE matches SET opponent = NULL WHERE opponent = ?", (player,))
            db.execute("INSERT OR IGNORE INTO deleted (player) VALUES (?)", (player,))
            return True

        return await self._write(erase)

    async def new_generation(self, player: str) -> int | None:
        def bump(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                "UPDATE accounts SET generation = generation + 1 WHERE player = ?"
                " RETURNING generation",
                (player,),
            ).fetchone()
            return None if row is None else int(row[0])

        return await self._write(bump)

    async def revoke(self, token_id: str, until: int) -> None:
        await self._write(
            lambda db: db.execute(
                "INSERT OR REPLACE INTO revoked (token, until) VALUES (?, ?)", (token_id, until)
            )
        )

    async def token_state(self, player: str, token_id: str) -> int | None:
        def read(db: sqlite3.Connection) -> int | None:
            row = db.execute(
                "SELECT generation, (SELECT count(*) FROM revoked WHERE token = ?)"
                " FROM accounts WHERE player = ?",
                (token_id, player),
            ).fetchone()
            if row is None or row[1]:
                return None
            return int(row[0])

        return await self._call(read)

    # --- sign-in throttles ---------------------------------------------------------------------

    async def fail(self, key: str, window: int) -> Attempts:
        now = self._seconds()

        def count(db: sqlite3.Connection) -> Attempts:
            row = db.execute("SELECT count, until FROM failures WHERE key = ?", (key,)).fetchone()
            if row is not None and row[1] > now:
                failures, until = int(row[0]) + 1, int(row[1])
            else:
                failures, until = 1, now + window
            db.execute(
                "INSERT OR REPLACE INTO failures (key, count, until) VALUES (?, ?, ?)",
                (key, failures, until),
            )
            return Attempts(failures, until - now)

        return await self._write(count)

    async def attempts(self, key: str) -> Attempts:
        now = self._seconds()
        row = await self._call(
            lambda db: db.execute(
                "SELECT count, until FROM failures WHERE key = ?", (key,)
            ).fetchone()
        )
        if row is None or row[1] <= now:
            return Attempts(0, 0)
        return Attempts(int(row[0]), int(row[1]) - now)

    async def forgive(self, key: str) -> None:
        await self._write(lambda db: db.execute("DELETE FROM failures WHERE key = ?", (key,)))

    # --- racks and matches --------------------------------------------------------------------

    async def apply_rack(self, rack: RackRecord) -> RackApplied | None:
        result = rack.result

        def apply(db: sqlite3.Connection) -> RackApplied | None:
            if db.execute("SELECT 1 FROM seen WHERE key = ?", ("r" + rack.key,)).fetchone():
                return None
            winner, loser = _stats(db, result.winner), _stats(db, result.loser)
            pair = rated_pair(rack, winner, loser)
            if pair is None:
                return None
            db.execute("INSERT INTO seen (key, at) VALUES (?, ?)", ("r" + rack.key, rack.at))
            for player, stats, rating in (
                (result.winner, winner, pair[0]),
                (result.loser, loser, pair[1]),
            ):
                if stats is not None:
                    _count(db, rack, player, after_rack(rack, player, stats, rating))
            return RackApplied(*pair)

        applied = await self._write(apply)
        if applied is not None:
            self._counted += 1
            if self._counted % _PRUNE_EVERY == 0:
                await self.prune()
        return applied

    async def record_match(self, match: MatchResult, at: int) -> bool:
        key = f"m{match.room}\x1f{match.match}"

        def record(db: sqlite3.Connection) -> bool:
            if db.execute("SELECT 1 FROM seen WHERE key = ?", (key,)).fetchone():
                return False
            db.execute("INSERT INTO seen (key, at) VALUES (?, ?)", (key, at))
            for player in match.players:
                if _account(db, "player", player) is None:
                    continue
                line = match_line(match, player, at)
                db.execute(
                    "INSERT OR REPLACE INTO matches (player, at, room, match, opponent, won,"
                    " mine, theirs, ended_by, rated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        player,
                        at,
                        line.room,
                        line.match,
                        line.opponent,
                        None if line.won is None else int(line.won),
                        line.score[0],
                        line.score[1],
                        line.ended_by,
                        int(line.rated),
                    ),
                )
                db.execute(
                    "DELETE FROM matches WHERE player = ? AND at < (SELECT at FROM matches"
                    " WHERE player = ? ORDER BY at DESC LIMIT 1 OFFSET ?)",
                    (player, player, MATCHES_KEPT - 1),
                )
            return True

        return await self._write(record)

    async def prune(self) -> None:
        """Forget counted racks and matches older than `SEEN_FOR`, revocations of tokens
        that have expired, and throttles whose window is over."""
        now = self._seconds()

        def prune(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM seen WHERE at < ?", ((now - SEEN_FOR) * 1000,))
            db.execute("DELETE FROM revoked WHERE until <= ?", (now,))
            db.execute("DELETE FROM failures WHERE until <= ?", (now,))

        await self._write(prune)

    # --- reading ---------------------------------------------------------------------------------

    async def stats(self, player: str) -> Stats | None:
        return await self._call(lambda db: _stats(db, player))

    async def leaderboard(self, limit: int, month: str | None = None) -> list[LeaderRow]:
        def read(db: sqlite3.Connection) -> list[LeaderRow]:
            if month is None:
                rows = db.execute(
                    "SELECT r.player, a.name, r.rating, r.racks FROM ratings AS r"
                    " INDEXED BY ratings_board JOIN accounts AS a ON a.player = r.player"
                    f" WHERE r.racks >= {PROVISIONAL_RACKS} ORDER BY r.rating DESC LIMIT ?",
                    (limit,),
                ).fetchall()
            else:
                rows = db.execute(
                    "SELECT m.player, a.name, m.rating, m.racks FROM monthly AS m"
                    " INDEXED BY monthly_board JOIN accounts AS a ON a.player = m.player"
                    " WHERE m.month = ? AND m.established = 1 ORDER BY m.rating DESC LIMIT ?",
                    (month, limit),
                ).fetchall()
            return [LeaderRow(str(p), str(n), float(r), int(k)) for p, n, r, k in rows]

        return await self._call(read)

    async def profile(self, player: str) -> Profile | None:
        def read(db: sqlite3.Connection) -> Profile | None:
            account = _account(db, "player", player)
            if account is None:
                return None
            history = db.execute(
                "SELECT at, rating FROM history WHERE player = ? ORDER BY n", (player,)
            ).fetchall()
            matches = db.execute(
                "SELECT room, match, at, opponent, won, mine, theirs, ended_by, rated"
                " FROM matches WHERE player = ? ORDER BY at DESC LIMIT ?",
                (player, MATCHES_KEPT),
            ).fetchall()
            return Profile(
                account=account,
                stats=_stats(db, player) or Stats(),
                history=tuple(HistoryPoint(int(at), float(r)) for at, r in history),
                matches=tuple(
                    MatchLine(
                        room=str(room),
                        match=int(number),
                        at=int(at),
                        opponent="" if opponent is None else str(opponent),
                        won=None if won is None else bool(won),
                        score=(int(mine), int(theirs)),
                        ended_by=str(ended_by),
                        rated=bool(rated),
                    )
                    for room, number, at, opponent, won, mine, theirs, ended_by, rated in matches
                ),
            )

        return await self._call(read)


# --- helpers on the worker thread ----------------------------------------------------------------


def _prepare(db: sqlite3.Connection) -> None:
    db.execute("PRAGMA foreign_keys=OFF")
    _migrate(db)


def _migrate(db: sqlite3.Connection) -> None:
    """Bring the file to `SCHEMA_VERSION`, or refuse it."""
    tables = {
        str(row[0])
        for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()
    }
    if not tables:
        version = 0
    elif "schema_version" not in tables:
        raise PlayerStoreError("not a players database (no schema_version table)")
    else:
        row = db.execute("SELECT version FROM schema_version").fetchone()
        version = int(row[0]) if row is not None else -1
    if version < 0 or version > SCHEMA_VERSION:
        raise PlayerStoreError(
            f"players database of schema version {version} (this is ours: {SCHEMA_VERSION})"
        )
    if version == SCHEMA_VERSION:
        return
    db.execute("BEGIN IMMEDIATE")
    try:
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                db.execute(statement)
            db.execute("UPDATE schema_version SET version = ?", (step,))
    except BaseException:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _account(db: sqlite3.Connection, column: str, value: str) -> Account | None:
    row = db.execute(
        f"SELECT player, name, hash, generation, created FROM accounts WHERE {column} = ?",
        (value,),
    ).fetchone()
    if row is None:
        return None
    return Account(str(row[0]), str(row[1]), str(row[2]), int(row[3]), int(row[4]))


def _stats(db: sqlite3.Connection, player: str) -> Stats | None:
    row = db.execute(
        "SELECT rating, racks, won, lost, breaks, break_and_runs, nines_on_break, fouls"
        " FROM ratings WHERE player = ?",
        (player,),
    ).fetchone()
    if row is None:
        return None
    return Stats(float(row[0]), *(int(value) for value in row[1:]))


def _count(db: sqlite3.Connection, rack: RackRecord, player: str, stats: Stats) -> None:
    """Write `player`'s statistics after `rack`, a history point and the month's entry."""
    (n,) = db.execute(
        "UPDATE ratings SET rating = ?, racks = ?, won = ?, lost = ?, breaks = ?,"
        " break_and_runs = ?, nines_on_break = ?, fouls = ?, history_n = history_n + 1"
        " WHERE player = ? RETURNING history_n",
        (
            stats.rating,
            stats.racks,
            stats.won,
            stats.lost,
            stats.breaks,
            stats.break_and_runs,
            stats.nines_on_break,
            stats.fouls,
            player,
        ),
    ).fetchone()
    db.execute(
        "INSERT INTO history (player, n, at, rating) VALUES (?, ?, ?, ?)",
        (player, n, rack.at, stats.rating),
    )
    if n > HISTORY_KEPT:
        db.execute("DELETE FROM history WHERE player = ? AND n <= ?", (player, n - HISTORY_KEPT))
    db.execute(
        "INSERT INTO monthly (month, player, rating, racks, established) VALUES (?, ?, ?, 1, ?)"
        " ON CONFLICT (month, player) DO UPDATE SET rating = excluded.rating,"
        " racks = racks + 1, established = excluded.established",
        (rack.month, player, stats.rating, int(stats.racks >= PROVISIONAL_RACKS)),
    )
