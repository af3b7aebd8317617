"""The `Store` contract, run against memory, SQLite and a real redis-server alike."""

from __future__ import annotations

import asyncio

import pytest

from server.store import FencedError, LogEntry, Store, StoreError
from tests.store.backends import Backend

PERSISTENT = ["sqlite", "redis", "redis-cluster"]


def entries(*seqs: int) -> list[LogEntry]:
    return [LogEntry(seq, f"event {seq}".encode()) for seq in seqs]


async def test_unknown_room_reads_empty(store: Store) -> None:
    assert await store.load("nowhere") is None
    assert await store.log("nowhere") == []
    assert await store.rooms() == []


async def test_save_then_read_back(store: Store) -> None:
    await store.save("r1", b"snapshot 1", entries(1, 2, 3))
    assert await store.load("r1") == b"snapshot 1"
    assert await store.log("r1") == entries(1, 2, 3)
    assert await store.rooms() == ["r1"]


async def test_snapshot_is_replaced_and_log_appended_in_order(store: Store) -> None:
    await store.save("r1", b"after 2", entries(1, 2))
    await store.save("r1", b"after 2, again")  # a snapshot-only save
    await store.save("r1", b"after 5", entries(3, 4, 5))
    await store.save("r1", b"after 9", entries(9))  # gaps are allowed, order is what counts
    assert await store.load("r1") == b"after 9"
    assert await store.log("r1") == entries(1, 2, 3, 4, 5, 9)


async def test_log_after_reads_the_tail_for_replay_catch_up(store: Store) -> None:
    await store.save("r1", b"s", entries(*range(1, 21)))
    assert await store.log("r1", after=0) == entries(*range(1, 21))
    assert await store.log("r1", after=15) == entries(16, 17, 18, 19, 20)
    assert await store.log("r1", after=20) == []
    assert await store.log("r1", after=1000) == []
    assert await store.log("r1", after=-5) == entries(*range(1, 21))


async def test_seq_zero_is_a_valid_first_entry(store: Store) -> None:
    await store.save("r1", b"s", entries(0, 1))
    assert await store.log("r1", after=-1) == entries(0, 1)
    assert await store.log("r1") == entries(1)


async def test_long_log_reads_back_whole(store: Store) -> None:
    for start in range(1, 1500, 100):
        await store.save("r1", b"s", entries(*range(start, start + 100)))
    log = await store.log("r1")
    assert [entry.seq for entry in log] == list(range(1, 1501))
    assert log[-1].data == b"event 1500"


@pytest.mark.parametrize("refused", [(3,), (2,), (1, 4), (4, 4), (5, 4), (-1,)])
async def test_seq_that_does_not_follow_is_refused_and_changes_nothing(
    store: Store, refused: tuple[int, ...]
) -> None:
    await store.save("r1", b"kept", entries(1, 2, 3))
    with pytest.raises(StoreError):
        await store.save("r1", b"must not land", entries(*refused))
    # Atomic: neither the snapshot nor any entry of the refused batch landed.
    assert await store.load("r1") == b"kept"
    assert await store.log("r1") == entries(1, 2, 3)
    # And the room goes on from where it was.
    await store.save("r1", b"next", entries(4))
    assert await store.log("r1") == entries(1, 2, 3, 4)


async def test_refused_first_save_leaves_no_room(store: Store) -> None:
    with pytest.raises(StoreError):
        await store.save("r1", b"s", entries(2, 1))
    assert await store.load("r1") is None
    assert await store.rooms() == []
    assert await store.log("r1") == []


async def test_rooms_are_independent(store: Store) -> None:
    await store.save("a", b"A", entries(1, 2))
    await store.save("b", b"B", entries(1))
    await store.save("a", b"A2", entries(3))
    assert sorted(await store.rooms()) == ["a", "b"]
    assert await store.log("a") == entries(1, 2, 3)
    assert await store.log("b") == entries(1)
    assert await store.load("b") == b"B"


async def test_room_ids_and_data_keep_every_byte(store: Store) -> None:
    room = "salle:9 ✓/x"
    blob = bytes(range(256)) * 64
    await store.save(room, blob, [LogEntry(1, b""), LogEntry(2, blob), LogEntry(3, b"\x00")])
    assert await store.load(room) == blob
    assert await store.log(room) == [LogEntry(1, b""), LogEntry(2, blob), LogEntry(3, b"\x00")]
    assert await store.rooms() == [room]


async def test_large_snapshot(store: Store) -> None:
    big = bytes(range(256)) * 4096  # 1 MiB
    await store.save("r1", big, entries(1))
    assert await store.load("r1") == big


async def test_delete_forgets_snapshot_and_log(store: Store) -> None:
    await store.save("gone", b"s", entries(1, 2))
    await store.save("kept", b"k", entries(1))
    await store.delete("gone")
    assert await store.load("gone") is None
    assert await store.log("gone") == []
    assert await store.rooms() == ["kept"]
    await store.delete("gone")  # unknown room: not an error
    await store.delete("never-was")
    # A deleted room id can start over from the beginning.
    await store.save("gone", b"new", entries(1))
    assert await store.log("gone") == entries(1)
    assert await store.log("kept") == entries(1)


async def test_many_rooms_saving_at_once_keep_their_own_order(store: Store) -> None:
    async def play(room: str) -> None:
        for seq in range(1, 11):
            await store.save(room, f"{room} at {seq}".encode(), entries(seq))

    rooms = [f"room-{n}" for n in range(20)]
    await asyncio.gather(*(play(room) for room in rooms))
    assert sorted(await store.rooms()) == sorted(rooms)
    for room in rooms:
        assert await store.load(room) == f"{room} at 10".encode()
        assert await store.log(room) == entries(*range(1, 11))


async def test_bad_arguments_are_refused_clearly(store: Store) -> None:
    await store.save("r1", b"kept", entries(1))
    with pytest.raises(StoreError):
        await store.save("r1", b"s", [LogEntry(2, b"a"), LogEntry(2, b"b")])
    assert await store.log("r1") == entries(1)
    assert await store.load("r1") == b"kept"


# The in-memory reference store trusts its typed callers; the others check.
@pytest.mark.parametrize("backend", PERSISTENT, indirect=True)
@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.save("", b"s"),
        lambda s: s.save("r1", "not bytes"),
        lambda s: s.save("r1", b"s", [LogEntry(True, b"x")]),
        lambda s: s.save("r1", b"s", [LogEntry(1, "text")]),
        lambda s: s.save("r1", b"s", [(1, b"a", b"b")]),
        lambda s: s.save("r1", b"s", fence=-1),
        lambda s: s.save("r1", b"s", fence="3"),
        lambda s: s.log("r1", after="0"),
        lambda s: s.load(""),
    ],
)
async def test_bad_arguments_get_a_clear_error_and_change_nothing(
    store: Store, call: object
) -> None:
    assert callable(call)
    with pytest.raises(StoreError):
        await call(store)
    assert await store.rooms() == []


# --- fencing ---------------------------------------------------------------------------


async def test_stale_fence_cannot_save(store: Store, backend: Backend) -> None:
    first = await backend.next_epoch("r1")
    await store.save("r1", b"first owner", entries(1), fence=first)
    second = await backend.next_epoch("r1")
    assert second > first
    await store.save("r1", b"second owner", entries(2), fence=second)
    with pytest.raises(FencedError):
        await store.save("r1", b"stale owner", entries(3), fence=first)
    assert await store.load("r1") == b"second owner"
    assert await store.log("r1") == entries(1, 2)
    await store.save("r1", b"second owner goes on", entries(3), fence=second)
    assert await store.log("r1") == entries(1, 2, 3)


async def test_fenced_error_is_a_store_error(store: Store, backend: Backend) -> None:
    old = await backend.next_epoch("r1")
    new = await backend.next_epoch("r1")
    await store.save("r1", b"new owner", fence=new)
    with pytest.raises(StoreError):
        await store.save("r1", b"old owner", fence=old)
    assert await store.load("r1") == b"new owner"


async def test_fences_are_per_room(store: Store, backend: Backend) -> None:
    await backend.next_epoch("a")
    a = await backend.next_epoch("a")
    b = await backend.next_epoch("b")
    assert b < a  # each room counts its own owners
    await store.save("a", b"a", entries(1), fence=a)
    await store.save("b", b"b", entries(1), fence=b)
    assert await store.load("b") == b"b"
    assert await store.log("b") == entries(1)


async def test_delete_does_not_reset_the_fence(store: Store, backend: Backend) -> None:
    old = await backend.next_epoch("r1")
    new = await backend.next_epoch("r1")
    await store.save("r1", b"new owner", entries(1), fence=new)
    await store.delete("r1")
    with pytest.raises(FencedError):
        await store.save("r1", b"old owner brings it back", entries(1), fence=old)
    assert await store.load("r1") is None


# --- restarts --------------------------------------------------------------------------


@pytest.mark.parametrize("backend", PERSISTENT, indirect=True)
async def test_everything_acknowledged_survives_a_restart(backend: Backend) -> None:
    store = await backend.open()
    epoch = await backend.next_epoch("r1")
    await store.save("r1", b"one", entries(1, 2), fence=epoch)
    await store.save("r1", b"two", entries(3))
    await store.save("r2", b"other", entries(1))
    await store.delete("r2")
    await store.save("r3", b"three", entries(7))
    await backend.restart()
    reopened = await backend.open()
    assert sorted(await reopened.rooms()) == ["r1", "r3"]
    assert await reopened.load("r1") == b"two"
    assert await reopened.log("r1") == entries(1, 2, 3)
    assert await reopened.log("r3") == entries(7)
    # The seq order and the fence survive the restart as well.
    with pytest.raises(StoreError):
        await reopened.save("r1", b"x", entries(3))
    await reopened.save("r1", b"after restart", entries(4), fence=epoch)
    assert await reopened.log("r1", after=2) == entries(3, 4)
