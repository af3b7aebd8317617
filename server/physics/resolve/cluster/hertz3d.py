"""The compliant cluster sub-solver (``hertz.py``) in three dimensions, for a cluster with a
ball off the cloth in it: a hopping cue ball meeting the rack, a ball landing on others.

Why: a ball in the air meets the others above or below their equators, so the contact
normals have vertical parts: the ball it hits from above is pressed into the slate and the
striker is thrown up. ``hertz.py`` keeps every ball on the cloth and runs in the plane; it
stays the solver for the common case (every ball on the cloth), where this one would give
the same answer more slowly.

The model is ``hertz.py``'s — Hertz normal force with Lankarani–Nikravesh damping and the
speed-dependent ball–ball friction against the 3-D slip, semi-implicit Euler steps of
1/``cluster_steps`` of the contact time — with the balls free in z under gravity, and a
bed under each ball that starts on the cloth (not one over a pocket's hole): the slate
holds such a ball at z = 0 against any push down, and the momentum it takes is returned
(``bed``, per unit mass, ≥ 0) so that the bed model can give its share back after the
impact, as it does for a cue driving a ball down.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import BallState
from server.physics.resolve.cluster.hertz import MAX_STEPS, stepping

if TYPE_CHECKING:
    from server.physics.params import Params


def resolve(
    balls: list[BallState],
    heights: list[tuple[float, float]],
    bedded: list[bool],
    pairs: list[tuple[int, int]],
    impact_speed: float,
    params: Params,
) -> tuple[list[BallState], list[tuple[float, float]], list[float], list[tuple[int, int]]]:
    """Integrate the cluster through the impact.

    ``heights`` gives each ball's (z, vz): the height of its bottom above the cloth and its
    vertical speed; ``bedded`` whether the slate is under it. Returns the states after the
    impact (positions unchanged), the heights after (z unchanged, vz after), the downward
    speed the bed took from each ball, and the listed pairs that touched, in the order
    their contacts began (the triggering pair first).
    """
    n = len(balls)
    x = [b[0] for b in balls]
    y = [b[1] for b in balls]
    z = [h[0] for h in heights]
    vx = [b[2] for b in balls]
    vy = [b[3] for b in balls]
    vz = [h[1] for h in heights]
    wx = [b[4] for b in balls]
    wy = [b[5] for b in balls]
    wz = [b[6] for b in balls]
    bed = [0.0] * n
    (
        big_r,
        diameter,
        d2,
        stiffness,
        damping,
        dt,
        inv_m,
        spin_k,
        stick,
        mu0,
        mu_r,
        mu_c,
        lookahead,
    ) = stepping(impact_speed, params)
    g_dt = params.g * dt
    peak = [0.0] * len(pairs)
    started: list[int] = [0]
    seen = [True] + [False] * (len(pairs) - 1)
    fx = [0.0] * n
    fy = [0.0] * n
    fz = [0.0] * n
    for _ in range(MAX_STEPS):
        for k in range(n):
            fx[k] = fy[k] = fz[k] = 0.0
        active = False
        closing = False
        for p, (i, j) in enumerate(pairs):
            dx = x[j] - x[i]
            dy = y[j] - y[i]
            dz = z[j] - z[i]
            dist2 = dx * dx + dy * dy + dz * dz
            if dist2 >= d2:
                if not closing:
                    dist = math.sqrt(dist2)
                    rate = (
                        (vx[i] - vx[j]) * dx + (vy[i] - vy[j]) * dy + (vz[i] - vz[j]) * dz
                    ) / dist
                    if rate > 0.0 and dist - diameter < rate * lookahead:
                        closing = True
                continue
            active = True
            dist = math.sqrt(dist2)
            nx = dx / dist
            ny = dy / dist
            nz = dz / dist
            delta = diameter - dist
            rate = (vx[i] - vx[j]) * nx + (vy[i] - vy[j]) * ny + (vz[i] - vz[j]) * nz
            if not seen[p]:
                seen[p] = True
                started.append(p)
            if rate > peak[p]:
                peak[p] = rate
            force = stiffness * delta * math.sqrt(delta)
            if peak[p] > 0.0:
                force *= 1.0 + damping * rate / peak[p]
            if force <= 0.0:
                continue
            fx[i] -= force * nx
            fy[i] -= force * ny
            fz[i] -= force * nz
            fx[j] += force * nx
            fy[j] += force * ny
            fz[j] += force * nz
            if mu0 <= 0.0:
                continue
            # Slip of a's surface on b's at the contact: v + ω × (R·n) for a, −R·n for b.
            sx = (vx[i] + big_r * (wy[i] * nz - wz[i] * ny)) - (
                vx[j] - big_r * (wy[j] * nz - wz[j] * ny)
            )
            sy = (vy[i] + big_r * (wz[i] * nx - wx[i] * nz)) - (
                vy[j] - big_r * (wz[j] * nx - wx[j] * nz)
            )
            sz = (vz[i] + big_r * (wx[i] * ny - wy[i] * nx)) - (
                vz[j] - big_r * (wx[j] * ny - wy[j] * nx)
            )
            along = sx * nx + sy * ny + sz * nz
            tx = sx - along * nx
            ty = sy - along * ny
            tz = sz - along * nz
            slip = math.sqrt(tx * tx + ty * ty + tz * tz)
            if slip <= 0.0:
                continue
            mu = mu0 * (mu_r + (1.0 - mu_r) * math.exp(-mu_c * slip))
            ft = min(mu * force, stick * slip) / slip
            gx, gy, gz = -ft * tx, -ft * ty, -ft * tz  # friction force on a
            fx[i] += gx
            fy[i] += gy
            fz[i] += gz
            fx[j] -= gx
            fy[j] -= gy
            fz[j] -= gz
            # Torque r × F: the same change for both balls.
            dwx = spin_k * (ny * gz - nz * gy) * dt
            dwy = spin_k * (nz * gx - nx * gz) * dt
            dwz = spin_k * (nx * gy - ny * gx) * dt
            wx[i] += dwx
            wy[i] += dwy
            wz[i] += dwz
            wx[j] += dwx
            wy[j] += dwy
            wz[j] += dwz
        if not active and not closing:
            break
        for k in range(n):
            vx[k] += fx[k] * inv_m * dt
            vy[k] += fy[k] * inv_m * dt
            if bedded[k] and z[k] <= 0.0:
                # On the slate: it carries the ball's weight, and holds it against any
                # push down, taking that momentum.
                vz[k] += fz[k] * inv_m * dt
                if vz[k] < 0.0:
                    bed[k] -= vz[k]
                    vz[k] = 0.0
            else:
                vz[k] += fz[k] * inv_m * dt - g_dt
            x[k] += vx[k] * dt
            y[k] += vy[k] * dt
            z[k] += vz[k] * dt
    out = [(balls[k][0], balls[k][1], vx[k], vy[k], wx[k], wy[k], wz[k]) for k in range(n)]
    lifted = [(heights[k][0], vz[k]) for k in range(n)]
    return out, lifted, bed, [pairs[p] for p in started]
