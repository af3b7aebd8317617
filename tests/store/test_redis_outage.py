"""The Redis store when Redis goes away: writes wait and land, nothing is lost or doubled."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator

import pytest

from server.store import LogEntry, StoreError, monitor_health, store_healthy, store_ready
from server.store.redis import RedisStore, connect
from tests.redis_server import RedisServer, free_port

WAIT = 30.0


def entry(seq: int) -> LogEntry:
    return LogEntry(seq, b"event %d" % seq)


async def wait_until(condition: object, what: str) -> None:
    assert callable(condition)
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


@pytest.fixture
async def store(own_redis: RedisServer) -> AsyncIterator[RedisStore]:
    opened = RedisStore(connect(own_redis.url))
    yield opened
    await opened.close()


async def test_a_write_waits_for_redis_and_then_lands(
    own_redis: RedisServer, store: RedisStore
) -> None:
    await store.save("r1", b"one", [entry(1)])
    assert store.healthy
    own_redis.stop()
    pending = asyncio.create_task(store.save("r1", b"two", [entry(2)]))
    await wait_until(lambda: not store.healthy, "the store to notice Redis is gone")
    assert not pending.done()  # the caller is still waiting: nothing was dropped
    assert await store_healthy(store) is False  # what /readyz reports
    own_redis.start()
    await asyncio.wait_for(pending, WAIT)
    assert store.healthy
    assert await store_healthy(store) is True
    assert await store.load("r1") == b"two"
    assert await store.log("r1") == [entry(1), entry(2)]


async def test_reads_give_up_after_their_deadline(own_redis: RedisServer) -> None:
    store = RedisStore(connect(own_redis.url), read_deadline=0.3)
    await store.save("r1", b"s")
    own_redis.stop()
    with pytest.raises(StoreError, match="unavailable"):
        await store.load("r1")
    assert not store.healthy
    own_redis.start()
    assert await store.load("r1") == b"s"
    assert store.healthy
    await store.close()


async def test_a_redis_crash_mid_stream_loses_and_doubles_nothing(
    own_redis: RedisServer, store: RedisStore
) -> None:
    """Redis is killed (SIGKILL) while a room writes: the writes in flight wait, land
    once Redis is back, and the log is exactly 1..N, each entry once."""
    acknowledged = 0
    total = 150

    async def room() -> None:
        nonlocal acknowledged
        for seq in range(1, total + 1):
            await store.save("r1", b"snapshot %d" % seq, [entry(seq)])
            acknowledged = seq

    writer = asyncio.create_task(room())
    await wait_until(lambda: acknowledged >= 40, "some writes")
    own_redis.kill()
    crashed_at = acknowledged
    await asyncio.sleep(0.2)
    own_redis.start()
    await asyncio.wait_for(writer, WAIT)
    log = await store.log("r1")
    assert [e.seq for e in log] == list(range(1, total + 1))
    assert log == [entry(seq) for seq in range(1, total + 1)]
    assert await store.load("r1") == b"snapshot %d" % total
    assert crashed_at < total


async def test_acknowledged_writes_survive_a_crash_of_redis(own_redis: RedisServer) -> None:
    store = RedisStore(connect(own_redis.url))
    for seq in range(1, 31):
        await store.save(f"room-{seq % 3}", b"snapshot %d" % seq, [entry(seq)])
    await store.close()
    own_redis.kill()  # no clean shutdown: only what was fsynced survives
    own_redis.start()
    reopened = RedisStore(connect(own_redis.url))
    assert sorted(await reopened.rooms()) == ["room-0", "room-1", "room-2"]
    assert [e.seq for e in await reopened.log("room-1")] == list(range(1, 31, 3))
    assert await reopened.load("room-0") == b"snapshot 30"
    await reopened.close()


class ReplyDropper:
    """A TCP proxy in front of Redis that can swallow one reply and cut the connection:
    the command ran in Redis, but the client never hears so."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = free_port()
        self.drop_next_reply = False
        self.dropped = 0
        self._server: asyncio.Server | None = None

    async def __aenter__(self) -> ReplyDropper:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def __aexit__(self, *_: object) -> None:
        assert self._server is not None
        self._server.close()
        await self._server.wait_closed()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)

        async def pipe(
            source: asyncio.StreamReader, sink: asyncio.StreamWriter, down: bool
        ) -> None:
            while data := await source.read(65536):
                if down and self.drop_next_reply:
                    self.drop_next_reply = False
                    self.dropped += 1
                    break
                sink.write(data)
                await sink.drain()

        tasks = [
            asyncio.create_task(pipe(reader, up_writer, down=False)),
            asyncio.create_task(pipe(up_reader, writer, down=True)),
        ]
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        for stream in (writer, up_writer):
            stream.close()
            with contextlib.suppress(Exception):
                await stream.wait_closed()


async def test_a_lost_reply_is_retried_without_doubling_or_error(own_redis: RedisServer) -> None:
    async with ReplyDropper(own_redis.port) as proxy:
        store = RedisStore(connect(f"redis://127.0.0.1:{proxy.port}/0"))
        await store.save("r1", b"one", [entry(1)])  # connection made, script loaded
        proxy.drop_next_reply = True
        await asyncio.wait_for(store.save("r1", b"two", [entry(2), entry(3)]), WAIT)
        assert proxy.dropped == 1
        assert await store.log("r1") == [entry(1), entry(2), entry(3)]
        assert await store.load("r1") == b"two"
        # A genuine repeat by the caller (not a retry) is still refused.
        with pytest.raises(StoreError, match="does not follow"):
            await store.save("r1", b"two", [entry(2), entry(3)])
        await store.close()


async def test_data_layout_in_redis(own_redis: RedisServer) -> None:
    """The documented layout (server/store/README.md), as any Redis client sees it."""
    store = RedisStore(connect(own_redis.url), prefix="np:")
    await store.save("r1", b"snap", [entry(0), entry(1), entry(7)])
    raw = connect(own_redis.url)
    assert await raw.hgetall("np:room:r1:state") == {b"snapshot": b"snap", b"seq": b"7"}
    stream = await raw.xrange("np:room:r1:log")
    assert [(i, fields) for i, fields in stream] == [
        (b"0-1", {b"d": b"event 0"}),
        (b"1-1", {b"d": b"event 1"}),
        (b"7-1", {b"d": b"event 7"}),
    ]
    assert await raw.smembers("np:rooms") == {b"r1"}
    await raw.aclose()
    await store.close()


async def test_readiness_follows_redis_even_when_nobody_writes(
    own_redis: RedisServer, store: RedisStore
) -> None:
    monitor = asyncio.create_task(monitor_health(store, interval=0.05))
    await wait_until(lambda: store_ready(store), "ready")
    own_redis.stop()
    await wait_until(lambda: not store_ready(store), "not ready while Redis is down")
    own_redis.start()
    await wait_until(lambda: store_ready(store), "ready again")
    monitor.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await monitor
