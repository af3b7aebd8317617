"""A store's keys under a prefix of the shared Redis: the ground the players' and the
tournaments' stores of a cluster stand on (`server.players.redis`,
`server.tournament.redis`).

Redis unreachable: a call retries with backoff (50 ms doubling to a second, with jitter)
for up to `deadline` seconds, then raises the store's error; a refusal that would come
back the same on every try (`is_transient` says which) is raised at once. A change is one
optimistic transaction (`_transact`): WATCH its keys, read them, queue the writes after
MULTI, EXEC; if another node wrote a watched key meanwhile, EXEC does nothing and the
whole step runs again on the new values, so no change is lost however many nodes write
at once.

What differs between the stores is passed in: the word their messages use (`what`) and
the error they raise (`error`).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import redis.asyncio as aioredis
from redis import exceptions as redis_errors

from server.store.redis import is_transient

T = TypeVar("T")
Pipe = Any  # redis.asyncio.client.Pipeline: untyped enough that Any says it plainly


def text(value: Any) -> str:
    """A value Redis returned (bytes, or already a string) as a string."""
    return value.decode() if isinstance(value, bytes) else str(value)


class PrefixedRedis:
    """A store whose keys all start with `prefix` (one hash tag on a Redis Cluster, so a
    transaction's keys share a slot)."""

    def __init__(
        self,
        client: aioredis.Redis,
        prefix: str,
        deadline: float,
        *,
        what: str,
        error: type[Exception],
    ) -> None:
        self.client = client
        self.prefix = prefix
        self.deadline = deadline
        self._what = what
        self._error = error

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def close(self) -> None:
        await self.client.aclose()

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.deadline
        delay = 0.05
        while True:
            try:
                return await call()
            except redis_errors.RedisError as exc:
                if not is_transient(exc) or loop.time() + delay > give_up:
                    raise self._error(f"{self._what} store: {exc}") from exc
            except OSError as exc:
                if loop.time() + delay > give_up:
                    raise self._error(f"{self._what} store: {exc}") from exc
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 1.0)

    async def _transact(self, watched: list[str], body: Callable[[Pipe], Awaitable[T]]) -> T:
        """`body` reads (immediately) with `watched` under WATCH, calls `pipe.multi()`
        and queues its writes; they are executed together, and the whole runs again if a
        watched key changed meanwhile. A `body` that returns without `multi()` writes
        nothing."""

        async def attempt() -> T:
            while True:
                async with self.client.pipeline(transaction=True) as pipe:
                    try:
                        await pipe.watch(*watched)
                        result = await body(pipe)
                        if pipe.explicit_transaction:
                            await pipe.execute()
                        return result
                    except redis_errors.WatchError:
                        continue

        return await self._retrying(attempt)
