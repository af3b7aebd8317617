"""Room ownership: one owner per room at a time, through a lease in Redis.

A lease is the key `room:<id>:lease` holding `<epoch>:<node>` with an expiry (TTL). The
**fencing epoch** is the counter `room:<id>:epoch`, incremented by every successful
acquire, so each new owner of a room holds a larger number than every owner before it.
The owner passes it to `Store.save(..., fence=epoch)`; the Redis store refuses a save
whose fence is not the room's current epoch. A lease can expire behind an owner's back
(a long GC pause, a stopped process, a partition): the fence, not the clock, is what
keeps such an owner from writing once somebody else has the room.

    leases = Leases(client, node="node-a", ttl=10.0)
    lease = await leases.acquire("r1")            # None: somebody else owns it
    keeper = leases.keep_alive(lease, on_lost=lambda lease: ...)
    await store.save("r1", snapshot, entries, fence=lease.epoch)
    ...
    await keeper.stop(release=True)

Every call here is one Lua script within one hash slot, so checking and changing happen in
one step, on one Redis or on a Redis Cluster (`take_over` is two such steps, see below).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import NamedTuple, TypeVar

import redis.asyncio as aioredis
from redis import exceptions as redis_errors

from server.store.redis import QUICK_BACKOFF, Backoff, RedisKeys, cancel_requested, is_transient

log = logging.getLogger(__name__)

T = TypeVar("T")


class LeaseError(Exception):
    """Redis could not be reached to answer a lease call (nothing is known either way)."""


@dataclass(frozen=True)
class Lease:
    """A lease this node acquired: pass `epoch` as the store's `fence`."""

    room: str
    node: str
    epoch: int
    ttl: float
    #: Event-loop time when the acquire was sent: the lease is valid until `since + ttl`
    #: at the latest, whatever the reply's delay.
    since: float

    @property
    def token(self) -> str:
        """The lease key's value: tells this very acquisition apart from any other, even
        an earlier one by the same node."""
        return f"{self.epoch}:{self.node}"


class Holder(NamedTuple):
    node: str
    epoch: int


# KEYS: lease, epoch.  ARGV: node, ttl (ms).  Set-if-absent with expiry, and a new epoch.
_ACQUIRE = """
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], epoch .. ':' .. ARGV[1], 'NX', 'PX', ARGV[2])
return epoch
"""

# Taking a room over is two steps, each a script within one hash slot, so that it works on
# a Redis Cluster too, where the room's keys and the directory's lie in different slots:
#
# 1. `_MAY_TAKE_OVER` (the directory's slot) judges the room's last holder: the node in
#    its lease, or if the lease is free, the node that last owned the room;
# 2. `_SWAP` (the room's slot) gives the lease a new epoch only if it still holds what
#    step 1 judged. Had the holder renewed meanwhile, its lease would not be free, or be
#    the same token (a node judged dead by its heartbeat, whose later saves the new
#    epoch fences out, exactly as if it had renewed just after a single script).

# KEYS: nodes (node -> last heartbeat, Redis ms), owners (room -> node).
# ARGV: holder ('' if the lease is free), node, timeout (ms), room.
# 1: the room may be taken over. It may when its lease is held by a node whose heartbeat
# has lapsed (a crash, a lost machine) or that left; or when it is free and the node that
# last owned it has too (after a Redis outage every lease may have run out; a live owner
# takes its own back at its next renewal).
_MAY_TAKE_OVER = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local function beats(node)
  local seen = redis.call('ZSCORE', KEYS[1], node)
  return seen and tonumber(seen) >= now - tonumber(ARGV[3])
end
if ARGV[1] ~= '' then
  if ARGV[1] == ARGV[2] or beats(ARGV[1]) then
    return 0
  end
  return 1
end
local owner = redis.call('HGET', KEYS[2], ARGV[4])
if owner and owner ~= ARGV[2] and beats(owner) then
  return 0
end
return 1
"""

# KEYS: lease, epoch.  ARGV: the lease's value judged ('' for none), node, ttl (ms).
# 0: the lease changed since it was judged; else the new epoch, which fences the previous
# owner out of every save from now on.
_SWAP = """
local current = redis.call('GET', KEYS[1]) or ''
if current ~= ARGV[1] then
  return 0
end
local epoch = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[1], epoch .. ':' .. ARGV[2], 'PX', ARGV[3])
return epoch
"""

# KEYS: lease, epoch.  ARGV: token, ttl (ms), epoch.
# 1: extended.  2: had expired, nobody took the room since (the epoch is still ours), so
# it is ours again; safe, since any later owner gets a larger epoch.  0: lost.
_RENEW = """
local current = redis.call('GET', KEYS[1])
if current == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  return 1
end
if not current and redis.call('GET', KEYS[2]) == ARGV[3] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 2
end
return 0
"""

# KEYS: lease.  ARGV: token.  Only the holder may release (a late release after losing
# the lease must not free the next owner's lease).
_RELEASE = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
"""


class Leases:
    """This node's side of the room leases, on one Redis client.

    `node` must be unique per running process (e.g. host name plus a random suffix): two
    processes with one id could renew each other's leases."""

    def __init__(
        self,
        client: aioredis.Redis,
        node: str,
        *,
        ttl: float = 10.0,
        prefix: str = "",
        keys: RedisKeys | None = None,
    ) -> None:
        """`keys`: the store's key names (its layout), else those of `prefix`."""
        if not node:
            raise ValueError("a node id is required")
        if not ttl > 0:
            raise ValueError(f"ttl must be positive, not {ttl}")
        self.client = client
        self.node = node
        self.ttl = ttl
        self.keys = keys if keys is not None else RedisKeys(prefix)
        self._acquire = client.register_script(_ACQUIRE)
        self._may_take_over = client.register_script(_MAY_TAKE_OVER)
        self._swap = client.register_script(_SWAP)
        self._renew = client.register_script(_RENEW)
        self._release = client.register_script(_RELEASE)

    async def acquire(self, room: str) -> Lease | None:
        """Own `room` if nobody does: the lease with its new epoch, or None if it is held
        (by another node, or by an earlier acquisition of this one)."""
        since = asyncio.get_running_loop().time()
        epoch = await self._call(
            self._acquire(
                keys=[self.keys.lease(room), self.keys.epoch(room)],
                args=[self.node, _milliseconds(self.ttl)],
            ),
            f"acquire {room}",
        )
        if not isinstance(epoch, int) or epoch < 0:
            raise LeaseError(f"acquire {room}: unexpected reply {epoch!r}")
        if not epoch:
            return None
        return Lease(room=room, node=self.node, epoch=int(epoch), ttl=self.ttl, since=since)

    async def take_over(
        self, room: str, *, nodes: str, owners: str, timeout: float
    ) -> Lease | None:
        """Own `room` if its owner is gone: nobody holds its lease, or the holder has not
        beaten (in the sorted set `nodes`, Redis milliseconds) for `timeout` seconds or
        left it. None if a live node holds it, or if its lease is free but the node that
        last owned it (the hash `owners`) still beats. Unlike `acquire`, this does not wait
        for a dead owner's lease to run out: the new epoch fences the old owner out."""
        since = asyncio.get_running_loop().time()
        value = await self._call(self.client.get(self.keys.lease(room)), f"holder of {room}")
        judged = "" if value is None else value.decode() if isinstance(value, bytes) else value
        holder = _holder(value)
        allowed = await self._call(
            self._may_take_over(
                keys=[nodes, owners],
                args=[
                    holder.node if holder is not None else "",
                    self.node,
                    _milliseconds(timeout),
                    room,
                ],
            ),
            f"take over {room}",
        )
        if not allowed:
            return None
        epoch = await self._call(
            self._swap(
                keys=[self.keys.lease(room), self.keys.epoch(room)],
                args=[judged, self.node, _milliseconds(self.ttl)],
            ),
            f"take over {room}",
        )
        if not isinstance(epoch, int) or epoch < 0:
            raise LeaseError(f"take over {room}: unexpected reply {epoch!r}")
        if not epoch:
            return None
        return Lease(room=room, node=self.node, epoch=int(epoch), ttl=self.ttl, since=since)

    async def renew(self, lease: Lease) -> bool:
        """Extend the lease for another TTL. False if it is lost: another node acquired
        the room since (then saves with this epoch are refused too)."""
        result = await self._call(
            self._renew(
                keys=[self.keys.lease(lease.room), self.keys.epoch(lease.room)],
                args=[lease.token, _milliseconds(lease.ttl), str(lease.epoch)],
            ),
            f"renew {lease.room}",
        )
        if result not in (0, 1, 2):
            raise LeaseError(f"renew {lease.room}: unexpected reply {result!r}")
        if result == 2:
            log.info("room %s: lease had expired, reclaimed at epoch %d", lease.room, lease.epoch)
        return bool(result)

    async def release(self, lease: Lease) -> bool:
        """Give the room up; False if this lease was no longer held (nothing is changed)."""
        result = await self._call(
            self._release(keys=[self.keys.lease(lease.room)], args=[lease.token]),
            f"release {lease.room}",
        )
        if result not in (0, 1):
            raise LeaseError(f"release {lease.room}: unexpected reply {result!r}")
        return bool(result)

    async def holder(self, room: str) -> Holder | None:
        """Who owns `room` now, or None."""
        value = await self._call(self.client.get(self.keys.lease(room)), f"holder of {room}")
        return _holder(value)

    async def holders(self, rooms: Sequence[str], chunk: int = 200) -> dict[str, Holder | None]:
        """Who owns each of `rooms` now (None: nobody), `chunk` rooms to one pipelined
        round of GETs (not an MGET: on a Redis Cluster the leases lie in many slots, and
        the cluster client sends each shard its part). Redis's own errors pass through as
        they are (the callers are loops that try again)."""
        out: dict[str, Holder | None] = {}
        for start in range(0, len(rooms), chunk):
            part = rooms[start : start + chunk]
            async with self.client.pipeline(transaction=False) as pipe:
                for room in part:
                    pipe.get(self.keys.lease(room))
                values = await pipe.execute()
            for room, value in zip(part, values, strict=True):
                out[room] = _holder(value)
        return out

    async def epoch(self, room: str) -> int:
        """The room's current fencing epoch (0 if it never had an owner)."""
        value = await self._call(self.client.get(self.keys.epoch(room)), f"epoch of {room}")
        return 0 if value is None else int(value)

    def keep_alive(
        self,
        lease: Lease,
        on_lost: Callable[[Lease], object] | None = None,
        *,
        backoff: Backoff = QUICK_BACKOFF,
    ) -> LeaseKeeper:
        """Start renewing `lease` every TTL/3 in a task; see `LeaseKeeper`."""
        return LeaseKeeper(self, lease, on_lost, backoff)

    async def _call(self, pending: Awaitable[T], what: str) -> T:
        try:
            return await pending
        except Exception as exc:
            if is_transient(exc):
                raise LeaseError(f"{what}: redis unavailable: {exc}") from exc
            if isinstance(exc, redis_errors.RedisError):
                raise LeaseError(f"{what}: {exc}") from exc
            raise


class LeaseKeeper:
    """Renews a lease at a third of its TTL until stopped or lost.

    While Redis cannot be reached it keeps trying (with backoff) and does **not** report
    a loss: nobody else can take the room without Redis either, and once Redis is back
    the lease is renewed, or reclaimed if it expired meanwhile and nobody took the room.
    It reports a loss only when Redis says so: then `on_lost(lease)` is called once,
    `lost` is set, and the task ends. `held` tells whether the lease is confirmed right
    now (False while Redis is unreachable past the lease's expiry)."""

    def __init__(
        self,
        leases: Leases,
        lease: Lease,
        on_lost: Callable[[Lease], object] | None,
        backoff: Backoff,
    ) -> None:
        self.lease = lease
        self.lost = asyncio.Event()
        self._leases = leases
        self._on_lost = on_lost
        self._backoff = backoff
        self._loop = asyncio.get_running_loop()
        self.confirmed_until = lease.since + lease.ttl
        self._stopping = asyncio.Event()
        self._task = asyncio.create_task(self._run(), name=f"lease {lease.room}")

    @property
    def held(self) -> bool:
        return not self.lost.is_set() and self._loop.time() < self.confirmed_until

    async def stop(self, *, release: bool = False) -> None:
        """Stop renewing; with `release`, also give the room up (if Redis answers)."""
        # The flag, not only the cancellation: a cancel that lands while the Redis client
        # is timing out can come back as a timeout error (Python 3.11's asyncio.timeout),
        # and the loop must end all the same.
        self._stopping.set()
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        if release and not self.lost.is_set():
            with contextlib.suppress(LeaseError):
                await self._leases.release(self.lease)

    async def _run(self) -> None:
        interval = self.lease.ttl / 3
        delays = self._backoff.delays()
        wait = interval
        while not self._stopping.is_set():
            await asyncio.sleep(wait)
            started = self._loop.time()
            try:
                renewed = await self._leases.renew(self.lease)
            except LeaseError as exc:
                if cancel_requested():
                    raise asyncio.CancelledError from exc
                wait = min(next(delays), interval)
                log.debug("room %s: lease renewal failed (%s); retrying", self.lease.room, exc)
                continue
            if self._stopping.is_set():
                return
            if not renewed:
                self._lose()
                return
            self.confirmed_until = started + self.lease.ttl
            delays = self._backoff.delays()
            wait = interval

    def _lose(self) -> None:
        log.warning("room %s: lease at epoch %d lost", self.lease.room, self.lease.epoch)
        self.lost.set()
        if self._on_lost is not None:
            try:
                self._on_lost(self.lease)
            except Exception:
                log.exception("room %s: on_lost callback failed", self.lease.room)


def _holder(value: object) -> Holder | None:
    """A lease key's value (`epoch:node`, or None when nobody holds it)."""
    if value is None:
        return None
    text = value.decode() if isinstance(value, bytes) else str(value)
    epoch, _, node = text.partition(":")
    return Holder(node=node, epoch=int(epoch))


def _milliseconds(seconds: float) -> int:
    return max(1, round(seconds * 1000))
