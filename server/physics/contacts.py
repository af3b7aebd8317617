"""Small contact helpers of the engine: reach bounds, circle contact times, the minimum
separation of gentle contacts, and the back of a pocket as a cushion line."""

from __future__ import annotations

import math

from server.physics.motion import INF
from server.physics.roots import first_contact_quartic
from server.physics.table import Line, Pocket

MIN_SEPARATION_SPEED = 5e-3  # m/s; see separate


def pocket_back(pocket: Pocket) -> Line:
    """The back of a pocket: a plane across the ends of its two facings, facing the table."""
    j0, j1 = pocket.jaws
    normal = (-pocket.axis[0], -pocket.axis[1])
    return Line(f"{pocket.name}.back", j0.rail, j0.facing.end, j1.facing.end, normal, pocket.name)


def axis_range(p: float, v: float, a: float, span: float) -> tuple[float, float]:
    """The extent of p + v·τ + ½·a·τ² over 0 ≤ τ ≤ span."""
    end = p + (v + 0.5 * a * span) * span
    lo, hi = (p, end) if p <= end else (end, p)
    if a != 0.0:
        turn = -v / a
        if 0.0 < turn < span:
            mid = p + 0.5 * v * turn
            lo, hi = min(lo, mid), max(hi, mid)
    return lo, hi


def circle_time(
    px: float, py: float, vx: float, vy: float, ax: float, ay: float, rho: float, horizon: float
) -> float:
    """Time until a point moving from (px, py) relative to a circle's centre comes within
    ``rho`` of it (inf if not within ``horizon``)."""
    reach = math.sqrt(vx * vx + vy * vy) * horizon + 0.5 * math.sqrt(ax * ax + ay * ay) * (
        horizon * horizon
    )
    if math.sqrt(px * px + py * py) - reach > rho:
        return INF
    return first_contact_quartic(
        0.25 * (ax * ax + ay * ay),
        vx * ax + vy * ay,
        vx * vx + vy * vy + px * ax + py * ay,
        2.0 * (px * vx + py * vy),
        px * px + py * py - rho * rho,
        horizon,
    )


def separate(
    a: tuple[float, ...],
    b: tuple[float, ...],
    va: tuple[float, float, float, float, float],
    vb: tuple[float, float, float, float, float],
) -> tuple[tuple[float, float, float, float, float], tuple[float, float, float, float, float]]:
    """Make two balls leave each other at least at ``MIN_SEPARATION_SPEED``.

    A ball that keeps accelerating into another (a sliding follow ball pushing a frozen
    ball) would otherwise bounce ever more often at ever smaller speeds. Giving gentle
    contacts a minimum separation speed (momentum is conserved; the energy added is below
    a micro-joule) turns that into a few real bounces.
    """
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy)
    nx, ny = dx / d, dy / d
    sep = (vb[0] - va[0]) * nx + (vb[1] - va[1]) * ny
    if sep >= MIN_SEPARATION_SPEED:
        return va, vb
    k = 0.5 * (MIN_SEPARATION_SPEED - sep)
    return (
        (va[0] - k * nx, va[1] - k * ny, va[2], va[3], va[4]),
        (vb[0] + k * nx, vb[1] + k * ny, vb[2], vb[3], vb[4]),
    )


def separate_3d(
    a: tuple[float, ...],
    za: float,
    b: tuple[float, ...],
    zb: float,
    va: tuple[float, float, float, float, float],
    vza: float,
    vb: tuple[float, float, float, float, float],
    vzb: float,
) -> tuple[
    tuple[float, float, float, float, float], float, tuple[float, float, float, float, float], float
]:
    """:func:`separate` along the line of centres of two balls at different heights."""
    dx, dy, dz = b[0] - a[0], b[1] - a[1], zb - za
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    nx, ny, nz = dx / d, dy / d, dz / d
    sep = (vb[0] - va[0]) * nx + (vb[1] - va[1]) * ny + (vzb - vza) * nz
    if sep >= MIN_SEPARATION_SPEED:
        return va, vza, vb, vzb
    k = 0.5 * (MIN_SEPARATION_SPEED - sep)
    return (
        (va[0] - k * nx, va[1] - k * ny, va[2], va[3], va[4]),
        vza - k * nz,
        (vb[0] + k * nx, vb[1] + k * ny, vb[2], vb[3], vb[4]),
        vzb + k * nz,
    )
