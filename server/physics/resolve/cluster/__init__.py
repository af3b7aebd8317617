"""Cluster models: a ball striking balls that touch or nearly touch others.

A model is ``f(balls, pairs, impact_speed, params) -> (states after, pairs that touched in
the order their contacts began)``. ``pairs`` lists the index pairs of ``balls`` that can
meet during the impact. ``"pairwise"`` (no function) leaves clusters to the ball–ball
model one instantaneous pair at a time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState
from server.physics.resolve.cluster import hertz

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
