"""Tournaments in a cluster: the Redis every node shares.

Keys (under `prefix`, default `tn:`): `t:<id>` (string) the tournament's JSON;
`all` (sorted set) every id by creation time (ms); `active` (set) the ids still
registering or running. A change is one optimistic transaction: WATCH the tournament's
key, read it, apply the pure change, MULTI/EXEC the new value and the sets; if another
node wrote the tournament meanwhile, EXEC does nothing and the step runs again on the
new value, so no result is lost however many nodes report at once.

Redis unreachable: a call retries with backoff for up to `deadline` seconds, then
raises `TournamentStoreError` (`server.store.prefixed_redis`).
"""

from __future__ import annotations

from typing import Any

import msgspec
import redis.asyncio as aioredis

from server.store.prefixed_redis import Pipe, PrefixedRedis, text
from server.tournament.model import Tournament, decode_tournament, encode_tournament
from server.tournament.store import Change, TournamentExists, TournamentStoreError

_ACTIVE = ("registering", "running")
_LEAD = """
local holder = redis.call('GET', KEYS[1])
if holder == false or holder == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
  return 1
end
return 0
"""


class RedisTournamentStore(PrefixedRedis):
    """Tournaments in Redis (see the module's docstring for the keys)."""

    def __init__(self, client: aioredis.Redis, prefix: str = "tn:", deadline: float = 10.0) -> None:
        super().__init__(client, prefix, deadline, what="tournaments", error=TournamentStoreError)

    def _write(self, pipe: Pipe, tournament: Tournament) -> None:
        pipe.set(self.key("t", tournament.id), encode_tournament(tournament))
        if tournament.status in _ACTIVE:
            pipe.sadd(self.key("active"), tournament.id)
        else:
            pipe.srem(self.key("active"), tournament.id)

    async def create(self, tournament: Tournament, created: int) -> None:
        key = self.key("t", tournament.id)

        async def insert(pipe: Pipe) -> None:
            if await pipe.exists(key):
                raise TournamentExists(tournament.id)
            pipe.multi()
            self._write(pipe, tournament)
            pipe.zadd(self.key("all"), {tournament.id: created})

        await self._transact([key], insert)

    async def get(self, tournament_id: str) -> Tournament | None:
        data = await self._retrying(lambda: self.client.get(self.key("t", tournament_id)))
        return None if data is None else _decode(data)

    async def update(self, tournament_id: str, change: Change) -> Tournament | None:
        key = self.key("t", tournament_id)

        async def step(pipe: Pipe) -> Tournament | None:
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
            return updated

        return await self._transact([key], step)

    async def _many(self, ids: list[Any]) -> list[Tournament]:
        if not ids:
            return []
        keys = [self.key("t", text(i)) for i in ids]
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


def _decode(data: Any) -> Tournament:
    try:
        return decode_tournament(data if isinstance(data, bytes) else str(data).encode())
    except msgspec.DecodeError as exc:
        raise TournamentStoreError(f"a stored tournament does not decode: {exc}") from exc
