"""Fixtures: one physics pool per session, a real server on port 0 per test."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from typing import Any

import pytest

from server.app import GameServer
from server.rooms.simulation import PhysicsPool
from server.store import Store
from tests.server.support import Peer, make_config


@pytest.fixture(scope="session")
def physics_pool() -> Iterator[PhysicsPool]:
    """One worker pool for the whole test session (starting workers costs time)."""
    pool = PhysicsPool(workers=2)
    asyncio.run(pool.start())
    yield pool
    pool.close()


ServerFactory = Callable[..., Awaitable[GameServer]]


@pytest.fixture
async def make_server(physics_pool: PhysicsPool) -> AsyncIterator[ServerFactory]:
    """Start servers with settings of the test's choosing; all are stopped afterwards."""
    started: list[GameServer] = []

    async def factory(store: Store | None = None, **overrides: Any) -> GameServer:
        game_server = GameServer(make_config(**overrides), store=store, pool=physics_pool)
        await game_server.start()
        started.append(game_server)
        return game_server

    yield factory
    for game_server in reversed(started):
        if game_server.ready:
            await game_server.stop()


@pytest.fixture
async def server(make_server: ServerFactory) -> GameServer:
    return await make_server()


@pytest.fixture
async def peers(server: GameServer) -> AsyncIterator[list[Peer]]:
    """Connected peers are closed at the end of the test."""
    opened: list[Peer] = []
    yield opened
    for peer in opened:
        await peer.close()
