"""Room leases: one owner at a time, growing fencing epochs, expiry, renewal, loss."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest
import redis.asyncio as aioredis

from server.cluster import Holder, Lease, LeaseError, Leases
from server.store import FencedError, LogEntry
from server.store.redis import RedisStore, connect
from tests.redis_server import RedisServer

WAIT = 30.0


async def eventually(condition: Callable[[], object], what: str) -> None:
    for _ in range(int(WAIT / 0.01)):
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"timed out waiting for {what}")


async def acquire_when_free(leases: Leases, room: str) -> Lease:
    """Try until the room's lease is free (it expires or is released)."""
    for _ in range(int(WAIT / 0.02)):
        lease = await leases.acquire(room)
        if lease is not None:
            return lease
        await asyncio.sleep(0.02)
    raise AssertionError(f"{leases.node} never got {room}")


async def test_two_contenders_one_owner(client: aioredis.Redis) -> None:
    a = Leases(client, node="node-a", ttl=30.0)
    b = Leases(client, node="node-b", ttl=30.0)
    first = await a.acquire("r1")
    assert first is not None and first.epoch == 1 and first.node == "node-a"
    assert await b.acquire("r1") is None
    assert await a.acquire("r1") is None  # not even the holder twice
    assert await b.holder("r1") == Holder("node-a", 1)
    assert await a.release(first)
    second = await b.acquire("r1")
    assert second is not None and second.epoch == 2
    # A late release by the old owner must not free the new owner's lease.
    assert not await a.release(first)
    assert await a.holder("r1") == Holder("node-b", 2)


async def test_both_contenders_at_once(client: aioredis.Redis) -> None:
    contenders = [Leases(client, node=f"node-{n}", ttl=30.0) for n in range(8)]
    results = await asyncio.gather(*(c.acquire("r1") for c in contenders))
    winners = [lease for lease in results if lease is not None]
    assert len(winners) == 1
    assert await contenders[0].holder("r1") == Holder(winners[0].node, 1)


async def test_epochs_grow_with_every_owner(client: aioredis.Redis) -> None:
    nodes = [Leases(client, node=name, ttl=30.0) for name in ("a", "b", "c")]
    epochs = []
    for round_ in range(9):
        lease = await nodes[round_ % 3].acquire("r1")
        assert lease is not None
        epochs.append(lease.epoch)
        assert await nodes[0].epoch("r1") == lease.epoch
        await nodes[round_ % 3].release(lease)
    assert epochs == list(range(1, 10))
    assert await nodes[0].epoch("never-owned") == 0


async def test_rooms_have_their_own_leases(client: aioredis.Redis) -> None:
    a = Leases(client, node="a", ttl=30.0)
    b = Leases(client, node="b", ttl=30.0)
    assert await a.acquire("r1") is not None
    lease = await b.acquire("r2")
    assert lease is not None and lease.epoch == 1


async def test_lease_expires_when_the_holder_stops_renewing(client: aioredis.Redis) -> None:
    a = Leases(client, node="node-a", ttl=0.3)
    b = Leases(client, node="node-b", ttl=0.3)
    old = await a.acquire("r1")
    assert old is not None
    new = await acquire_when_free(b, "r1")  # nobody renews a's lease: it runs out
    assert new.epoch == old.epoch + 1
    assert not await a.renew(old)  # too late: the room has a newer owner
    assert await b.holder("r1") == Holder("node-b", new.epoch)


async def test_renew_keeps_the_lease(client: aioredis.Redis) -> None:
    a = Leases(client, node="node-a", ttl=0.3)
    lease = await a.acquire("r1")
    assert lease is not None
    assert await a.renew(lease)
    remaining = await client.pttl(a.keys.lease("r1"))
    assert 0 < remaining <= 300


async def test_an_expired_lease_nobody_took_is_reclaimed_by_renew(
    own_redis: RedisServer, client: aioredis.Redis
) -> None:
    a = Leases(client, node="node-a", ttl=0.3)
    lease = await a.acquire("r1")
    assert lease is not None
    for _ in range(int(WAIT / 0.02)):  # until Redis expires it
        if await a.holder("r1") is None:
            break
        await asyncio.sleep(0.02)
    assert await a.holder("r1") is None
    assert await a.renew(lease)  # still the latest epoch: safe to take back
    assert await a.holder("r1") == Holder("node-a", lease.epoch)
    store = RedisStore(connect(own_redis.url))
    await store.save("r1", b"still mine", fence=lease.epoch)
    await store.close()


async def test_keep_alive_holds_the_room_against_contenders(client: aioredis.Redis) -> None:
    a = Leases(client, node="node-a", ttl=0.75)
    b = Leases(client, node="node-b", ttl=0.75)
    lease = await a.acquire("r1")
    assert lease is not None
    keeper = a.keep_alive(lease)
    for _ in range(10):  # attempts over more than two TTLs
        assert await b.acquire("r1") is None
        await asyncio.sleep(0.2)
    assert keeper.held and not keeper.lost.is_set()
    await keeper.stop(release=True)
    taken = await b.acquire("r1")
    assert taken is not None and taken.epoch == lease.epoch + 1


async def test_keeper_reports_a_lost_lease(client: aioredis.Redis) -> None:
    a = Leases(client, node="node-a", ttl=0.3)
    b = Leases(client, node="node-b", ttl=30.0)
    lease = await a.acquire("r1")
    assert lease is not None
    lost: list[Lease] = []
    keeper = a.keep_alive(lease, on_lost=lost.append)
    # The lease runs out behind the keeper's back (as after a long pause) and b takes it.
    await client.delete(a.keys.lease("r1"))
    assert await b.acquire("r1") is not None
    await asyncio.wait_for(keeper.lost.wait(), WAIT)
    assert lost == [lease]
    assert not keeper.held
    await keeper.stop(release=True)  # does not release b's lease
    assert (await b.holder("r1") or Holder("", 0)).node == "node-b"


async def test_keeper_rides_out_a_redis_outage(own_redis: RedisServer) -> None:
    """Redis is down longer than the TTL: the keeper does not give the room up (nobody
    can take it meanwhile), and once Redis is back the lease is the owner's again."""
    client = connect(own_redis.url)
    a = Leases(client, node="node-a", ttl=0.3)
    lease = await a.acquire("r1")
    assert lease is not None
    lost: list[Lease] = []
    keeper = a.keep_alive(lease, on_lost=lost.append)
    own_redis.stop()
    with pytest.raises(LeaseError):
        await a.acquire("r2")
    await eventually(lambda: not keeper.held, "the lease to become unconfirmed")
    await asyncio.sleep(0.4)  # past the TTL: the lease key expires meanwhile
    own_redis.start()
    await eventually(lambda: keeper.held, "the keeper to renew or reclaim the lease")
    assert not lost
    store = RedisStore(connect(own_redis.url))
    await store.save("r1", b"caught up", fence=lease.epoch)
    await keeper.stop(release=True)
    await store.close()
    await client.aclose()


async def test_a_paused_owner_cannot_save_after_another_node_acquired(
    own_redis: RedisServer, client: aioredis.Redis
) -> None:
    a = Leases(client, node="node-a", ttl=0.3)
    b = Leases(client, node="node-b", ttl=30.0)
    store_a = RedisStore(connect(own_redis.url))
    store_b = RedisStore(connect(own_redis.url))
    old = await a.acquire("r1")
    assert old is not None
    await store_a.save("r1", b"a's snapshot", [LogEntry(1, b"a1")], fence=old.epoch)
    new = await acquire_when_free(b, "r1")  # a "paused": its lease ran out
    # Before b has written anything, a wakes up and tries to go on: refused.
    with pytest.raises(FencedError, match="stale"):
        await store_a.save("r1", b"a's late snapshot", [LogEntry(2, b"a2")], fence=old.epoch)
    assert await store_b.load("r1") == b"a's snapshot"
    assert [e.seq for e in await store_b.log("r1")] == [1]
    await store_b.save("r1", b"b's snapshot", [LogEntry(2, b"b2")], fence=new.epoch)
    assert await store_b.load("r1") == b"b's snapshot"
    await store_a.close()
    await store_b.close()


async def test_a_fence_without_any_lease_is_refused(own_redis: RedisServer) -> None:
    store = RedisStore(connect(own_redis.url))
    with pytest.raises(FencedError, match="no owner epoch"):
        await store.save("r1", b"s", fence=1)
    assert await store.load("r1") is None
    await store.close()


def test_bad_settings() -> None:
    client = connect("redis://127.0.0.1:1/0")
    with pytest.raises(ValueError):
        Leases(client, node="", ttl=1.0)
    with pytest.raises(ValueError):
        Leases(client, node="a", ttl=0)
