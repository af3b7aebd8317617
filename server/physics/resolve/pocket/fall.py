"""The pocket in three dimensions: a ball past the slate edge falls, and can come back.

Why: a pocket is tighter at speed (Alciatore, "Fast Speed Banks" and TPs 3.5–3.8). A flat
table where crossing the slate edge is a point of no return makes every pocket the same
at every speed, since nothing in the geometry sets a time scale. Gravity does: once the
ball's centre is past the slate's drop edge it falls, z = −g·t²/2, and it cannot climb
back once it has dropped ``pocket_drop_depth``. Until then it still moves over the hole —
without cloth under it, at constant horizontal velocity — and meets the jaw facings (the
cushion model, whose restitution falls with speed) and the pocket's back (a plane across
the facings' ends, restitution ``e_pocket_back``). A slow ball is down long before it
reaches anything; a fast one reaches a facing or the back, is thrown back out over the
slate edge before it has dropped, and rattles out. All of it stays closed form: the
drop is a fixed time after the edge, and every contact in between is a line or a circle.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.table import Pocket


def falls(ball: BallState, z: float, vz: float, pocket: Pocket, params: Params) -> float:
    """Time until z + vz·τ − g·τ²/2 reaches −``pocket_drop_depth`` (√(2d/g) from rest)."""
    del ball, pocket
    g = params.g
    return (vz + math.sqrt(vz * vz + 2.0 * g * (z + params.pocket_drop_depth))) / g
