"""One process of the concurrency test: counts the same racks as its twin, at once.

`python -m tests.players.hammer sqlite PATH|redis URL ORDER RACKS`: opens the store, says
`ready`, waits for a line on stdin, then counts rack 0 … RACKS-1 (ORDER `forward`) or
RACKS-1 … 0 (`backward`) as fast as it can, several in flight, and says `done`.
"""

from __future__ import annotations

import asyncio
import sys

from server.players.redis import RedisPlayerStore
from server.players.results import RackRecord, RackResult
from server.players.sqlite import SqlitePlayerStore
from server.players.store import PlayerStore
from server.store.redis import connect

PLAYERS = ("p_000000000000000a", "p_000000000000000b", "p_000000000000000c")
#: Racks in flight at once in one process.
IN_FLIGHT = 8


def rack(index: int) -> RackRecord:
    """Rack `index`: each ordered pair of the three players in turn."""
    pairs = [(a, b) for a in PLAYERS for b in PLAYERS if a != b]
    winner, loser = pairs[index % len(pairs)]
    result = RackResult("hammered", 1, index, winner, loser, True, winner, fouls={loser: 1})
    return RackRecord(result, 1_780_000_000_000 + index)


async def main(kind: str, where: str, order: str, count: int) -> None:
    store: PlayerStore = (
        SqlitePlayerStore(where) if kind == "sqlite" else RedisPlayerStore(connect(where))
    )
    indexes = list(range(count)) if order == "forward" else list(range(count - 1, -1, -1))
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    queue = iter(indexes)

    async def worker() -> None:
        for index in queue:
            await store.apply_rack(rack(index))

    await asyncio.gather(*(worker() for _ in range(IN_FLIGHT)))
    await store.close()
    print("done", flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])))
