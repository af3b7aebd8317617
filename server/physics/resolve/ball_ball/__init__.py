"""Ball–ball collision models: ``f(a, b, params) -> (velocity of a, velocity of b)``.

``a`` and ``b`` are the two balls' states at the instant of contact (touching).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity
from server.physics.resolve.ball_ball import frictional_inelastic

if TYPE_CHECKING:
    from server.physics.params import Params

BallBallModel = Callable[[BallState, BallState, "Params"], tuple[Velocity, Velocity]]

MODELS: dict[str, BallBallModel] = {
    "frictional_inelastic": frictional_inelastic.collide,
}
