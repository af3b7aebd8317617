"""Where practice tables are kept: the cluster's (a real redis-server) and a lone node's
books answer alike — one holder at a time, a table taken by another node cannot be
written by the one that lost it, a closed table is forgotten only by its holder."""

from __future__ import annotations

import pytest
import redis.asyncio as aioredis

from server.cluster.practice_book import KEEP_SECONDS, RedisPracticeBook
from server.rooms.practice import new_practice
from server.rooms.practice_book import KeptPractice, LonePracticeBook, PracticeBook


def table() -> KeptPractice:
    state = new_practice(5, drill="nine_ghost")
    return KeptPractice(room="r1", player="ana", name="Ana", state=state)


@pytest.fixture(params=["redis", "lone"])
def books(
    request: pytest.FixtureRequest, client: aioredis.Redis
) -> tuple[PracticeBook, PracticeBook]:
    """Two nodes' books on one keeping place."""
    if request.param == "lone":
        lone = LonePracticeBook()
        return lone, lone
    return RedisPracticeBook(client, "n1"), RedisPracticeBook(client, "n2")


async def test_one_holder_at_a_time(books: tuple[PracticeBook, PracticeBook]) -> None:
    n1, n2 = books
    kept = table()
    assert await n2.claim("ana", None) is None  # nothing kept yet
    first = await n1.keep(kept, None)
    assert first is not None
    assert await n1.keep(kept, first) == first
    # This node's own copy is still the table: the same token back, nothing changes.
    assert await n1.claim("ana", first) == (first, kept)

    # Another node takes it: a new holder; the one that lost it writes nothing.
    claimed = await n2.claim("ana", None)
    assert claimed is not None
    second, got = claimed
    assert second != first and got == kept
    changed = KeptPractice(room="r1", player="ana", name="Changed", state=kept.state)
    assert await n1.keep(changed, first) is None
    assert await n1.claim("ana", first) != (first, kept)  # not n1's any more

    # Only the holder forgets it.
    holder = (await n2.claim("ana", None) or ("", kept))[0]
    await n1.forget("ana", first)
    assert await n2.claim("ana", holder) == (holder, kept)
    await n2.forget("ana", holder)
    assert await n1.claim("ana", None) is None


async def test_a_kept_table_expires_and_garbage_opens_nothing(client: aioredis.Redis) -> None:
    book = RedisPracticeBook(client, "n1", prefix="t:")
    token = await book.keep(table(), None)
    assert token is not None
    ttl = await client.ttl("t:practice:ana")
    assert 0 < ttl <= KEEP_SECONDS
    await client.hset("t:practice:bob", mapping={"data": b"\x93not a table", "holder": "x"})
    assert await book.claim("bob", None) is None
    assert await client.exists("t:practice:bob") == 0
