"""The standard cue-strike model: one instantaneous impulse through the tip's contact point.

The impulse J runs along the cue, which points down at the elevation θ; the tip meets the
ball at (side, height) radii off the centre, measured in the plane perpendicular to the cue.
The vertical part of J drives the ball down into the slate at v·tanθ (the bed model decides
what comes back: a hop, a jump), and the horizontal part gives the ball the requested
speed: |J|·cosθ = m·v. The spin is ω = r × J / I with I = 2/5·m·R².

In the shot frame (x along the aim, y to the left, z up) this gives
ω_x = 5·side·v·tanθ / (2R), ω_y = 5·height·v / (2R·cosθ), ω_z = 5·side·v / (2R):
a level cue reproduces the textbook ω_y = 5·height·v/(2R) (natural roll at height 0.4) and
ω_z = 5·side·v/(2R); an elevated cue with side spin tilts the spin axis, so the contact
point slides sideways and the ball curves toward the side of the english (swerve, massé).

Squirt (Alciatore, TP A.31): the cue's tip is pushed aside with the ball, so the impulse
is not along the cue and the ball leaves at the angle α off the aim, away from the side
of the english: tan α = (5/2)(b/R)·√(1 − (b/R)²) / (1 + m_ball/m_end + (5/2)(1 − (b/R)²))
with b = |side|·R and m_ball/m_end the shaft's ratio (``CUES``). It does not depend on
speed. The spin is the one the tip's offset gives (the small change of the impulse's
moment arm is neglected).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import Velocity
from server.physics.shot import CUES

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.shot import Shot


def squirt_angle(side: float, end_mass_ratio: float) -> float:
    """Squirt in radians for a tip offset ``side`` (ball radii); positive to the left."""
    b = min(abs(side), 0.999)
    root = 1.0 - b * b
    alpha = math.atan(2.5 * b * math.sqrt(root) / (1.0 + end_mass_ratio + 2.5 * root))
    # Right english (side > 0) pushes the ball to the left: counter-clockwise.
    return alpha if side > 0.0 else -alpha


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
    heading = a + squirt_angle(side, CUES[shot.cue])
    return (
        v * math.cos(heading),
        v * math.sin(heading),
        w_forward_axis * c - w_left_axis * s,
        w_forward_axis * s + w_left_axis * c,
        wz,
    )
