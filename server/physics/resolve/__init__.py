"""Collision and strike models, one folder per event kind and one module per model.

Each kind keeps a registry ``MODELS`` of name → function; ``Params`` selects a model by
name (``strike_model``, ``ball_ball_model``, ``ball_cushion_model``, ``pocket_model``), so
a model can be swapped or compared without touching the engine.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.physics.params import Params

# A ball's kinematic state at an instant: x, y, vx, vy, wx, wy, wz (SI, table frame).
BallState = tuple[float, float, float, float, float, float, float]
# What a model returns for a ball: vx, vy, wx, wy, wz.
Velocity = tuple[float, float, float, float, float]


def check_model_names(params: Params) -> None:
    """Raise ``ParamsError`` when a model name in ``params`` is not registered."""
    from server.physics.params import ParamsError
    from server.physics.resolve import ball_ball, ball_cushion, cluster, pocket, strike

    chosen: dict[str, tuple[str, Collection[str]]] = {
        "strike_model": (params.strike_model, strike.MODELS.keys()),
        "ball_ball_model": (params.ball_ball_model, ball_ball.MODELS.keys()),
        "ball_cushion_model": (params.ball_cushion_model, ball_cushion.MODELS.keys()),
        "cluster_model": (params.cluster_model, cluster.MODELS.keys()),
        "pocket_model": (params.pocket_model, pocket.MODELS.keys()),
    }
    for field, (name, registry) in chosen.items():
        if name not in registry:
            known = ", ".join(sorted(registry))
            raise ParamsError(f"{field} {name!r} is not one of: {known}")
