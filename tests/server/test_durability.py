"""Every acknowledged change is durable and a refused one leaves no trace — after a
restart too, on a real SQLite file whose writes are refused for longer than the store
waits for them."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import msgspec

from protocol import errors
from protocol import messages as m
from protocol.codec import decode_server
from server.rooms.actor import decode_record
from server.store import open_store
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer


async def test_a_shot_whose_save_fails_after_a_restart_leaves_no_trace(
    make_server: ServerFactory, peers: list[Peer], tmp_path: Path
) -> None:
    path = tmp_path / "rooms.db"
    first = await make_server(store=open_store(f"sqlite://{path}"))
    ana = await open_peer(first, peers, "Ana")
    ben = await open_peer(first, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await ana.expect(m.LagResult), (ana, ben))
    assert draw.table is not None and draw.table.turn is not None
    await first.stop()

    # The restart: the room comes back from the file, the players with their tokens.
    second = await make_server(store=open_store(f"sqlite://{path}"))
    ana2 = await Peer.connect(second, "Ana", token=ana.token)
    ben2 = await Peer.connect(second, "Ben", token=ben.token)
    peers += [ana2, ben2]
    await ana2.expect(m.Snapshot)
    before = await ben2.expect(m.Snapshot)
    for peer in (ana2, ben2):
        await peer.drain()
    assert before.view.table is not None and before.view.table.turn is not None
    shooter = (ana2, ben2)[before.view.table.turn]

    # Another program holds the file's write lock for longer than the store waits (10 s).
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    try:
        request_id = await shooter.send(scripting.break_shot(before.view.table))
        answer = await shooter.reply_to(request_id)
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    # One answer, and it says nothing happened: no `ok` came first.
    assert isinstance(answer, m.Error) and answer.code == errors.INTERNAL
    seen = await shooter.drain(quiet=0.5)
    assert not any(isinstance(msg, m.Ok | m.ShotResult) for msg in seen)
    assert not any(isinstance(msg, m.ShotResult) for msg in shooter.seen)
    # Everyone is shown the room as the store holds it: the shot never happened.
    for msg in seen:
        if isinstance(msg, m.Snapshot):
            assert msg.view.table == before.view.table

    # The same shot again, now that the file takes writes: it plays, right after `before`.
    again = await shooter.request(scripting.break_shot(before.view.table))
    assert isinstance(again, m.Ok)
    result = await ben2.expect(m.ShotResult)
    assert result.seq > before.seq

    # The log has no gap and ends with that shot; the record agrees with it.
    await second.stop()
    store = open_store(f"sqlite://{path}")
    try:
        entries = await store.log(created.room)
        seqs = [entry.seq for entry in entries]
        assert seqs == list(range(1, len(seqs) + 1))
        events = [decode_server(entry.data) for entry in entries]
        shots = [event for event in events if isinstance(event, m.ShotResult)]
        assert len(shots) == 1 and shots[0].seq == result.seq
        data = await store.load(created.room)
        assert data is not None
        record = decode_record(data)
        assert record.seq == seqs[-1]
        assert record.table is not None
        assert list(record.table.balls) == list(result.table.balls)
    finally:
        await store.close()


async def test_quiet_steps_are_not_lost_when_the_store_is_slow(
    make_server: ServerFactory, peers: list[Peer], tmp_path: Path
) -> None:
    """A chat sent while another program holds the file briefly (shorter than the store
    waits) is stored and delivered once, in order."""
    path = tmp_path / "rooms.db"
    server = await make_server(store=open_store(f"sqlite://{path}"))
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    blocker = sqlite3.connect(path, isolation_level=None)
    blocker.execute("BEGIN EXCLUSIVE")
    request_id = await ana.send({"t": "chat", "text": "hello"})
    await asyncio.sleep(0.5)
    blocker.execute("ROLLBACK")
    blocker.close()
    assert isinstance(await ana.reply_to(request_id), m.Ok)
    relay = await ana.expect(m.ChatRelay)
    assert relay.text == "hello"
    entries = await server.lobby.store.log(created.room)
    chats = [msgspec.msgpack.decode(e.data) for e in entries]
    assert sum(1 for c in chats if c.get("t") == "chat") == 1
