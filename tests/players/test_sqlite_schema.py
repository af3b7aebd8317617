"""The players' SQLite file: its schema version table, the upgrade from version 1, and
files that are not ours."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from server.players import names, ratings
from server.players.results import RackRecord, RackResult
from server.players.sqlite import MIGRATIONS, SCHEMA_VERSION, SqlitePlayerStore
from server.players.store import PlayerStoreError

MAY = 1_780_000_000_000


def _version_1(path: Path) -> None:
    """A file as version 1 of the store left it, with an established player in it."""
    db = sqlite3.connect(path)
    with db:
        for statement in MIGRATIONS[1]:
            db.execute(statement)
        db.execute("UPDATE schema_version SET version = 1")
        db.execute(
            "INSERT INTO accounts (player, name, folded, skeleton, hash, generation, created)"
            " VALUES ('p_1', 'Alice', 'alice', ?, 'h', 3, 1)",
            (names.skeleton("Alice"),),
        )
        db.execute(
            "INSERT INTO ratings (player, rating, racks, won, lost)"
            " VALUES ('p_1', 640.5, 90, 60, 30)"
        )
    db.close()


def _version(path: Path) -> int:
    db = sqlite3.connect(path)
    try:
        return int(db.execute("SELECT version FROM schema_version").fetchone()[0])
    finally:
        db.close()


async def test_a_version_1_file_is_brought_up_to_date_and_keeps_everything(
    tmp_path: Path,
) -> None:
    path = tmp_path / "players.db"
    _version_1(path)
    assert SCHEMA_VERSION == 2
    store = SqlitePlayerStore(path)
    try:
        assert _version(path) == 2
        account = await store.account("p_1")
        assert account is not None and (account.name, account.generation) == ("Alice", 3)
        stats = await store.stats("p_1")
        assert stats is not None and (stats.rating, stats.racks, stats.won) == (640.5, 90, 60)
        assert [row.player for row in await store.leaderboard(10)] == ["p_1"]
        # What version 2 adds works on the upgraded file: the monthly board.
        bot = ratings.bot_player_id(1)
        await store.apply_rack(RackRecord(RackResult("r", 1, 1, "p_1", bot, True, "p_1"), MAY))
        assert [row.racks for row in await store.leaderboard(10, "2026-05")] == [1]
    finally:
        await store.close()
    # Opened again: nothing more to do.
    store = SqlitePlayerStore(path)
    await store.close()
    assert _version(path) == 2


async def test_a_new_file_starts_at_the_current_version(tmp_path: Path) -> None:
    store = SqlitePlayerStore(tmp_path / "deep" / "folder" / "players.db")
    await store.close()
    assert _version(tmp_path / "deep" / "folder" / "players.db") == SCHEMA_VERSION


def test_files_that_are_not_ours_are_refused(tmp_path: Path) -> None:
    newer = tmp_path / "newer.db"
    _version_1(newer)
    db = sqlite3.connect(newer)
    with db:
        db.execute("UPDATE schema_version SET version = 99")
    db.close()
    with pytest.raises(PlayerStoreError, match="version 99"):
        SqlitePlayerStore(newer)
    other = tmp_path / "rooms.db"
    db = sqlite3.connect(other)
    with db:
        db.execute("CREATE TABLE rooms (room TEXT)")
    db.close()
    with pytest.raises(PlayerStoreError, match="not a players database"):
        SqlitePlayerStore(other)
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not sqlite at all" * 100)
    with pytest.raises(PlayerStoreError):
        SqlitePlayerStore(garbage)
