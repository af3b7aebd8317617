"""The standard cue-strike model: one instantaneous impulse through the tip's contact point.

The impulse J runs along the cue, which points down at the elevation θ; the tip meets the
ball at (side, height) radii off the centre, measured in the plane perpendicular to the cue.
The bed absorbs the vertical part of J (no jumps), and the horizontal part gives the ball
the requested speed: |J|·cosθ = m·v. The spin is ω = r × J / I with I = 2/5·m·R².

In the shot frame (x along the aim, y to the left, z up) this gives
ω_x = 5·side·v·tanθ / (2R), ω_y = 5·height·v / (2R·cosθ), ω_z = 5·side·v / (2R):
a level cue reproduces the textbook ω_y = 5·height·v/(2R) (natural roll at height 0.4) and
ω_z = 5·side·v/(2R); an elevated cue with side spin tilts the spin axis, so the contact
point slides sideways and the ball curves toward the side of the english (swerve, massé).
Squirt is not modelled.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import Velocity

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.shot import Shot


def strike(shot: Shot, params: Params) -> Velocity:
    side, height = shot.tip
    v = shot.speed
    big_r = params.ball_radius
    theta = math.radians(shot.elevation)
    k = 5.0 * v / (2.0 * big_r)
    w_forward_axis = k * side * math.tan(theta)  # about the aim direction (shot frame x)
    w_left_axis = k * height / math.cos(theta)  # about the shot frame y (follow / draw)
    wz = k * side
    a = math.radians(shot.angle)
    c, s = math.cos(a), math.sin(a)
    return (
        v * c,
        v * s,
        w_forward_axis * c - w_left_axis * s,
        w_forward_axis * s + w_left_axis * c,
        wz,
    )
