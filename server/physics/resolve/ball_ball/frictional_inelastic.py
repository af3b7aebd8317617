"""Instantaneous collision of two equal balls with restitution and Coulomb friction.

The normal impulse along the line of centres is Jn = m·(1 + e)/2 · v_n (v_n the approach
speed). The contact points' relative slip velocity (3-D: it includes the vertical slip of
follow and draw) is opposed by a friction impulse capped at μ(v_slip)·Jn — μ falls with the
slip speed as in Alciatore's fit to Marlow's data — and never larger than what stops the
slip (m·|slip|/7 for two free balls). Friction is what throws the object ball off the line
of centres (cut- and spin-induced throw) and transfers spin. Between two balls on the cloth
the vertical part of the friction impulse goes into the bed (it would lift a ball by at
most a millimetre or so); only the spin feels it.

:func:`collide_3d` is the same law for two balls at different heights — one of them off
the cloth, meeting the other above or below its equator — where the line of centres, and
so the normal impulse, has a vertical part. It returns the vertical speeds too; the engine
lets the bed answer a ball on the cloth pushed down, and lets a ball pushed up fly.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState, Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def collide(a: BallState, b: BallState, params: Params) -> tuple[Velocity, Velocity]:
    xa, ya, vxa, vya, wxa, wya, wza = a
    xb, yb, vxb, vyb, wxb, wyb, wzb = b
    m = params.ball_mass
    big_r = params.ball_radius
    dx, dy = xb - xa, yb - ya
    dist = math.hypot(dx, dy)
    nx, ny = dx / dist, dy / dist
    approach = (vxa - vxb) * nx + (vya - vyb) * ny
    if approach <= 0.0:
        return (vxa, vya, wxa, wya, wza), (vxb, vyb, wxb, wyb, wzb)
    jn = m * (1.0 + params.e_ball) / 2.0 * approach

    # Surface velocities at the contact point: v + ω × r with r = +R·n for a, −R·n for b.
    sax = vxa - wza * big_r * ny
    say = vya + wza * big_r * nx
    saz = big_r * (wxa * ny - wya * nx)
    sbx = vxb + wzb * big_r * ny
    sby = vyb - wzb * big_r * nx
    sbz = -big_r * (wxb * ny - wyb * nx)
    slip_x, slip_y, slip_z = sax - sbx, say - sby, saz - sbz
    along = slip_x * nx + slip_y * ny
    tx, ty, tz = slip_x - along * nx, slip_y - along * ny, slip_z
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)

    fx = fy = fz = 0.0  # friction impulse on a (b gets the opposite)
    if slip > 0.0 and params.mu_ball > 0.0:
        jt = min(params.mu_ball_at(slip) * jn, m * slip / 7.0)
        fx, fy, fz = -jt * tx / slip, -jt * ty / slip, -jt * tz / slip

    inv_m = 1.0 / m
    new_a_vx = vxa + (-jn * nx + fx) * inv_m
    new_a_vy = vya + (-jn * ny + fy) * inv_m
    new_b_vx = vxb + (jn * nx - fx) * inv_m
    new_b_vy = vyb + (jn * ny - fy) * inv_m
    # Torque r × F: a has r = R·n and F = f; b has r = −R·n and F = −f: the same change.
    k = big_r / (0.4 * m * big_r * big_r)
    dwx = k * (ny * fz)
    dwy = k * (-nx * fz)
    dwz = k * (nx * fy - ny * fx)
    return (
        (new_a_vx, new_a_vy, wxa + dwx, wya + dwy, wza + dwz),
        (new_b_vx, new_b_vy, wxb + dwx, wyb + dwy, wzb + dwz),
    )


def collide_3d(
    a: BallState, za: float, vza: float, b: BallState, zb: float, vzb: float, params: Params
) -> tuple[Velocity, float, Velocity, float]:
    """Two balls whose bottoms are ``za`` and ``zb`` above the cloth, rising at ``vza`` and
    ``vzb``: velocities, spins and vertical speeds after the collision (no bed)."""
    xa, ya, vxa, vya, wxa, wya, wza = a
    xb, yb, vxb, vyb, wxb, wyb, wzb = b
    m = params.ball_mass
    big_r = params.ball_radius
    dx, dy, dz = xb - xa, yb - ya, zb - za
    dist = math.sqrt(dx * dx + dy * dy + dz * dz)
    nx, ny, nz = dx / dist, dy / dist, dz / dist
    approach = (vxa - vxb) * nx + (vya - vyb) * ny + (vza - vzb) * nz
    if approach <= 0.0:
        return (vxa, vya, wxa, wya, wza), vza, (vxb, vyb, wxb, wyb, wzb), vzb
    jn = m * (1.0 + params.e_ball) / 2.0 * approach
    # Surface velocities at the contact point: v + ω × r with r = +R·n for a, −R·n for b.
    sax = vxa + big_r * (wya * nz - wza * ny)
    say = vya + big_r * (wza * nx - wxa * nz)
    saz = vza + big_r * (wxa * ny - wya * nx)
    sbx = vxb - big_r * (wyb * nz - wzb * ny)
    sby = vyb - big_r * (wzb * nx - wxb * nz)
    sbz = vzb - big_r * (wxb * ny - wyb * nx)
    slip_x, slip_y, slip_z = sax - sbx, say - sby, saz - sbz
    along = slip_x * nx + slip_y * ny + slip_z * nz
    tx, ty, tz = slip_x - along * nx, slip_y - along * ny, slip_z - along * nz
    slip = math.sqrt(tx * tx + ty * ty + tz * tz)
    fx = fy = fz = 0.0  # friction impulse on a (b gets the opposite)
    if slip > 0.0 and params.mu_ball > 0.0:
        jt = min(params.mu_ball_at(slip) * jn, m * slip / 7.0)
        fx, fy, fz = -jt * tx / slip, -jt * ty / slip, -jt * tz / slip
    inv_m = 1.0 / m
    # Torque r × F: a has r = R·n and F = f; b has r = −R·n and F = −f: the same change.
    k = big_r / (0.4 * m * big_r * big_r)
    dwx = k * (ny * fz - nz * fy)
    dwy = k * (nz * fx - nx * fz)
    dwz = k * (nx * fy - ny * fx)
    return (
        (
            vxa + (-jn * nx + fx) * inv_m,
            vya + (-jn * ny + fy) * inv_m,
            wxa + dwx,
            wya + dwy,
            wza + dwz,
        ),
        vza + (-jn * nz + fz) * inv_m,
        (
            vxb + (jn * nx - fx) * inv_m,
            vyb + (jn * ny - fy) * inv_m,
            wxb + dwx,
            wyb + dwy,
            wzb + dwz,
        ),
        vzb + (jn * nz - fz) * inv_m,
    )
