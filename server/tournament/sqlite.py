"""Tournaments on a lone node: one SQLite file beside the rooms' (`var/tournaments.db`).

As with the players' store, the connection lives on one worker thread of its own and
every call queues there, so nothing blocks the event loop; every change is one `BEGIN
IMMEDIATE` transaction (read, change, write), which also keeps out another process on
the same file. A tournament is one row: its value as JSON (`encode_tournament`), and
its status and creation time for the listings.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

import msgspec

from server.tournament.model import Tournament, decode_tournament, encode_tournament
from server.tournament.store import Change, TournamentExists, TournamentStoreError

T = TypeVar("T")

#: Seconds a writer waits for another process's lock before giving up.
BUSY_TIMEOUT = 10.0
#: A file's path for an in-process store that lives in memory only.
IN_MEMORY = ":memory:"

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, created INTEGER NOT NULL,"
    " status TEXT NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_age ON tournaments (created)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status)",
)


class SqliteTournamentStore:
    def __init__(self, path: str | Path) -> None:
        self.path = path if path == IN_MEMORY else Path(path).expanduser()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="tournaments")
        self._db: sqlite3.Connection | None = None
        try:
            self._executor.submit(self._open).result()
        except BaseException:
            self._executor.shutdown(wait=True)
            raise

    def _open(self) -> None:
        if isinstance(self.path, Path):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise TournamentStoreError(f"cannot make the folder of {self.path}: {exc}") from exc
        try:
            db = sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
            if self.path != IN_MEMORY:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            for statement in _SCHEMA:
                db.execute(statement)
        except sqlite3.Error as exc:
            raise TournamentStoreError(f"cannot use {self.path}: {exc}") from exc
        self._db = db

    async def _call(self, work: Callable[[sqlite3.Connection], T], write: bool = False) -> T:
        def run() -> T:
            db = self._db
            if db is None:
                raise TournamentStoreError("the tournaments store is closed")
            try:
                if not write:
                    return work(db)
                db.execute("BEGIN IMMEDIATE")
                try:
                    result = work(db)
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
                db.execute("COMMIT")
                return result
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise TournamentStoreError(f"tournaments store: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._executor, run)

    async def create(self, tournament: Tournament, created: int) -> None:
        def insert(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament.id,)).fetchone():
                raise TournamentExists(tournament.id)
            db.execute(
                "INSERT INTO tournaments (id, created, status, data) VALUES (?, ?, ?, ?)",
                (tournament.id, created, tournament.status, encode_tournament(tournament)),
            )

        await self._call(insert, write=True)

    async def get(self, tournament_id: str) -> Tournament | None:
        def read(db: sqlite3.Connection) -> Tournament | None:
            return _read(db, tournament_id)

        return await self._call(read)

    async def update(self, tournament_id: str, change: Change) -> Tournament | None:
        def write(db: sqlite3.Connection) -> Tournament | None:
            current = _read(db, tournament_id)
            if current is None:
                return None
            updated = change(current)
            if updated != current:
                db.execute(
                    "UPDATE tournaments SET status = ?, data = ? WHERE id = ?",
                    (updated.status, encode_tournament(updated), tournament_id),
                )
            return updated

        return await self._call(write, write=True)

    async def listing(self, limit: int) -> list[Tournament]:
        def read(db: sqlite3.Connection) -> list[Tournament]:
            rows = db.execute(
                "SELECT data FROM tournaments ORDER BY created DESC, id LIMIT ?", (limit,)
            ).fetchall()
            return [_decode(row[0]) for row in rows]

        return await self._call(read)

    async def active(self) -> list[Tournament]:
        def read(db: sqlite3.Connection) -> list[Tournament]:
            rows = db.execute(
                "SELECT data FROM tournaments WHERE status IN ('registering', 'running')"
                " ORDER BY created, id"
            ).fetchall()
            return [_decode(row[0]) for row in rows]

        return await self._call(read)

    async def lead(self, node: str, ttl: float) -> bool:
        return True  # one node per file: it always drives

    async def close(self) -> None:
        def shut(db: sqlite3.Connection) -> None:
            db.close()
            self._db = None

        if self._db is not None:
            await self._call(shut)
        self._executor.shutdown(wait=True)


def _read(db: sqlite3.Connection, tournament_id: str) -> Tournament | None:
    row = db.execute("SELECT data FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return None if row is None else _decode(row[0])


def _decode(data: bytes) -> Tournament:
    try:
        return decode_tournament(data)
    except msgspec.DecodeError as exc:
        raise TournamentStoreError(f"a stored tournament does not decode: {exc}") from exc
