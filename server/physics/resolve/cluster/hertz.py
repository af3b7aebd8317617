"""Compliant (soft, discrete-element) contact for a ball striking a cluster of balls.

Why: in a frozen rack every contact overlaps in time. Two phenolic balls meeting at
8–10 m/s press into each other by about 0.8 mm for about 250 µs (Hertz), while real rack
gaps are tens of micrometres, so the impulse reaches the back of the rack while the
front contacts are still loaded. Resolving the rack one instantaneous pair at a time
sends each ball out along the rack's lattice (30°) whatever the gaps; letting all
contacts act at once, with their real force law, spreads the balls as real breaks do.

The model: the balls of the cluster move freely in the plane (the bed takes vertical
forces; cloth friction is negligible over a millisecond; a cluster with a ball in the air
goes to ``hertz3d.py``) under

* a normal force F = K·δ^(3/2)·(1 + 3(1 − e²)/4 · δ̇/δ̇₀) at each overlapping pair —
  Hertz with Lankarani–Nikravesh damping ("A contact force model with hysteresis damping
  for impact analysis of multibody systems", 1990), K = (4/3)·E*·√R*, E* = E/(2(1 − ν²)),
  R* = R/2, which reproduces the restitution e of an isolated pair. δ̇₀, the impact speed
  of the contact, is the largest approach speed the contact has seen so far: contacts in
  a rack start at rest and are loaded by the push behind them;
* a friction force against the contact points' 3-D slip, capped at μ(slip)·F with the
  same speed-dependent μ as the pairwise model, and never more than what stops the slip
  within one step (the pairwise model's cap, per step).

Integration is semi-implicit Euler with a step of 1/``steps`` of the Hertz contact time
at the triggering impact speed, until no pair overlaps and no listed pair would close its
gap within a few steps. Only pairs listed by the caller are tested (the caller lists every
pair that can meet within the impact); the returned positions are where the impact
leaves the balls.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, NamedTuple

from server.physics.resolve import BallState

if TYPE_CHECKING:
    from server.physics.params import Params

MAX_STEPS = 20_000  # a safety stop; a nine-ball break needs a few hundred


def hertz_constants(params: Params) -> tuple[float, float]:
    """(K, m*): the Hertz stiffness of two equal balls (N/m^1.5) and the reduced mass."""
    nu = params.ball_poisson
    e_star = params.ball_youngs_modulus / (2.0 * (1.0 - nu * nu))
    r_star = params.ball_radius / 2.0
    return (4.0 / 3.0) * e_star * math.sqrt(r_star), params.ball_mass / 2.0


def contact_time(speed: float, params: Params) -> float:
    """Duration of an isolated Hertz impact at approach ``speed``: 2.94·δmax / v."""
    k, m_star = hertz_constants(params)
    speed = max(speed, 1e-3)
    delta_max: float = (1.25 * m_star * speed * speed / k) ** 0.4
    return 2.94 * delta_max / speed


class Stepping(NamedTuple):
    """What an integration through a cluster impact steps with, the same in the plane and
    in 3-D (``hertz3d.py``): unpacked into locals once per impact, so the loop over the
    steps and pairs reads no attribute."""

    big_r: float
    diameter: float
    #: The squared distance of centres below which a pair overlaps.
    d2: float
    #: K of F = K·δ^(3/2).
    stiffness: float
    #: 3(1 − e²)/4: Lankarani–Nikravesh's factor on δ̇/δ̇₀.
    damping: float
    #: 1/``cluster_steps`` of the Hertz contact time at the triggering impact speed.
    dt: float
    inv_m: float
    #: The spin a unit torque gives one ball: R / I.
    spin_k: float
    #: Friction that stops a pair's slip within one step, per m/s of slip.
    stick: float
    #: μ(slip) = mu0·(mu_r + (1 − mu_r)·e^(−mu_c·slip)): ``Params.mu_ball_at``, written out
    #: in the loop (a call per contact and step would cost more than the rest of it).
    mu0: float
    mu_r: float
    mu_c: float
    #: A pair apart but closing within this long keeps the integration going.
    lookahead: float


def stepping(impact_speed: float, params: Params) -> Stepping:
    big_r = params.ball_radius
    diameter = 2.0 * big_r
    m = params.ball_mass
    stiffness, _ = hertz_constants(params)
    tau = contact_time(impact_speed, params)
    dt = tau / params.cluster_steps
    return Stepping(
        big_r=big_r,
        diameter=diameter,
        d2=diameter * diameter,
        stiffness=stiffness,
        damping=0.75 * (1.0 - params.e_ball * params.e_ball),
        dt=dt,
        inv_m=1.0 / m,
        spin_k=big_r / (0.4 * m * big_r * big_r),
        stick=m / (7.0 * dt),
        mu0=params.mu_ball,
        mu_r=params.mu_ball_fast_ratio,
        mu_c=params.mu_ball_decay,
        lookahead=3.0 * dt,
    )


def resolve(
    balls: list[BallState],
    pairs: list[tuple[int, int]],
    impact_speed: float,
    params: Params,
) -> tuple[list[BallState], list[tuple[int, int]]]:
    """Integrate the cluster through the impact.

    ``pairs[0]`` is the triggering pair, touching and approaching at ``impact_speed``.
    Returns each ball's state after the impact, and the listed pairs that touched, in the
    order their contacts began (the triggering pair first).
    """
    n = len(balls)
    x = [b[0] for b in balls]
    y = [b[1] for b in balls]
    vx = [b[2] for b in balls]
    vy = [b[3] for b in balls]
    wx = [b[4] for b in balls]
    wy = [b[5] for b in balls]
    wz = [b[6] for b in balls]
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
    peak = [0.0] * len(pairs)
    # The triggering pair (listed first) touches at the start: its contact begins first.
    started: list[int] = [0]
    seen = [True] + [False] * (len(pairs) - 1)
    fx = [0.0] * n
    fy = [0.0] * n
    for _ in range(MAX_STEPS):
        for k in range(n):
            fx[k] = 0.0
            fy[k] = 0.0
        active = False
        closing = False
        for p, (i, j) in enumerate(pairs):
            dx = x[j] - x[i]
            dy = y[j] - y[i]
            dist2 = dx * dx + dy * dy
            if dist2 >= d2:
                if not closing:
                    dist = math.sqrt(dist2)
                    rate = ((vx[i] - vx[j]) * dx + (vy[i] - vy[j]) * dy) / dist
                    if rate > 0.0 and dist - diameter < rate * lookahead:
                        closing = True
                continue
            active = True
            dist = math.sqrt(dist2)
            nx = dx / dist
            ny = dy / dist
            delta = diameter - dist
            rate = (vx[i] - vx[j]) * nx + (vy[i] - vy[j]) * ny
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
            fx[j] += force * nx
            fy[j] += force * ny
            if mu0 <= 0.0:
                continue
            # Slip of a's surface on b's at the contact (as in the pairwise model).
            sx = (vx[i] - wz[i] * big_r * ny) - (vx[j] + wz[j] * big_r * ny)
            sy = (vy[i] + wz[i] * big_r * nx) - (vy[j] - wz[j] * big_r * nx)
            sz = big_r * (wx[i] * ny - wy[i] * nx) + big_r * (wx[j] * ny - wy[j] * nx)
            along = sx * nx + sy * ny
            tx = sx - along * nx
            ty = sy - along * ny
            slip = math.sqrt(tx * tx + ty * ty + sz * sz)
            if slip <= 0.0:
                continue
            mu = mu0 * (mu_r + (1.0 - mu_r) * math.exp(-mu_c * slip))
            ft = min(mu * force, stick * slip) / slip
            gx, gy, gz = -ft * tx, -ft * ty, -ft * sz  # friction force on a
            fx[i] += gx
            fy[i] += gy
            fx[j] -= gx
            fy[j] -= gy
            # Torque r × F: the same change for both balls (see the pairwise model).
            dwx = spin_k * ny * gz * dt
            dwy = -spin_k * nx * gz * dt
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
            x[k] += vx[k] * dt
            y[k] += vy[k] * dt
    out = [(x[k], y[k], vx[k], vy[k], wx[k], wy[k], wz[k]) for k in range(n)]
    return out, [pairs[p] for p in started]
