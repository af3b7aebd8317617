"""A ball whose centre passes the edge of the slate (the hole circle) drops at once.

The hole circle sits a shelf depth behind the mouth line, so the point of no return is
where the ball's centre leaves the slate. Rattles come from the jaws before that: their
facings and rounded points are cushions, and a ball that hits them bounces off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from server.physics.resolve import BallState

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.table import Pocket


def falls(ball: BallState, z: float, vz: float, pocket: Pocket, params: Params) -> float:
    del ball, z, vz, pocket, params
    return 0.0
