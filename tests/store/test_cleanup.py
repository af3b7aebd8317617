"""`python -m server.store.cleanup` on a real SQLite file and a real redis-server, holding
what older versions left behind: finished rooms still live, replays past the retention,
epochs of rooms long gone, and a damaged room."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import struct
import sys
import time
from pathlib import Path
from typing import Any

import msgspec
import pytest

from server.store import LogEntry, StoreError
from server.store.redis import RedisStore, connect
from server.store.sqlite import SqliteStore
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]
DAY = 86400


def record(seq: int, closed: bool) -> bytes:
    return msgspec.msgpack.encode({"room": "r", "seq": seq, "closed": closed})


def event(seq: int) -> LogEntry:
    return LogEntry(seq, msgspec.msgpack.encode({"t": "chat", "seq": seq, "text": "x" * 50}))


async def cleanup(*args: str, env: dict[str, str] | None = None) -> tuple[int, dict[str, Any]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "server.store.cleanup", *args),
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode is not None
    assert out or process.returncode == 1, err
    return process.returncode, json.loads(out) if out else {}


async def fill(store: SqliteStore | RedisStore) -> None:
    await store.save("open", record(2, False), [event(1), event(2)])
    await store.save("finished-long-ago", record(2, True), [event(1), event(2)])
    await store.save("retired-long-ago", record(1, True), [event(1)])
    await store.retire("retired-long-ago")
    await store.save("retired-lately", record(1, True), [event(1)])
    await store.retire("retired-lately")
    await store.save("damaged", record(1, False), [event(1)])
    await store.save("damaged", record(1, False), [LogEntry(2, b"\xc1 not an event")])


async def test_cleanup_of_a_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    store = SqliteStore(path)
    await fill(store)
    await store.close()
    db = sqlite3.connect(path)
    db.execute(
        "UPDATE archive SET retired = ? WHERE room = 'retired-long-ago'",
        (int((time.time() - 40 * DAY) * 1000),),
    )
    db.commit()
    db.close()
    url = f"sqlite://{path}"

    code, report = await cleanup(url, "--replay-retention", "30", "--check")
    assert code == 1  # damage found, and left where it is
    assert list(report["damaged"]) == ["damaged"]
    assert report["damaged"]["damaged"].startswith("log entry 2 is not a room event")
    assert report["retired_now"] == 1 and report["trimmed"] == 1 and report["quarantined"] == 0
    assert report["live"] == 2 and report["archived"] == 2
    assert report["store"] == str(path)

    code, report = await cleanup(url, "--quarantine")
    assert code == 0 and report["quarantined"] == 1 and report["live"] == 1

    store = SqliteStore(path)
    try:
        assert await store.rooms() == ["open"]
        assert await store.load("retired-long-ago") is None
        assert await store.log("finished-long-ago") == [event(1), event(2)]  # a replay now
        assert await store.load("retired-lately") == record(1, True)
        assert (await store.quarantined("damaged") or "").startswith("log entry 2")
    finally:
        await store.close()


async def test_cleanup_of_a_redis_database(own_redis: RedisServer) -> None:
    store = RedisStore(connect(own_redis.url))
    raw = connect(own_redis.url)
    try:
        await fill(store)
        old = struct.pack(">Q", int((time.time() - 40 * DAY) * 1000))
        await raw.setrange("room:retired-long-ago:archive", 0, old)
        for room in ("gone-a", "gone-b", "open"):
            await raw.set(f"room:{room}:epoch", 4)  # as older versions left them: forever

        env = {"NINEPOOL_REDIS_URL": own_redis.url, "NINEPOOL_REPLAY_RETENTION": "30"}
        code, report = await cleanup("-", "--quarantine", env=env)
        assert code == 0
        assert report["retired_now"] == 1 and report["trimmed"] == 1
        assert report["quarantined"] == 1 and list(report["damaged"]) == ["damaged"]
        assert report["epochs_given_an_expiry"] == 2
        assert report["live"] == 1 and report["archived"] == 2
        assert await store.rooms() == ["open"]
        assert await raw.exists("room:retired-long-ago:archive") == 0
        assert await raw.exists("room:finished-long-ago:state", "room:finished-long-ago:log") == 0
        assert await store.log("finished-long-ago") == [event(1), event(2)]
        assert await raw.pttl("room:gone-a:epoch") > 0
        assert await raw.pttl("room:open:epoch") == -1
    finally:
        await raw.aclose()
        await store.close()


async def test_a_store_that_cannot_be_opened_is_one_line_and_status_1(tmp_path: Path) -> None:
    garbage = tmp_path / "rooms.db"
    garbage.write_bytes(b"not a database" * 100)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "server.store.cleanup", f"sqlite://{garbage}"),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1 and out == b""
    assert err.decode().startswith(f"cleanup: sqlite store {garbage}")


async def test_a_redis_moved_to_the_tagged_layout(own_redis: RedisServer) -> None:
    """`--to-tagged`: rooms of every kind keep their data and expiries under hash-tagged
    names; the plain layout is refused afterwards; refused while a node beats."""
    store = RedisStore(connect(own_redis.url), retention=7 * DAY)
    raw = connect(own_redis.url)
    try:
        await store.save("open", record(2, False), [event(1), event(2)])
        await store.save("done", record(1, True), [event(1)])
        await store.retire("done")
        await store.save("bad", record(1, False), [event(1)])
        await store.quarantine("bad", "damaged")
        await raw.set("room:open:epoch", 3)
        await raw.set("room:open:lease", "3:n1", px=10_000)
        await raw.zadd("dir:nodes", {"n1": int(time.time() * 1000)})
        await raw.hset("dir:open", "open", "")
        await raw.hset("dir:seated", "p1", "open")
        await raw.rpush("dir:quick:5", "n1|1|p2|1|Bea")
        await raw.hset("pl:names", "p1", "Ana")
        code, report = await cleanup(own_redis.url, "--to-tagged")
        assert code == 1 and report == {}  # a node beats: nothing renamed
        await raw.zadd("dir:nodes", {"n1": int((time.time() - 3600) * 1000)})
        archive_ttl = await raw.pttl("room:done:archive")

        code, report = await cleanup(own_redis.url, "--to-tagged")
        assert code == 0
        assert report["keys_renamed"] == 5 and report["leases_dropped"] == 1
        assert report["directory_renamed"] == 2 and report["players_renamed"] == 1
        # The keys every room shares, under their one hash tag each (a cluster's names).
        assert await raw.hgetall("{dir}:seated") == {b"p1": b"open"}
        assert await raw.hget("{pl}:names", "p1") == b"Ana"
        assert await raw.exists("dir:open", "dir:nodes", "dir:quick:5", "pl:names") == 0
        names = sorted([k.decode() async for k in raw.scan_iter(match="room:*")])
        assert names == [
            "room:{bad}:quarantine",
            "room:{done}:archive",
            "room:{open}:epoch",
            "room:{open}:log",
            "room:{open}:state",
        ]
        assert 0 < await raw.pttl("room:{done}:archive") <= archive_ttl
        assert await raw.exists("rooms") == 0

        tagged = RedisStore(connect(own_redis.url), tagged=True)
        assert await tagged.rooms() == ["open"]
        assert await tagged.log("open") == [event(1), event(2)]
        assert await tagged.load("done") == record(1, True)
        assert await tagged.quarantined("bad") == "damaged"
        await tagged.close()
        plain = RedisStore(connect(own_redis.url))
        with pytest.raises(StoreError, match="tagged layout"):
            await plain.load("open")
        await plain.close()
    finally:
        await raw.aclose()
        await store.close()
