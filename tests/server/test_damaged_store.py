"""A restart on a damaged SQLite file: the damaged rooms are moved aside, logged, and never
run; the others come back as before. The file is a real one, written by a real server and
then damaged by the test — bytes overwritten inside a data page, a snapshot that is not
MessagePack, a record behind its log — before the server starts on it again."""

from __future__ import annotations

import logging
import sqlite3
import zlib
from pathlib import Path

import msgspec
import pytest

from protocol import messages as m
from server.rooms.actor import decode_record
from server.store import DamagedRoom, open_store
from server.store.integrity import checked_replay
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer


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
        pair = (await open_peer(first, peers, f"A{n}"), await open_peer(first, peers, f"B{n}"))
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
    ana = await Peer.connect(second, "A0", token=good_pair[0].token)
    peers.append(ana)
    assert (await ana.expect(m.Snapshot)).view.room == good
    lost = await Peer.connect(second, "A3", token=behind_pair[0].token)
    peers.append(lost)
    assert isinstance(await lost.request({"t": "create"}), m.Joined)

    # Their replays say what is wrong instead of serving bytes nobody can decode.
    for room in (torn, garbage, behind):
        with pytest.raises(DamagedRoom, match="quarantined"):
            await checked_replay(store, room)
    assert await checked_replay(store, good) is not None
