"""The embedded store of a lone node: one SQLite file, so a restart resumes every room.

SQLite calls block, so they never run on the event loop: each store owns one worker
thread, the only thread that ever touches its connection. Calls queue on that thread and
run one after another, which also makes every `save` a plain serial transaction.

The file is opened in WAL mode (readers never wait for the writer, a crash mid-write
leaves the last committed state) with `synchronous=FULL`, so a commit that returned is on
disk even if the machine loses power right after. A file that is not ours, is damaged
(`PRAGMA quick_check` finds a fault in its pages), or cannot be written raises
`StoreError` when the store is opened, not at the first shot.

Each snapshot and log entry is stored with its CRC-32, checked whenever it is read: a
page damaged inside a row's bytes (which `quick_check`, reading the pages' structure,
does not see) raises `DamagedRoom` instead of handing out bytes nobody wrote. A retired
room is packed into one row of `archive` (`server.store.archive`) and its rows of
`rooms` and `events` go; `trim` deletes the archives older than the retention. SQLite
reuses the pages freed, so a store with a retention stops growing once it has held that
many days of matches.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
import time
import zlib
from collections.abc import AsyncGenerator, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from server.store import archive
from server.store.base import DamagedRoom, FencedError, LogEntry, Store, StoreError
from server.store.validate import check_after, check_room, check_save

T = TypeVar("T")

log = logging.getLogger(__name__)

#: Stored in the file header (`PRAGMA user_version`). Version 1 (no archive) is brought
#: up to date when opened; a file with another value is refused.
SCHEMA_VERSION = 2

_SCHEMA_V1 = (
    # One row per room: the latest snapshot, replaced on every save.
    "CREATE TABLE rooms (room TEXT PRIMARY KEY, snapshot BLOB NOT NULL)",
    # The event log; (room, seq) is also the index replays and the seq check read.
    "CREATE TABLE events (room TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL,"
    " PRIMARY KEY (room, seq))",
    # Highest fencing epoch accepted per room; kept when the room is deleted.
    "CREATE TABLE fences (room TEXT PRIMARY KEY, fence INTEGER NOT NULL)",
)
#: What version 2 adds to version 1.
_SCHEMA_V2 = (
    # Retired rooms: snapshot and log packed into one compressed value; `retired` is when,
    # in wall-clock milliseconds, for the retention.
    "CREATE TABLE archive (room TEXT PRIMARY KEY, retired INTEGER NOT NULL, data BLOB NOT NULL)",
    "CREATE INDEX archive_by_age ON archive (retired)",
    # CRC-32 of the snapshot and of each entry's data (NULL in rows of schema 1: unchecked).
    "ALTER TABLE rooms ADD COLUMN crc INTEGER",
    "ALTER TABLE events ADD COLUMN crc INTEGER",
    # Rooms moved aside as damaged, their bytes as they were (`form`: 'live' = packed
    # snapshot and log rows, 'archive' = the archive as it was).
    "CREATE TABLE quarantine (room TEXT PRIMARY KEY, at INTEGER NOT NULL, reason TEXT NOT NULL,"
    " form TEXT NOT NULL, data BLOB NOT NULL)",
)
_TABLES_V1 = frozenset({"rooms", "events", "fences"})
_TABLES = _TABLES_V1 | {"archive", "quarantine"}
#: Lines of `PRAGMA quick_check`'s findings quoted in the refusal.
_FINDINGS_SHOWN = 5


class SqliteStore(Store):
    """Rooms in one SQLite file. Opening checks the file and raises `StoreError` if unusable."""

    def __init__(self, path: str | os.PathLike[str], *, check: bool = True) -> None:
        """`check`: run `PRAGMA quick_check` on the file before anything else (reads every
        page once: about a second per GB)."""
        self.path = Path(path).expanduser()
        self._check = check
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sqlite-store")
        self._connection: sqlite3.Connection | None = None
        self._closed = False
        try:
            # Opening blocks the caller once, at start-up, so a bad file fails loudly there.
            self._executor.submit(self._open).result()
        except BaseException:
            self._executor.shutdown(wait=True)
            raise

    @property
    def healthy(self) -> bool:
        return not self._closed

    async def ping(self) -> bool:
        """True if the file answers a query (for `/readyz`)."""
        try:
            await self._call(lambda db: db.execute("SELECT 1").fetchone())
        except StoreError:
            return False
        return True

    # --- the Store interface --------------------------------------------------------------

    async def save(
        self,
        room: str,
        snapshot: bytes,
        entries: Sequence[LogEntry] = (),
        *,
        fence: int | None = None,
    ) -> None:
        room, snapshot, checked, fence = check_save(room, snapshot, entries, fence)

        def write(db: sqlite3.Connection) -> None:
            _refuse_closed(db, room)
            if fence is not None:
                row = db.execute("SELECT fence FROM fences WHERE room = ?", (room,)).fetchone()
                if row is not None and fence < row[0]:
                    raise FencedError(f"room {room}: fence {fence} is stale (at {row[0]})")
                db.execute(
                    "INSERT INTO fences (room, fence) VALUES (?, ?)"
                    " ON CONFLICT (room) DO UPDATE SET fence = excluded.fence",
                    (room, fence),
                )
            if checked:
                (last,) = db.execute(
                    "SELECT coalesce(max(seq), -1) FROM events WHERE room = ?", (room,)
                ).fetchone()
                first = checked[0].seq
                if first <= last:
                    raise StoreError(f"room {room}: log entry {first} does not follow {last}")
            db.execute(
                "INSERT INTO rooms (room, snapshot, crc) VALUES (?, ?, ?)"
                " ON CONFLICT (room) DO UPDATE SET snapshot = excluded.snapshot,"
                " crc = excluded.crc",
                (room, snapshot, zlib.crc32(snapshot)),
            )
            db.executemany(
                "INSERT INTO events (room, seq, data, crc) VALUES (?, ?, ?, ?)",
                [(room, entry.seq, entry.data, zlib.crc32(entry.data)) for entry in checked],
            )

        await self._call(lambda db: _transaction(db, write))

    async def load(self, room: str) -> bytes | None:
        room = check_room(room)

        def read(db: sqlite3.Connection) -> bytes | None:
            snapshot = self._snapshot(db, room)
            if snapshot is not None:
                return snapshot
            # A retired room: the snapshot leads its archive, inflated no further.
            row = db.execute("SELECT data FROM archive WHERE room = ?", (room,)).fetchone()
            return None if row is None else archive.snapshot(bytes(row[0]), room, str(self.path))

        return await self._call(read)

    async def rooms(self) -> list[str]:
        rows = await self._call(lambda db: db.execute("SELECT room FROM rooms").fetchall())
        return [str(row[0]) for row in rows]

    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        room, after = check_room(room), check_after(after)

        def read(db: sqlite3.Connection) -> list[LogEntry]:
            rows = db.execute(
                "SELECT seq, data, crc FROM events WHERE room = ? AND seq > ? ORDER BY seq",
                (room, after),
            ).fetchall()
            if rows:
                return self._entries(room, rows)
            packed = self._archived(db, room)
            return [] if packed is None else archive.after(packed[1], after)

        return await self._call(read)

    async def log_page(self, room: str, after: int, limit: int) -> list[LogEntry]:
        room, after, limit = check_room(room), check_after(after), max(0, limit)
        rows = await self._call(
            lambda db: db.execute(
                "SELECT seq, data, crc FROM events WHERE room = ? AND seq > ? ORDER BY seq LIMIT ?",
                (room, after, limit),
            ).fetchall()
        )
        if rows or not limit:
            return self._entries(room, rows)
        return await super().log_page(room, after, limit)  # archived, or nothing more

    async def log_pages(
        self, room: str, after: int, page: int
    ) -> AsyncGenerator[list[LogEntry], None]:
        room, after, page = check_room(room), check_after(after), max(1, page)

        def first(db: sqlite3.Connection) -> tuple[list[LogEntry], bytes | None]:
            rows = db.execute(
                "SELECT seq, data, crc FROM events WHERE room = ? AND seq > ? ORDER BY seq LIMIT ?",
                (room, after, page),
            ).fetchall()
            if rows:
                return self._entries(room, rows), None
            packed = db.execute("SELECT data FROM archive WHERE room = ?", (room,)).fetchone()
            return [], None if packed is None else bytes(packed[0])

        entries, packed = await self._call(first)
        if packed is not None:
            # A retired room: its archive, inflated a page at a time.
            for chunk in archive.pages(packed, room, after, page, str(self.path)):
                yield chunk
            return
        while entries:
            yield entries
            entries = await self.log_page(room, entries[-1].seq, page)

    async def delete(self, room: str) -> None:
        room = check_room(room)

        def forget(db: sqlite3.Connection) -> None:
            db.execute("DELETE FROM rooms WHERE room = ?", (room,))
            db.execute("DELETE FROM events WHERE room = ?", (room,))
            db.execute("DELETE FROM archive WHERE room = ?", (room,))

        await self._call(lambda db: _transaction(db, forget))

    async def retire(self, room: str) -> None:
        """Pack the room into `archive` and drop its rows, in one transaction (on the
        store's own thread, so the packing never holds up the event loop)."""
        room = check_room(room)

        def pack(db: sqlite3.Connection) -> None:
            snapshot = self._snapshot(db, room)
            if snapshot is None:
                return  # unknown, or retired already
            rows = db.execute(
                "SELECT seq, data, crc FROM events WHERE room = ? ORDER BY seq", (room,)
            ).fetchall()
            entries = self._entries(room, rows)
            data = archive.pack(snapshot, entries)
            db.execute(
                "INSERT OR REPLACE INTO archive (room, retired, data) VALUES (?, ?, ?)",
                (room, _now_ms(), data),
            )
            db.execute("DELETE FROM rooms WHERE room = ?", (room,))
            db.execute("DELETE FROM events WHERE room = ?", (room,))

        try:
            await self._call(lambda db: _transaction(db, pack))
        except DamagedRoom as damage:
            # Its bytes go aside as they are, rather than into an archive that would pass
            # its own checksum with the damage inside.
            log.error("%s: quarantined instead of retired", damage)
            await self.quarantine(room, damage.check)

    async def trim(self, retired_before: float) -> int:
        cutoff = int(retired_before * 1000)

        def trim(db: sqlite3.Connection) -> int:
            cursor = db.execute("DELETE FROM archive WHERE retired < ?", (cutoff,))
            return int(cursor.rowcount)

        return await self._call(lambda db: _transaction(db, trim))

    async def quarantine(self, room: str, reason: str) -> None:
        room = check_room(room)

        def move(db: sqlite3.Connection) -> None:
            row = db.execute("SELECT snapshot FROM rooms WHERE room = ?", (room,)).fetchone()
            rows = db.execute(
                "SELECT seq, data FROM events WHERE room = ? ORDER BY seq", (room,)
            ).fetchall()
            packed = db.execute("SELECT data FROM archive WHERE room = ?", (room,)).fetchone()
            if row is None and not rows and packed is None:
                return
            if packed is not None:
                form, data = "archive", bytes(packed[0])
            else:
                entries = [LogEntry(int(seq), bytes(data)) for seq, data in rows]
                form = "live"
                data = archive.pack_raw(b"" if row is None else bytes(row[0]), entries)
            db.execute(
                "INSERT OR REPLACE INTO quarantine (room, at, reason, form, data)"
                " VALUES (?, ?, ?, ?, ?)",
                (room, _now_ms(), reason, form, data),
            )
            for table in ("rooms", "events", "archive"):
                db.execute(f"DELETE FROM {table} WHERE room = ?", (room,))

        await self._call(lambda db: _transaction(db, move))

    async def quarantined(self, room: str) -> str | None:
        room = check_room(room)
        row = await self._call(
            lambda db: db.execute(
                "SELECT reason FROM quarantine WHERE room = ?", (room,)
            ).fetchone()
        )
        return None if row is None else str(row[0])

    async def archived(self) -> int:
        """How many retired rooms the archive holds (for the cleanup command's report)."""
        row = await self._call(lambda db: db.execute("SELECT count(*) FROM archive").fetchone())
        return int(row[0])

    def _snapshot(self, db: sqlite3.Connection, room: str) -> bytes | None:
        row = db.execute("SELECT snapshot, crc FROM rooms WHERE room = ?", (room,)).fetchone()
        if row is None:
            return None
        snapshot = bytes(row[0])
        if row[1] is not None and zlib.crc32(snapshot) != row[1]:
            raise DamagedRoom(room, "its snapshot fails its CRC-32", str(self.path))
        return snapshot

    def _entries(self, room: str, rows: Sequence[tuple[int, bytes, int | None]]) -> list[LogEntry]:
        entries = []
        for seq, data, crc in rows:
            entry = LogEntry(int(seq), bytes(data))
            if crc is not None and zlib.crc32(entry.data) != crc:
                raise DamagedRoom(room, f"log entry {seq} fails its CRC-32", str(self.path))
            entries.append(entry)
        return entries

    def _archived(self, db: sqlite3.Connection, room: str) -> tuple[bytes, list[LogEntry]] | None:
        row = db.execute("SELECT data FROM archive WHERE room = ?", (room,)).fetchone()
        return None if row is None else archive.unpack(bytes(row[0]), room, str(self.path))

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        loop = asyncio.get_running_loop()
        # Queued behind every call already submitted, so those finish first.
        await loop.run_in_executor(self._executor, self._close_connection)
        self._executor.shutdown(wait=False)

    # --- on the store's thread ------------------------------------------------------------

    async def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._closed:
            raise StoreError(f"store {self.path} is closed")
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._executor, self._run, work)

    def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        if self._connection is None:
            raise StoreError(f"store {self.path} is closed")
        try:
            return work(self._connection)
        except sqlite3.Error as exc:
            raise StoreError(f"sqlite store {self.path}: {exc}") from exc

    def _open(self) -> None:
        if self.path.is_dir():
            raise StoreError(f"sqlite store {self.path}: is a directory, not a database file")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"sqlite store {self.path}: cannot create its folder: {exc}") from exc
        try:
            db = sqlite3.connect(self.path, timeout=10.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"sqlite store {self.path}: cannot open: {exc}") from exc
        try:
            _prepare(db, self.path, check=self._check)
        except sqlite3.Error as exc:
            db.close()
            raise StoreError(f"sqlite store {self.path}: unusable file: {exc}") from exc
        except BaseException:
            db.close()
            raise
        self._connection = db

    def _close_connection(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None


def _prepare(db: sqlite3.Connection, path: Path, *, check: bool = True) -> None:
    """Check the file is a room store of this version or the one before (creating one in
    an empty file, bringing an older one up to date), that its pages are sound, switch to
    WAL, and prove the file is writable with a real write."""
    # The first read of a file that is not SQLite fails here ("file is not a database").
    (mode,) = db.execute("PRAGMA journal_mode = WAL").fetchone()
    if str(mode).lower() != "wal":
        raise StoreError(f"sqlite store {path}: cannot use WAL mode (got {mode!r})")
    db.execute("PRAGMA synchronous = FULL")
    if check:
        _quick_check(db, path)
    db.execute("BEGIN IMMEDIATE")
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        tables = {
            str(name)
            for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
        if version == 0 and not tables:
            for statement in (*_SCHEMA_V1, *_SCHEMA_V2):
                db.execute(statement)
        elif version == 1 and tables.issuperset(_TABLES_V1) and not tables & (_TABLES - _TABLES_V1):
            for statement in _SCHEMA_V2:
                db.execute(statement)
        elif version != SCHEMA_VERSION or not tables.issuperset(_TABLES):
            raise StoreError(
                f"sqlite store {path}: not a room store of schema {SCHEMA_VERSION}"
                f" (user_version {version}, tables {sorted(tables)})"
            )
        # Rewriting the header is a real write: a read-only file fails here, at open.
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise


def _quick_check(db: sqlite3.Connection, path: Path) -> None:
    """`PRAGMA quick_check`: every page of the file read and its structure checked (not
    the rows' contents against the indexes, which `integrity_check` adds at many times the
    cost). A fault refuses the file, naming it and the check: serving from a damaged file
    would hand out whatever the damaged pages now say."""
    try:
        rows = db.execute("PRAGMA quick_check").fetchall()
    except sqlite3.DatabaseError as exc:  # damage where the check itself cannot go on
        rows = [(str(exc),)]
    findings = [line for row in rows for line in str(row[0]).splitlines() if line.strip()]
    if findings != ["ok"]:
        shown = "; ".join(findings[:_FINDINGS_SHOWN])
        hidden = len(findings) - _FINDINGS_SHOWN
        more = f" (and {hidden} more)" if hidden > 0 else ""
        raise StoreError(
            f"sqlite store {path}: PRAGMA quick_check found damage: {shown}{more}. "
            "Restore the file from a backup (deploy/README.md, Backups), or move it aside "
            "to start empty"
        )


def _refuse_closed(db: sqlite3.Connection, room: str) -> None:
    """A save for a retired or quarantined room is refused: its log is closed."""
    if db.execute("SELECT 1 FROM archive WHERE room = ?", (room,)).fetchone() is not None:
        raise StoreError(f"room {room} is retired: its log is closed")
    row = db.execute("SELECT reason FROM quarantine WHERE room = ?", (room,)).fetchone()
    if row is not None:
        raise StoreError(f"room {room} is quarantined: {row[0]}")


def _now_ms() -> int:
    return int(time.time() * 1000)


def _transaction(db: sqlite3.Connection, work: Callable[[sqlite3.Connection], T]) -> T:
    """Run `work` in one write transaction: all of it is committed, or none of it."""
    db.execute("BEGIN IMMEDIATE")
    try:
        result = work(db)
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return result
