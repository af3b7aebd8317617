"""The shot input, checked strictly: anything non-finite or out of range is an error."""

from __future__ import annotations

import math
from dataclasses import dataclass

MAX_SPEED = 12.0
MAX_TIP = 1.0  # the cue tip must land on the ball
# The hardest stroke: the impulse along the cue, per unit ball mass (m/s). The most
# powerful breaks give the cue ball 11–13 m/s. An elevated cue needs speed / cos(elevation)
# of it for a cue-ball speed ``speed``: the vertical part drives the ball into the slate.
MAX_IMPULSE_SPEED = 13.0
# The cue's effective end mass as the ratio m_ball / m_end: what sets squirt (Alciatore,
# TP A.31). A standard shaft's end mass gives about 2.2° at half a tip of english, a
# low-deflection shaft's (a lighter end) about 1°.
CUES: dict[str, float] = {"standard": 25.0, "low_deflection": 60.0}


class ShotError(ValueError):
    """A shot input out of range; ``code`` is stable for clients."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True, slots=True)
class Shot:
    """A cue strike.

    ``angle``: degrees, 0 = +x, counter-clockwise. ``speed``: cue-ball speed just after the
    strike, m/s, 0 < speed ≤ 12. ``tip``: (side, height) offset of the tip from the ball's
    centre in ball radii; +side = right english, +height = follow; |tip| < 1, and past
    ``Params.miscue_limit`` (0.5) the cue miscues. ``elevation``: cue elevation in degrees,
    0 ≤ elevation < 90. An elevated cue must push harder for the same cue-ball speed, and no
    stroke pushes harder than ``MAX_IMPULSE_SPEED``: speed ≤ 13·cos(elevation) m/s (12 m/s
    up to 22.6°, 6.5 m/s at 60°, 2.3 m/s at 80°). ``cue``: the shaft, one of ``CUES``
    (``"standard"`` or ``"low_deflection"``); its end mass sets the squirt.
    """

    angle: float
    speed: float
    tip: tuple[float, float] = (0.0, 0.0)
    elevation: float = 0.0
    cue: str = "standard"


def validate_shot(shot: Shot) -> None:
    """Raise ``ShotError`` for any value that is not finite or out of range; never clamp."""
    values = {
        "angle": shot.angle,
        "speed": shot.speed,
        "elevation": shot.elevation,
    }
    if not (isinstance(shot.tip, tuple | list) and len(shot.tip) == 2):
        raise ShotError("bad_tip", "tip must be a pair [side, height]")
    values["tip side"] = shot.tip[0]
    values["tip height"] = shot.tip[1]
    for name, value in values.items():
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ShotError("not_a_number", f"shot {name} must be a number, got {value!r}")
        if not math.isfinite(value):
            raise ShotError("not_finite", f"shot {name} must be finite, got {value!r}")
    if not -360.0 <= shot.angle <= 360.0:
        raise ShotError("bad_angle", f"angle must be within [-360, 360] degrees, got {shot.angle}")
    if not 0.0 < shot.speed <= MAX_SPEED:
        raise ShotError("bad_speed", f"speed must be within (0, {MAX_SPEED}] m/s, got {shot.speed}")
    if not 0.0 <= shot.elevation < 90.0:
        raise ShotError(
            "bad_elevation", f"elevation must be within [0, 90) degrees, got {shot.elevation}"
        )
    limit = MAX_IMPULSE_SPEED * math.cos(math.radians(shot.elevation))
    if shot.speed > limit:
        raise ShotError(
            "bad_speed",
            f"at elevation {shot.elevation}° the cue-ball speed can be at most "
            f"{MAX_IMPULSE_SPEED:g}·cos(elevation) = {limit:.3f} m/s, got {shot.speed}",
        )
    if not isinstance(shot.cue, str) or shot.cue not in CUES:
        raise ShotError("bad_cue", f"cue must be one of {', '.join(CUES)}, got {shot.cue!r}")
    if math.hypot(shot.tip[0], shot.tip[1]) >= MAX_TIP:
        raise ShotError(
            "bad_tip", f"tip offset must be less than one ball radius, got {list(shot.tip)}"
        )


def is_miscue(shot: Shot, limit: float) -> bool:
    return math.hypot(shot.tip[0], shot.tip[1]) > limit
