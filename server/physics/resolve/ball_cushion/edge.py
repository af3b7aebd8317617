"""A ball off the cloth meeting a cushion's nose, or a jaw's rounded point, in three
dimensions.

Why: on the cloth the nose always meets the ball at the same height, 15.7° above its
centre, and pushes it down into the slate (``nose_impulse``, ``han2005``). A ball in the
air meets the nose wherever its height puts it: below the centre the nose lifts it, and a
ball whose bottom is above the nose clears it and leaves the table. The nose is an edge (a
line along the rail at the nose height), the contact normal ĉ runs from the edge to the
ball's centre, and nothing else touches the ball: no bed takes any part of the impulse.

The impulse, at the contact point r = −R·ĉ:

* restitution along ĉ: the approach speed v_c = −v·ĉ comes back as e(v_c)·v_c, with the
  cushion's speed-dependent restitution (``Params.e_cushion_at``), P = (1 + e)·m·v_c;
* Coulomb friction against the slip s = v + ω × r of the ball's surface on the edge,
  without its ĉ part: F = −min(μc·P, (2/7)·m·|s_t|)·ŝ_t, the second term stopping the slip
  against a fixed edge (as in ``nose_impulse``);
* v' = v + (P·ĉ + F)/m, ω' = ω + r × F / I.

For a ball at cloth height this differs from ``nose_impulse`` only in what the bed does: the
downward part of the impulse is the ball's own, so it comes down on the slate at once and
bounces (the bed model). Han (2005) likewise applies the restitution along the tilted
contact normal.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def bounce_3d(
    ball: BallState, vz: float, normal: tuple[float, float, float], params: Params
) -> tuple[Velocity, float]:
    """``normal`` is ĉ, the unit vector from the contact to the ball's centre."""
    _, _, vx, vy, wx, wy, wz = ball
    cx, cy, cz = normal
    vc = vx * cx + vy * cy + vz * cz
    if vc >= 0.0:
        return (vx, vy, wx, wy, wz), vz
    m = params.ball_mass
    big_r = params.ball_radius
    p = (1.0 + params.e_cushion_at(-vc)) * m * -vc
    rx, ry, rz = -big_r * cx, -big_r * cy, -big_r * cz
    sx = vx + wy * rz - wz * ry
    sy = vy + wz * rx - wx * rz
    sz = vz + wx * ry - wy * rx
    s_n = sx * cx + sy * cy + sz * cz
    tx, ty, tz = sx - s_n * cx, sy - s_n * cy, sz - s_n * cz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)
    fx = fy = fz = 0.0
    if slip > 0.0 and params.mu_cushion > 0.0:
        f = min(params.mu_cushion * p, 2.0 * m * slip / 7.0)
        fx, fy, fz = -f * tx / slip, -f * ty / slip, -f * tz / slip
    k = 1.0 / (0.4 * m * big_r * big_r)
    return (
        vx + (p * cx + fx) / m,
        vy + (p * cy + fy) / m,
        wx + k * (ry * fz - rz * fy),
        wy + k * (rz * fx - rx * fz),
        wz + k * (rx * fy - ry * fx),
    ), vz + (p * cz + fz) / m
