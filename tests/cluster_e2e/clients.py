"""Scripted WebSocket players and spectators for the end-to-end tests, on real sockets.

They speak the documented protocol (the reference `msgpack` codec, `tests.server.support.Peer`)
and plan their shots with the real physics (`tests.server.scripting`), so a match is
played as two people would play it. Every room event a peer receives is kept, so a test
can check afterwards that nothing was missed, changed or seen twice.
"""

from __future__ import annotations

import asyncio
import urllib.request
from dataclasses import dataclass, field
from typing import Any

import msgpack
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.typing import Origin

from protocol import messages as m
from tests.server import scripting
from tests.server.support import Peer

WAIT = 30.0


async def open_peer(url: str, name: str, token: str | None = None) -> Peer:
    """Connect to `url` and say hello (with `token`: resume that player)."""
    origin = Origin("http://" + url.split("://", 1)[1].split("/", 1)[0])  # as the page would
    ws = await connect(url, compression=None, max_size=2**22, open_timeout=WAIT, origin=origin)
    peer = Peer(ws, name)
    welcome = await peer.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": name, "token": token}
    )
    assert isinstance(welcome, m.Welcome), welcome
    peer.token = welcome.token
    peer.player = welcome.player
    return peer


def welcome_of(peer: Peer) -> m.Welcome:
    return next(message for message in peer.seen if isinstance(message, m.Welcome))


def follow_ups(verdict: m.VerdictView) -> int:
    """How many room events a verdict brings after its own event."""
    return sum(
        (
            verdict.warned is not None,
            verdict.stalemate_warning_given,
            verdict.game_over,
            verdict.match_over,
        )
    )


def room_events(peer: Peer) -> dict[int, m.ServerMessage]:
    """Every broadcast room event the peer received, by seq (snapshots sent to it alone
    are left out: they repeat the latest seq)."""
    events: dict[int, m.ServerMessage] = {}
    for message in peer.seen:
        seq = getattr(message, "seq", None)
        if seq is None or (isinstance(message, m.Snapshot) and message.id is not None):
            continue
        if isinstance(message, m.Snapshot) and seq in events:
            continue
        events.setdefault(seq, message)
    return events


def shot_results(peer: Peer) -> list[m.ShotResult]:
    return [message for message in peer.seen if isinstance(message, m.ShotResult)]


def fetch_replay(http_url: str, room: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{http_url}/replay/{room}", timeout=WAIT) as response:
        document = msgpack.unpackb(response.read(), raw=False)
    assert isinstance(document, dict)
    return document


@dataclass
class Table:
    """Two players (by seat) and any spectators of one room, driven shot by shot."""

    players: list[Peer]
    watchers: list[Peer] = field(default_factory=list)
    shots: int = 0

    @property
    def everyone(self) -> list[Peer]:
        return self.players + self.watchers

    def table(self) -> m.TableView:
        table = self.players[0].table
        assert table is not None
        return table

    async def settle(self, seq: int) -> None:
        """Until every peer has the room's event `seq`."""
        for peer in self.everyone:
            await asyncio.wait_for(peer.catch_up(seq), WAIT)
            peer.inbox.clear()

    async def begin(self, draw: m.LagResult) -> None:
        """After the lag or the draw: the winner chooses to break when asked to (R3, O6);
        returns once every peer has the first rack."""
        await self.settle(draw.seq + 1)
        if draw.table is not None or draw.winner is None:
            return  # a server that lets the winner break at once
        chooser = self.players[draw.winner]
        reply = await chooser.request({"t": "lag_choice", "choice": "break"})
        assert isinstance(reply, m.Ok), reply
        snapshot = await chooser.expect(m.Snapshot, WAIT)
        await self.settle(snapshot.seq)

    async def turn(self, prefer: str = "nine") -> m.ShotResult:
        """The player to act plays one shot (placing the cue ball first with ball in
        hand); returns its result once everyone has it."""
        table = self.table()
        assert table.turn is not None and not table.match_over
        shooter = self.players[table.turn]
        if table.choice_pending:  # R6.4 (never reached without push-outs, kept for safety)
            reply = await shooter.request({"t": "choose", "choice": "shoot"})
            assert isinstance(reply, m.Ok), reply
            ruling = await shooter.expect(m.Ruling, WAIT)
            await self.settle(ruling.seq)
            table = self.table()
        if table.ball_in_hand == "kitchen":
            message = scripting.break_shot(table)
        else:
            if table.ball_in_hand == "table":
                spot = scripting.free_spot(table)
                reply = await shooter.request({"t": "place", "pos": list(spot)})
                assert isinstance(reply, m.Ok), reply
                placed = await shooter.expect(m.Placed, WAIT)
                await self.settle(placed.seq)
                table = self.table()
            message = plan(table, prefer)
        reply = await shooter.request(message)
        assert isinstance(reply, m.Ok), reply
        result = await shooter.expect(m.ShotResult, WAIT)
        self.shots += 1
        await self.settle(result.seq + follow_ups(result.verdict))
        return result


def plan(table: m.TableView, prefer: str) -> dict[str, Any]:
    """A legal shot if the planner finds one, else a plain hit at the lowest ball (which
    may foul: the match goes on all the same)."""
    try:
        return scripting.plan_legal(table, prefer).message()
    except AssertionError:
        balls = scripting.balls_of(table)
        assert table.lowest is not None
        angle = scripting.angle_to(balls[0], balls[table.lowest])
        return {"t": "shot", "angle": angle, "speed": 3.0}


async def closed(peer: Peer, timeout: float = WAIT) -> int | None:
    """Read until the server closes the connection; its close code."""
    try:
        while True:
            peer.inbox.append(await peer._read(timeout))
    except ConnectionClosed:
        pass
    return peer.ws.close_code
