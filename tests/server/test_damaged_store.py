"""A restart on a damaged SQLite file: the damaged rooms are moved aside, logged, and never
run; the others come back as before. The file is a real one, written by a real server and
then damaged by the test — bytes overwritten inside a data page, a snapshot that is not
MessagePack, a record behind its log — before the server starts on it again."""

from __future__ import annotations

import dataclasses
import logging
import sqlite3
import zlib
from pathlib import Path

import msgpack
import msgspec
import pytest

from protocol import messages as m
from protocol.codec import encode
from server.edge.replays import DAMAGED
from server.rooms import snapshots
from server.rooms.actor import decode_record
from server.rooms.model import Limits as RoomLimits
from server.rooms.model import new_room
from server.store import DamagedRoom, LogEntry, open_store
from server.store.integrity import checked_replay
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer
from tests.server.test_http import fetch


async def playing_room(server_peers: tuple[Peer, Peer]) -> str:
    ana, ben = server_peers
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    await decide_first_break(await ana.expect(m.LagResult), (ana, ben))
    return created.room


async def test_damaged_rooms_are_quarantined_at_start_and_the_rest_resume(
    make_server: ServerFactory,
    peers: list[Peer],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    path = tmp_path / "rooms.db"
    first = await make_server(store=open_store(f"sqlite://{path}"))
    pairs = []
    for n in range(4):
        pair = (await open_peer(first, peers, f"Ann{n}"), await open_peer(first, peers, f"Ben{n}"))
        pairs.append((await playing_room(pair), pair))
    await first.stop()
    (good, good_pair), (torn, _), (garbage, _), (behind, behind_pair) = pairs

    db = sqlite3.connect(path)
    # Not MessagePack, written with its CRC as if by a bug: only decoding notices.
    junk = b"\xc1 this is not a room record"
    db.execute(
        "UPDATE rooms SET snapshot = ?, crc = ? WHERE room = ?", (junk, zlib.crc32(junk), garbage)
    )
    # A record behind its log: one more event stored than the record knows of.
    (record_data,) = db.execute("SELECT snapshot FROM rooms WHERE room = ?", (behind,)).fetchone()
    ahead = decode_record(record_data).seq + 1
    extra = msgspec.msgpack.encode({"t": "chat", "room": behind, "seq": ahead, "text": "lost"})
    db.execute("INSERT INTO events VALUES (?, ?, ?, ?)", (behind, ahead, extra, zlib.crc32(extra)))
    db.commit()
    # Bytes overwritten inside a data page, in the middle of one of the room's events.
    (victim,) = db.execute(
        "SELECT data FROM events WHERE room = ? ORDER BY length(data) DESC LIMIT 1", (torn,)
    ).fetchone()
    db.close()
    contents = path.read_bytes()
    at = contents.index(bytes(victim)) + len(victim) // 2
    with path.open("r+b") as file:
        file.seek(at)
        file.write(bytes(b ^ 0x5A for b in contents[at : at + 8]))

    with caplog.at_level(logging.ERROR, logger="server.rooms.upkeep"):
        second = await make_server(store=open_store(f"sqlite://{path}"))
    store = second.lobby.store
    assert set(second.lobby.rooms) == {good}
    assert await store.rooms() == [good]
    reasons = {room: await store.quarantined(room) for room in (torn, garbage, behind)}
    assert reasons[torn] is not None and "fails its CRC-32" in reasons[torn]
    assert reasons[garbage] is not None and reasons[garbage].startswith(
        "its record does not decode"
    )
    assert reasons[behind] == (f"its record (seq {ahead - 1}) is behind its log (seq {ahead})")
    logged = "\n".join(r.getMessage() for r in caplog.records)
    for room in (torn, garbage, behind):
        assert f"room {room} in {path} is damaged" in logged
    assert "quarantined" in logged

    # The intact room resumes; a player of a quarantined room has no seat to come back
    # to (no `joined`, no `ok` for moves that would then fail) and may play elsewhere.
    ana = await Peer.connect(second, "Ann0", token=good_pair[0].token)
    peers.append(ana)
    assert (await ana.expect(m.Snapshot)).view.room == good
    lost = await Peer.connect(second, "Ann3", token=behind_pair[0].token)
    peers.append(lost)
    assert isinstance(await lost.request({"t": "create"}), m.Joined)

    # Their replays say what is wrong instead of serving bytes nobody can decode.
    for room in (torn, garbage, behind):
        with pytest.raises(DamagedRoom, match="quarantined"):
            await checked_replay(store, room)
        status, _, body = await fetch(second, f"/replay/{room}")
        assert (status, body) == (410, DAMAGED.encode())
    assert await checked_replay(store, good) is not None
    status, _, body = await fetch(second, f"/replay/{good}")
    assert status == 200 and msgpack.unpackb(body)["room"] == good


async def test_damaged_replays_are_answered_410_never_500(
    make_server: ServerFactory, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Damage found when a replay is asked for, not at start: a snapshot that is not
    MessagePack, a log entry whose bytes were changed inside the file, a stored entry that
    is not a room event — each answered 410 with one warning line, no traceback."""
    path = tmp_path / "rooms.db"
    server = await make_server(store=open_store(f"sqlite://{path}"))
    store = server.lobby.store
    state = new_room("x", m.RoomSettings(name="damaged"), 7, None, RoomLimits())
    record = encode(snapshots.record(dataclasses.replace(state, seq=2, closed=True), 0.0))
    event = encode(m.ChatRelay(room="x", seq=1, seat=None, name="a", text="a" * 80))
    event2 = encode(m.ChatRelay(room="x", seq=2, seat=None, name="a", text="b"))
    await store.save("junk", b"\xc1 not MessagePack", [LogEntry(1, event)])
    await store.save("torn", record, [LogEntry(1, event), LogEntry(2, event2)])
    await store.save("odd", record, [LogEntry(1, event), LogEntry(2, b"\x93\x01")])
    db = sqlite3.connect(path)
    torn = event.replace(b"aaaa", b"aaab", 1)  # as a flipped bit would: still MessagePack
    db.execute("UPDATE events SET data = ? WHERE room = 'torn' AND seq = 1", (torn,))
    db.commit()
    db.close()
    with caplog.at_level(logging.WARNING):
        for room in ("junk", "torn", "odd"):
            status, _, body = await fetch(server, f"/replay/{room}")
            assert (status, body) == (410, DAMAGED.encode()), room
    warnings = [r for r in caplog.records if r.getMessage().startswith("replay refused")]
    assert len(warnings) == 3 and not any(r.exc_info for r in caplog.records)
    text = "\n".join(r.getMessage() for r in warnings)
    assert "room junk is damaged: its record does not decode" in text
    assert f"room torn in {path} is damaged: log entry 1 fails its CRC-32" in text
    assert "room odd in" in text and "log entry 2 is not a room event" in text
