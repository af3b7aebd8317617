"""The shared store of a cluster: rooms in Redis, through redis-py's asyncio client.

Layout (every key under an optional `prefix`; see `RedisKeys`):

- `room:<id>:state`  hash   `snapshot` (bytes), `seq` (last log seq), `fence` (last epoch)
- `room:<id>:log`    stream one entry per log entry, id `<seq>-1`, field `d` = the data
- `room:<id>:epoch`  int    fencing epoch, INCR'd by every new lease (`server.cluster`)
- `room:<id>:lease`  string `<epoch>:<node>`, with the lease's expiry
- `rooms`            set    ids of the rooms that have a snapshot

`save` is one Lua script (EVALSHA): it checks the fence against the room's epoch and the
seq order, then appends and replaces; Redis runs a script alone, so readers see all of
it or none, and a stale owner can never write.

Redis may go away (restart, failover, network). A write that fails on the connection is
retried with backoff until Redis answers again; the caller keeps awaiting and nothing is
dropped. If the reply of a write that did land is lost, the retry is recognised (same
snapshot, same entries already there) and reported as done instead of as a seq error.
Reads retry only for a bounded time, then raise `StoreError`. `healthy` is False while
Redis is unreachable (for `/readyz`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis import exceptions as redis_errors
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from server.store.base import FencedError, LogEntry, Store, StoreError
from server.store.validate import check_after, check_room, check_save

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Stream ids are `<seq>-1`: a stream id must be above 0-0, and seq 0 is a valid seq.
_ID_SUFFIX = "-1"
_LOG_PAGE = 512


@dataclass(frozen=True)
class RedisKeys:
    """Every key and channel name the store, the leases and the bus use, in one place."""

    prefix: str = ""

    def state(self, room: str) -> str:
        return f"{self.prefix}room:{room}:state"

    def log(self, room: str) -> str:
        return f"{self.prefix}room:{room}:log"

    def epoch(self, room: str) -> str:
        return f"{self.prefix}room:{room}:epoch"

    def lease(self, room: str) -> str:
        return f"{self.prefix}room:{room}:lease"

    @property
    def rooms(self) -> str:
        return f"{self.prefix}rooms"

    def room_channel(self, room: str) -> str:
        """Where the owner publishes the room's events for every node with clients in it."""
        return f"{self.prefix}room:{room}"

    def action_channel(self, room: str) -> str:
        """Where any node sends a client's action; only the room's owner listens."""
        return f"{self.prefix}room:{room}:actions"

    def node_channel(self, node: str) -> str:
        """A node's own inbox (replies to the clients connected to it)."""
        return f"{self.prefix}node:{node}"

    @property
    def cooldown_channel(self) -> str:
        """Where a node tells the others of an address it closed for abuse."""
        return f"{self.prefix}cooldowns"


@dataclass(frozen=True)
class Backoff:
    """Exponential backoff with jitter: `first`, doubling up to `cap` seconds."""

    first: float = 0.05
    cap: float = 2.0

    def delays(self) -> Iterator[float]:
        delay = self.first
        while True:
            yield random.uniform(delay / 2, delay)
            delay = min(delay * 2, self.cap)


#: For writes, which wait for Redis however long it takes.
WRITE_BACKOFF = Backoff()
#: For liveness work (lease renewals, pub/sub reconnects): never more than a second apart.
QUICK_BACKOFF = Backoff(first=0.05, cap=1.0)


def connect(url: str, *, socket_timeout: float = 5.0) -> aioredis.Redis:
    """A client for `url` (`redis://host:port/db`) that fails fast instead of retrying on
    its own: the callers here retry themselves, knowing which calls are safe to repeat."""
    try:
        return aioredis.Redis.from_url(
            url,
            socket_connect_timeout=2.0,
            socket_timeout=socket_timeout,
            retry=Retry(NoBackoff(), 0),
        )
    except ValueError as exc:
        raise StoreError(f"bad redis url {url!r}: {exc}") from exc


def is_transient(exc: BaseException) -> bool:
    """Errors that mean "Redis is not reachable right now" (worth retrying), as opposed
    to a refusal that would come back the same on every try."""
    if isinstance(exc, redis_errors.ConnectionError | redis_errors.TimeoutError | OSError):
        return True  # includes BusyLoadingError: Redis is reading its AOF after a restart
    if isinstance(exc, redis_errors.ReadOnlyError | redis_errors.TryAgainError):
        return True  # a failover in progress
    if isinstance(exc, redis_errors.ResponseError):
        return str(exc).startswith(("LOADING", "MISCONF", "MASTERDOWN"))
    return False


def cancel_requested() -> bool:
    """Whether the current task was asked to stop. A cancel that lands while the Redis
    client's own timeout fires can surface as a timeout error (Python 3.11's
    `asyncio.timeout`); a retry loop must not take that for an outage and go on."""
    task = asyncio.current_task()
    return task is not None and task.cancelling() > 0


async def retrying(
    operation: Callable[[int], Awaitable[T]],
    *,
    what: str,
    backoff: Backoff,
    deadline: float | None,
    stop: Callable[[], bool] = lambda: False,
    on_health: Callable[[bool], None] = lambda healthy: None,
) -> T:
    """Run `operation(attempt)` until it succeeds, retrying transient Redis errors.

    `deadline` bounds the total wait (None: until Redis is back). `stop` is checked
    between attempts (a store being closed). Other errors are raised at once."""
    loop = asyncio.get_running_loop()
    started = loop.time()
    delays = backoff.delays()
    attempt = 0
    while True:
        try:
            result = await operation(attempt)
        except Exception as exc:
            if not is_transient(exc):
                on_health(True)
                raise
            if cancel_requested():
                raise asyncio.CancelledError from exc
            on_health(False)
            if attempt == 0:
                log.debug("redis unavailable during %s (%s); retrying", what, exc)
            delay = next(delays)
            if stop():
                raise StoreError(f"{what}: the store is closed") from exc
            if deadline is not None and loop.time() - started + delay > deadline:
                raise StoreError(f"{what}: redis unavailable for {deadline:g} s: {exc}") from exc
            await asyncio.sleep(delay)
            attempt += 1
            continue
        on_health(True)
        if attempt:
            log.info("redis back: %s done after %d retries", what, attempt)
        return result


# KEYS: state, log, epoch, rooms.  ARGV: room, snapshot, fence ('' = unfenced),
# retrying ('1' after a lost reply), then seq and data of each entry.
_SAVE = """
local state, stream, epoch_key, rooms = KEYS[1], KEYS[2], KEYS[3], KEYS[4]
local room, snapshot, fence, retrying = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
if fence ~= '' then
  local epoch = redis.call('GET', epoch_key)
  if not epoch then
    return redis.error_reply('FENCED room ' .. room .. ': fence ' .. fence ..
      ' but the room has no owner epoch')
  end
  if tonumber(epoch) ~= tonumber(fence) then
    return redis.error_reply('FENCED room ' .. room .. ': fence ' .. fence ..
      ' is stale, the room is at epoch ' .. epoch)
  end
end
local last = tonumber(redis.call('HGET', state, 'seq') or '-1')
if #ARGV > 4 and tonumber(ARGV[5]) <= last then
  if retrying == '1' and redis.call('HGET', state, 'snapshot') == snapshot then
    local same = true
    for i = 5, #ARGV, 2 do
      local id = ARGV[i] .. '-1'
      local found = redis.call('XRANGE', stream, id, id)
      if #found ~= 1 or found[1][2][2] ~= ARGV[i + 1] then
        same = false
        break
      end
    end
    if same then
      return 'APPLIED'
    end
  end
  return redis.error_reply('SEQ room ' .. room .. ': log entry ' .. ARGV[5] ..
    ' does not follow ' .. last)
end
for i = 5, #ARGV, 2 do
  redis.call('XADD', stream, ARGV[i] .. '-1', 'd', ARGV[i + 1])
end
redis.call('HSET', state, 'snapshot', snapshot)
if #ARGV > 4 then
  redis.call('HSET', state, 'seq', ARGV[#ARGV - 1])
end
if fence ~= '' then
  redis.call('HSET', state, 'fence', fence)
end
redis.call('SADD', rooms, room)
return 'OK'
"""

# KEYS: state, log, rooms.  ARGV: room.  The epoch and the lease stay: they belong to
# the room's ownership, and a stale owner must stay fenced out of a deleted room.
_DELETE = """
redis.call('DEL', KEYS[1], KEYS[2])
redis.call('SREM', KEYS[3], ARGV[1])
return 'OK'
"""


class RedisStore(Store):
    """Rooms in Redis. Build it with `RedisStore.from_url(url)` or around a client."""

    def __init__(
        self,
        client: aioredis.Redis,
        *,
        prefix: str = "",
        backoff: Backoff = WRITE_BACKOFF,
        read_deadline: float = 10.0,
        owns_client: bool = True,
    ) -> None:
        self.client = client
        self.keys = RedisKeys(prefix)
        self._backoff = backoff
        self._read_deadline = read_deadline
        self._owns_client = owns_client
        self._save_script = client.register_script(_SAVE)
        self._delete_script = client.register_script(_DELETE)
        self._healthy = True
        self._closed = False

    @classmethod
    def from_url(cls, url: str, *, prefix: str = "", read_deadline: float = 10.0) -> RedisStore:
        return cls(connect(url), prefix=prefix, read_deadline=read_deadline)

    @property
    def healthy(self) -> bool:
        """False from a failed Redis call until the next one that succeeds."""
        return self._healthy and not self._closed

    async def ping(self) -> bool:
        """Ask Redis now (for `/readyz`); updates `healthy`."""
        try:
            await self.client.ping()
        except Exception as exc:
            if not is_transient(exc):
                raise StoreError(f"redis ping: {exc}") from exc
            self._healthy = False
            return False
        self._healthy = True
        return not self._closed

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
        keys = [self.keys.state(room), self.keys.log(room), self.keys.epoch(room), self.keys.rooms]
        head: list[str | bytes] = [room, snapshot, "" if fence is None else str(fence)]
        tail: list[str | bytes] = []
        for entry in checked:
            tail += [str(entry.seq), entry.data]

        async def attempt(number: int) -> Any:
            # After a failed attempt its reply may be all that was lost: say so, so that
            # finding these very entries already stored counts as success.
            return await self._save_script(keys=keys, args=[*head, "1" if number else "0", *tail])

        try:
            reply = await self._retry(attempt, f"save of room {room}", deadline=None)
        except redis_errors.ResponseError as exc:
            raise _refusal(exc) from exc
        except redis_errors.RedisError as exc:
            raise StoreError(f"save of room {room}: {exc}") from exc
        if reply not in (b"OK", b"APPLIED"):
            # Only the script's own answers acknowledge a save; never take anything else
            # (a proxy or a wrong server on the port) for one.
            raise StoreError(f"save of room {room}: unexpected reply {reply!r}")

    async def load(self, room: str) -> bytes | None:
        room = check_room(room)
        key = self.keys.state(room)
        data = await self._read(lambda _: self.client.hget(key, "snapshot"), f"load of {room}")
        return None if data is None else _bytes(data)

    async def rooms(self) -> list[str]:
        members = await self._read(lambda _: self.client.smembers(self.keys.rooms), "rooms")
        return sorted(_text(member) for member in members)

    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        room, after = check_room(room), check_after(after)
        key = self.keys.log(room)
        entries: list[LogEntry] = []
        start = "-" if after < 0 else f"{after + 1}-0"
        while True:
            page = await self._read(_LogPage(self.client, key, start), f"log of {room}")
            entries += page
            if len(page) < _LOG_PAGE:
                return entries
            start = f"({page[-1].seq}{_ID_SUFFIX}"

    async def delete(self, room: str) -> None:
        room = check_room(room)
        keys = [self.keys.state(room), self.keys.log(room), self.keys.rooms]
        try:
            await self._retry(
                lambda _: self._delete_script(keys=keys, args=[room]),
                f"delete of room {room}",
                deadline=None,
            )
        except redis_errors.RedisError as exc:
            raise StoreError(f"delete of room {room}: {exc}") from exc

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._owns_client:
            await self.client.aclose()

    # --- plumbing -------------------------------------------------------------------------

    async def _read(self, operation: Callable[[int], Awaitable[T]], what: str) -> T:
        try:
            return await self._retry(operation, what, deadline=self._read_deadline)
        except redis_errors.RedisError as exc:
            raise StoreError(f"{what}: {exc}") from exc

    async def _retry(
        self, operation: Callable[[int], Awaitable[T]], what: str, *, deadline: float | None
    ) -> T:
        if self._closed:
            raise StoreError(f"{what}: the store is closed")
        return await retrying(
            operation,
            what=what,
            backoff=self._backoff,
            deadline=deadline,
            stop=lambda: self._closed,
            on_health=self._set_health,
        )

    def _set_health(self, healthy: bool) -> None:
        if healthy != self._healthy:
            log.log(logging.INFO if healthy else logging.WARNING, "redis store healthy=%s", healthy)
        self._healthy = healthy


class _LogPage:
    """One XRANGE page of a room's log, from `start` (a stream id bound) on."""

    def __init__(self, client: aioredis.Redis, key: str, start: str) -> None:
        self.client, self.key, self.start = client, key, start

    async def __call__(self, attempt: int) -> list[LogEntry]:
        page = await self.client.xrange(self.key, self.start, "+", count=_LOG_PAGE)
        entries = []
        for stream_id, fields in page or ():
            if stream_id is None or fields is None:
                raise StoreError(f"{self.key}: unexpected stream entry {stream_id!r}")
            seq = int(_text(stream_id).partition("-")[0])
            entries.append(LogEntry(seq, _bytes(fields[b"d"])))
        return entries


def _refusal(exc: redis_errors.ResponseError) -> StoreError:
    message = str(exc)
    if message.startswith("FENCED "):
        return FencedError(message.removeprefix("FENCED "))
    if message.startswith("SEQ "):
        return StoreError(message.removeprefix("SEQ "))
    return StoreError(f"redis refused the save: {message}")


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
