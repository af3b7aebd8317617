"""Fixtures: one physics pool per session, a real server on port 0 per test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

import pytest

from server.app import GameServer
from server.simulation import PhysicsPool
from tests.server.support import Peer, make_config


@pytest.fixture(scope="session")
def physics_pool() -> Iterator[PhysicsPool]:
    """One worker pool for the whole test session (starting workers costs time)."""
    pool = PhysicsPool(workers=2)
    asyncio.run(pool.start())
    yield pool
    pool.close()


@pytest.fixture
async def server(physics_pool: PhysicsPool) -> AsyncIterator[GameServer]:
    game_server = GameServer(make_config(), pool=physics_pool)
    await game_server.start()
    yield game_server
    await game_server.stop()


@pytest.fixture
async def peers(server: GameServer) -> AsyncIterator[list[Peer]]:
    """Connected peers are closed at the end of the test."""
    opened: list[Peer] = []
    yield opened
    for peer in opened:
        await peer.close()
