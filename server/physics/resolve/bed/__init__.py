"""Bed models: what the slate does with a ball driven into it from above.

A model is ``f(velocity, vz, params) -> (velocity, vz)``: ``velocity`` is the ball's
(vx, vy, wx, wy, wz) and ``vz`` < 0 the vertical speed with which it meets the slate (or,
for a ball already on the cloth that an impulse pushes down — an elevated cue, a ball
landing on it — the speed it would have had with no slate under it). The model returns
the velocity and spin after the slate's impulse and the vertical speed the ball leaves the
slate with (≥ 0). The engine decides from it whether the ball flies (``hop_min_speed``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import Velocity
from server.physics.resolve.bed import flat, slate

if TYPE_CHECKING:
    from server.physics.params import Params

BedModel = Callable[[Velocity, float, "Params"], tuple[Velocity, float]]

MODELS: dict[str, BedModel] = {
    "bounce": slate.bounce,
    "flat": flat.absorb,
}
