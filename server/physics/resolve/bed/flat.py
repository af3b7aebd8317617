"""The flat bed: the slate takes every vertical impulse, so nothing ever leaves the cloth.

This is the engine's behaviour before balls could fly, kept to compare against.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.physics.resolve import Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def absorb(velocity: Velocity, vz: float, params: Params) -> tuple[Velocity, float]:
    del vz, params
    return velocity, 0.0
