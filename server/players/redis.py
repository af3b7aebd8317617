"""Players in a cluster: the Redis every node shares.

A rack is counted in one optimistic transaction: WATCH the rack's "counted" mark and both
players' rating hashes, read them, rate the rack in Python (`server.players.ratings`,
the same arithmetic as SQLite's), then MULTI/EXEC every write — both ratings and
statistics, the history points, the leaderboards, the mark. If another node changed any
watched key in between, EXEC does nothing and the whole step runs again on the new
values, so no update is lost however many nodes finish racks at once, and the mark
makes a repeated rack a no-op.

Keys (under `prefix`, default `pl:`):

| key | type | holds |
|---|---|---|
| `a:<player>` | hash | the account: `name`, `folded`, `skeleton`, `hash`, `gen`, `created` |
| `fold:<folded>`, `skel:<skeleton>` | string | the player holding that name / look |
| `deleted` | set | player ids whose account was deleted (never claimed again) |
| `r:<player>` | hash | rating and statistics (`Stats`' fields) |
| `names`, `racks` | hash | every account's name, and its rated racks (one read for a whole board) |
| `h:<player>` | list | rating history, `<ms>:<rating>`, oldest first, last `HISTORY_KEPT` |
| `m:<player>` | list | recent matches (JSON), newest first, last `MATCHES_KEPT` |
| `board` | sorted set | established accounts by rating |
| `board:<YYYY-MM>`, `racks:<YYYY-MM>` | sorted set, hash | that month's board and racks |
| `months:<player>` | set | the months the player is on (for erasure) |
| `seen:<rack or match>` | string + EX | counted already (`SEEN_FOR`) |
| `revoked:<token id>` | string + EXAT | a logged-out token, until it would expire |
| `fail:<key>` | string + EX | failed sign-ins in the current window |

Redis unreachable: a call retries with backoff for up to `deadline` seconds, then raises
`PlayerStoreError` (`server.store.prefixed_redis`); every write is safe to repeat (a
rack or match already counted is recognised by its mark).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import Any

import redis.asyncio as aioredis

from server.players.ratings import PROVISIONAL_RACKS, START
from server.players.results import MatchResult, RackRecord
from server.players.store import (
    HISTORY_KEPT,
    MATCHES_KEPT,
    SEEN_FOR,
    Account,
    Attempts,
    HistoryPoint,
    LeaderRow,
    MatchLine,
    NameTaken,
    PlayerStoreError,
    PlayerTaken,
    Profile,
    RackApplied,
    Stats,
    after_rack,
    match_line,
    rated_pair,
)
from server.store.prefixed_redis import Pipe, PrefixedRedis, text

_STATS_FIELDS = ("racks", "won", "lost", "breaks", "break_and_runs", "nines_on_break", "fouls")


class RedisPlayerStore(PrefixedRedis):
    """Players in Redis (see the module's docstring for the keys)."""

    def __init__(self, client: aioredis.Redis, prefix: str = "pl:", deadline: float = 10.0) -> None:
        super().__init__(client, prefix, deadline, what="players", error=PlayerStoreError)
        #: Players whose racks this process is counting now, and how many wait on each:
        #: a process counts one rack per player at a time, so WATCH retries are only ever
        #: between processes (a burst of racks of one player would otherwise retry each
        #: other without end, each EXEC an fsync).
        self._busy: dict[str, tuple[asyncio.Lock, int]] = {}

    # --- running calls ----------------------------------------------------------------------------

    @contextlib.asynccontextmanager
    async def _players(self, *players: str) -> AsyncIterator[None]:
        chosen = sorted(set(players))  # one order for everyone: no deadlock
        for player in chosen:
            lock, waiting = self._busy.get(player, (asyncio.Lock(), 0))
            self._busy[player] = (lock, waiting + 1)
        held: list[asyncio.Lock] = []
        try:
            for player in chosen:
                lock = self._busy[player][0]
                await lock.acquire()
                held.append(lock)
            yield
        finally:
            for lock in held:
                lock.release()
            for player in chosen:
                lock, waiting = self._busy[player]
                if waiting <= 1:
                    del self._busy[player]
                else:
                    self._busy[player] = (lock, waiting - 1)

    # --- accounts ---------------------------------------------------------------------------------

    async def create_account(
        self, player: str, name: str, folded: str, skeleton: str, password_hash: str, now: int
    ) -> None:
        account_key = self.key("a", player)
        fold_key, skel_key = self.key("fold", folded), self.key("skel", skeleton)

        async def create(pipe: Pipe) -> None:
            if await pipe.exists(fold_key, skel_key):
                raise NameTaken(name)
            if await pipe.exists(account_key) or await pipe.sismember(self.key("deleted"), player):
                raise PlayerTaken(player)
            pipe.multi()
            pipe.hset(
                account_key,
                mapping={
                    "name": name,
                    "folded": folded,
                    "skeleton": skeleton,
                    "hash": password_hash,
                    "gen": 0,
                    "created": now,
                },
            )
            pipe.set(fold_key, player)
            pipe.set(skel_key, player)
            pipe.hset(self.key("names"), player, name)
            pipe.hset(self.key("r", player), mapping={"rating": repr(START)})

        await self._transact([account_key, fold_key, skel_key, self.key("deleted")], create)

    def _account(self, player: str, fields: dict[Any, Any]) -> Account | None:
        if not fields:
            return None
        return Account(
            player=player,
            name=text(fields[b"name"]),
            password_hash=text(fields[b"hash"]),
            generation=int(fields[b"gen"]),
            created=int(fields[b"created"]),
        )

    async def set_password_hash(self, player: str, password_hash: str) -> bool:
        account_key = self.key("a", player)

        async def change(pipe: Pipe) -> bool:
            if not await pipe.exists(account_key):
                return False
            pipe.multi()
            pipe.hset(account_key, "hash", password_hash)
            return True

        return await self._transact([account_key], change)

    async def account(self, player: str) -> Account | None:
        fields = await self._retrying(lambda: self.client.hgetall(self.key("a", player)))
        return self._account(player, fields)

    async def account_by_name(self, folded: str) -> Account | None:
        player = await self._retrying(lambda: self.client.get(self.key("fold", folded)))
        return None if player is None else await self.account(text(player))

    async def name_holder(self, folded: str, skeleton: str) -> str | None:
        keys = [self.key("fold", folded), self.key("skel", skeleton)]
        found: list[Any] = await self._retrying(lambda: self.client.mget(keys))
        holder = next((value for value in found if value is not None), None)
        return None if holder is None else text(holder)

    async def names(self, players: list[str]) -> dict[str, str]:
        if not players:
            return {}

        found: list[Any] = await self._retrying(
            lambda: self.client.hmget(self.key("names"), players)
        )
        return {p: text(n) for p, n in zip(players, found, strict=True) if n is not None}

    async def delete_account(self, player: str) -> bool:
        account_key, months_key = self.key("a", player), self.key("months", player)

        async def erase(pipe: Pipe) -> bool:
            fields = await pipe.hmget(account_key, "folded", "skeleton")
            if fields[0] is None:
                return False
            months = [text(month) for month in await pipe.smembers(months_key)]
            pipe.multi()
            pipe.delete(
                account_key,
                self.key("r", player),
                self.key("h", player),
                self.key("m", player),
                months_key,
                self.key("fold", text(fields[0])),
                self.key("skel", text(fields[1])),
            )
            pipe.zrem(self.key("board"), player)
            pipe.hdel(self.key("names"), player)
            pipe.hdel(self.key("racks"), player)
            for month in months:
                pipe.zrem(self.key("board", month), player)
                pipe.hdel(self.key("racks", month), player)
            pipe.sadd(self.key("deleted"), player)
            return True

        return await self._transact([account_key, months_key], erase)

    async def new_generation(self, player: str) -> int | None:
        account_key = self.key("a", player)

        async def bump(pipe: Pipe) -> int | None:
            generation = await pipe.hget(account_key, "gen")
            if generation is None:
                return None
            pipe.multi()
            pipe.hincrby(account_key, "gen", 1)
            return int(generation) + 1

        return await self._transact([account_key], bump)

    async def revoke(self, token_id: str, until: int) -> None:
        await self._retrying(
            lambda: self.client.set(self.key("revoked", token_id), 1, exat=max(1, until))
        )

    async def token_state(self, player: str, token_id: str) -> int | None:
        async def read() -> list[Any]:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.hget(self.key("a", player), "gen")
                pipe.exists(self.key("revoked", token_id))
                return list(await pipe.execute())

        generation, revoked = await self._retrying(read)
        if generation is None or revoked:
            return None
        return int(generation)

    # --- sign-in throttles ------------------------------------------------------------------------

    async def fail(self, key: str, window: int) -> Attempts:
        name = self.key("fail", key)

        async def count() -> list[Any]:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.incr(name)
                pipe.expire(name, window, nx=True)
                pipe.ttl(name)
                return list(await pipe.execute())

        failures, _, ttl = await self._retrying(count)
        return Attempts(int(failures), max(1, int(ttl)))

    async def attempts(self, key: str) -> Attempts:
        name = self.key("fail", key)

        async def read() -> list[Any]:
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.get(name)
                pipe.ttl(name)
                return list(await pipe.execute())

        failures, ttl = await self._retrying(read)
        if failures is None or int(ttl) <= 0:
            return Attempts(0, 0)
        return Attempts(int(failures), int(ttl))

    async def forgive(self, key: str) -> None:
        await self._retrying(lambda: self.client.delete(self.key("fail", key)))

    # --- racks and matches ------------------------------------------------------------------------

    def _stats(self, fields: dict[Any, Any]) -> Stats | None:
        if not fields:
            return None
        values = {text(name): text(value) for name, value in fields.items()}
        return Stats(float(values["rating"]), *(int(values.get(name, 0)) for name in _STATS_FIELDS))

    async def apply_rack(self, rack: RackRecord) -> RackApplied | None:
        result = rack.result
        seen_key = self.key("seen", "r" + rack.key)
        winner_key, loser_key = self.key("r", result.winner), self.key("r", result.loser)

        async def apply(pipe: Pipe) -> RackApplied | None:
            if await pipe.exists(seen_key):
                return None
            winner = self._stats(await pipe.hgetall(winner_key))
            loser = self._stats(await pipe.hgetall(loser_key))
            pair = rated_pair(rack, winner, loser)
            if pair is None:
                return None
            pipe.multi()
            pipe.set(seen_key, 1, ex=SEEN_FOR)
            for player, stats, rating in (
                (result.winner, winner, pair[0]),
                (result.loser, loser, pair[1]),
            ):
                if stats is not None:
                    self._count(pipe, rack, player, after_rack(rack, player, stats, rating))
            return RackApplied(*pair)

        async with self._players(result.winner, result.loser):
            return await self._transact([seen_key, winner_key, loser_key], apply)

    def _count(self, pipe: Pipe, rack: RackRecord, player: str, stats: Stats) -> None:
        """Queue `player`'s writes for `rack` (see `SqlitePlayerStore`'s `_count`)."""
        mapping: dict[str, Any] = {"rating": repr(stats.rating)}
        mapping.update({name: getattr(stats, name) for name in _STATS_FIELDS})
        pipe.hset(self.key("r", player), mapping=mapping)
        pipe.hset(self.key("racks"), player, stats.racks)
        history = self.key("h", player)
        pipe.rpush(history, f"{rack.at}:{stats.rating!r}")
        pipe.ltrim(history, -HISTORY_KEPT, -1)
        month = rack.month
        pipe.hincrby(self.key("racks", month), player, 1)
        pipe.sadd(self.key("months", player), month)
        if stats.racks >= PROVISIONAL_RACKS:
            pipe.zadd(self.key("board"), {player: stats.rating})
            pipe.zadd(self.key("board", month), {player: stats.rating})

    async def record_match(self, match: MatchResult, at: int) -> bool:
        seen_key = self.key("seen", f"m{match.room}\x1f{match.match}")
        accounts = [self.key("a", player) for player in match.players]

        async def record(pipe: Pipe) -> bool:
            if await pipe.exists(seen_key):
                return False
            holders = [
                player
                for player, key in zip(match.players, accounts, strict=True)
                if await pipe.exists(key)
            ]
            pipe.multi()
            pipe.set(seen_key, 1, ex=SEEN_FOR)
            for player in holders:
                line = match_line(match, player, at)
                entry = json.dumps(
                    [
                        line.room,
                        line.match,
                        line.at,
                        line.opponent,
                        line.won,
                        list(line.score),
                        line.ended_by,
                        line.rated,
                    ]
                )
                pipe.lpush(self.key("m", player), entry)
                pipe.ltrim(self.key("m", player), 0, MATCHES_KEPT - 1)
            return True

        return await self._transact([seen_key, *accounts], record)

    # --- reading ----------------------------------------------------------------------------------

    async def stats(self, player: str) -> Stats | None:
        fields = await self._retrying(lambda: self.client.hgetall(self.key("r", player)))
        return self._stats(fields)

    async def leaderboard(self, limit: int, month: str | None = None) -> list[LeaderRow]:
        board = self.key("board") if month is None else self.key("board", month)

        async def read() -> list[LeaderRow]:
            top: list[Any] = await self.client.zrevrange(
                board, 0, max(0, limit - 1), withscores=True
            )
            if limit <= 0 or not top:
                return []
            players = [text(pair[0]) for pair in top]
            racks_key = self.key("racks") if month is None else self.key("racks", month)
            async with self.client.pipeline(transaction=False) as pipe:
                pipe.hmget(self.key("names"), players)
                pipe.hmget(racks_key, players)
                names, counts = await pipe.execute()
            rows = []
            for player, pair, name, racks in zip(players, top, names, counts, strict=True):
                if name is not None:
                    rows.append(LeaderRow(player, text(name), float(pair[1]), int(racks or 0)))
            return rows

        return await self._retrying(read)

    async def profile(self, player: str) -> Profile | None:
        async def read() -> list[Any]:
            async with self.client.pipeline(transaction=True) as pipe:
                pipe.hgetall(self.key("a", player))
                pipe.hgetall(self.key("r", player))
                pipe.lrange(self.key("h", player), 0, -1)
                pipe.lrange(self.key("m", player), 0, MATCHES_KEPT - 1)
                return list(await pipe.execute())

        fields, stats, history, matches = await self._retrying(read)
        account = self._account(player, fields)
        if account is None:
            return None
        points = []
        for point in history:
            at, _, rating = text(point).partition(":")
            points.append(HistoryPoint(int(at), float(rating)))
        lines = []
        for raw in matches:
            room, number, at, opponent, won, score, ended_by, rated = json.loads(raw)
            lines.append(
                MatchLine(room, number, at, opponent, won, (score[0], score[1]), ended_by, rated)
            )
        return Profile(account, self._stats(stats) or Stats(), tuple(points), tuple(lines))
