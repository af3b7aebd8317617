"""The SQLite store's file: what it refuses at open, its URL, WAL, a crash, the loop."""

from __future__ import annotations

import asyncio
import queue
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from server.store import LogEntry, StoreError, open_store
from server.store.redis import RedisStore
from server.store.sqlite import SqliteStore
from server.store.sqlite import _prepare as prepare


async def test_url_with_absolute_path(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "rooms.db"
    store = open_store(f"sqlite://{path}")  # sqlite:///abs/... : the folders are made
    assert isinstance(store, SqliteStore)
    await store.save("r1", b"s", [LogEntry(1, b"e")])
    await store.close()
    assert path.is_file()


async def test_url_with_relative_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite://var/rooms.db")
    await store.save("r1", b"s")
    await store.close()
    assert (tmp_path / "var" / "rooms.db").is_file()


@pytest.mark.parametrize("url", ["sqlite://", "nosuch://x", "", "redis://"])
def test_bad_urls_are_refused(url: str) -> None:
    with pytest.raises(StoreError):
        open_store(url)


async def test_redis_url_opens_without_connecting() -> None:
    # Port 1 has nobody: opening must not fail, Redis is only reached when used.
    store = open_store("redis://127.0.0.1:1/0")
    assert isinstance(store, RedisStore)
    await store.close()


async def test_memory_url_still_works() -> None:
    for url in ("memory://", "memory"):
        store = open_store(url)
        await store.save("r1", b"s")
        assert await store.load("r1") == b"s"


def test_garbage_file_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    path.write_bytes(b"this is not a database, just some text that was here " * 100)
    with pytest.raises(StoreError, match="unusable file"):
        SqliteStore(path)
    assert path.read_bytes().startswith(b"this is not a database")  # left as it was


def test_truncated_database_is_refused_at_open(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    store = SqliteStore(path)
    asyncio.run(_fill(store))
    whole = path.read_bytes()
    path.write_bytes(whole[:50])  # a header cut short
    with pytest.raises(StoreError):
        SqliteStore(path)


async def _fill(store: SqliteStore) -> None:
    await store.save("r1", b"s" * 5000, [LogEntry(n, b"e" * 500) for n in range(1, 50)])
    await store.close()


def test_another_programs_database_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "other.db"
    with sqlite3.connect(path) as other:
        other.execute("CREATE TABLE accounts (id INTEGER PRIMARY KEY, balance INTEGER)")
    with pytest.raises(StoreError, match="not a room store"):
        SqliteStore(path)
    with sqlite3.connect(path) as other:  # untouched
        assert other.execute("SELECT name FROM sqlite_master").fetchall() == [("accounts",)]


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    asyncio.run(SqliteStore(path).close())
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA user_version = 99")
    with pytest.raises(StoreError, match="schema"):
        SqliteStore(path)


def test_a_folder_is_not_a_database(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="directory"):
        SqliteStore(tmp_path)


def test_a_path_under_a_plain_file_cannot_be_created(tmp_path: Path) -> None:
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where a folder should be")
    with pytest.raises(StoreError, match="folder"):
        SqliteStore(blocker / "var" / "rooms.db")


def test_a_file_that_cannot_be_written_is_refused_at_open(tmp_path: Path) -> None:
    """The open check does a real write. (As root a chmod cannot make a file read-only,
    so the file is opened read-only through SQLite itself, as the check meets it.)"""
    path = tmp_path / "rooms.db"
    asyncio.run(SqliteStore(path).close())
    read_only = sqlite3.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    with pytest.raises(sqlite3.OperationalError, match="readonly"):
        prepare(read_only, path)
    read_only.close()


async def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    store = SqliteStore(path)
    await store.save("r1", b"s", [LogEntry(1, b"e")])
    with sqlite3.connect(path) as reader:
        assert reader.execute("PRAGMA journal_mode").fetchone() == ("wal",)
        # WAL: another reader sees the committed data while the store is open.
        assert reader.execute("SELECT seq FROM events").fetchall() == [(1,)]
    await store.close()


async def test_closed_store_refuses_calls(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "rooms.db")
    await store.close()
    await store.close()  # twice is fine
    assert not store.healthy
    with pytest.raises(StoreError, match="closed"):
        await store.load("r1")
    assert await store.ping() is False


async def test_ping(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / "rooms.db")
    assert store.healthy
    assert await store.ping() is True
    await store.close()


async def test_a_busy_file_does_not_block_the_event_loop(tmp_path: Path) -> None:
    """While SQLite waits for a lock held by another program, the loop keeps running."""
    path = tmp_path / "rooms.db"
    store = SqliteStore(path)
    await store.save("r1", b"before", [LogEntry(1, b"a")])

    locked = threading.Event()
    release = threading.Event()

    def hold_write_lock() -> None:
        with sqlite3.connect(path, isolation_level=None) as other:
            other.execute("BEGIN IMMEDIATE")
            locked.set()
            release.wait(30)
            other.execute("ROLLBACK")

    holder = threading.Thread(target=hold_write_lock)
    holder.start()
    await asyncio.to_thread(locked.wait, 30)
    save = asyncio.create_task(store.save("r1", b"after", [LogEntry(2, b"b")]))
    ticks = 0
    for _ in range(5):
        await asyncio.sleep(0.02)
        ticks += 1
    assert ticks == 5  # the loop ran while the save waited for the lock
    assert not save.done()
    release.set()
    await save
    await asyncio.to_thread(holder.join)
    assert await store.load("r1") == b"after"
    await store.close()


_CRASHING_WRITER = """
import asyncio, sys
from server.store import LogEntry
from server.store.sqlite import SqliteStore
from server.store.sqlite import _prepare as prepare

async def main():
    store = SqliteStore(sys.argv[1])
    seq = 0
    while True:
        seq += 1
        await store.save("r1", b"snapshot %d" % seq, [LogEntry(seq, b"event %d" % seq)])
        print(seq, flush=True)

asyncio.run(main())
"""


def test_a_killed_process_loses_nothing_it_acknowledged(tmp_path: Path) -> None:
    """A writer process is killed (SIGKILL) mid-stream: every save it reported done is in
    the file, the log is whole and in order, and the snapshot matches the last entry."""
    path = tmp_path / "rooms.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", _CRASHING_WRITER, str(path)],
        stdout=subprocess.PIPE,
        cwd=Path(__file__).resolve().parents[2],
    )
    stdout = writer.stdout
    assert stdout is not None
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in stdout], daemon=True).start()
    acknowledged = 0
    try:
        while acknowledged < 40:
            acknowledged = int(lines.get(timeout=60))
    finally:
        writer.kill()
    writer.wait()
    assert acknowledged >= 40

    async def check() -> None:
        store = SqliteStore(path)
        log = await store.log("r1")
        assert len(log) >= acknowledged
        assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
        assert await store.load("r1") == b"snapshot %d" % len(log)
        await store.close()

    asyncio.run(check())
