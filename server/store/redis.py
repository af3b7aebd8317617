"""The shared store of a cluster: rooms in Redis, through redis-py's asyncio client.

Layout (every key under an optional `prefix`; see `RedisKeys`):

- `room:<id>:state`   hash   `snapshot` (bytes), `seq` (last log seq), `fence` (last epoch)
- `room:<id>:log`     stream one entry per log entry, id `<seq>-1`, field `d` = the data
- `room:<id>:epoch`   int    fencing epoch, INCR'd by every new lease (`server.cluster`)
- `room:<id>:lease`   string `<epoch>:<node>`, with the lease's expiry
- `room:<id>:archive` string a retired room: when (8 bytes, ms) + snapshot and log packed
                             (`server.store.archive`), expiring after the retention
- `room:<id>:quarantine` hash a damaged room moved aside: `reason`, `at`, `data`
- `rooms`             set    ids of the rooms with a live snapshot

With `tagged=True` (Redis Cluster) a room's keys are `room:{<id>}:…`, so that they share
a hash slot, and there is no `rooms` set: a set every save writes would sit in one slot.

`save` is one Lua script (EVALSHA): it checks the fence against the room's epoch and the
seq order, then appends and replaces; Redis runs a script alone, so readers see all of
it or none, and a stale owner can never write. `retire` packs the room in this process
(compression is no work for Redis's one thread) and swaps it in with a script that first
checks that nothing was saved meanwhile.

Redis may go away (restart, failover, network). A write that fails on the connection is
retried with backoff until Redis answers again; the caller keeps awaiting and nothing is
dropped. If the reply of a write that did land is lost, the retry is recognised (same
snapshot, same entries already there) and reported as done instead of as a seq error.
Reads retry only for a bounded time, then raise `StoreError`. `healthy` is False while
Redis is unreachable (for `/readyz`).
"""

from __future__ import annotations

import asyncio
import functools
import hashlib
import logging
import random
import struct
import time
from collections.abc import AsyncGenerator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis import exceptions as redis_errors
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.commands.core import AsyncScript

from server.store import archive
from server.store.base import FencedError, LogEntry, Store, StoreError
from server.store.redis_scripts import DELETE, EPOCH_KEPT_MS, QUARANTINE, RETIRE, SAVE
from server.store.validate import check_after, check_room, check_save

log = logging.getLogger(__name__)

T = TypeVar("T")

#: One Redis, or a Redis Cluster (with the tagged layout: `RedisKeys(tagged=True)`).
Client = aioredis.Redis | RedisCluster

#: Stream ids are `<seq>-1`: a stream id must be above 0-0, and seq 0 is a valid seq.
_ID_SUFFIX = "-1"
_LOG_PAGE = 512


@dataclass(frozen=True)
class RedisKeys:
    """Every key and channel name the store, the leases and the bus use, in one place.

    `tagged`: the layout for Redis Cluster, each room's keys hash-tagged (`room:{<id>}:…`)
    into one slot, so its scripts may touch them all; no global `rooms` set."""

    prefix: str = ""
    tagged: bool = False

    def _room(self, room: str) -> str:
        return f"{self.prefix}room:{{{room}}}" if self.tagged else f"{self.prefix}room:{room}"

    def state(self, room: str) -> str:
        return f"{self._room(room)}:state"

    def log(self, room: str) -> str:
        return f"{self._room(room)}:log"

    def epoch(self, room: str) -> str:
        return f"{self._room(room)}:epoch"

    def lease(self, room: str) -> str:
        return f"{self._room(room)}:lease"

    def archive(self, room: str) -> str:
        return f"{self._room(room)}:archive"

    def quarantine(self, room: str) -> str:
        return f"{self._room(room)}:quarantine"

    def pattern(self, kind: str) -> str:
        """A SCAN pattern for one kind of room key (`state`, `archive`, …)."""
        return f"{_glob_escape(self.prefix)}room:*:{kind}"

    def room_of(self, key: str, kind: str) -> str | None:
        """The room id in a key of `kind`, in either layout (None: not such a key)."""
        body = key.removeprefix(self.prefix) if key.startswith(self.prefix) else None
        if body is None or not body.startswith("room:") or not body.endswith(f":{kind}"):
            return None
        room = body[len("room:") : -len(kind) - 1]
        if room.startswith("{") and room.endswith("}"):
            room = room[1:-1]
        return room or None

    @property
    def rooms(self) -> str | None:
        """The set of rooms with a live snapshot (None in the tagged layout)."""
        return None if self.tagged else f"{self.prefix}rooms"

    @property
    def layout(self) -> str:
        """Says `tagged` once a Redis has been moved to the tagged layout (`to_tagged`)."""
        return f"{self.prefix}layout"

    def room_channel(self, room: str) -> str:
        """Where the owner publishes the room's events for every node with clients in it
        (tagged: a sharded channel in the room's own slot, on the shard of its keys)."""
        return self._room(room)

    def action_channel(self, room: str) -> str:
        """Where any node sends a client's action; only the room's owner listens."""
        return f"{self._room(room)}:actions"

    def node_channel(self, node: str) -> str:
        """A node's own inbox (replies to the clients connected to it); tagged, each
        node's inbox lies in a slot of its own, so the inboxes spread over the shards."""
        return f"{self.prefix}node:{{{node}}}" if self.tagged else f"{self.prefix}node:{node}"

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


#: The URL scheme that names a Redis Cluster: `redis+cluster://host:port/0` names one node
#: of it (a client learns the others); every per-room key and channel is then hash-tagged.
CLUSTER_SCHEME = "redis+cluster"


def is_cluster_url(url: str) -> bool:
    return url.partition("://")[0] == CLUSTER_SCHEME


def plain_url(url: str) -> str:
    """`redis+cluster://…` as the `redis://…` URL of the node it names (others unchanged)."""
    return "redis://" + url.partition("://")[2] if is_cluster_url(url) else url


def shard_url(url: str, key: str) -> str:
    """The `redis://` URL of the primary that serves `key`'s slot in the Redis Cluster `url`
    names. Stores whose transactions WATCH and MULTI over several keys (players,
    tournaments), which redis-py's cluster client does not run, keep all their keys in one
    hash slot and talk to that primary with a plain client, as on one Redis. Asked once,
    at start (the cluster must answer then; a move of that slot needs the nodes
    restarted). `StoreError` when the cluster does not answer."""
    from redis.cluster import RedisCluster as SyncCluster

    plain = plain_url(url)
    try:
        cluster = SyncCluster.from_url(plain, socket_connect_timeout=5.0, socket_timeout=5.0)
        try:
            node = cluster.get_node_from_key(key)  # type: ignore[no-untyped-call]
        finally:
            cluster.close()
    except Exception as exc:  # redis errors, a bad URL: the message says enough
        raise StoreError(f"no answer from the Redis Cluster {plain!r}: {exc}") from exc
    scheme, _, rest = plain.partition("://")
    credentials, at, _ = rest.rpartition("@")
    path = rest.split("/", 1)[1] if "/" in rest else "0"
    return f"{scheme}://{credentials}{at}{node.host}:{node.port}/{path}"


def connect_any(url: str, *, socket_timeout: float = 5.0) -> Client:
    """The client a URL names: a cluster client for `redis+cluster://`, else `connect`."""
    if is_cluster_url(url):
        return connect_cluster(url, socket_timeout=socket_timeout)
    return connect(url, socket_timeout=socket_timeout)


def connect_cluster(url: str, *, socket_timeout: float = 5.0) -> RedisCluster:
    """A client for a Redis Cluster that `url` names one node of (it learns the others):
    for a `RedisStore(..., tagged=True)`. Like `connect`, it does not retry on its own.
    `url` may be `redis://…` or `redis+cluster://…`."""
    url = plain_url(url)
    try:
        return RedisCluster.from_url(
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
    if isinstance(exc, redis_errors.ClusterDownError | redis_errors.SlotNotCoveredError):
        return True  # a Redis Cluster with a shard away (it refuses every slot meanwhile)
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


#: A room's keys that hold data (the lease is a running node's, and is not moved).
ROOM_KINDS = ("state", "log", "epoch", "archive", "quarantine")
#: An archive's value starts with its retirement time, milliseconds, big-endian.
_AT = struct.Struct(">Q")
#: Keys read or deleted per round trip when a command walks the whole database.
_SCAN_BATCH = 500


class RedisStore(Store):
    """Rooms in Redis. Build it with `RedisStore.from_url(url)` or around a client."""

    def __init__(
        self,
        client: Client,
        *,
        prefix: str = "",
        tagged: bool = False,
        retention: float = 0.0,
        backoff: Backoff = WRITE_BACKOFF,
        read_deadline: float = 10.0,
        owns_client: bool = True,
    ) -> None:
        """`retention`: seconds a retired room's archive is kept (Redis expires it by
        itself); 0 keeps it until `trim` or the cleanup command removes it. `tagged`: the
        layout for Redis Cluster (required with a `RedisCluster` client)."""
        if not retention >= 0:
            raise ValueError(f"retention must be 0 or more, not {retention}")
        if isinstance(client, RedisCluster) and not tagged:
            raise ValueError("a Redis Cluster needs the tagged layout (tagged=True)")
        self.client = client
        self.keys = RedisKeys(prefix, tagged)
        self.retention = retention
        self._backoff = backoff
        self._read_deadline = read_deadline
        self._owns_client = owns_client
        self._save_script = client.register_script(SAVE)
        self._delete_script = client.register_script(DELETE)
        self._retire_script = client.register_script(RETIRE)
        self._quarantine_script = client.register_script(QUARANTINE)
        self._healthy = True
        self._closed = False
        self._initialized = False
        self._initializing = asyncio.Lock()
        #: Save attempts after a failed one (`ninepool_store_save_retries_total`).
        self.save_retries = 0

    @classmethod
    def from_url(
        cls, url: str, *, prefix: str = "", read_deadline: float = 10.0, retention: float = 0.0
    ) -> RedisStore:
        """`redis+cluster://` opens a Redis Cluster (the tagged layout), else one Redis."""
        if is_cluster_url(url):
            return cls(
                connect_cluster(url),
                prefix=prefix,
                tagged=True,
                read_deadline=read_deadline,
                retention=retention,
            )
        return cls(connect(url), prefix=prefix, read_deadline=read_deadline, retention=retention)

    @property
    def where(self) -> str:
        """This store, for messages: Redis's address (never its password) and the prefix."""
        suffix = f" prefix {self.keys.prefix!r}" if self.keys.prefix else ""
        if isinstance(self.client, RedisCluster):
            node = self.client.get_default_node()
            return f"redis cluster {node.host}:{node.port}{suffix}"
        kwargs = self.client.connection_pool.connection_kwargs
        place = kwargs.get("path") or f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}"
        return f"redis {place} db {kwargs.get('db', 0)}{suffix}"

    def _room_keys(self, room: str, *kinds: str) -> list[str]:
        """The keys of `room` of these kinds, then the `rooms` set if the layout has one."""
        keys = [getattr(self.keys, kind)(room) for kind in kinds]
        return keys if self.keys.rooms is None else [*keys, self.keys.rooms]

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
        keys = self._room_keys(room, "state", "log", "epoch", "archive", "quarantine")
        head: list[str | bytes] = [room, snapshot, "" if fence is None else str(fence)]
        tail: list[str | bytes] = []
        for entry in checked:
            tail += [str(entry.seq), entry.data]

        async def attempt(number: int) -> Any:
            # After a failed attempt its reply may be all that was lost: say so, so that
            # finding these very entries already stored counts as success.
            self.save_retries += 1 if number else 0
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
        if data is not None:
            return _bytes(data)
        # A retired room: the snapshot leads its archive, inflated no further.
        key = self.keys.archive(room)
        stored = await self._read(lambda _: self.client.get(key), f"archive of {room}")
        if stored is None:
            return None
        return archive.snapshot(_bytes(stored)[_AT.size :], room, self.where)

    async def rooms(self) -> list[str]:
        index = self.keys.rooms
        if index is None:
            return sorted(await self._scan_rooms("state"))
        members = await self._read(lambda _: self.client.smembers(index), "rooms")
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
                break
            start = f"({page[-1].seq}{_ID_SUFFIX}"
        if entries:
            return entries
        packed = await self._archived(room)
        return [] if packed is None else archive.after(packed[1], after)

    async def log_page(self, room: str, after: int, limit: int) -> list[LogEntry]:
        room, after, limit = check_room(room), check_after(after), max(0, limit)
        start = "-" if after < 0 else f"{after + 1}-0"
        page = _LogPage(self.client, self.keys.log(room), start, min(limit, _LOG_PAGE))
        entries = await self._read(page, f"log of {room}") if limit else []
        if entries or not limit:
            return entries
        return await super().log_page(room, after, limit)  # archived, or nothing more

    async def log_pages(
        self, room: str, after: int, page: int
    ) -> AsyncGenerator[list[LogEntry], None]:
        room, after, page = check_room(room), check_after(after), max(1, page)
        start = "-" if after < 0 else f"{after + 1}-0"
        first = _LogPage(self.client, self.keys.log(room), start, min(page, _LOG_PAGE))
        entries = await self._read(first, f"log of {room}")
        if not entries:
            key = self.keys.archive(room)
            stored = await self._read(lambda _: self.client.get(key), f"archive of {room}")
            if stored is not None:
                # A retired room: its archive, inflated a page at a time.
                packed = _bytes(stored)[_AT.size :]
                for chunk in archive.pages(packed, room, after, page, self.where):
                    yield chunk
                return
        while entries:
            yield entries
            entries = await self.log_page(room, entries[-1].seq, page)

    async def delete(self, room: str) -> None:
        room = check_room(room)
        keys = self._room_keys(room, "state", "log", "archive", "epoch")
        try:
            await self._retry(
                lambda _: self._delete_script(keys=keys, args=[room, EPOCH_KEPT_MS]),
                f"delete of room {room}",
                deadline=None,
            )
        except redis_errors.RedisError as exc:
            raise StoreError(f"delete of room {room}: {exc}") from exc

    async def retire(self, room: str) -> None:
        """Read the room, pack it (in a thread), swap the archive in: one value instead of
        a hash and a stream of hundreds of entries. The archive expires by itself after
        `retention`; the epoch a day after (`EPOCH_KEPT_MS`)."""
        room = check_room(room)
        keys = self._room_keys(room, "state", "log", "epoch", "archive")
        while True:
            read = await self._read(_StateRead(self.client, keys[0]), f"retire of {room}")
            if read is None:
                return  # unknown, or retired already
            snapshot, seq = read
            entries = await self.log(room, after=-1)
            data = await asyncio.to_thread(_archive_value, snapshot, entries)
            digest = hashlib.sha1(snapshot, usedforsecurity=False).hexdigest()
            args: list[str | bytes | int] = [room, digest, seq, data]
            args += [int(self.retention * 1000), EPOCH_KEPT_MS]
            try:
                reply = await self._retry(
                    functools.partial(_run_script, self._retire_script, keys, args),
                    f"retire of room {room}",
                    deadline=None,
                )
            except redis_errors.RedisError as exc:
                raise StoreError(f"retire of room {room}: {exc}") from exc
            if reply != b"CHANGED":
                return

    async def trim(self, retired_before: float) -> int:
        """Delete the archives retired before `retired_before`. Walks every archive key
        (SCAN): for the cleanup command and retention changes, since Redis expires the
        archives made with a retention by itself."""
        cutoff = int(retired_before * 1000)
        removed = 0
        for batch in await self.scan_batches(self.keys.pattern("archive")):
            pipe = self.client.pipeline(transaction=False)
            for key in batch:
                pipe.getrange(key, 0, _AT.size - 1)
            stamps = await pipe.execute()
            old = [
                key
                for key, stamp in zip(batch, stamps, strict=True)
                if len(stamp) == _AT.size and _AT.unpack(stamp)[0] < cutoff
            ]
            if old:
                pipe = self.client.pipeline(transaction=False)
                for key in old:  # one by one: in a Redis Cluster they lie in many slots
                    pipe.execute_command("UNLINK", key)  # (a cluster's own unlink splits)
                removed += sum(int(n) for n in await pipe.execute())
        return removed

    async def quarantine(self, room: str, reason: str) -> None:
        room = check_room(room)
        read = await self._read(_StateRead(self.client, self.keys.state(room)), "quarantine")
        stored = await self._read(
            lambda _: self.client.get(self.keys.archive(room)), f"quarantine of {room}"
        )
        if stored is not None:
            form, data = "archive", _bytes(stored)
        else:
            entries = await self.log(room, after=-1)
            if read is None and not entries:
                return
            form, data = "live", archive.pack_raw(b"" if read is None else read[0], entries)
        keys = self._room_keys(room, "state", "log", "archive", "quarantine")
        args: list[str | bytes | int] = [room, reason, int(time.time() * 1000), form, data]
        try:
            await self._retry(
                lambda _: self._quarantine_script(keys=keys, args=args),
                f"quarantine of room {room}",
                deadline=None,
            )
        except redis_errors.RedisError as exc:
            raise StoreError(f"quarantine of room {room}: {exc}") from exc

    async def quarantined(self, room: str) -> str | None:
        room = check_room(room)
        key = self.keys.quarantine(room)
        reason = await self._read(lambda _: self.client.hget(key, "reason"), "quarantined")
        return None if reason is None else _text(reason)

    async def archived(self) -> int:
        """How many retired rooms are archived (walks the database: for reports)."""
        return sum(len(batch) for batch in await self.scan_batches(self.keys.pattern("archive")))

    async def expire_orphan_epochs(self) -> int:
        """Give an expiry to every epoch key whose room has gone (no snapshot, no lease,
        no archive): those of rooms closed before epochs expired with their rooms. Returns
        how many. Walks the database (SCAN): for the cleanup command."""
        fixed = 0
        for batch in await self.scan_batches(self.keys.pattern("epoch")):
            rooms = [self.keys.room_of(key, "epoch") for key in batch]
            pipe = self.client.pipeline(transaction=False)
            for key, room in zip(batch, rooms, strict=True):
                pipe.pttl(key)
                if room is not None:
                    pipe.execute_command("EXISTS", self.keys.state(room))
                    pipe.execute_command("EXISTS", self.keys.lease(room))
                    pipe.execute_command("EXISTS", self.keys.archive(room))
            replies = iter(await pipe.execute())
            orphans = []
            for key, room in zip(batch, rooms, strict=True):
                ttl = int(next(replies))
                found = [int(next(replies)) for _ in range(3)] if room is not None else [1]
                alive = any(found)
                if ttl == -1 and not alive:
                    orphans.append(key)
            if orphans:
                pipe = self.client.pipeline(transaction=False)
                for key in orphans:
                    pipe.pexpire(key, EPOCH_KEPT_MS)
                await pipe.execute()
                fixed += len(orphans)
        return fixed

    async def _archived(self, room: str) -> tuple[bytes, list[LogEntry]] | None:
        """A retired room's snapshot and log, from its archive (None: no archive)."""
        key = self.keys.archive(room)
        stored = await self._read(lambda _: self.client.get(key), f"archive of {room}")
        if stored is None:
            return None
        data = _bytes(stored)
        return await asyncio.to_thread(archive.unpack, data[_AT.size :], room, self.where)

    async def scan_batches(self, pattern: str) -> list[list[str]]:
        """Every key matching `pattern`, in batches (SCAN, on every shard of a cluster:
        Redis is never blocked long)."""
        batches: list[list[str]] = []
        batch: list[str] = []
        await self._ready()
        async for key in self.client.scan_iter(match=pattern, count=1000):
            batch.append(_text(key))
            if len(batch) >= _SCAN_BATCH:
                batches.append(batch)
                batch = []
        if batch:
            batches.append(batch)
        return batches

    async def _scan_rooms(self, kind: str) -> list[str]:
        found = []
        for batch in await self.scan_batches(self.keys.pattern(kind)):
            found += [room for key in batch if (room := self.keys.room_of(key, kind))]
        return found

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

        async def attempt(number: int) -> T:
            await self._ready()
            return await operation(number)

        return await retrying(
            attempt,
            what=what,
            backoff=self._backoff,
            deadline=deadline,
            stop=lambda: self._closed,
            on_health=self._set_health,
        )

    async def _ready(self) -> None:
        """Before the first command: a cluster client learns the cluster's slots once
        (left to do it lazily, commands that start at once each do it, and — redis-py 8.1
        — break one another's connections); a store of the plain layout checks that the
        Redis was not moved to the tagged one (`to_tagged`), where it would write rooms
        nobody reads."""
        if self._initialized:
            return
        async with self._initializing:
            if not self._initialized:
                await self._initialize()

    async def _initialize(self) -> None:
        if isinstance(self.client, RedisCluster):
            await self.client.initialize()
        elif not self.keys.tagged:
            layout = await self.client.get(self.keys.layout)
            if layout is not None and _text(layout) == "tagged":
                raise StoreError(
                    f"{self.where} holds rooms in the tagged layout (hash-tagged keys, "
                    "for Redis Cluster): open it with tagged=True"
                )
        self._initialized = True

    def _set_health(self, healthy: bool) -> None:
        if healthy != self._healthy:
            log.log(logging.INFO if healthy else logging.WARNING, "redis store healthy=%s", healthy)
        self._healthy = healthy


async def _run_script(
    script: AsyncScript, keys: list[str], args: list[str | bytes | int], attempt: int
) -> Any:
    return await script(keys=keys, args=args)


class _StateRead:
    """A room's snapshot and last seq, in one round trip (None: the room has no state)."""

    def __init__(self, client: Client, key: str) -> None:
        self.client, self.key = client, key

    async def __call__(self, attempt: int) -> tuple[bytes, str] | None:
        snapshot, seq = await self.client.hmget(self.key, ["snapshot", "seq"])
        if snapshot is None:
            return None
        return _bytes(snapshot), "" if seq is None else _text(seq)


def _archive_value(snapshot: bytes, entries: Sequence[LogEntry]) -> bytes:
    return _AT.pack(int(time.time() * 1000)) + archive.pack(snapshot, entries)


class _LogPage:
    """One XRANGE page of a room's log, from `start` (a stream id bound) on."""

    def __init__(self, client: Client, key: str, start: str, count: int = _LOG_PAGE) -> None:
        self.client, self.key, self.start, self.count = client, key, start, count

    async def __call__(self, attempt: int) -> list[LogEntry]:
        page = await self.client.xrange(self.key, self.start, "+", count=self.count)
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
    if message.startswith(("SEQ ", "CLOSED ")):
        return StoreError(message.partition(" ")[2])
    return StoreError(f"redis refused the save: {message}")


def _glob_escape(text: str) -> str:
    """`text` as a literal in a SCAN pattern."""
    return "".join(f"\\{c}" if c in "*?[]\\" else c for c in text)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _bytes(value: bytes | str) -> bytes:
    return value if isinstance(value, bytes) else value.encode()
