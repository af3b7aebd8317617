"""The in-memory store forgets retired rooms (closed, kept for their replay) beyond a
count and an age, so a long-running process does not grow with every room ever played;
open rooms are never forgotten."""

from __future__ import annotations

import pytest

from server.store import LogEntry, MemoryStore


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_retired_rooms_beyond_the_count_are_forgotten_oldest_first() -> None:
    store = MemoryStore(keep_retired=2, retired_max_age=3600, clock=Clock())
    for room in ("open", "a", "b", "c"):
        await store.save(room, room.encode(), [LogEntry(1, b"shot")])
    for room in ("a", "b", "c"):
        await store.retire(room)
    assert store.retired == ["b", "c"]
    assert await store.load("a") is None and await store.log("a") == []
    assert await store.rooms() == ["open"]  # retired rooms are kept for replays only
    assert await store.load("b") == b"b"
    assert await store.log("c") == [LogEntry(1, b"shot")]


async def test_retired_rooms_older_than_the_age_are_forgotten() -> None:
    clock = Clock()
    store = MemoryStore(keep_retired=100, retired_max_age=60, clock=clock)
    await store.save("old", b"old", [LogEntry(1, b"x")])
    await store.save("open", b"open", [LogEntry(1, b"y")])
    await store.retire("old")
    clock.now += 30
    await store.save("new", b"new", [LogEntry(1, b"z")])
    await store.retire("new")
    clock.now += 31  # "old" retired 61 s ago, "new" 31 s ago
    assert await store.load("old") is None
    assert await store.load("new") == b"new"
    clock.now += 3600
    assert await store.rooms() == ["open"]  # open rooms have no age limit


async def test_retiring_an_unknown_room_changes_nothing_and_bad_limits_are_refused() -> None:
    store = MemoryStore(keep_retired=0)
    await store.retire("never-saved")
    assert store.retired == [] and await store.rooms() == []
    await store.save("r", b"r")
    await store.retire("r")  # keep none: forgotten at once
    assert await store.rooms() == []
    with pytest.raises(ValueError):
        MemoryStore(keep_retired=-1)
