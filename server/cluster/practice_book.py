"""Practice tables kept in the cluster's Redis, so that any node can open one again
(`server.rooms.practice_book` says why a table follows its player instead of being
relayed).

One hash per player, `practice:<player>` under the store's prefix: `data` (the table,
MessagePack `KeptPractice`) and `holder` (the token of the node that last took it). A
write with a token that is no longer the holder's changes nothing and tells the writer
it has lost the table; a claim hands out a new token, so the node that ran the table
before — alive behind a connection the player has left, or dead — can write it no more.
Each write keeps the hash for `KEEP_SECONDS`: a table whose node died and whose player
never came back goes away by itself.
"""

from __future__ import annotations

import secrets
from typing import Final

import msgspec
import redis.asyncio as aioredis

from server.rooms.practice_book import KeptPractice

#: How long a kept table outlives its last change (a day: the player's session is over).
KEEP_SECONDS: Final = 86_400

# A new table: written whatever the player had before, under a new holder.
_OPEN = """
redis.call('HSET', KEYS[1], 'data', ARGV[1], 'holder', ARGV[2])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# A change: written only by the holder.
_SAVE = """
if redis.call('HGET', KEYS[1], 'holder') ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'data', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[3])
return 1
"""

# A node takes the table: a new holder (unless it holds it already), the value handed back.
_CLAIM = """
local data = redis.call('HGET', KEYS[1], 'data')
if not data then return false end
if redis.call('HGET', KEYS[1], 'holder') == ARGV[3] then return {data, ARGV[3]} end
redis.call('HSET', KEYS[1], 'holder', ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return {data, ARGV[1]}
"""

# The table closed: gone, unless another node holds it now.
_FORGET = """
if redis.call('HGET', KEYS[1], 'holder') == ARGV[1] then redis.call('DEL', KEYS[1]) end
return 1
"""

_encoder = msgspec.msgpack.Encoder()
_decoder = msgspec.msgpack.Decoder(KeptPractice)


class RedisPracticeBook:
    """Implements `server.rooms.practice_book.PracticeBook` on the cluster's Redis."""

    def __init__(self, client: aioredis.Redis, node: str, prefix: str = "") -> None:
        self.client = client
        self.node = node
        self.prefix = prefix
        self._open = client.register_script(_OPEN)
        self._save = client.register_script(_SAVE)
        self._claim = client.register_script(_CLAIM)
        self._forget = client.register_script(_FORGET)

    def key(self, player: str) -> str:
        return f"{self.prefix}practice:{player}"

    def _token(self) -> str:
        return f"{self.node}:{secrets.token_hex(8)}"

    async def keep(self, table: KeptPractice, holder: str | None) -> str | None:
        data = _encoder.encode(table)
        key = self.key(table.player)
        if holder is None:
            token = self._token()
            await self._open(keys=[key], args=[data, token, KEEP_SECONDS])
            return token
        written = await self._save(keys=[key], args=[data, holder, KEEP_SECONDS])
        return holder if written == 1 else None

    async def claim(self, player: str, mine: str | None) -> tuple[str, KeptPractice] | None:
        token = self._token()
        answer = await self._claim(
            keys=[self.key(player)], args=[token, KEEP_SECONDS, mine if mine is not None else ""]
        )
        if answer is None:
            return None
        data, held = answer
        token = held.decode() if isinstance(held, bytes) else str(held)
        try:
            table = _decoder.decode(data)
        except msgspec.DecodeError:
            # A value no version of this server could have written: not a table to open.
            await self.client.delete(self.key(player))
            return None
        if table.player != player:
            return None
        return token, table

    async def forget(self, player: str, holder: str) -> None:
        await self._forget(keys=[self.key(player)], args=[holder])
