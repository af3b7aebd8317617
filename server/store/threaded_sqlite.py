"""One SQLite file owned by one worker thread: the ground the players' and the tournaments'
stores of a lone node stand on (`server.players.sqlite`, `server.tournament.sqlite`).

SQLite calls block, so they never run on the event loop: the connection lives on a
thread of its own and every call queues there, one after another. A change is one
`BEGIN IMMEDIATE … COMMIT` (`_write`): it takes the file's write lock before it reads, so
a read-change-write cannot interleave with another — not on this thread, and not in
another process on the same file, which waits up to `BUSY_TIMEOUT` for the lock. The file
is in WAL mode with `synchronous=FULL`: a commit that returned survives a power cut.

What differs between the stores is passed in: their tables (`prepare`, run on the new
connection), the word their messages use (`what`) and the error they raise (`error`).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

#: Seconds a writer waits for another process's lock before giving up.
BUSY_TIMEOUT = 10.0
#: A file's path for an in-process store that lives in memory only.
IN_MEMORY = ":memory:"


class ThreadedSqlite:
    """A store's SQLite file and the one thread that touches it. Opening blocks the caller
    once, at start-up, so an unusable file fails loudly there (as `error`)."""

    def __init__(
        self,
        path: str | Path,
        *,
        what: str,
        error: type[Exception],
        prepare: Callable[[sqlite3.Connection], None],
    ) -> None:
        self.path = path if path == IN_MEMORY else Path(path).expanduser()
        self._what = what
        self._error = error
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"{what}-sqlite")
        self._db: sqlite3.Connection | None = None
        try:
            self._executor.submit(self._open, prepare).result()
        except BaseException:
            self._executor.shutdown(wait=True)
            raise

    def _open(self, prepare: Callable[[sqlite3.Connection], None]) -> None:
        if isinstance(self.path, Path):
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise self._error(f"cannot make the folder of {self.path}: {exc}") from exc
        try:
            db = sqlite3.connect(
                str(self.path), timeout=BUSY_TIMEOUT, isolation_level=None, check_same_thread=False
            )
        except sqlite3.Error as exc:
            raise self._error(f"cannot open {self.path}: {exc}") from exc
        try:
            if self.path != IN_MEMORY:
                db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            prepare(db)
        except sqlite3.Error as exc:
            db.close()
            raise self._error(f"{self.path} is not a {self._what} database: {exc}") from exc
        except BaseException:
            db.close()
            raise
        self._db = db

    async def _call(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` on the thread; an SQLite error rolls back what it left open and becomes
        the store's error."""

        def run() -> T:
            db = self._db
            if db is None:
                raise self._error(f"the {self._what} store is closed")
            try:
                return work(db)
            except sqlite3.Error as exc:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise self._error(f"{self._what} store: {exc}") from exc

        return await asyncio.get_running_loop().run_in_executor(self._executor, run)

    async def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work` in one `BEGIN IMMEDIATE … COMMIT` (rolled back if it raises)."""

        def transaction(db: sqlite3.Connection) -> T:
            db.execute("BEGIN IMMEDIATE")
            try:
                result = work(db)
            except BaseException:
                db.execute("ROLLBACK")
                raise
            db.execute("COMMIT")
            return result

        return await self._call(transaction)

    async def close(self) -> None:
        def shut(db: sqlite3.Connection) -> None:
            db.close()
            self._db = None

        if self._db is not None:
            await self._call(shut)
        self._executor.shutdown(wait=True)
