"""Pocket models: what happens when a ball's centre passes a pocket's slate edge.

A model is ``f(ball, z, vz, pocket, params) -> seconds``: how long the ball, whose bottom
is at height ``z`` above the cloth and rising at ``vz`` (0 and 0 for a ball rolling over the
edge; a ball landing from a jump comes down), falls before it has dropped too far to come
back onto the slate (0: it is pocketed at once). While it falls the engine moves it freely
over the hole, where it can still meet the jaw facings, the pocket's back and other balls,
and a ball whose centre comes back over the slate edge in time rattles out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState
from server.physics.resolve.pocket import drop, fall

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.table import Pocket

PocketModel = Callable[[BallState, float, float, "Pocket", "Params"], float]

MODELS: dict[str, PocketModel] = {
    "drop": drop.falls,
    "fall": fall.falls,
}
