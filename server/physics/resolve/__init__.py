"""Collision and strike models, one folder per event kind and one module per model.

Each kind keeps a registry ``MODELS`` of name → function; ``Params`` selects a model by
name (``strike_model``, ``ball_ball_model``, ``ball_cushion_model``, ``cluster_model``,
``pocket_model``), so a model can be swapped or compared without touching the engine. A
new model is also named in ``server.physics.params.MODEL_NAMES``, which ``Params`` checks
its names against.
"""

from __future__ import annotations

# A ball's kinematic state at an instant: x, y, vx, vy, wx, wy, wz (SI, table frame).
BallState = tuple[float, float, float, float, float, float, float]
# What a model returns for a ball: vx, vy, wx, wy, wz.
Velocity = tuple[float, float, float, float, float]
