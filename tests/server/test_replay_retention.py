"""`--replay-retention`: a server forgets the replays retired longer ago than that, from
its start on (a real SQLite file holding a replay 40 days old and one from today)."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

import msgspec

from server.store import LogEntry, open_store
from server.store.sqlite import SqliteStore
from tests.server.conftest import ServerFactory

DAY = 86400


async def test_old_replays_are_forgotten_at_start(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    path = tmp_path / "rooms.db"
    store = SqliteStore(path)
    event = msgspec.msgpack.encode({"t": "chat", "seq": 1, "text": "gg"})
    for room in ("old", "recent"):
        await store.save(room, b"record", [LogEntry(1, event)])
        await store.retire(room)
    await store.close()
    db = sqlite3.connect(path)
    old = int((time.time() - 40 * DAY) * 1000)
    db.execute("UPDATE archive SET retired = ? WHERE room = 'old'", (old,))
    db.commit()
    db.close()

    server = await make_server(store=open_store(f"sqlite://{path}"), replay_retention=30.0)
    for _ in range(500):  # the trim runs as the server starts; give it its turn
        if await server.lobby.store.load("old") is None:
            break
        await asyncio.sleep(0.01)
    assert await server.lobby.store.load("old") is None
    assert await server.lobby.store.load("recent") == b"record"
