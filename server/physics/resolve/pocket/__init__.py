"""Pocket models: what happens when a ball's centre enters a pocket's hole circle.

A model is ``f(ball, pocket, params) -> bool``: True when the ball drops.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import BallState
from server.physics.resolve.pocket import drop

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.table import Pocket

PocketModel = Callable[[BallState, "Pocket", "Params"], bool]

MODELS: dict[str, PocketModel] = {
    "drop": drop.falls,
}
