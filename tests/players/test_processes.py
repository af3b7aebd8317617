"""Two processes count the same racks of the same players at the same moment, on one
redis-server or one SQLite file: every rack counts once, no update is lost."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from server.players import names
from server.players.redis import RedisPlayerStore
from server.players.sqlite import SqlitePlayerStore
from server.players.store import PlayerStore
from server.store.redis import connect
from tests.players.hammer import PLAYERS, rack
from tests.redis_server import RedisServer

ROOT = Path(__file__).resolve().parents[2]
RACKS = 300


def _twins(kind: str, where: str) -> None:
    """Start both processes, let them go at once, wait for both."""
    processes = [
        subprocess.Popen(
            [sys.executable, "-m", "tests.players.hammer", kind, where, order, str(RACKS)],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        for order in ("forward", "backward")
    ]
    try:
        for process in processes:
            assert process.stdout is not None
            assert process.stdout.readline().strip() == "ready"
        for process in processes:
            assert process.stdin is not None
            process.stdin.write("go\n")
            process.stdin.flush()
        for process in processes:
            out, _ = process.communicate(timeout=240)
            assert process.returncode == 0 and out.strip() == "done"
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()


async def _check(store: PlayerStore) -> None:
    racks = [rack(index) for index in range(RACKS)]
    for player in PLAYERS:
        stats = await store.stats(player)
        assert stats is not None
        played = [r for r in racks if player in (r.result.winner, r.result.loser)]
        assert stats.racks == len(played) == 2 * RACKS // 3
        assert stats.won == sum(r.result.winner == player for r in played)
        assert stats.lost == stats.racks - stats.won
        assert stats.fouls == stats.lost
        profile = await store.profile(player)
        assert profile is not None
        assert profile.history[-1].rating == stats.rating
        assert len(profile.history) == min(200, stats.racks)


async def _accounts(store: PlayerStore) -> None:
    for player in PLAYERS:
        name = "Hammer " + player[-1]
        await store.create_account(player, name, names.fold(name), names.skeleton(name), "h", 1)


@pytest.mark.timeout(300)
async def test_two_processes_on_one_redis(own_redis: RedisServer) -> None:
    store = RedisPlayerStore(connect(own_redis.url))
    try:
        await _accounts(store)
        _twins("redis", own_redis.url)
        await _check(store)
    finally:
        await store.close()


@pytest.mark.timeout(300)
async def test_two_processes_on_one_sqlite_file(tmp_path: Path) -> None:
    path = tmp_path / "players.db"
    store = SqlitePlayerStore(path)
    try:
        await _accounts(store)
        _twins("sqlite", str(path))
        await _check(store)
    finally:
        await store.close()
