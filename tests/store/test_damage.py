"""A damaged store is noticed: real SQLite files damaged by the test (bytes overwritten
inside their pages), and a real redis-server holding bytes no room wrote."""

from __future__ import annotations

import asyncio
import sqlite3
import sys
import zlib
from pathlib import Path

import msgspec
import pytest

from server.store import DamagedRoom, LogEntry, StoreError
from server.store.integrity import check_room, checked_replay, record_facts
from server.store.redis import RedisStore, connect
from server.store.sqlite import SqliteStore
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]
PAGE = 4096


def record(seq: int, closed: bool = False) -> bytes:
    """A stand-in for a room's record: the fields the store reads, and some padding."""
    return msgspec.msgpack.encode({"room": "r", "seq": seq, "closed": closed, "pad": "p" * 300})


def event(seq: int, salt: int = 0, size: int = 200) -> LogEntry:
    payload = bytes((seq * 7 + salt * 13 + n) % 251 for n in range(size))
    return LogEntry(seq, msgspec.msgpack.encode({"t": "shot_result", "seq": seq, "traj": payload}))


async def fill(path: Path, rooms: int = 12, events: int = 20) -> dict[str, list[LogEntry]]:
    """A store of `rooms` rooms, closed again (its WAL folded into the file)."""
    store = SqliteStore(path)
    written: dict[str, list[LogEntry]] = {}  # every entry's bytes are its own
    for n in range(rooms):
        room = f"room{n}"
        written[room] = [event(seq, salt=n) for seq in range(1, events + 1)]
        for entry in written[room]:
            await store.save(room, record(entry.seq), [entry])
    await store.close()
    assert not Path(f"{path}-wal").exists() or Path(f"{path}-wal").stat().st_size == 0
    return written


def overwrite(path: Path, offset: int, data: bytes) -> None:
    with path.open("r+b") as file:
        file.seek(offset)
        file.write(data)


def quick_check(path: Path) -> list[str]:
    db = sqlite3.connect(path)
    try:
        return [str(row[0]) for row in db.execute("PRAGMA quick_check")]
    except sqlite3.DatabaseError as exc:
        return [str(exc)]
    finally:
        db.close()


# --- SQLite: damage the pages' structure: the file is refused ----------------------------


async def test_a_file_whose_pages_are_damaged_is_refused_naming_the_file_and_the_check(
    tmp_path: Path,
) -> None:
    path = tmp_path / "rooms.db"
    written = await fill(path)
    data = path.read_bytes()
    page = data.index(written["room5"][3].data) // PAGE
    # The leaf page's header: its cell count and first cell pointer, overwritten.
    overwrite(path, page * PAGE + 3, b"\xff" * 9)
    assert quick_check(path) != ["ok"]
    with pytest.raises(StoreError) as refused:
        SqliteStore(path)
    message = str(refused.value)
    assert str(path) in message and "PRAGMA quick_check found damage" in message
    assert "Backups" in message  # and what to do about it


async def test_the_server_refuses_to_start_on_a_damaged_file(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    written = await fill(path)
    page = path.read_bytes().index(written["room2"][0].data) // PAGE
    overwrite(path, page * PAGE + 100, bytes([0xA5]) * 1000)  # the middle of a page
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        *("-m", "server", "--host", "127.0.0.1", "--port", "0", "--workers", "0"),
        *("--store", f"sqlite://{path}", "--secret", "s" * 40),
        cwd=ROOT,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 1, (out, err)
    assert b"ready" not in out
    last = err.decode().strip().splitlines()[-1]
    assert last.startswith("cannot start the server: sqlite store ")
    assert str(path) in last and "PRAGMA quick_check found damage" in last


# --- SQLite: damage inside a row's bytes: noticed by the row's checksum ------------------


async def test_bytes_overwritten_inside_a_row_are_noticed_when_read(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    written = await fill(path)
    damaged = written["room7"][9]
    at = path.read_bytes().index(damaged.data) + len(damaged.data) // 2
    overwrite(path, at, b"\x00\x01\x02\x03")  # inside the trajectory: still MessagePack
    assert quick_check(path) == ["ok"]  # the pages' structure is intact
    store = SqliteStore(path)
    try:
        with pytest.raises(DamagedRoom) as caught:
            await store.log("room7")
        assert caught.value.room == "room7" and str(path) in str(caught.value)
        assert "log entry 10 fails its CRC-32" in str(caught.value)
        with pytest.raises(DamagedRoom):
            await store.log_page("room7", 5, 10)
        assert await store.log("room7", after=10) == written["room7"][10:]  # the rest reads
        assert await check_room(store, "room6") is not None  # other rooms are untouched
        with pytest.raises(DamagedRoom, match="CRC-32"):
            await check_room(store, "room7")
        # Retired, it is moved aside rather than packed into an archive with the damage.
        await store.retire("room7")
        assert await store.quarantined("room7") == "log entry 10 fails its CRC-32"
        assert await store.load("room7") is None
    finally:
        await store.close()


async def test_a_damaged_snapshot_is_noticed(tmp_path: Path) -> None:
    path = tmp_path / "rooms.db"
    await fill(path, rooms=3)
    last = record(20)
    at = path.read_bytes().index(last) + 40
    overwrite(path, at, b"\xc1")
    assert quick_check(path) == ["ok"]
    store = SqliteStore(path)
    try:
        with pytest.raises(DamagedRoom, match="its snapshot fails its CRC-32"):
            for room in await store.rooms():
                await store.load(room)
    finally:
        await store.close()


async def test_a_schema_1_file_opens_with_its_rows_unchecked_and_new_rows_checked(
    tmp_path: Path,
) -> None:
    """Files written before rows carried a CRC-32 are brought up to date and still read."""
    path = tmp_path / "rooms.db"
    db = sqlite3.connect(path)
    db.executescript(
        "CREATE TABLE rooms (room TEXT PRIMARY KEY, snapshot BLOB NOT NULL);"
        "CREATE TABLE events (room TEXT NOT NULL, seq INTEGER NOT NULL, data BLOB NOT NULL,"
        " PRIMARY KEY (room, seq));"
        "CREATE TABLE fences (room TEXT PRIMARY KEY, fence INTEGER NOT NULL);"
        "PRAGMA user_version = 1;"
    )
    db.execute("INSERT INTO rooms VALUES ('old', ?)", (record(1),))
    db.execute("INSERT INTO events VALUES ('old', 1, ?)", (event(1).data,))
    db.commit()
    db.close()
    store = SqliteStore(path)
    try:
        assert await store.load("old") == record(1)
        assert await store.log("old") == [event(1)]
        await store.save("old", record(2), [event(2)])
        await store.retire("old")
        assert await store.log("old") == [event(1), event(2)]
    finally:
        await store.close()
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA user_version").fetchone() == (2,)
    db.close()


# --- what the rooms layer and the replays are given --------------------------------------


async def test_records_behind_their_logs_and_snapshots_that_are_not_records(
    tmp_path: Path,
) -> None:
    store = SqliteStore(tmp_path / "rooms.db")
    try:
        await store.save("good", record(3), [event(1), event(2), event(3)])
        await store.save("behind", record(3), [event(1), event(2), event(3)])
        await store.save("behind", record(2), [event(4)])  # a record behind its log
        await store.save("garbage", b"\xc1\xc1 not MessagePack", [event(1)])
        await store.save("not-an-event", record(1), [LogEntry(1, b"\x93\x01\x02\x03")])
        facts = await check_room(store, "good")
        assert facts is not None and facts.seq == 3 and not facts.closed
        with pytest.raises(DamagedRoom, match=r"its record \(seq 2\) is behind its log \(seq 4\)"):
            await check_room(store, "behind")
        with pytest.raises(DamagedRoom, match="its snapshot is not a room record"):
            await check_room(store, "garbage")
        with pytest.raises(DamagedRoom, match="log entry 1 is not a room event"):
            await check_room(store, "not-an-event")
        assert await check_room(store, "nowhere") is None
        # A replay's reader gets the same clear error, and one for a quarantined room.
        with pytest.raises(DamagedRoom, match="not a room record"):
            await checked_replay(store, "garbage")
        await store.quarantine("garbage", "its snapshot is not a room record")
        with pytest.raises(DamagedRoom, match="quarantined: its snapshot is not a room record"):
            await checked_replay(store, "garbage")
        replay = await checked_replay(store, "good")
        assert replay is not None and [e.seq for e in replay[1]] == [1, 2, 3]
        assert await checked_replay(store, "nowhere") is None
    finally:
        await store.close()


def test_the_fields_a_store_reads_are_those_of_a_room_record() -> None:
    """`RecordFacts` reads `seq` and `closed` of a real room record, as the room wrote it."""
    from protocol import messages as m
    from server.rooms.model import RoomRecord

    room_record = RoomRecord(
        room="r1",
        settings=m.RoomSettings(),
        code=None,
        seed=1,
        seq=41,
        status="playing",
        seats=[None, None],
        table=None,
        match=1,
        lag_shots={},
        rematch=[],
        extensions=[0, 0],
        clock_left=None,
        closed=True,
    )
    facts = record_facts("r1", msgspec.msgpack.encode(room_record))
    assert (facts.seq, facts.closed) == (41, True)


# --- Redis ------------------------------------------------------------------------------


async def test_redis_rooms_are_checked_the_same_way(own_redis: RedisServer) -> None:
    store = RedisStore(connect(own_redis.url))
    raw = connect(own_redis.url)
    try:
        await store.save("good", record(2), [event(1), event(2)])
        await store.save("garbage", record(1), [event(1)])
        await raw.hset("room:garbage:state", "snapshot", b"\xc1 written by no room")
        await store.save("behind", record(1), [event(1)])
        await raw.hset("room:behind:state", "seq", 5)  # the store's own seq ahead of the
        await raw.xadd("room:behind:log", {"d": event(5).data}, id="5-1")  # record's
        assert await check_room(store, "good") is not None
        with pytest.raises(DamagedRoom, match="not a room record") as caught:
            await check_room(store, "garbage")
        assert "redis 127.0.0.1" in str(caught.value)
        with pytest.raises(DamagedRoom, match="behind its log"):
            await check_room(store, "behind")
        await store.quarantine("behind", "its record is behind its log")
        assert await store.rooms() == ["garbage", "good"]
        assert await store.quarantined("behind") == "its record is behind its log"
        with pytest.raises(DamagedRoom, match="quarantined"):
            await checked_replay(store, "behind")
        kept = await raw.hgetall("room:behind:quarantine")
        assert kept[b"form"] == b"live" and kept[b"reason"] == b"its record is behind its log"
        snapshot, entries = msgspec.msgpack.decode(kept[b"data"])
        assert snapshot == record(1) and [seq for seq, _ in entries] == [1, 5]
    finally:
        await raw.aclose()
        await store.close()


def test_archives_carry_a_checksum() -> None:
    """The archive format is zlib's: its Adler-32 notices a flipped byte."""
    from server.store import archive

    packed = bytearray(archive.pack(record(3), [event(1), event(2), event(3)]))
    packed[len(packed) // 2] ^= 0x40
    with pytest.raises(DamagedRoom, match="inflate"):
        archive.unpack(bytes(packed), "r1")
    assert zlib.decompress(archive.pack(b"", [])[len(archive.MAGIC) :])
