"""Tournaments on a lone node: one SQLite file beside the rooms' (`var/tournaments.db`).

As with the players' store, the connection lives on one worker thread of its own and
every call queues there, so nothing blocks the event loop; every change is one `BEGIN
IMMEDIATE` transaction (read, change, write), which also keeps out another process on
the same file (`server.store.threaded_sqlite`). A tournament is one row: its value as
JSON (`encode_tournament`), and its status and creation time for the listings.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import msgspec

from server.store.threaded_sqlite import ThreadedSqlite
from server.tournament.model import Tournament, decode_tournament, encode_tournament
from server.tournament.store import Change, TournamentExists, TournamentStoreError

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS tournaments (id TEXT PRIMARY KEY, created INTEGER NOT NULL,"
    " status TEXT NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_age ON tournaments (created)",
    "CREATE INDEX IF NOT EXISTS tournaments_by_status ON tournaments (status)",
)


class SqliteTournamentStore(ThreadedSqlite):
    """Tournaments in one SQLite file (or in memory, for an in-process server)."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path, what="tournaments", error=TournamentStoreError, prepare=_prepare)

    async def create(self, tournament: Tournament, created: int) -> None:
        def insert(db: sqlite3.Connection) -> None:
            if db.execute("SELECT 1 FROM tournaments WHERE id = ?", (tournament.id,)).fetchone():
                raise TournamentExists(tournament.id)
            db.execute(
                "INSERT INTO tournaments (id, created, status, data) VALUES (?, ?, ?, ?)",
                (tournament.id, created, tournament.status, encode_tournament(tournament)),
            )

        await self._write(insert)

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

        return await self._write(write)

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


def _prepare(db: sqlite3.Connection) -> None:
    for statement in _SCHEMA:
        db.execute(statement)


def _read(db: sqlite3.Connection, tournament_id: str) -> Tournament | None:
    row = db.execute("SELECT data FROM tournaments WHERE id = ?", (tournament_id,)).fetchone()
    return None if row is None else _decode(row[0])


def _decode(data: bytes) -> Tournament:
    try:
        return decode_tournament(data)
    except msgspec.DecodeError as exc:
        raise TournamentStoreError(f"a stored tournament does not decode: {exc}") from exc
