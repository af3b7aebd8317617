"""Graceful shutdown: rooms are saved, clients get 1001, and the rooms come back."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import msgpack
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from protocol import messages as m
from protocol.codec import decode_server
from server.store import MemoryStore
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer

ROOT = Path(__file__).resolve().parents[2]


async def test_stop_saves_rooms_and_a_restart_gives_players_their_seats_back(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    store = MemoryStore()
    first = await make_server(store=store)
    ana = await open_peer(first, peers, "Ana")
    ben = await open_peer(first, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await ana.expect(m.LagResult), (ana, ben))
    assert draw.table is not None and draw.table.turn is not None
    shooter = (ana, ben)[draw.table.turn]
    await shooter.request(scripting.break_shot(draw.table))
    result = await ana.expect(m.ShotResult)

    await first.stop()
    for peer in (ana, ben):
        with pytest.raises(ConnectionClosed):
            while True:
                await peer.ws.recv()
        assert peer.ws.close_code == 1001
    assert await store.load(created.room) is not None

    second = await make_server(store=store)
    back = await Peer.connect(second, "Ana", token=ana.token)
    peers.append(back)
    welcome = next(msg for msg in back.seen if isinstance(msg, m.Welcome))
    assert welcome.room == created.room
    snapshot = await back.expect(m.Snapshot)
    assert snapshot.seq >= result.seq
    assert snapshot.view.table is not None
    assert snapshot.view.table.balls == result.table.balls
    assert snapshot.view.table.turn == result.table.turn
    seats = snapshot.view.seats
    assert seats[0] is not None and seats[0].connected and seats[0].player == ana.player
    assert seats[1] is not None and not seats[1].connected  # Ben has the grace period


async def test_sigterm_closes_clients_with_1001_and_exits_cleanly() -> None:
    env = {**os.environ, "NINEPOOL_PORT": "0", "NINEPOOL_WORKERS": "1", "NINEPOOL_SECRET": "s"}
    env["NINEPOOL_STORE"] = "memory://"  # not the lone node's default file in the repo
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "server",
        cwd=ROOT,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), 60)
        found = re.search(rb"open (http://\S+:(\d+)/)", line)
        assert found, line
        port = int(found.group(2))
        origin = Origin(f"http://127.0.0.1:{port}")
        async with connect(f"ws://127.0.0.1:{port}/ws", compression=None, origin=origin) as ws:
            hello = {"t": "hello", "id": 1, "v": m.PROTOCOL_VERSION, "name": "Ana"}
            await ws.send(msgpack.packb(hello))
            assert isinstance(decode_server(await ws.recv()), m.Welcome)  # type: ignore[arg-type]
            process.send_signal(signal.SIGTERM)
            with pytest.raises(ConnectionClosed):
                while True:
                    await asyncio.wait_for(ws.recv(), 30)
            assert ws.close_code == 1001
        assert await asyncio.wait_for(process.wait(), 30) == 0
        assert process.stderr is not None
        assert b"Traceback" not in await process.stderr.read()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
