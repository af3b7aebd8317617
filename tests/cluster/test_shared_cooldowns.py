"""Abuse cooldowns across nodes, on a real redis-server: an address one node closed for
abuse is refused by the other node too (behind nginx its next connection may land
anywhere), and what arrives on the channel is checked before it is believed."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
from collections.abc import AsyncIterator

import msgspec
import pytest
import redis.asyncio as aioredis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin

from server.app import GameServer
from server.cluster.cooldowns import CooldownNotice
from server.edge.limits import Limits
from tests.cluster.conftest import two_nodes
from tests.redis_server import RedisServer

WAIT = 10.0
BOT = "203.0.113.7"


@pytest.fixture
async def nodes(own_redis: RedisServer) -> AsyncIterator[tuple[GameServer, GameServer]]:
    limits = dataclasses.replace(Limits(), abuse_cooldown=60.0, trusted_proxies=("127.0.0.1",))
    async with two_nodes(own_redis, limits=limits) as started:
        yield started


async def open_ws(server: GameServer, address: str) -> ClientConnection:
    return await connect(
        f"ws://127.0.0.1:{server.port}/ws",
        origin=Origin(f"http://127.0.0.1:{server.port}"),
        additional_headers={"X-Forwarded-For": address},  # loopback: named a trusted proxy
        compression=None,
        open_timeout=WAIT,
    )


async def refused(server: GameServer, address: str) -> int | None:
    """The status that refused a handshake from `address`, or None if it was let in."""
    try:
        ws = await open_ws(server, address)
    except InvalidStatus as exc:
        return exc.response.status_code
    await ws.close()
    return None


async def eventually_refused(server: GameServer, address: str) -> int | None:
    deadline = asyncio.get_running_loop().time() + WAIT
    while (status := await refused(server, address)) is None:
        if asyncio.get_running_loop().time() > deadline:
            return None
        await asyncio.sleep(0.05)
    return status


async def test_an_address_closed_for_abuse_on_one_node_is_refused_by_the_others(
    nodes: tuple[GameServer, GameServer],
) -> None:
    a, b = nodes
    ws = await open_ws(a, BOT)
    for _ in range(8):
        with contextlib.suppress(ConnectionClosed):
            await ws.send(b"\xc1")
    with contextlib.suppress(ConnectionClosed):
        while True:
            await asyncio.wait_for(ws.recv(), WAIT)
    assert (ws.close_code, ws.close_reason) == (1008, "too many invalid frames")
    assert await refused(a, BOT) == 429
    assert await eventually_refused(b, BOT) == 429
    cooldown = b.gateway.addresses.cooldowns[BOT]
    assert cooldown.offenses == 1
    assert 50 < b.gateway.addresses.cooldown_left(BOT) <= 60
    assert await refused(b, "203.0.113.8") is None  # nobody else
    assert await refused(a, "203.0.113.8") is None


async def test_notices_from_the_channel_are_checked_before_they_are_believed(
    nodes: tuple[GameServer, GameServer], client: aioredis.Redis
) -> None:
    a, b = nodes
    assert b.cooldowns is not None
    channel = b.cooldowns.channel

    def notice(**changes: object) -> bytes:
        fields: dict[str, object] = {
            "node": "z",
            "address": BOT,
            "seconds": 5.0,
            "offenses": 2,
            **changes,
        }
        return msgspec.msgpack.encode(fields)

    for bad in (
        b"\xc1 not msgpack",
        msgspec.msgpack.encode({"node": "z"}),  # fields missing
        notice(seconds="long"),
        notice(seconds=-5.0),
        notice(seconds=10**9),
        notice(seconds=float("nan")),
        notice(offenses=0),
    ):
        await client.publish(channel, bad)
    await client.publish(channel, notice(address="198.51.100.1"))  # a good one, last
    for server in (a, b):
        deadline = asyncio.get_running_loop().time() + WAIT
        while "198.51.100.1" not in server.gateway.addresses.cooldowns:
            assert asyncio.get_running_loop().time() < deadline
            await asyncio.sleep(0.02)
        # Only the good notice was applied, and it carries its offences: the next close
        # for abuse of that address, on any node, is a repeat.
        assert set(server.gateway.addresses.cooldowns) == {"198.51.100.1"}
        assert server.gateway.addresses.offenses("198.51.100.1") == 2
        assert await refused(server, "198.51.100.1") == 429
    assert await refused(a, BOT) is None


def test_a_notice_round_trips() -> None:
    notice = CooldownNotice(node="n1", address="2001:db8::/64", seconds=30.0, offenses=3)
    assert msgspec.msgpack.decode(msgspec.msgpack.encode(notice), type=CooldownNotice) == notice
