"""Ball–cushion models: ``f(ball, normal, params) -> velocity``.

``normal`` is the horizontal unit vector from the cushion toward the ball's centre at the
contact (a rail's or facing's normal, or the direction from a jaw tip's centre).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity
from server.physics.resolve.ball_cushion import han2005, nose_impulse

if TYPE_CHECKING:
    from server.physics.params import Params

BallCushionModel = Callable[[BallState, tuple[float, float], "Params"], Velocity]

MODELS: dict[str, BallCushionModel] = {
    "nose_impulse": nose_impulse.bounce,
    "han2005": han2005.bounce,
}
