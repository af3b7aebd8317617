"""Han (2005), "Dynamics in carom and three cushion billiards": closed-form cushion impulse.

The impulse acts at the nose contact (sinθ = h/R − 1). Han applies the restitution to the
velocity along the tilted contact normal and distinguishes sticking from forward sliding
at the contact. The rebound speed ratio of a spinless ball driven square into the rail is
therefore (1 + e)·cos²θ + 2/7·sin²θ − 1 rather than e (≈ 0.74 for e = 0.85): pick this model
to compare with simulators that use it (pooltool's default), ``nose_impulse`` otherwise.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def bounce(ball: BallState, normal: tuple[float, float], params: Params) -> Velocity:
    _, _, vx, vy, wx, wy, wz = ball
    # Cushion frame: X into the cushion, Y = Z × X, Z up.
    ex, ey = -normal[0], -normal[1]
    fx, fy = -ey, ex
    v_x, v_y = vx * ex + vy * ey, vx * fx + vy * fy
    if v_x <= 0.0:
        return (vx, vy, wx, wy, wz)
    w_x, w_y = wx * ex + wy * ey, wx * fx + wy * fy
    m, big_r = params.ball_mass, params.ball_radius
    e, mu = params.e_cushion_at(v_x), params.mu_cushion
    theta = params.cushion_angle
    st, ct = math.sin(theta), math.cos(theta)
    sx = v_x * st + big_r * w_y
    sy = -v_y - big_r * wz * ct + big_r * w_x * st
    c = -v_x * ct
    inertia = 0.4 * m * big_r * big_r
    a_coef = 3.5 / m
    b_coef = 1.0 / m
    pz_e = -(1.0 + e) * c / b_coef
    s0 = math.hypot(sx, sy)
    if s0 / a_coef <= mu * pz_e:
        px_e, py_e = sx / a_coef, sy / a_coef
    else:
        px_e, py_e = mu * pz_e * sx / s0, mu * pz_e * sy / s0
    big_px = -px_e * st - pz_e * ct
    big_py = py_e
    big_pz = px_e * ct - pz_e * st
    v_x += big_px / m
    v_y += big_py / m
    w_x += -big_r / inertia * big_py * st
    w_y += big_r / inertia * (big_px * st - big_pz * ct)
    new_wz = wz + big_r / inertia * big_py * ct
    return (
        v_x * ex + v_y * fx,
        v_x * ey + v_y * fy,
        w_x * ex + w_y * fx,
        w_x * ey + w_y * fy,
        new_wz,
    )
