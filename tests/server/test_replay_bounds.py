"""Replays and room logs have bounds: what is logged, how much, and how it is served.

- Ready toggles and spectators coming and going carry no game information: they are sent
  to the room but never stored, and take no `seq` (nobody sees a gap).
- A room's log keeps at most `--room-log-max` events (chat at most a quarter of them).
- `GET /replay/<room>` is written from the store's log a page at a time, as fast as the
  reader takes it, up to `--replay-max-bytes`; an address may read
  `--replays-per-address` at once. A reader who takes it all, however slowly, leaves
  no error behind.

Run on a real SQLite file with real sockets: a reader that never reads is a socket whose
receive buffer is small and never drained.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import socket
import time
from collections.abc import AsyncGenerator, Iterator, Sequence
from pathlib import Path
from typing import Any

import msgpack

from protocol import messages as m
from protocol.codec import encode
from server.app import GameServer
from server.edge.limits import Limits
from server.rooms import snapshots
from server.rooms.model import Limits as RoomLimits
from server.rooms.model import new_room
from server.store import LogEntry, Store
from server.store.sqlite import SqliteStore
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer, watched_table
from tests.server.test_http import fetch


class CountingStore(SqliteStore):
    """A real SQLite store that remembers how the log was read."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.pages: list[tuple[int | None, int]] = []
        self.walks = 0
        self.walked: list[int] = []

    async def log(self, room: str, after: int = 0) -> list[LogEntry]:
        entries = await super().log(room, after)
        self.pages.append((None, len(entries)))
        return entries

    async def log_page(self, room: str, after: int, limit: int) -> list[LogEntry]:
        entries = await super().log_page(room, after, limit)
        self.pages.append((limit, len(entries)))
        return entries

    async def log_pages(
        self, room: str, after: int, page: int
    ) -> AsyncGenerator[list[LogEntry], None]:
        self.walks += 1
        async for entries in super().log_pages(room, after, page):
            self.walked.append(len(entries))
            yield entries


def big_event(room: str, seq: int, size: int) -> bytes:
    return encode(m.ChatRelay(room=room, seq=seq, seat=None, name="filler", text="x" * size))


async def seed_replay(store: Store, room: str, events: int, size: int) -> None:
    """A closed room with a long log, written straight into the store."""
    state = new_room(room, m.RoomSettings(name="long one"), 7, None, RoomLimits())
    state = dataclasses.replace(state, seq=events, shots=1, closed=True)
    record = encode(snapshots.record(state, 0.0))
    batch: list[LogEntry] = []
    for seq in range(1, events + 1):
        batch.append(LogEntry(seq, big_event(room, seq, size)))
        if len(batch) == 200:
            await store.save(room, record, batch)
            batch = []
    await store.save(room, record, batch)


@contextlib.contextmanager
def stalled_readers(server: GameServer, path: str, count: int) -> Iterator[list[socket.socket]]:
    """`count` connections that ask for `path` and then never read."""
    opened = []
    try:
        for _ in range(count):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect(("127.0.0.1", server.port))
            sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
            opened.append(sock)
        yield opened
    finally:
        for sock in opened:
            sock.close()


def status_of(sock: socket.socket) -> int:
    sock.settimeout(20)
    line = sock.recv(64).split(b"\r\n", 1)[0]
    return int(line.split()[1])


def seqs(events: Sequence[dict[str, object]]) -> list[object]:
    return [event["seq"] for event in events]


async def test_ready_toggles_and_spectators_leave_the_log_alone(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"name": "toggles"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    status, _, body = await fetch(server, f"/replay/{created.room}")
    before = msgpack.unpackb(body)["events"]
    for ready in (True, False) * 10:
        assert isinstance(await ana.request({"t": "ready", "ready": ready}), m.Ok)
    eve = await open_peer(server, peers, "Eve")
    for _ in range(10):
        joined = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
        assert isinstance(joined, m.Joined)
        assert isinstance(await eve.request({"t": "leave"}), m.Ok)
    # The players still saw every toggle, and no seq was skipped.
    await ben.drain(0.2)
    assert ben.view is not None and ben.view.seats[0] is not None
    assert not ben.view.seats[0].ready
    assert (ana.gaps, ben.gaps) == (0, 0)
    status, _, body = await fetch(server, f"/replay/{created.room}")
    assert status == 200
    assert seqs(msgpack.unpackb(body)["events"]) == seqs(before)
    # The next event that is stored follows the last one stored.
    assert isinstance(await ana.request({"t": "chat", "text": "still here"}), m.Ok)
    chat = await ben.expect(m.ChatRelay)
    assert chat.seq == before[-1]["seq"] + 1 and ben.gaps == 0


async def test_a_huge_replay_is_capped(make_server: ServerFactory, tmp_path: Path) -> None:
    store = CountingStore(tmp_path / "rooms.db")
    server = await make_server(store=store)
    await seed_replay(store, "longroom", events=2600, size=8000)  # ~21 MB of log
    status, headers, body = await fetch(server, "/replay/longroom")
    assert status == 200 and int(headers["content-length"]) == len(body)
    assert len(body) <= 16 * 2**20  # the default --replay-max-bytes
    document = msgpack.unpackb(body)
    assert document["truncated"] is True
    events = document["events"]
    assert 0 < len(events) < 2600 and seqs(events) == list(range(1, len(events) + 1))
    # Read a page at a time, never the whole log at once.
    assert store.pages and all(limit is not None for limit, _ in store.pages)
    assert max(got for _, got in store.pages) <= 256


async def test_replay_readers_are_limited_and_held_back_by_what_they_read(
    make_server: ServerFactory, peers: list[Peer], tmp_path: Path
) -> None:
    store = CountingStore(tmp_path / "rooms.db")
    server = await make_server(store=store)
    await seed_replay(store, "longroom", events=400, size=8000)  # ~3 MB
    per_address = 2  # the default --replays-per-address
    table = await watched_table(server, peers)
    with stalled_readers(server, "/replay/longroom", per_address + 1) as readers:
        # The one over the limit is refused at once; the others wait on their readers.
        extra = await asyncio.to_thread(status_of, readers[-1])
        assert extra == 429
        while server.replays.waiting < per_address:
            await asyncio.sleep(0.05)
        read = sum(got for _, got in store.pages)
        # Each stalled reader holds a page or two, not the log: at most one pass that
        # counts and a few pages of the pass that writes, per reader.
        assert read < per_address * (400 + 3 * 64)
        # A match on the same server goes on meanwhile.
        assert table.shooter.table is not None
        shot = scripting.break_shot(table.shooter.table)
        assert isinstance(await table.shooter.request(shot), m.Ok)
        result = await table.spectator.expect(m.ShotResult)
        assert result.room == table.room
    # Readers that went away free their places.
    while server.replays.active:
        await asyncio.sleep(0.05)
    status, _, body = await fetch(server, "/replay/longroom")
    assert status == 200 and len(msgpack.unpackb(body)["events"]) == 400


async def test_a_room_log_keeps_at_most_its_cap(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    chatty = dataclasses.replace(Limits(), chat_rate=1000.0, chat_burst=1000, rate=1000.0)
    server = await make_server(room_log_max=40, limits=chatty)
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"name": "chatty"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    for n in range(30):
        assert isinstance(await ana.request({"t": "chat", "text": f"line {n}"}), m.Ok)
    # Everyone present heard all of it, in order.
    heard = [(await ben.expect(m.ChatRelay)).text for _ in range(30)]
    assert heard == [f"line {n}" for n in range(30)] and ben.gaps == 0
    _, _, body = await fetch(server, f"/replay/{created.room}")
    document = msgpack.unpackb(body)
    chats = [e["text"] for e in document["events"] if e["t"] == "chat"]
    # Chat may fill a quarter of the log: the first ten lines are kept.
    assert chats == [f"line {n}" for n in range(10)]
    assert document["truncated"] is True


async def test_a_retired_rooms_replay_is_inflated_a_page_at_a_time_and_planned_once(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    store = CountingStore(tmp_path / "rooms.db")
    server = await make_server(store=store)
    await seed_replay(store, "longroom", events=600, size=8000)  # ~4.8 MB
    await store.retire("longroom")  # packed into one deflated archive
    first = await fetch(server, "/replay/longroom")
    second = await fetch(server, "/replay/longroom")
    assert first[0] == second[0] == 200 and first[2] == second[2]
    assert len(msgpack.unpackb(first[2])["events"]) == 600
    # Never the whole log at once: the archive was walked, a page at a time, once to
    # count (one plan for both readers) and once for each reader.
    assert all(limit is not None for limit, _ in store.pages)
    assert store.walks == 3 and max(store.walked) <= 64


def read_slowly(port: int, path: str) -> int:
    """Read a whole answer through a small receive buffer, a little at a time, so that
    the server still holds unsent bytes when it has written the last of them."""
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.settimeout(20)
        sock.connect(("127.0.0.1", port))
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        total = 0
        while chunk := sock.recv(4096):
            total += len(chunk)
            if total < 64_000:
                time.sleep(0.002)
        return total


async def test_a_reader_who_reads_to_the_end_slowly_leaves_no_error_behind(
    make_server: ServerFactory, tmp_path: Path
) -> None:
    store = SqliteStore(tmp_path / "rooms.db")
    server = await make_server(store=store)
    await seed_replay(store, "longroom", events=100, size=8000)  # ~800 kB
    problems: list[dict[str, Any]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: problems.append(context))
    try:
        got = await asyncio.to_thread(read_slowly, server.port, "/replay/longroom")
        assert got > 100 * 8000
        while server.replays.active:
            await asyncio.sleep(0.05)
        gc.collect()  # a task whose error nobody retrieved reports it when collected
        await asyncio.sleep(0.05)
    finally:
        loop.set_exception_handler(None)
    assert problems == []
