"""Which nodes are alive: every node's heartbeat, read by every node.

Each node beats (`server.cluster.directory`) into the sorted set `dir:nodes`, stamped with
Redis's own clock, every sixth of `--node-timeout`. `NodeWatch` reads the whole set as
often, with Redis's time, so every node judges every other by the same clock:

- a node whose last beat is older than the timeout has **died** (a crash, a lost machine,
  a process paused or cut off from Redis): logged as a warning, and its rooms are taken
  over at once (`ClusterNode` adopts them; the lease script checks the same heartbeat in
  Redis before it hands out a new epoch, so a live owner can never lose a room this way);
- a node that is no longer in the set has **left** (a graceful stop takes itself out once
  its rooms are saved and their leases given up): logged, and its rooms taken over too.

Nothing is judged until this node itself has heard Redis for a whole timeout: after an
outage every heartbeat in Redis is old, and the others need that long to beat again. Beats
older than `_FORGET` timeouts are removed, so the set holds the live nodes and the recently
dead.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

import redis.asyncio as aioredis

from server.store.redis import cancel_requested

log = logging.getLogger(__name__)

#: A heartbeat this many timeouts old (and at least `_FORGET_MIN` seconds) is removed.
_FORGET = 20
_FORGET_MIN = 60.0
#: How long a node that died or left is remembered as such (seconds).
_REMEMBER = 3600.0

# KEYS: nodes.  ARGV: forget before (ms).  Redis's time, then every node and its last beat;
# beats too old to matter are removed on the way.
_NODES = """
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - tonumber(ARGV[1]))
local out = {tostring(now)}
for _, value in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1, 'WITHSCORES')) do
  table.insert(out, value)
end
return out
"""

#: Told of a node that died (`left` False) or left (`left` True).
GoneHandler = Callable[[str, bool], None]


class NodeWatch:
    """This node's view of the others (see the module's docstring)."""

    def __init__(
        self,
        client: aioredis.Redis,
        key: str,
        node: str,
        *,
        timeout: float,
        can_judge: Callable[[], bool],
        on_gone: GoneHandler,
    ) -> None:
        self.client = client
        self.key = key
        self.node = node
        self.timeout = timeout
        self.can_judge = can_judge
        self.on_gone = on_gone
        #: The nodes beating now, as last read (this one included once it beats).
        self.live: set[str] = set()
        #: Nodes found dead or gone, and when (loop time): never taken for alive again
        #: unless they beat again.
        self.gone: dict[str, float] = {}
        #: Whether a read has been judged yet (before that, nobody counts as dead).
        self.judged = False
        self._script = client.register_script(_NODES)
        self._task: asyncio.Task[None] | None = None
        self._stopping = False

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run(), name="node watch")

    async def stop(self) -> None:
        self._stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def is_dead(self, node: str) -> bool:
        """Found dead or gone (and not beating since). A node never heard of is not."""
        return node in self.gone and node not in self.live

    async def _run(self) -> None:
        interval = max(0.05, self.timeout / 6)
        while not self._stopping:
            try:
                await self.poll()
            except Exception as exc:
                if cancel_requested() or self._stopping:
                    raise asyncio.CancelledError from exc
                log.debug("node watch: %s", exc)
            await asyncio.sleep(interval)

    async def poll(self) -> None:
        """Read every heartbeat; report the nodes that died or left since the last read."""
        forget = max(_FORGET * self.timeout, _FORGET_MIN)
        reply = await self._script(keys=[self.key], args=[int(forget * 1000)])
        now = float(reply[0])
        beats = {_text(reply[i]): float(reply[i + 1]) for i in range(1, len(reply) - 1, 2)}
        limit = now - self.timeout * 1000
        live = {node for node, seen in beats.items() if seen >= limit}
        if not self.can_judge():
            # Just back from an outage (or starting): the others have not had the time to
            # beat again. Nothing is judged; what was live stays live until then.
            self.live |= live
            return
        loop = asyncio.get_running_loop()
        ended = [node for node in self.live if node not in live and node != self.node]
        stale = [node for node in beats if node not in live and node not in self.gone]
        # At the first judgement, the nodes found dead already (before this one started):
        # their rooms are looked after too, without a warning each.
        found = [] if self.judged else [n for n in stale if n not in ended and n != self.node]
        self.live = live
        self.judged = True
        for node in live:
            self.gone.pop(node, None)
        for node in [*ended, *found]:
            left = node not in beats
            self.gone[node] = loop.time()
            silent = 0.0 if left else (now - beats[node]) / 1000
            if left:
                log.info("node %s left the cluster: taking its rooms over", node)
            elif node in found:
                log.info(
                    "node %s has not beaten for %.1f s: its rooms are looked after", node, silent
                )
            else:
                log.warning(
                    "node %s stopped beating %.1f s ago: it is taken for dead and its rooms "
                    "are taken over",
                    node,
                    silent,
                    extra={"node": node, "silent": round(silent, 1)},
                )
            try:
                self.on_gone(node, left)
            except Exception:
                log.exception("taking over the rooms of node %s failed", node)
        for node in stale:
            self.gone.setdefault(node, loop.time())
        old = loop.time() - _REMEMBER
        for node in [n for n, when in self.gone.items() if when < old]:
            del self.gone[node]


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
