"""The cluster-wide directory: which rooms are open, the lobby list, invite codes, who
sits where, which nodes are alive, and the quick-match queues.

Every node keeps a full copy (`listed`, `open`, `codes`, `seated`) so that the lobby can
answer at once, as a lone node does. Changes go to Redis and out on the directory
channel in one transaction; every node applies what it hears, and reloads the whole
directory after a Redis outage (pub/sub may have dropped changes meanwhile). The owner
of a room is the only node that writes its entries, so there is nothing to merge.

Keys (under the store's prefix):

| key | type | holds |
|---|---|---|
| `dir:open` | hash | room → its invite code (`""` for a public room): every open room |
| `dir:rooms` | hash | room → its lobby entry (MessagePack `Info`), public rooms only |
| `dir:codes` | hash | invite code → room |
| `dir:seated` | hash | player → the room where they have a seat |
| `dir:owners` | hash | room → the node that last took it (created or adopted) |
| `dir:nodes` | sorted set | node → last heartbeat (Redis time, ms) |
| `dir:quick:<race_to>` | list | players waiting for a quick match (`node|conn|player|id|name`) |

On a Redis Cluster every one of them is `{dir}:…` (one slot, see `DirectoryKeys`): the
directory changes when rooms open, close, seat or move, never per shot, so one slot carries
it for many times the tables one Redis primary could.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

import msgspec
import redis.asyncio as aioredis
from redis.asyncio.client import Pipeline

from protocol import messages as m
from server.cluster import wire
from server.cluster.bus import Bus
from server.store.redis import QUICK_BACKOFF, WRITE_BACKOFF, cancel_requested, is_transient

log = logging.getLogger(__name__)

#: Seconds a starting node waits to have read the directory (Redis may be away).
_LOAD_WAIT = 5.0

_info_encoder = msgspec.msgpack.Encoder()
_info_decoder = msgspec.msgpack.Decoder(m.Info)


@dataclass(frozen=True)
class DirectoryKeys:
    """The directory's keys and channel. `tagged` (Redis Cluster): all of them share the
    hash tag `{dir}`, so they lie in one slot, where its transactions and scripts (which
    touch several of them at once) may run; the channel is a sharded one in that slot."""

    prefix: str = ""
    tagged: bool = False

    @property
    def _base(self) -> str:
        return f"{self.prefix}{{dir}}" if self.tagged else f"{self.prefix}dir"

    @property
    def open(self) -> str:
        return f"{self._base}:open"

    @property
    def listed(self) -> str:
        return f"{self._base}:rooms"

    @property
    def codes(self) -> str:
        return f"{self._base}:codes"

    @property
    def seated(self) -> str:
        return f"{self._base}:seated"

    @property
    def owners(self) -> str:
        return f"{self._base}:owners"

    @property
    def nodes(self) -> str:
        return f"{self._base}:nodes"

    @property
    def channel(self) -> str:
        return self._base

    def quick(self, race_to: int) -> str:
        return f"{self._base}:quick:{race_to}"


# KEYS: hash.  ARGV: field, value.  Delete the field only if it still holds `value` (a
# later owner or a later room may have written it since).
_HDEL_IF = """
if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then
  return redis.call('HDEL', KEYS[1], ARGV[1])
end
return 0
"""

# KEYS: nodes.  ARGV: node.  A heartbeat stamped with Redis's clock (no skew between nodes).
_HEARTBEAT = """
local t = redis.call('TIME')
redis.call('ZADD', KEYS[1], t[1] * 1000 + math.floor(t[2] / 1000), ARGV[1])
return 1
"""

# KEYS: nodes.  ARGV: silence (ms), then node ids.  The ids of those not heard from lately.
_SILENT = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local out = {}
for i = 2, #ARGV do
  local seen = redis.call('ZSCORE', KEYS[1], ARGV[i])
  if not seen or tonumber(seen) < now - tonumber(ARGV[1]) then
    table.insert(out, ARGV[i])
  end
end
return out
"""

# KEYS: queue, nodes.  ARGV: my entry, my player, silence (ms).
# Take the first waiting player who is not me and whose node is alive (dropping the
# entries of dead nodes on the way); if there is none, wait in the queue myself.
_QUICK = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
local waiting = redis.call('LRANGE', KEYS[1], 0, -1)
for _, entry in ipairs(waiting) do
  local node, player = string.match(entry, '^([^|]*)|[^|]*|([^|]*)|')
  local seen = node and redis.call('ZSCORE', KEYS[2], node)
  if not seen or tonumber(seen) < now - tonumber(ARGV[3]) then
    redis.call('LREM', KEYS[1], 1, entry)
  elseif player ~= ARGV[2] then
    redis.call('LREM', KEYS[1], 1, entry)
    return entry
  end
end
redis.call('RPUSH', KEYS[1], ARGV[1])
return false
"""


@dataclass(frozen=True)
class QuickEntry:
    """A player waiting for a quick match, as the queue holds them."""

    node: str
    conn: int
    player: str
    request_id: int
    name: str

    def encode(self) -> str:
        return f"{self.node}|{self.conn}|{self.player}|{self.request_id}|{self.name}"

    @classmethod
    def decode(cls, text: str) -> QuickEntry:
        node, conn, player, request_id, name = text.split("|", 4)
        return cls(node, int(conn), player, int(request_id), name)


#: Called when the lobby list changes: (room, its entry or None when it is gone).
ListingHandler = Callable[[str, m.Info | None], None]
#: Called when a room has a new owner: (room, node, fencing epoch).
OwnerHandler = Callable[[str, str, int], None]


class Directory:
    def __init__(
        self,
        client: aioredis.Redis,
        bus: Bus,
        node: str,
        *,
        silence: float,
        prefix: str = "",
        keys: DirectoryKeys | None = None,
        on_listing: ListingHandler = lambda room, info: None,
        on_owner: OwnerHandler = lambda room, node, epoch: None,
    ) -> None:
        self.client = client
        self.bus = bus
        self.node = node
        self.keys = keys if keys is not None else DirectoryKeys(prefix)
        #: How long a node may stay silent before it counts as dead.
        self.silence = silence
        self.on_listing = on_listing
        self.on_owner = on_owner
        self.listed: dict[str, m.Info] = {}
        self.open: dict[str, str] = {}
        self.codes: dict[str, str] = {}
        self.seated: dict[str, str] = {}
        self.owners: dict[str, str] = {}
        self.loaded = False
        self._first_load = asyncio.Event()
        #: Loop time since when heartbeats have been going through without a break.
        self.healthy_since: float | None = None
        #: Loop time until which this node's own last heartbeat keeps it alive in every
        #: other node's eyes (sent then, plus `silence`): past it, others may take its rooms.
        self.alive_until = 0.0
        self._beat: asyncio.Task[None] | None = None
        #: Set when the loops must end: a flag, not only a cancellation (a cancel that
        #: lands while the Redis client times out can come back as a timeout error in
        #: Python 3.11, and a loop that took it for an outage would never end).
        self._closing = False
        self._beating = True
        self._writes: asyncio.Queue[tuple[Callable[[Pipeline], object], wire.DirOp | None]] = (
            asyncio.Queue()
        )
        self._heartbeat = client.register_script(_HEARTBEAT)
        self._silent = client.register_script(_SILENT)
        self._quick = client.register_script(_QUICK)
        self._tasks: list[asyncio.Task[None]] = []
        self._queued = 0
        self._written = 0
        self._progress = asyncio.Event()

    # --- life -----------------------------------------------------------------------------

    async def start(self) -> None:
        """Subscribe, beat, and read the directory: returns once it is read (or after
        `_LOAD_WAIT` seconds while Redis is away), so that a player who comes back to a
        node that has just started finds the seat it holds."""
        await self.bus.subscribe(self.keys.channel, self._heard)
        loop = asyncio.get_running_loop()
        self._beat = loop.create_task(self._beat_loop(), name="heartbeat")
        self._tasks = [
            loop.create_task(self._write_loop(), name="directory writes"),
            self._beat,
            loop.create_task(self._load_loop(), name="directory load"),
        ]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._first_load.wait(), _LOAD_WAIT)

    async def stop(self, timeout: float = 5.0) -> None:
        """Finish the queued writes (for at most `timeout` s), then leave the node list."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while not self._writes.empty() and loop.time() < deadline:
            await asyncio.sleep(0.01)
        self._closing = True
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.zrem(self.keys.nodes, self.node), 2.0)

    async def leave(self) -> None:
        """Stop beating and leave the node list now (a graceful stop, once this node's
        rooms are saved and their leases given up): the other nodes take its rooms over at
        once instead of waiting for its heartbeat to lapse. The directory's writes go on."""
        self._beating = False
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        self.alive_until = 0.0
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.client.zrem(self.keys.nodes, self.node), 2.0)

    def reload_soon(self) -> None:
        """After a Redis outage: read the whole directory again."""
        self.loaded = False
        loop = asyncio.get_running_loop()
        self._tasks = [t for t in self._tasks if not t.done()]
        self._tasks.append(loop.create_task(self._load_loop(), name="directory load"))

    async def _load_loop(self) -> None:
        delays = QUICK_BACKOFF.delays()
        while not self._closing:
            try:
                await self._load()
                return
            except Exception as exc:
                if not is_transient(exc) or cancel_requested() or self._closing:
                    raise
                await asyncio.sleep(next(delays))

    async def _load(self) -> None:
        pipe = self.client.pipeline(transaction=True)
        pipe.hgetall(self.keys.open)
        pipe.hgetall(self.keys.listed)
        pipe.hgetall(self.keys.codes)
        pipe.hgetall(self.keys.seated)
        pipe.hgetall(self.keys.owners)
        opened, listed, codes, seated, owners = await pipe.execute()
        self.owners = {_text(k): _text(v) for k, v in owners.items()}
        self.open = {_text(k): _text(v) for k, v in opened.items()}
        self.codes = {_text(k): _text(v) for k, v in codes.items()}
        self.seated = {_text(k): _text(v) for k, v in seated.items()}
        fresh: dict[str, m.Info] = {}
        for key, value in listed.items():
            with contextlib.suppress(msgspec.DecodeError, msgspec.ValidationError):
                fresh[_text(key)] = _info_decoder.decode(value)
        before, self.listed = self.listed, fresh
        for room in before.keys() - fresh.keys():
            self.on_listing(room, None)
        for room, info in fresh.items():
            if before.get(room) != info:
                self.on_listing(room, info)
        self.loaded = True
        self._first_load.set()

    # --- what the owner of a room writes --------------------------------------------------

    def room_open(self, room: str, code: str | None, info: m.Info | None) -> None:
        """`room` is open here (created or adopted), with its invite code and lobby entry
        (None for a private room)."""
        data = b"" if info is None else _info_encoder.encode(info)
        op = wire.DirOp("info", self.node, room, key=code or "", info=data)
        self._apply(op)

        def write(pipe: Pipeline) -> None:
            pipe.hset(self.keys.open, room, code or "")
            if code:
                pipe.hset(self.keys.codes, code, room)
            if info is not None:
                pipe.hset(self.keys.listed, room, data)

        self._write(write, op)

    def room_info(self, room: str, info: m.Info) -> None:
        """The lobby entry of a public room changed."""
        if self.listed.get(room) == info:
            return
        data = _info_encoder.encode(info)
        op = wire.DirOp("info", self.node, room, key=self.open.get(room, ""), info=data)
        self._apply(op)
        self._write(lambda pipe: pipe.hset(self.keys.listed, room, data), op)

    def room_gone(self, room: str) -> None:
        code = self.open.get(room, "")
        op = wire.DirOp("gone", self.node, room, key=code)
        self._apply(op)
        players = [p for p, r in self.seated.items() if r == room]

        def write(pipe: Pipeline) -> None:
            pipe.hdel(self.keys.open, room)
            pipe.hdel(self.keys.listed, room)
            if code:
                pipe.eval(_HDEL_IF, 1, self.keys.codes, code, room)
            for player in players:
                pipe.eval(_HDEL_IF, 1, self.keys.seated, player, room)
            pipe.eval(_HDEL_IF, 1, self.keys.owners, room, self.node)

        self._write(write, op)

    def seat(self, player: str, room: str) -> None:
        op = wire.DirOp("seat", self.node, room, key=player)
        self._apply(op)
        self._write(lambda pipe: pipe.hset(self.keys.seated, player, room), op)

    def unseat(self, player: str, room: str) -> None:
        op = wire.DirOp("unseat", self.node, room, key=player)
        self._apply(op)
        self._write(lambda pipe: pipe.eval(_HDEL_IF, 1, self.keys.seated, player, room), op)

    def owner(self, room: str, epoch: int) -> None:
        """Tell every node that this node owns `room` now (their relays re-register)."""
        op = wire.DirOp("owner", self.node, room, key=self.node, epoch=epoch)
        self._apply(op)
        self._write(lambda pipe: pipe.hset(self.keys.owners, room, self.node), op)

    def _write(self, write: Callable[[Pipeline], object], op: wire.DirOp | None) -> None:
        self._queued += 1
        self._writes.put_nowait((write, op))

    async def settled(self) -> None:
        """Until every write queued so far is in Redis (and announced): a room awaits this
        before telling its clients, so a player told of a seat finds it on any node."""
        target = self._queued
        while self._written < target:
            self._progress.clear()
            await self._progress.wait()

    async def _write_loop(self) -> None:
        """Apply the writes in order, each with its announcement, retrying while Redis is
        away (a write and its announcement go together or not at all)."""
        while not self._closing:
            write, op = await self._writes.get()
            delays = WRITE_BACKOFF.delays()
            while not self._closing:
                try:
                    pipe = self.client.pipeline(transaction=True)
                    write(pipe)
                    if op is not None:
                        self.bus.channels.publish_in(pipe, self.keys.channel, wire.encode(op))
                    await pipe.execute()
                    break
                except Exception as exc:
                    if cancel_requested() or self._closing:
                        raise
                    if not is_transient(exc):
                        log.exception("directory write %s failed", op)
                        break
                    await asyncio.sleep(next(delays))
            self._written += 1
            self._progress.set()

    # --- what every node hears ------------------------------------------------------------

    def _heard(self, data: bytes) -> None:
        try:
            op = wire.decode_dir_op(data)
        except (msgspec.DecodeError, msgspec.ValidationError):
            log.warning("unreadable directory message")
            return
        if op.origin == self.node:
            return  # applied when it was written
        self._apply(op)
        if op.kind == "owner":
            self.on_owner(op.room, op.key, op.epoch)

    def _apply(self, op: wire.DirOp) -> None:
        room = op.room
        if op.kind == "info":
            self.open[room] = op.key
            if op.key:
                self.codes[op.key] = room
            if op.info:
                try:
                    info = _info_decoder.decode(op.info)
                except (msgspec.DecodeError, msgspec.ValidationError):
                    return
                if self.listed.get(room) != info:
                    self.listed[room] = info
                    self.on_listing(room, info)
        elif op.kind == "owner":
            self.owners[room] = op.key
        elif op.kind == "gone":
            self.open.pop(room, None)
            if self.owners.get(room) == op.origin:
                del self.owners[room]
            if op.key and self.codes.get(op.key) == room:
                del self.codes[op.key]
            for player in [p for p, r in self.seated.items() if r == room]:
                del self.seated[player]
            if self.listed.pop(room, None) is not None:
                self.on_listing(room, None)
        elif op.kind == "seat":
            self.seated[op.key] = room
        elif op.kind == "unseat" and self.seated.get(op.key) == room:
            del self.seated[op.key]

    # --- nodes ----------------------------------------------------------------------------

    async def _beat_loop(self) -> None:
        """A heartbeat every sixth of `silence`: five may be lost or late (a slow Redis, a
        busy loop) before the others take this node for dead."""
        loop = asyncio.get_running_loop()
        interval = max(0.05, self.silence / 6)
        first = True
        while self._beating and not self._closing:
            sent = loop.time()
            try:
                await self._heartbeat(keys=[self.keys.nodes], args=[self.node])
                if self.healthy_since is None:
                    self.healthy_since = loop.time()
                    if first and await self._redis_up_for() > self.silence:
                        # Started with Redis up for a while: the others have had the time
                        # to beat, so their heartbeats can be judged at once.
                        self.healthy_since -= self.silence
                self.alive_until = sent + self.silence
            except Exception as exc:
                if cancel_requested() or self._closing or not self._beating:
                    raise asyncio.CancelledError from exc
                self.healthy_since = None
            first = False
            await asyncio.sleep(interval)

    async def _redis_up_for(self) -> float:
        """Seconds Redis has been running (0 if it does not say); a Redis Cluster answers
        for each of its nodes, and the one up for the shortest time counts."""
        try:
            info = await self.client.info("server")
        except Exception as exc:
            if cancel_requested():
                raise asyncio.CancelledError from exc
            return 0.0
        if "uptime_in_seconds" in info:
            return float(info["uptime_in_seconds"])
        each = [v.get("uptime_in_seconds", 0) for v in info.values() if isinstance(v, dict)]
        return float(min(each, default=0))

    @property
    def alive(self) -> bool:
        """Whether every other node still counts this one alive (its last heartbeat is
        recent enough): an owner that is not may have lost its rooms to another node."""
        return asyncio.get_running_loop().time() < self.alive_until

    @property
    def beating(self) -> bool:
        """Heartbeats go through (Redis answers this node's commands)."""
        return self.healthy_since is not None

    def can_judge(self) -> bool:
        """Whether this node has heard Redis long enough to tell a silent node from one
        that has not had the chance to beat since an outage (at once for a node that
        started while Redis had been up for that long)."""
        if self.healthy_since is None:
            return False
        return asyncio.get_running_loop().time() - self.healthy_since > self.silence

    async def silent(self, nodes: Sequence[str]) -> set[str]:
        """Which of `nodes` have not beaten for `silence` seconds (dead or cut off)."""
        if not nodes or not self.can_judge():
            return set()
        found = await self._silent(keys=[self.keys.nodes], args=[int(self.silence * 1000), *nodes])
        return {_text(node) for node in found or ()}

    # --- quick match ----------------------------------------------------------------------

    async def quick_match(self, race_to: int, entry: QuickEntry) -> QuickEntry | None:
        """Take a waiting partner for `entry`, or queue `entry`: the partner or None."""
        reply = await _retry(
            lambda: self._quick(
                keys=[self.keys.quick(race_to), self.keys.nodes],
                args=[entry.encode(), entry.player, int(self.silence * 1000)],
            )
        )
        if not reply:
            return None
        return QuickEntry.decode(_text(reply))

    def quick_cancel(self, race_to: int, entry: QuickEntry) -> None:
        self._write(lambda pipe: pipe.lrem(self.keys.quick(race_to), 1, entry.encode()), None)

    def quick_requeue(self, race_to: int, entry: QuickEntry) -> None:
        """Put a partner taken for a player who left meanwhile back at the head."""
        self._write(lambda pipe: pipe.lpush(self.keys.quick(race_to), entry.encode()), None)


async def _retry(call: Callable[[], Awaitable[Any]]) -> Any:
    delays = WRITE_BACKOFF.delays()
    while True:
        try:
            return await call()
        except Exception as exc:
            if cancel_requested() or not is_transient(exc):
                raise
            await asyncio.sleep(next(delays))


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
