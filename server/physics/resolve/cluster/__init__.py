"""Cluster models: a ball striking balls that touch or nearly touch others.

A model is ``f(balls, pairs, impact_speed, params) -> (states after, pairs that touched in
the order their contacts began)``. ``pairs`` lists the index pairs of ``balls`` that can
meet during the impact. ``"pairwise"`` (no function) leaves clusters to the ball–ball
model one instantaneous pair at a time.

``MODELS_3D`` holds each model's form for a cluster with a ball off the cloth in it:
``f(balls, heights, bedded, pairs, impact_speed, params) -> (states after, heights after,
momentum the bed took from each ball per unit mass, pairs that touched)`` (see
``hertz3d.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState
from server.physics.resolve.cluster import hertz, hertz3d

if TYPE_CHECKING:
    from server.physics.params import Params

ClusterModel = Callable[
    [list[BallState], list[tuple[int, int]], float, "Params"],
    tuple[list[BallState], list[tuple[int, int]]],
]

MODELS: dict[str, ClusterModel | None] = {
    "hertz": hertz.resolve,
    "pairwise": None,
}

ClusterModel3D = Callable[
    [
        list[BallState],
        list[tuple[float, float]],
        list[bool],
        list[tuple[int, int]],
        float,
        "Params",
    ],
    tuple[list[BallState], list[tuple[float, float]], list[float], list[tuple[int, int]]],
]

MODELS_3D: dict[str, ClusterModel3D | None] = {
    "hertz": hertz3d.resolve,
    "pairwise": None,
}
