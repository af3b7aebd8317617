"""Reading a long log a page at a time (`log_page`, `log_pages`): how a replay walks a
room's log without holding it, live or retired (archived), on every store. A retired
room's archive is inflated as it is read: never the whole log at once."""

from __future__ import annotations

import tracemalloc

import msgspec
import pytest

from server.store import LogEntry, Store, archive
from server.store.base import DamagedRoom


def entries(*seqs: int, size: int = 40) -> list[LogEntry]:
    return [
        LogEntry(seq, msgspec.msgpack.encode({"t": "chat", "seq": seq, "text": "x" * size}))
        for seq in seqs
    ]


async def walk(store: Store, room: str, after: int, page: int) -> list[list[LogEntry]]:
    return [chunk async for chunk in store.log_pages(room, after, page)]


@pytest.mark.parametrize("retired", [False, True])
async def test_a_long_log_comes_a_page_at_a_time(store: Store, retired: bool) -> None:
    for start in range(1, 1000, 100):
        await store.save("r1", b"s", entries(*range(start, start + 100)))
    if retired:
        await store.retire("r1")
    whole = entries(*range(1, 1001))
    pages = await walk(store, "r1", 0, 64)
    assert [len(p) for p in pages] == [64] * 15 + [40]
    assert [e for p in pages for e in p] == whole
    assert [e for p in await walk(store, "r1", 990, 64) for e in p] == whole[990:]
    assert await walk(store, "r1", 1000, 64) == []
    assert await walk(store, "nowhere", 0, 64) == []
    assert await store.log_page("r1", 500, 3) == whole[500:503]


def test_an_archive_is_inflated_as_it_is_read() -> None:
    log = entries(*range(1, 4001), size=2000)  # 8 MB of log
    packed = archive.pack(b"snapshot", log)
    tracemalloc.start()
    try:
        first = next(archive.pages(packed, "r1", 0, 64))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert first == log[:64]
    assert peak < 2 * 2**20  # a page and zlib's buffers, not 8 MB
    # A retired room's snapshot (what every replay asks for first) is inflated alone.
    tracemalloc.start()
    try:
        assert archive.snapshot(packed, "r1") == b"snapshot"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20
    assert [e for p in archive.pages(packed, "r1", 3990, 64) for e in p] == log[3990:]
    damaged = packed[: len(packed) // 2] + bytes(len(packed) - len(packed) // 2)
    with pytest.raises(DamagedRoom):
        for _ in archive.pages(damaged, "r1", 0, 64):
            pass
    with pytest.raises(DamagedRoom):
        next(archive.pages(b"not an archive", "r1", 0, 64))
    with pytest.raises(DamagedRoom):
        archive.snapshot(b"not an archive", "r1")
