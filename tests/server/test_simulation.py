"""The physics pool: shots run in worker processes, identical to a local run, and a dead
worker does not take the server's shots down with it."""

from __future__ import annotations

import os
import signal
from concurrent.futures import ProcessPoolExecutor

from protocol.trajectory import decode_tracks, position_at
from server import physics
from server.rooms.simulation import PhysicsPool, run_shot

BALLS = {0: (0.5, 0.6), 1: (1.905, 0.635), 9: (2.2, 0.9)}


async def test_pool_result_equals_a_local_run(physics_pool: PhysicsPool) -> None:
    shot = physics.Shot(angle=2.0, speed=4.0, tip=(0.1, 0.2))
    remote = await physics_pool.simulate(BALLS, shot)
    local = run_shot(BALLS, 2.0, 4.0, (0.1, 0.2), 0.0)
    assert remote.traj == local.traj and remote.final == local.final
    assert (remote.first, remote.pocketed, remote.rails) == (
        local.first,
        local.pocketed,
        local.rails,
    )
    decoded = decode_tracks(remote.traj)
    for ball, pos in remote.final.items():
        if pos is not None:
            x, y = position_at(decoded, ball, remote.duration + 1.0)
            assert abs(x - pos[0]) < 1e-3 and abs(y - pos[1]) < 1e-3


async def test_a_killed_worker_is_replaced() -> None:
    pool = PhysicsPool(workers=1)
    try:
        await pool.start()
        executor = pool._executor
        assert isinstance(executor, ProcessPoolExecutor)
        for pid in list(executor._processes):  # the worker dies under the pool's feet
            os.kill(pid, signal.SIGKILL)
        result = await pool.simulate(BALLS, physics.Shot(angle=0.0, speed=2.0))
        assert result.first == 1
    finally:
        pool.close()
