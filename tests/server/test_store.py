"""The contract every `Store` implementation keeps. Add a factory to STORES to run the
same suite against another backend."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from server.store import LogEntry, MemoryStore, Store, StoreError, open_store

STORES: dict[str, Callable[[], Store]] = {"memory": MemoryStore}


@pytest.fixture(params=sorted(STORES))
async def store(request: pytest.FixtureRequest) -> Store:
    factory = STORES[request.param]
    return factory()


async def test_save_then_load_and_log(store: Store) -> None:
    assert await store.load("r1") is None
    assert await store.log("r1") == []
    await store.save("r1", b"snap-1", [LogEntry(1, b"e1"), LogEntry(2, b"e2")])
    await store.save("r1", b"snap-2", [LogEntry(3, b"e3")])
    await store.save("r1", b"snap-3")
    assert await store.load("r1") == b"snap-3"
    assert await store.log("r1") == [LogEntry(1, b"e1"), LogEntry(2, b"e2"), LogEntry(3, b"e3")]
    assert await store.log("r1", after=2) == [LogEntry(3, b"e3")]
    assert await store.rooms() == ["r1"]


async def test_rooms_are_separate_and_deletable(store: Store) -> None:
    await store.save("a", b"A", [LogEntry(1, b"a1")])
    await store.save("b", b"B", [LogEntry(1, b"b1")])
    assert sorted(await store.rooms()) == ["a", "b"]
    await store.delete("a")
    await store.delete("never-there")
    assert await store.rooms() == ["b"]
    assert await store.load("a") is None and await store.log("a") == []
    assert await store.log("b") == [LogEntry(1, b"b1")]


async def test_out_of_order_entries_are_refused_and_change_nothing(store: Store) -> None:
    await store.save("r", b"one", [LogEntry(5, b"five")])
    for bad in ([LogEntry(5, b"again")], [LogEntry(6, b"six"), LogEntry(6, b"six again")]):
        with pytest.raises(StoreError):
            await store.save("r", b"two", bad)
    assert await store.load("r") == b"one"
    assert await store.log("r") == [LogEntry(5, b"five")]
    await store.close()


def test_open_store_by_url() -> None:
    assert isinstance(open_store("memory://"), MemoryStore)
    with pytest.raises(StoreError):
        open_store("carrier-pigeon://somewhere")
