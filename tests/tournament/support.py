"""Helpers for tournaments through a real server: its JSON API over a raw HTTP/1.1
connection, and scripted players who play a tournament match the fastest legal way
(the draw decides who breaks, the winner of the draw breaks, the loser concedes)."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from protocol import messages as m
from server.app import GameServer
from tests.server.support import WAIT, Peer

T = TypeVar("T", bound=m.ServerMessage)
#: Refusals of a `join` that go away on their own: the room is moving to another node
#: (its owner died), or this node has not heard of it yet.
PASSING = ("room_moving", "no_such_room")
HOUR_MS = 3_600_000
#: `make_server`: starts a server on port 0 (settings as keywords), stopped after the test.
Factory = Callable[..., Awaitable[GameServer]]


class Listening(Protocol):
    """A server in this process (`GameServer`) or a node process: its port."""

    @property
    def port(self) -> int: ...


async def api(
    server: Listening,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    raw: bytes | None = None,
    content_type: str = "application/json",
) -> tuple[int, Any]:
    """One request to the server's JSON API: (status, decoded body or None)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    data = raw if raw is not None else b"" if body is None else json.dumps(body).encode()
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: {len(data)}\r\n"
    if data:
        head += f"Content-Type: {content_type}\r\n"
    if token is not None:
        head += f"Authorization: Bearer {token}\r\n"
    writer.write(head.encode() + b"\r\n" + data)
    await writer.drain()
    response = await asyncio.wait_for(reader.read(), WAIT)
    writer.close()
    status = int(response.split(b" ", 2)[1])
    payload = response.split(b"\r\n\r\n", 1)[1]
    return status, json.loads(payload) if payload else None


def settings(**changes: Any) -> dict[str, Any]:
    """A tournament as the API makes it: a 16-place double elimination, races to one,
    starting an hour from now (so it starts only when asked); `changes` replace any key."""
    base = {
        "name": "Zagreb Open",
        "format": "double",
        "cap": 16,
        "seeding": "random",
        "starts_at": int(time.time() * 1000) + HOUR_MS,
        "races": {"winners": 1, "losers": 1, "final": 1},
    }
    return {**base, **changes}


async def until(
    server: Listening,
    tournament_id: str,
    done: Callable[[Any], bool],
    tries: int = 2000,
    pause: float = 0.02,
) -> Any:
    """The tournament as the API shows it, once `done` holds (read again every `pause`
    seconds as it changes, `tries` times at the most)."""
    for _ in range(tries):
        status, view = await api(server, "GET", f"/api/tournaments/{tournament_id}")
        assert status == 200, view
        if done(view):
            return view
        await asyncio.sleep(pause)
    raise AssertionError(f"the tournament never got there: {view}")


def playing(view: Any) -> list[Any]:
    """The matches of a tournament's view that are being played now."""
    return [match for match in view["matches"] if match["status"] == "playing"]


async def expect_in(peer: Peer, kind: type[T], room: str) -> T:
    """The next message of `kind` about `room` (those of earlier rooms are dropped)."""
    while True:
        message = await peer.expect(kind)
        if getattr(message, "room", None) == room:
            return message


async def sit(peer: Peer, room: str) -> m.ServerMessage:
    """Join `room` as a player, again while the room is moving between nodes (for up to
    eight seconds: then the refusal)."""
    for _ in range(40):
        answer = await peer.request({"t": "join", "room": room, "role": "player"})
        if not (isinstance(answer, m.Error) and answer.code in PASSING):
            return answer
        await asyncio.sleep(0.2)
    return answer


async def play_match(room: str, players: tuple[Peer, Peer], winner: int) -> m.MatchOver | None:
    """`players` (the match's slot order) join `room`, start, and the one who is not
    `winner` concedes the match; both leave. Returns the `match_over` they saw, or None
    if the room is not there (it was lost with its node before anyone sat in it: the
    tournament makes another)."""
    first = await sit(players[0], room)
    if isinstance(first, m.Error) and first.code in PASSING:
        return None
    second = await sit(players[1], room)
    if isinstance(second, m.Error) and second.code in PASSING:
        await players[0].request({"t": "leave"})
        return None
    joined = [first, second]
    for slot, answer in enumerate(joined):
        assert isinstance(answer, m.Joined), answer
        assert answer.seat == slot, "each player has the seat of their slot"
    for peer in players:
        assert isinstance(await peer.request({"t": "ready"}), m.Ok)
    draw = await expect_in(players[0], m.LagResult, room)
    assert draw.method == "draw" and draw.winner is not None
    chosen = await players[draw.winner].request({"t": "lag_choice", "choice": "break"})
    assert isinstance(chosen, m.Ok), chosen
    for peer in players:
        ruling = await expect_in(peer, m.Ruling, room)
        assert ruling.action == "lag_choice"
    conceded = await players[1 - winner].request({"t": "concede", "what": "match"})
    assert isinstance(conceded, m.Ok), conceded
    ends = [await expect_in(peer, m.MatchOver, room) for peer in players]
    assert ends[0] == ends[1] and ends[0].winner == winner
    for peer in players:
        assert isinstance(await peer.request({"t": "leave"}), m.Ok)
    return ends[0]
