"""Scripted WebSocket clients for the server tests: they speak the documented protocol
with the reference `msgpack` codec and follow the room's `seq` as a browser would."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from typing import Any, TypeVar

import msgpack
import msgspec
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from protocol import messages as m
from protocol.codec import decode_server
from server.app import GameServer
from server.ops.config import Config

T = TypeVar("T", bound=m.ServerMessage)

#: Long enough for a slow shared machine, short enough to fail fast.
WAIT = 20.0


def make_config(**overrides: Any) -> Config:
    base = Config(host="127.0.0.1", port=0, workers=0, secret=b"test-secret", seed=4242)
    return dataclasses.replace(base, **overrides)


class Peer:
    """A scripted client: sends requests, reads replies and room events in order."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws = ws
        self.name = name
        self.inbox: list[m.ServerMessage] = []
        self.seen: list[m.ServerMessage] = []
        self.next_id = 1
        self.token: str | None = None
        self.player: str | None = None
        self.seq: int | None = None
        self.view: m.RoomView | None = None
        self.table: m.TableView | None = None
        self.gaps = 0

    @classmethod
    async def connect_raw(cls, server: GameServer, name: str = "") -> Peer:
        """A connection that has not said hello yet."""
        ws = await connect(
            f"ws://127.0.0.1:{server.port}/ws",
            compression=None,
            max_size=2**22,
            origin=Origin(f"http://127.0.0.1:{server.port}"),  # as the served page would
        )
        return cls(ws, name)

    @classmethod
    async def connect(cls, server: GameServer, name: str, token: str | None = None) -> Peer:
        peer = await cls.connect_raw(server, name)
        welcome = await peer.request(
            {"t": "hello", "v": m.PROTOCOL_VERSION, "name": name, "token": token}
        )
        assert isinstance(welcome, m.Welcome), welcome
        peer.token = welcome.token
        peer.player = welcome.player
        return peer

    async def send_raw(self, data: bytes | str) -> None:
        await self.ws.send(data)

    def new_id(self) -> int:
        self.next_id += 1
        return self.next_id

    async def send(self, message: dict[str, Any]) -> int:
        request_id = message.get("id")
        if request_id is None:
            request_id = self.new_id()
            message = {**message, "id": request_id}
        await self.ws.send(msgpack.packb(message, use_bin_type=True))
        return int(request_id)

    async def _read(self, timeout: float = WAIT) -> m.ServerMessage:
        frame = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(frame, bytes), "the server sends binary frames only"
        message = decode_server(frame)
        self._track(message)
        self.seen.append(message)
        return message

    def _track(self, message: m.ServerMessage) -> None:
        """Follow the room's seq as a real client would, and keep the latest state."""
        seq = getattr(message, "seq", None)
        if isinstance(message, m.Snapshot):
            self.seq = message.seq
            self.view = message.view
            self.table = message.view.table
        elif seq is not None:
            if self.seq is not None and seq != self.seq + 1:
                self.gaps += 1
            self.seq = seq
        table = getattr(message, "table", None)
        if isinstance(table, m.TableView):
            self.table = table
        if isinstance(message, m.Placed) and self.table is not None:
            balls = [message.pos, *self.table.balls[1:]]
            self.table = msgspec.structs.replace(self.table, balls=balls)

    async def request(self, message: dict[str, Any]) -> m.ServerMessage:
        """Send a request and return the reply that echoes its id (events are kept)."""
        request_id = await self.send(message)
        return await self.reply_to(request_id)

    async def reply_to(self, request_id: int) -> m.ServerMessage:
        for index, message in enumerate(self.inbox):
            if getattr(message, "id", None) == request_id:
                del self.inbox[index]
                return message
        while True:
            message = await self._read()
            if getattr(message, "id", None) == request_id:
                return message
            self.inbox.append(message)

    async def expect(self, kind: type[T], timeout: float = WAIT) -> T:
        """The next message of `kind` (earlier messages of other kinds are kept)."""
        for index, message in enumerate(self.inbox):
            if isinstance(message, kind):
                del self.inbox[index]
                return message
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            message = await self._read(max(0.01, deadline - loop.time()))
            if isinstance(message, kind):
                return message
            self.inbox.append(message)

    async def catch_up(self, seq: int) -> None:
        """Read (keeping everything in `inbox`) until the room's event `seq` has arrived."""
        while self.seq is None or self.seq < seq:
            self.inbox.append(await self._read())

    def take(self, kind: type[T]) -> list[T]:
        """Remove and return the kept messages of `kind`."""
        found = [msg for msg in self.inbox if isinstance(msg, kind)]
        self.inbox = [msg for msg in self.inbox if not isinstance(msg, kind)]
        return found

    async def drain(self, quiet: float = 0.2) -> list[m.ServerMessage]:
        """Read until nothing arrives for `quiet` seconds."""
        while True:
            try:
                self.inbox.append(await self._read(quiet))
            except TimeoutError:
                out, self.inbox = self.inbox, []
                return out

    async def close(self) -> None:
        await self.ws.close()


async def open_peer(server: GameServer, peers: list[Peer], name: str, **kw: Any) -> Peer:
    peer = await Peer.connect(server, name, **kw)
    peers.append(peer)
    return peer


async def decide_first_break(
    draw: m.LagResult, seats: Sequence[Peer], choice: str = "break"
) -> m.Ruling:
    """R3/O6: the winner of the draw or lag chooses who breaks (by default, themself).

    Both seats read the `ruling` that carries the first rack, which is returned; a
    `snapshot` (its seq + 1) follows."""
    assert draw.winner is not None and draw.table is None
    winner = seats[draw.winner]
    chosen = await winner.request({"t": "lag_choice", "choice": choice})
    assert isinstance(chosen, m.Ok), chosen
    rulings = [await _lag_choice_ruling(peer, draw) for peer in seats]
    assert rulings[0] == rulings[1]
    return rulings[0]


async def _lag_choice_ruling(peer: Peer, draw: m.LagResult) -> m.Ruling:
    """The `lag_choice` ruling that follows `draw` (older rulings, of this room or another,
    are skipped)."""
    while True:
        ruling = await peer.expect(m.Ruling)
        if ruling.room == draw.room and ruling.seq > draw.seq:
            assert ruling.action == "lag_choice", ruling
            return ruling


@dataclasses.dataclass
class WatchedTable:
    """Two players at a started table (first rack decided by draw) and a spectator."""

    players: tuple[Peer, Peer]  # in seat order
    spectator: Peer
    room: str
    #: The seat to shoot first.
    turn: int

    @property
    def shooter(self) -> Peer:
        return self.players[self.turn]

    @property
    def waiting(self) -> Peer:
        return self.players[1 - self.turn]


async def watched_table(server: GameServer, peers: list[Peer]) -> WatchedTable:
    """Ana and Ben sit down (seats 0 and 1), Eve watches, both get ready; the draw's winner
    breaks. Every peer has read up to the snapshot after the first rack."""
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await eve.expect(m.LagResult), (ana, ben))
    for peer in (ana, ben, eve):
        await peer.catch_up(draw.seq + 1)
    assert draw.table is not None and draw.table.turn is not None
    return WatchedTable((ana, ben), eve, created.room, draw.table.turn)
