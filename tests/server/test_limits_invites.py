"""Private rooms: invite codes are long random values (100 bits, letters and digits), and
wrong guesses are rate-limited per connection and per address (`rate_limited`)."""

from __future__ import annotations

import dataclasses
import math
import re

from websockets.asyncio.client import connect
from websockets.typing import Origin

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer

CODE = re.compile(r"[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{20}")


async def peer_from(server: GameServer, peers: list[Peer], name: str, address: str) -> Peer:
    """A client behind the proxy (loopback, named a trusted one), coming from `address`."""
    ws = await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        additional_headers={"X-Forwarded-For": address},
        compression=None,
    )
    peer = Peer(ws, name)
    peers.append(peer)
    welcome = await peer.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": name})
    assert isinstance(welcome, m.Welcome)
    return peer


async def test_invite_codes_are_long_random_and_url_safe(
    server: GameServer, peers: list[Peer]
) -> None:
    codes = set()
    for index in range(12):
        host = await open_peer(server, peers, f"Host{index}")
        created = await host.request({"t": "create", "settings": {"private": True}})
        assert isinstance(created, m.Joined) and created.code is not None
        assert CODE.fullmatch(created.code), created.code
        codes.add(created.code)
    assert len(codes) == 12
    assert 20 * math.log2(32) >= 96  # bits per code
    # The long code is what joins; a code one symbol off is just wrong.
    guest = await open_peer(server, peers, "Guest")
    code = sorted(codes)[0]
    wrong = code[:-1] + ("A" if code[-1] != "A" else "B")
    refused = await guest.request({"t": "join", "code": wrong})
    assert isinstance(refused, m.Error) and refused.code == errors.BAD_INVITE
    assert isinstance(await guest.request({"t": "join", "code": code}), m.Joined)


async def test_wrong_guesses_are_rate_limited_per_connection_and_per_address(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    limits = dataclasses.replace(
        Limits(), invite_guesses=3, invite_guesses_per_address=5, trusted_proxies=("127.0.0.1",)
    )
    server = await make_server(limits=limits)
    host = await open_peer(server, peers, "Host")
    created = await host.request({"t": "create", "settings": {"private": True}})
    assert isinstance(created, m.Joined) and created.code is not None
    code = created.code

    async def guess(peer: Peer, value: str) -> str:
        reply = await peer.request({"t": "join", "code": value, "role": "spectator"})
        return reply.code if isinstance(reply, m.Error) else type(reply).__name__

    first = await peer_from(server, peers, "Guesser1", "198.51.100.7")
    assert [await guess(first, "WRONG" + "A" * 15) for _ in range(3)] == [errors.BAD_INVITE] * 3
    # Out of guesses on this connection: refused before the code is even looked at, the
    # right one included (nothing changes).
    assert await guess(first, code) == errors.RATE_LIMITED
    # Another connection from the same address shares what is left of the address's five.
    second = await peer_from(server, peers, "Guesser2", "198.51.100.7")
    assert [await guess(second, "WRONG" + "B" * 15) for _ in range(2)] == [errors.BAD_INVITE] * 2
    assert await guess(second, "WRONG" + "C" * 15) == errors.RATE_LIMITED
    # Someone else is not affected, and the right code works for them.
    friend = await peer_from(server, peers, "Friend", "203.0.113.9")
    assert await guess(friend, code) == "Joined"
    hits = server.metrics.registry.get_sample_value(
        "ninepool_limit_hits_total", {"kind": "invite_guesses"}
    )
    assert hits == 2
    # Correct codes and public rooms are never charged.
    public = await host.request({"t": "leave"})
    assert isinstance(public, m.Ok)
    regular = await open_peer(server, peers, "Regular")
    for _ in range(6):
        made = await host.request({"t": "create"})
        assert isinstance(made, m.Joined)
        joined = await regular.request({"t": "join", "room": made.room, "role": "spectator"})
        assert isinstance(joined, m.Joined)
        assert isinstance(await regular.request({"t": "leave"}), m.Ok)
        assert isinstance(await host.request({"t": "leave"}), m.Ok)
