"""Closed-form contact times for a ball off the cloth: the cushion's nose as an edge, a
jaw's rounded point, a pocket's back, and flying over the rail.

Why a separate module: on the cloth every contact is a line or a circle in the plane
(``engine.py``); in the air the ball's height enters, z = z0 + vz·τ − g·τ²/2, and each
contact becomes a sphere meeting an edge or a sphere in three dimensions — still the first
root of a quartic in τ, so flight stays as exact as the rest of the engine.

Geometry (the cushion's nose at height h = ``cushion_height`` above the cloth):

* a rail's or facing's nose is an edge parallel to its line, at height h, set in from the
  line by δ = R·(1 − cos θ) (θ the nose angle): a ball on the cloth then meets it exactly
  where the flat model meets the line. With u the centre's distance in from the edge and
  w = R + z − h the centre's height above it, the contact is u² + w² = R² (u linear and w
  quadratic in τ: a quartic);
* the ball flies over the edge — and off the table — if its centre crosses the edge's
  vertical plane (u = 0) while its bottom is above the nose (z ≥ h: otherwise the ball
  has met the edge first);
* a jaw's rounded point is a small sphere at height h, sized so that a ball on the cloth
  meets it exactly where the flat model meets the point's circle;
* a pocket's back is a wall up to the nose height: a ball whose bottom is below the top
  when it reaches it bounces back into the pocket, one above it flies over.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from server.physics.roots import first_contact_quadratic, first_contact_quartic
from server.physics.table import Line, Tip

INF = math.inf

# What a ball in flight meets next.
EDGE = 1  # a rail's or jaw facing's nose
POINT = 2  # a jaw's rounded point
OVER = 3  # flies over a rail or a facing: off the table
WALL = 4  # a pocket's back, below its top
OVER_BACK = 5  # flies over a pocket's back: off the table


@dataclass(frozen=True, slots=True)
class Nose:
    """The cushion's nose as the flying ball sees it."""

    radius: float  # the ball's
    height: float  # h, the nose above the cloth
    inset: float  # δ, the edge in from the cushion line
    tip_radius: float  # the rounded jaw point's sphere

    @staticmethod
    def of(radius: float, height: float, tip_radius: float) -> Nose:
        drop = height - radius  # the nose above the centre of a ball on the cloth
        inset = radius - math.sqrt(radius * radius - drop * drop)
        sphere = math.sqrt((radius + tip_radius) ** 2 + drop * drop) - radius
        return Nose(radius, height, inset, sphere)


@dataclass(frozen=True, slots=True)
class Flight:
    """A ball's flight from the moment of the prediction: where it is and how it moves."""

    x: float
    y: float
    vx: float
    vy: float
    z: float
    vz: float
    g: float

    def height(self, tau: float) -> float:
        return self.z + (self.vz - 0.5 * self.g * tau) * tau


def edge_time(f: Flight, line: Line, nose: Nose, horizon: float) -> float:
    """When the ball meets the nose edge of ``line`` within its length (inf if not)."""
    nx, ny = line.normal
    sx, sy = line.start
    big_r = nose.radius
    u0 = nx * (f.x - sx) + ny * (f.y - sy) - nose.inset
    u1 = nx * f.vx + ny * f.vy
    w0 = big_r + f.z - nose.height
    w1 = f.vz
    w2 = -0.5 * f.g
    if u0 > big_r and u1 >= 0.0:
        return INF
    tau = first_contact_quartic(
        w2 * w2,
        2.0 * w1 * w2,
        u1 * u1 + w1 * w1 + 2.0 * w0 * w2,
        2.0 * (u0 * u1 + w0 * w1),
        u0 * u0 + w0 * w0 - big_r * big_r,
        horizon,
    )
    if tau == INF or u0 + u1 * tau < 0.0:
        return INF
    return tau if _within(line, f.x + f.vx * tau, f.y + f.vy * tau, 0.0) else INF


def over_time(f: Flight, line: Line, nose: Nose, horizon: float, slack: float) -> float:
    """When the ball flies over ``line``'s nose (its centre crosses the edge's plane with
    its bottom above the nose), within the line's length extended by ``slack``."""
    nx, ny = line.normal
    u0 = nx * (f.x - line.start[0]) + ny * (f.y - line.start[1]) - nose.inset
    u1 = nx * f.vx + ny * f.vy
    if u1 >= 0.0 or u0 < 0.0:
        return INF
    tau = -u0 / u1
    if tau > horizon or f.height(tau) < nose.height:
        return INF
    return tau if _within(line, f.x + f.vx * tau, f.y + f.vy * tau, slack) else INF


def point_time(f: Flight, tip: Tip, nose: Nose, horizon: float) -> float:
    """When the ball meets a jaw's rounded point (a sphere at the nose height)."""
    px, py = f.x - tip.centre[0], f.y - tip.centre[1]
    w0 = nose.radius + f.z - nose.height
    w1 = f.vz
    w2 = -0.5 * f.g
    rho = nose.radius + nose.tip_radius
    reach = math.hypot(f.vx, f.vy) * horizon
    if math.hypot(px, py) - reach > rho:
        return INF
    return first_contact_quartic(
        w2 * w2,
        2.0 * w1 * w2,
        f.vx * f.vx + f.vy * f.vy + w1 * w1 + 2.0 * w0 * w2,
        2.0 * (px * f.vx + py * f.vy + w0 * w1),
        px * px + py * py + w0 * w0 - rho * rho,
        horizon,
    )


def back_time(f: Flight, back: Line, nose: Nose, horizon: float) -> tuple[float, int]:
    """When the ball reaches a pocket's back, and whether it hits it (``WALL``: its bottom
    below the top, the nose height) or flies over it (``OVER_BACK``)."""
    nx, ny = back.normal
    gap = nx * (f.x - back.start[0]) + ny * (f.y - back.start[1]) - nose.radius
    rate = nx * f.vx + ny * f.vy
    if rate >= 0.0:
        return INF, WALL
    tau = first_contact_quadratic(0.0, rate, gap, horizon)
    if tau == INF or not _within(back, f.x + f.vx * tau, f.y + f.vy * tau, nose.radius):
        return INF, WALL
    return tau, WALL if f.height(tau) < nose.height else OVER_BACK


def edge_normal(f: Flight, line: Line, nose: Nose) -> tuple[float, float, float]:
    """ĉ at the contact with ``line``'s nose edge: from the edge to the ball's centre."""
    nx, ny = line.normal
    u = nx * (f.x - line.start[0]) + ny * (f.y - line.start[1]) - nose.inset
    w = nose.radius + f.z - nose.height
    d = math.hypot(u, w)
    return (u * nx / d, u * ny / d, w / d)


def point_normal(f: Flight, tip: Tip, nose: Nose) -> tuple[float, float, float]:
    """ĉ at the contact with a jaw's rounded point: from the point's sphere to the centre."""
    dx, dy = f.x - tip.centre[0], f.y - tip.centre[1]
    dz = nose.radius + f.z - nose.height
    d = math.sqrt(dx * dx + dy * dy + dz * dz)
    return (dx / d, dy / d, dz / d)


def _within(line: Line, px: float, py: float, slack: float) -> bool:
    sx, sy = line.start
    ex, ey = line.end[0] - sx, line.end[1] - sy
    length = math.hypot(ex, ey)
    along = ((px - sx) * ex + (py - sy) * ey) / length
    return -slack <= along <= length + slack
