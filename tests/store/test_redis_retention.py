"""What a finished room leaves in Redis: one archive that expires, an epoch that expires,
nothing else; and the cleanup of what older versions left behind."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import pytest
import redis.asyncio as aioredis

from server.store import DamagedRoom, LogEntry
from server.store.redis import EPOCH_KEPT_MS, RedisStore, connect
from tests.redis_server import RedisServer

DAY_MS = 86_400_000


def entry(seq: int) -> LogEntry:
    return LogEntry(seq, b"event %d" % seq)


@pytest.fixture
async def raw(own_redis: RedisServer) -> AsyncIterator[aioredis.Redis]:
    client = connect(own_redis.url)
    yield client
    await client.aclose()


async def keys_of(client: aioredis.Redis, pattern: str = "*") -> list[str]:
    return sorted([k.decode() async for k in client.scan_iter(match=pattern)])


async def test_a_retired_room_is_one_expiring_archive(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    store = RedisStore(connect(own_redis.url), prefix="np:", retention=7 * 86400)
    await raw.incr("np:room:r1:epoch")
    await store.save("r1", b"snap", [entry(1), entry(2)], fence=1)
    await store.save("r2", b"open", [entry(1)])
    await store.retire("r1")
    assert await keys_of(raw) == [
        "np:room:r1:archive",
        "np:room:r1:epoch",
        "np:room:r2:log",
        "np:room:r2:state",
        "np:rooms",
    ]
    assert await raw.smembers("np:rooms") == {b"r2"}
    archive_ttl = await raw.pttl("np:room:r1:archive")
    assert 7 * DAY_MS - 60_000 < archive_ttl <= 7 * DAY_MS
    assert 0 < await raw.pttl("np:room:r1:epoch") <= EPOCH_KEPT_MS
    assert await store.log("r1") == [entry(1), entry(2)]
    await store.close()


async def test_without_a_retention_the_archive_stays_until_trimmed(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    store = RedisStore(connect(own_redis.url))
    await store.save("r1", b"snap", [entry(1)])
    await store.retire("r1")
    assert await raw.pttl("room:r1:archive") == -1
    assert await store.archived() == 1
    assert await store.trim(time.time() + 1) == 1
    assert await keys_of(raw) == []
    await store.close()


async def test_a_deleted_room_leaves_only_an_expiring_epoch(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    store = RedisStore(connect(own_redis.url))
    await raw.incr("room:r1:epoch")
    await store.save("r1", b"snap", [entry(1)], fence=1)
    await store.delete("r1")
    assert await keys_of(raw) == ["room:r1:epoch"]
    assert 0 < await raw.pttl("room:r1:epoch") <= EPOCH_KEPT_MS
    await store.close()


async def test_epochs_of_rooms_long_gone_are_given_an_expiry(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    """What older versions left: an epoch per room ever played, kept forever."""
    store = RedisStore(connect(own_redis.url))
    for room in ("gone1", "gone2", "open", "leased", "archived"):
        await raw.set(f"room:{room}:epoch", 3)
    await store.save("open", b"s", [entry(1)])
    await raw.set("room:leased:lease", "3:n1", px=10_000)
    await store.save("archived", b"s", [entry(1)])
    await store.retire("archived")
    await raw.persist("room:archived:epoch")
    assert await store.expire_orphan_epochs() == 2
    for room in ("gone1", "gone2"):
        assert await raw.pttl(f"room:{room}:epoch") > 0
    for room in ("open", "leased", "archived"):
        assert await raw.pttl(f"room:{room}:epoch") == -1
    await store.close()


async def test_a_damaged_archive_is_reported_not_served(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    store = RedisStore(connect(own_redis.url))
    await store.save("r1", b"snap", [entry(n) for n in range(1, 50)])
    await store.retire("r1")
    value = bytearray(await raw.get("room:r1:archive"))
    value[len(value) // 2] ^= 0xFF
    await raw.set("room:r1:archive", bytes(value), keepttl=True)
    with pytest.raises(DamagedRoom, match="archive") as caught:
        await store.log("r1")
    assert caught.value.room == "r1" and "redis 127.0.0.1" in caught.value.where
    with pytest.raises(DamagedRoom):
        await store.load("r1")
    await store.close()


async def test_the_tagged_layout_keeps_a_room_in_one_hash_slot(
    own_redis: RedisServer, raw: aioredis.Redis
) -> None:
    store = RedisStore(connect(own_redis.url), tagged=True)
    await store.save("r1", b"snap", [entry(1)])
    await store.save("r2", b"open", [entry(1)])
    assert await keys_of(raw) == [
        "room:{r1}:log",
        "room:{r1}:state",
        "room:{r2}:log",
        "room:{r2}:state",
    ]
    assert await store.rooms() == ["r1", "r2"]
    await store.retire("r1")
    assert await store.rooms() == ["r2"]
    assert await store.load("r1") == b"snap"
    assert await store.archived() == 1
    await store.close()
