"""Tournaments in a cluster: the Redis every node shares.

Keys (under `prefix`, default `tn:`): `t:<id>` (string) the tournament's JSON;
`all` (sorted set) every id by creation time (ms); `active` (set) the ids still
registering or running. A change is one optimistic transaction: WATCH the tournament's
key, read it, apply the pure change, MULTI/EXEC the new value and the sets; if another
node wrote the tournament meanwhile, EXEC does nothing and the step runs again on the
new value, so no result is lost however many nodes report at once.

Redis unreachable: a call retries with backoff for up to `deadline` seconds, then
raises `TournamentStoreError`.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import msgspec
import redis.asyncio as aioredis
from redis import exceptions as redis_errors

from server.store.redis import is_transient
from server.tournament.model import Tournament, decode_tournament, encode_tournament
from server.tournament.store import Change, TournamentExists, TournamentStoreError

T = TypeVar("T")
_ACTIVE = ("registering", "running")
_LEAD = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class RedisTournamentStore:
    def __init__(self, client: aioredis.Redis, prefix: str = "tn:", deadline: float = 10.0) -> None:
        self.client = client
        self.prefix = prefix
        self.deadline = deadline

    def key(self, *parts: str) -> str:
        return self.prefix + ":".join(parts)

    async def _retrying(self, call: Callable[[], Awaitable[T]]) -> T:
        loop = asyncio.get_running_loop()
        give_up = loop.time() + self.deadline
        delay = 0.05
        while True:
            try:
                return await call()
            except redis_errors.RedisError as exc:
                if not is_transient(exc) or loop.time() + delay > give_up:
                    raise TournamentStoreError(f"tournaments store: {exc}") from exc
            except OSError as exc:
                if loop.time() + delay > give_up:
                    raise TournamentStoreError(f"tournaments store: {exc}") from exc
            await asyncio.sleep(delay * (0.5 + random.random()))
            delay = min(delay * 2, 1.0)

    def _write(self, pipe: Any, tournament: Tournament) -> None:
        pipe.set(self.key("t", tournament.id), encode_tournament(tournament))
        if tournament.status in _ACTIVE:
            pipe.sadd(self.key("active"), tournament.id)
        else:
            pipe.srem(self.key("active"), tournament.id)

    async def create(self, tournament: Tournament, created: int) -> None:
        key = self.key("t", tournament.id)

        async def attempt() -> None:
            async with self.client.pipeline(transaction=True) as transaction:
                pipe: Any = transaction  # redis-py's pipeline is not fully typed
                while True:
                    try:
                        await pipe.watch(key)
                        if await pipe.exists(key):
                            raise TournamentExists(tournament.id)
                        pipe.multi()
                        self._write(pipe, tournament)
                        pipe.zadd(self.key("all"), {tournament.id: created})
                        await pipe.execute()
                        return
                    except redis_errors.WatchError:
                        continue

        await self._retrying(attempt)

    async def get(self, tournament_id: str) -> Tournament | None:
        data = await self._retrying(lambda: self.client.get(self.key("t", tournament_id)))
        return None if data is None else _decode(data)

    async def update(self, tournament_id: str, change: Change) -> Tournament | None:
        key = self.key("t", tournament_id)

        async def attempt() -> Tournament | None:
            async with self.client.pipeline(transaction=True) as transaction:
                pipe: Any = transaction  # redis-py's pipeline is not fully typed
                while True:
                    try:
                        await pipe.watch(key)
                        data = await pipe.get(key)
                        if data is None:
                            return None
                        current = _decode(data)
                        updated = change(current)
                        if updated == current:
                            await pipe.unwatch()
                            return current
                        pipe.multi()
                        self._write(pipe, updated)
                        await pipe.execute()
                        return updated
                    except redis_errors.WatchError:
                        continue

        return await self._retrying(attempt)

    async def _many(self, ids: list[Any]) -> list[Tournament]:
        if not ids:
            return []
        keys = [self.key("t", _text(i)) for i in ids]
        values = await self._retrying(lambda: self.client.mget(keys))
        return [_decode(value) for value in values if value is not None]

    async def listing(self, limit: int) -> list[Tournament]:
        ids = await self._retrying(lambda: self.client.zrevrange(self.key("all"), 0, limit - 1))
        return await self._many(list(ids))

    async def active(self) -> list[Tournament]:
        ids = await self._retrying(lambda: self.client.smembers(self.key("active")))
        found = await self._many(sorted(ids))
        return [t for t in found if t.status in _ACTIVE]

    async def lead(self, node: str, ttl: float) -> bool:
        """`lead` (string + PX) names the driving node: taken when free, renewed by its
        holder, both in one script."""
        result = await self._retrying(
            lambda: self.client.eval(_LEAD, 1, self.key("lead"), node, str(int(ttl * 1000)))
        )
        return bool(result)

    async def close(self) -> None:
        await self.client.aclose()


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _decode(data: Any) -> Tournament:
    try:
        return decode_tournament(data if isinstance(data, bytes) else str(data).encode())
    except msgspec.DecodeError as exc:
        raise TournamentStoreError(f"a stored tournament does not decode: {exc}") from exc
