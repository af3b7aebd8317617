"""Retired rooms, retention and quarantine: the part of the `Store` contract that bounds
what a store keeps, run against memory, SQLite and a real redis-server alike."""

from __future__ import annotations

import time

import pytest

from server.store import LogEntry, Store, StoreError
from tests.store.backends import Backend

PERSISTENT = ["sqlite", "redis", "redis-cluster"]


def entries(*seqs: int) -> list[LogEntry]:
    return [LogEntry(seq, b"\x82\xa1t\xaashot_result\xa3seq" + bytes([seq % 128])) for seq in seqs]


async def test_a_retired_room_keeps_its_replay_and_leaves_the_room_list(store: Store) -> None:
    await store.save("r1", b"first", entries(1, 2))
    await store.save("r1", b"last", entries(3, 4, 5))
    await store.save("open", b"still playing", entries(1))
    await store.retire("r1")
    assert await store.rooms() == ["open"]
    assert await store.load("r1") == b"last"
    assert await store.log("r1") == entries(1, 2, 3, 4, 5)
    assert await store.log("r1", after=1) == entries(2, 3, 4, 5)
    assert await store.log("r1", after=3) == entries(4, 5)
    assert await store.log("r1", after=5) == []


async def test_a_retired_room_takes_no_more_saves(store: Store) -> None:
    await store.save("r1", b"last", entries(1, 2))
    await store.retire("r1")
    with pytest.raises(StoreError, match="retired"):
        await store.save("r1", b"after the end", entries(3))
    assert await store.load("r1") == b"last"
    assert await store.log("r1") == entries(1, 2)


async def test_retiring_twice_or_an_unknown_room_changes_nothing(store: Store) -> None:
    await store.retire("nowhere")
    await store.save("r1", b"s", entries(1))
    await store.retire("r1")
    await store.retire("r1")
    assert await store.load("r1") == b"s"
    assert await store.log("r1", after=-1) == entries(1)
    assert await store.load("nowhere") is None


async def test_a_long_log_is_retired_whole(store: Store) -> None:
    for start in range(1, 1200, 100):
        await store.save("r1", b"s%d" % start, entries(*range(start, start + 100)))
    await store.retire("r1")
    log = await store.log("r1", after=0)
    assert [entry.seq for entry in log] == list(range(1, 1201))
    assert log == entries(*range(1, 1201))


async def test_trim_forgets_rooms_retired_before_the_cutoff_and_nothing_else(store: Store) -> None:
    await store.save("old", b"old", entries(1))
    await store.retire("old")
    cutoff = time.time() + 0.001
    while time.time() <= cutoff:  # the next retirement is stamped after the cutoff
        pass
    await store.save("new", b"new", entries(1))
    await store.retire("new")
    await store.save("open", b"open", entries(1))
    assert await store.trim(time.time() - 3600) == 0
    assert await store.trim(cutoff) == 1
    assert await store.load("old") is None
    assert await store.log("old", after=-1) == []
    assert await store.load("new") == b"new"
    assert await store.load("open") == b"open"
    assert await store.rooms() == ["open"]
    assert await store.trim(time.time() + 1) == 1
    assert await store.load("new") is None
    assert await store.rooms() == ["open"]  # open rooms are never trimmed


async def test_quarantine_moves_a_room_aside(store: Store) -> None:
    await store.save("bad", b"not a record", entries(1, 2))
    await store.save("good", b"fine", entries(1))
    assert await store.quarantined("bad") is None
    await store.quarantine("bad", "its record does not decode")
    assert await store.rooms() == ["good"]
    assert await store.load("bad") is None
    assert await store.log("bad", after=-1) == []
    assert await store.quarantined("bad") == "its record does not decode"
    with pytest.raises(StoreError, match="quarantined"):
        await store.save("bad", b"again", entries(3))
    await store.quarantine("nowhere", "no reason")
    assert await store.quarantined("nowhere") is None
    assert await store.load("good") == b"fine"


async def test_a_retired_room_can_be_quarantined(store: Store) -> None:
    await store.save("r1", b"s", entries(1))
    await store.retire("r1")
    await store.quarantine("r1", "its replay does not decode")
    assert await store.load("r1") is None
    assert await store.quarantined("r1") == "its replay does not decode"


@pytest.mark.parametrize("backend", PERSISTENT, indirect=True)
async def test_retired_and_quarantined_rooms_survive_a_restart(backend: Backend) -> None:
    store = await backend.open()
    await store.save("r1", b"one", entries(1, 2))
    await store.retire("r1")
    await store.save("bad", b"bad", entries(1))
    await store.quarantine("bad", "damaged")
    await store.save("open", b"open", entries(1))
    await backend.restart()
    reopened = await backend.open()
    assert await reopened.rooms() == ["open"]
    assert await reopened.load("r1") == b"one"
    assert await reopened.log("r1", after=0) == entries(1, 2)
    assert await reopened.quarantined("bad") == "damaged"
    with pytest.raises(StoreError):
        await reopened.save("r1", b"x", entries(3))
    assert await reopened.trim(time.time() + 1) == 1
    assert await reopened.load("r1") is None
