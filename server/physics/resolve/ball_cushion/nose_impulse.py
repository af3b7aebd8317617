"""Cushion impulse at the nose, with restitution measured the way it is measured on tables.

The nose touches the ball above its centre, at the angle θ with sinθ = h/R − 1 (h the nose
height), so the line of action of the normal impulse is tilted down by θ and the bed takes
its vertical part. Restitution: the ball centre's horizontal speed into the cushion comes
back multiplied by ``e_cushion_at(speed)``, which falls with the impact speed — exactly
the rebound speed ratio of a spinless ball driven square into the rail. Friction: a
Coulomb impulse in the contact's tangent plane, against the slip of the ball's surface on
the nose, capped at ``mu_cushion`` × the normal impulse and never more than what stops
the slip. Side spin therefore throws the rebound (running english widens the angle,
reverse english narrows it) and the nose's grip turns
some of the ball's speed along the rail into spin.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def bounce(ball: BallState, normal: tuple[float, float], params: Params) -> Velocity:
    _, _, vx, vy, wx, wy, wz = ball
    nx, ny = normal
    vn = vx * nx + vy * ny
    if vn >= 0.0:
        return (vx, vy, wx, wy, wz)
    m = params.ball_mass
    big_r = params.ball_radius
    theta = params.cushion_angle
    ct, st = math.cos(theta), math.sin(theta)
    # Contact point from the centre, and the unit normal from the contact into the ball.
    rx, ry, rz = -big_r * nx * ct, -big_r * ny * ct, big_r * st
    cnx, cny, cnz = nx * ct, ny * ct, -st
    # Slip of the ball's surface on the nose: v + ω × r, its tangential part.
    sx = vx + wy * rz - wz * ry
    sy = vy + wz * rx - wx * rz
    sz = wx * ry - wy * rx
    s_n = sx * cnx + sy * cny + sz * cnz
    tx, ty, tz = sx - s_n * cnx, sy - s_n * cny, sz - s_n * cnz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)

    # Horizontal normal impulse wanted; the restitution falls with the impact speed.
    target = -(1.0 + params.e_cushion_at(-vn)) * vn * m
    p = target / ct
    fx = fy = fz = 0.0
    if slip > 0.0 and params.mu_cushion > 0.0:
        stick = m * slip * 2.0 / 7.0
        for _ in range(3):
            f = min(params.mu_cushion * p, stick)
            fx, fy, fz = -f * tx / slip, -f * ty / slip, -f * tz / slip
            p = (target - (fx * nx + fy * ny)) / ct
    new_vx = vx + (p * cnx + fx) / m
    new_vy = vy + (p * cny + fy) / m
    k = 1.0 / (0.4 * m * big_r * big_r)
    return (
        new_vx,
        new_vy,
        wx + k * (ry * fz - rz * fy),
        wy + k * (rz * fx - rx * fz),
        wz + k * (rx * fy - ry * fx),
    )
