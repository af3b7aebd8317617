"""deploy/backup.py against real stores: a lone node's SQLite file, a real redis-server of
the test's own (loopback, its own folder) and a real three-shard Redis Cluster. Each test
fills a store through the server's own store classes, backs it up while writes go on,
wipes it, restores it with the command line as an operator runs it, and reads everything
back through the same classes."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
import redis
from redis.cluster import RedisCluster as SyncRedisCluster

from deploy import backup
from server.cluster.lease import Leases
from server.store import FencedError, LogEntry, Store
from server.store.redis import RedisStore, connect, connect_cluster
from server.store.sqlite import SqliteStore
from tests.redis_cluster import RedisCluster
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]

#: Rooms written before the backup, each with a log of a few entries.
FIXED = {
    f"room{n}": [LogEntry(seq, f"{n}:{seq}".encode() * 40) for seq in range(1, 7)] for n in range(8)
}


def snapshot_of(seq: int) -> bytes:
    """Snapshots say which log entry they follow, so a restored room can be checked."""
    return f"snapshot after {seq}".encode()


async def fill(store: Store) -> None:
    for room, entries in FIXED.items():
        for entry in entries:
            await store.save(room, snapshot_of(entry.seq), [entry])
    await store.retire("room0")


async def check_fixed(store: Store) -> None:
    rooms = set(await store.rooms())
    assert set(FIXED) - {"room0"} <= rooms and "room0" not in rooms  # retired: a replay only
    for room, entries in FIXED.items():
        assert await store.load(room) == snapshot_of(entries[-1].seq)
        assert await store.log(room) == entries


async def keep_writing(store: Store, rooms: int, stop: asyncio.Event) -> int:
    """Saves to rooms of their own until told to stop; returns how many."""
    saves = 0
    while not stop.is_set():
        room = f"live{saves % rooms}"
        seq = saves // rooms + 1
        await store.save(room, snapshot_of(seq), [LogEntry(seq, b"x" * 300)])
        saves += 1
        await asyncio.sleep(0)
    return saves


async def check_consistent(store: Store) -> int:
    """Every restored room's snapshot follows the last entry of its restored log."""
    checked = 0
    for room in await store.rooms():
        log = await store.log(room)
        assert log, room
        assert await store.load(room) == snapshot_of(log[-1].seq), room
        assert [entry.seq for entry in log] == list(range(1, len(log) + 1)), room
        checked += 1
    return checked


async def run_cli(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "deploy.backup",
        *args,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await asyncio.wait_for(process.communicate(), 120)
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


# --- SQLite ------------------------------------------------------------------------------


async def test_sqlite_backup_while_the_node_writes_then_restore(tmp_path: Path) -> None:
    var = tmp_path / "var"
    database = var / "rooms.db"
    store = SqliteStore(database)
    secret = var / "session-secret"
    secret.write_bytes(b"a" * 64 + b"\n")
    await fill(store)
    await store.save("fenced", snapshot_of(1), [LogEntry(1, b"f")], fence=7)

    stop = asyncio.Event()
    writer = asyncio.create_task(keep_writing(store, 5, stop))
    await asyncio.sleep(0.05)
    code, out, err = await run_cli("sqlite-backup", str(database), str(tmp_path / "b1"))
    stop.set()
    saves = await writer
    assert code == 0, err
    manifest = json.loads(out)
    assert manifest["session_secret"] is True and saves > 0
    assert manifest["counts"]["rooms"] >= len(FIXED) + 1 and manifest["counts"]["fences"] == 1
    assert ((tmp_path / "b1" / "session-secret").stat().st_mode & 0o777) == 0o600
    assert not (tmp_path / "b1" / "rooms.db-wal").exists()  # one self-contained file
    await store.close()

    shutil.rmtree(var)  # the disk is lost: database, WAL and key
    code, out, err = await run_cli("sqlite-restore", str(tmp_path / "b1"), str(database))
    assert code == 0, err
    assert json.loads(out)["session_secret"] == "restored"
    assert secret.read_bytes() == b"a" * 64 + b"\n"
    assert (secret.stat().st_mode & 0o777) == 0o600

    restored = SqliteStore(database)
    try:
        await check_fixed(restored)
        assert await check_consistent(restored) == manifest["counts"]["rooms"]
        # The fence survived: an owner with an older epoch is still refused.
        with pytest.raises(FencedError):
            await restored.save("fenced", snapshot_of(2), [LogEntry(2, b"g")], fence=6)
        await restored.save("fenced", snapshot_of(2), [LogEntry(2, b"g")], fence=7)
    finally:
        await restored.close()


def test_sqlite_restore_refuses_a_damaged_backup(tmp_path: Path) -> None:
    database = tmp_path / "var" / "rooms.db"
    asyncio.run(_one_room(database))
    backup.sqlite_backup(database, tmp_path / "b")
    with (tmp_path / "b" / "rooms.db").open("r+b") as file:
        file.seek(4096 + 100)
        file.write(b"\xff" * 16)
    with pytest.raises(backup.BackupError, match="checksum"):
        backup.sqlite_restore(tmp_path / "b", tmp_path / "elsewhere" / "rooms.db")
    with pytest.raises(backup.BackupError, match="exists"):
        backup.sqlite_backup(database, tmp_path / "b")


async def _one_room(database: Path) -> None:
    store = SqliteStore(database)
    await store.save("r", snapshot_of(0), [LogEntry(0, b"x" * 5000)])
    await store.close()


# --- Redis -------------------------------------------------------------------------------


async def test_redis_backup_while_nodes_write_then_restore(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    client = connect(own_redis.url)
    store = RedisStore(client)
    raw = redis.Redis.from_url(own_redis.url)
    try:
        await fill(store)
        # A room owned by a node: its epoch is kept, its lease (a running process's) is not.
        leases = Leases(client, node="n1", ttl=30.0)
        lease = await leases.acquire("owned")
        assert lease is not None
        await store.save("owned", snapshot_of(1), [LogEntry(1, b"o")], fence=lease.epoch)
        raw.hset("dir:open", mapping={"room1": "", "owned": "ABCD"})
        raw.hset("dir:seated", "player-1", "room1")
        raw.zadd("dir:nodes", {"n1": 1})
        raw.rpush("dir:quick:5", "n1|c1|p|1|name")

        stop = asyncio.Event()
        writer = asyncio.create_task(keep_writing(store, 5, stop))
        await asyncio.sleep(0.05)
        file = tmp_path / "backups" / "redis.ndjson.gz"
        code, out, err = await run_cli(
            "redis-backup", "-", str(file), env={"NINEPOOL_REDIS_URL": own_redis.url}
        )
        stop.set()
        saves = await writer
        assert code == 0, err
        header = json.loads(out)
        assert saves > 0 and header["rooms"] >= len(FIXED) + 1
        assert "127.0.0.1" in header["source"]

        raw.flushall()  # Redis lost everything
        code, out, err = await run_cli("redis-restore", str(file), own_redis.url)
        assert code == 0, err
        assert json.loads(out)["keys"] == header["keys"]

        # Restored through RESTORE, so it is in the AOF too: a crash and a restart keep it.
        await client.aclose()
        own_redis.kill()
        own_redis.start()
        client = connect(own_redis.url)
        store = RedisStore(client)
        await check_fixed(store)
        assert await check_consistent(store) == header["rooms"]
        assert raw.get("room:owned:epoch") == str(lease.epoch).encode()
        assert raw.exists("room:owned:lease", "dir:nodes", "dir:quick:5") == 0
        assert raw.hgetall("dir:open") == {b"room1": b"", b"owned": b"ABCD"}
        assert raw.hget("dir:seated", "player-1") == b"room1"
        # The next owner goes on from the restored epoch.
        again = await Leases(client, node="n2", ttl=30.0).acquire("owned")
        assert again is not None and again.epoch == lease.epoch + 1

        # A restore over data is refused unless asked for.
        code, _, err = await run_cli("redis-restore", str(file), own_redis.url)
        assert code == 1 and "--replace" in err
        code, _, err = await run_cli("redis-restore", str(file), own_redis.url, "--replace")
        assert code == 0, err
    finally:
        raw.close()
        await client.aclose()


def test_redis_backup_with_a_prefix_and_a_password(own_redis: RedisServer, tmp_path: Path) -> None:
    raw = redis.Redis.from_url(own_redis.url)
    try:
        raw.config_set("requirepass", "s3cret")
        url = f"redis://:s3cret@127.0.0.1:{own_redis.port}/0"
        raw = redis.Redis.from_url(url)
        raw.hset("np:room:a:state", mapping={"snapshot": b"s", "seq": 1})
        raw.sadd("np:rooms", "a")
        raw.set("other:key", "not ours")
        header = backup.redis_backup(url, tmp_path / "np.ndjson", prefix="np:")
        assert (
            header["keys"] == 2 and header["source"] == f"redis://***@127.0.0.1:{own_redis.port}/0"
        )
        assert "s3cret" not in (tmp_path / "np.ndjson").read_text()
        raw.flushall()
        # A file cut short is refused before anything is written.
        lines = (tmp_path / "np.ndjson").read_text().splitlines(keepends=True)
        (tmp_path / "cut.ndjson").write_text("".join(lines[:-1]))
        with pytest.raises(backup.BackupError, match="cut short"):
            backup.redis_restore(tmp_path / "cut.ndjson", url)
        assert raw.dbsize() == 0
        with pytest.raises(backup.BackupError, match="prefix"):
            backup.redis_restore(tmp_path / "np.ndjson", url, prefix="")
        backup.redis_restore(tmp_path / "np.ndjson", url)
        assert raw.hget("np:room:a:state", "snapshot") == b"s"
        assert raw.smembers("np:rooms") == {b"a"}
        assert raw.exists("other:key") == 0
    finally:
        raw.close()


# --- Redis Cluster -----------------------------------------------------------------------


async def test_redis_cluster_backup_while_nodes_write_then_restore(
    own_redis: RedisServer, tmp_path: Path
) -> None:
    """The same on a real three-shard Redis Cluster (`redis+cluster://`): rooms spread
    over the shards, the directory's keys in their one slot; a backup of it refuses to go
    into a single Redis."""
    shards = RedisCluster(tmp_path / "cluster")
    try:
        shards.start()
        url = shards.url.replace("redis://", "redis+cluster://", 1)
        client = connect_cluster(shards.url)
        store = RedisStore(client, tagged=True)
        raw = SyncRedisCluster.from_url(shards.url)
        try:
            await fill(store)
            leases = Leases(client, node="n1", ttl=30.0, keys=store.keys)  # type: ignore[arg-type]
            lease = await leases.acquire("owned")
            assert lease is not None
            await store.save("owned", snapshot_of(1), [LogEntry(1, b"o")], fence=lease.epoch)
            raw.hset("{dir}:open", mapping={"room1": "", "owned": "ABCD"})
            raw.hset("{dir}:seated", "player-1", "room1")
            raw.zadd("{dir}:nodes", {"n1": 1})
            raw.rpush("{dir}:quick:5", "n1|c1|p|1|name")
            raw.hset("{pl}:names", "player-1", "Ana")
            assert all(shards.dbsize(port) > 0 for port in shards.ports)

            stop = asyncio.Event()
            writer = asyncio.create_task(keep_writing(store, 5, stop))
            await asyncio.sleep(0.05)
            file = tmp_path / "backups" / "cluster.ndjson.gz"
            code, out, err = await run_cli(
                "redis-backup", "-", str(file), env={"NINEPOOL_REDIS_URL": url}
            )
            stop.set()
            saves = await writer
            assert code == 0, err
            header = json.loads(out)
            assert header["cluster"] is True and saves > 0
            assert header["rooms"] >= len(FIXED) + 1

            # Into one Redis it does not go (its keys are laid out for a cluster).
            code, _, err = await run_cli("redis-restore", str(file), own_redis.url)
            assert code == 1 and "Redis Cluster" in err

            shards.flush()  # the cluster lost everything
            code, out, err = await run_cli("redis-restore", str(file), url)
            assert code == 0, err
            assert json.loads(out)["keys"] == header["keys"]

            await check_fixed(store)
            assert await check_consistent(store) == header["rooms"]
            assert raw.get("room:{owned}:epoch") == str(lease.epoch).encode()
            assert raw.exists("room:{owned}:lease", "{dir}:nodes", "{dir}:quick:5") == 0
            assert raw.hgetall("{dir}:open") == {b"room1": b"", b"owned": b"ABCD"}
            assert raw.hget("{dir}:seated", "player-1") == b"room1"
            assert raw.hget("{pl}:names", "player-1") == b"Ana"
            again = await Leases(client, node="n2", ttl=30.0, keys=store.keys).acquire(  # type: ignore[arg-type]
                "owned"
            )
            assert again is not None and again.epoch == lease.epoch + 1
            code, _, err = await run_cli("redis-restore", str(file), url)
            assert code == 1 and "--replace" in err
        finally:
            raw.close()
            await store.close()
    finally:
        shards.kill()
