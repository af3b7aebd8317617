"""Closed-form motion of one ball on the cloth between events (Leckie & Greenspan; Kiefl).

In every phase the position is a quadratic and the spin a linear function of time:

* sliding (contact point slipping, u = v + ω × (−R ẑ) ≠ 0): a = −μs·g·û, and
  dω_xy/dt = (5·μs·g / 2R)·(ẑ × û); û stays fixed and |u| falls at 7/2·μs·g, so the slide
  lasts 2|u|/(7·μs·g) and then the ball rolls;
* rolling (u = 0): a = −μr·g·v̂, ω_xy = (−v_y, v_x)/R throughout, until rest at |v|/(μr·g);
* spinning in place: v = 0, only ω_z;
* in every phase ω_z decays at the constant rate 5·μsp·g/(2R) until it reaches zero.

A segment ends at the first of these phase changes; the next segment starts from the exact
end state, with the finished quantity snapped to its exact value (u = 0, v = 0 or ω_z = 0).

Off the cloth (:func:`flight`) nothing touches the ball: its horizontal velocity and its
spin are constant and its height falls under gravity, z = z0 + vz·τ − g·τ²/2, until it
lands at the closed-form root of that quadratic. Air drag and the Magnus force are left
out: drag on a pool ball (½·ρ·C_d·πR²·v², C_d ≈ 0.5) decelerates it by 0.11 m/s² at 5 m/s,
so over a 0.3 s flight it moves the landing by about 5 mm, and by under a millimetre for
an ordinary jump (3 m/s, 0.2 s).
"""

from __future__ import annotations

import math

from server.physics.outcome import AIRBORNE, ROLLING, SLIDING, SPINNING, STATIONARY, Segment
from server.physics.params import Params

INF = math.inf
EPS_V = 1e-9  # m/s: slower than this is at rest
EPS_W = 1e-8  # rad/s
EPS_U = 1e-9  # m/s: a contact point slipping slower than this rolls

# Which phase change ends a segment.
SLIDE_ENDS = 1
ROLL_ENDS = 2
SPIN_ENDS = 4

BallState = tuple[float, float, float, float, float, float, float]


class Motion:
    """The motion laws for one set of coefficients, with the constants precomputed."""

    __slots__ = (
        "decel_roll",
        "decel_slide",
        "g",
        "radius",
        "slide_rate",
        "spin_decay",
        "spin_gain",
    )

    def __init__(self, params: Params) -> None:
        self.radius = params.ball_radius
        self.g = params.g
        self.decel_slide = params.mu_slide * params.g
        self.decel_roll = params.mu_roll * params.g
        self.spin_decay = params.spin_decay
        self.spin_gain = 5.0 * self.decel_slide / (2.0 * self.radius)
        self.slide_rate = 3.5 * self.decel_slide

    def segment(self, t0: float, state: BallState, snap: int = 0) -> tuple[Segment, float, int]:
        """The segment starting at ``t0`` from ``state``; its end time and what ends it.

        ``snap`` names phase changes that just finished, whose quantity is set exactly.
        """
        x, y, vx, vy, wx, wy, wz = state
        big_r = self.radius
        if snap & SPIN_ENDS or abs(wz) < EPS_W:
            wz = 0.0
        if snap & ROLL_ENDS:
            vx = vy = wx = wy = 0.0
        if snap & SLIDE_ENDS:
            wx, wy = -vy / big_r, vx / big_r
        dwz = 0.0
        t_spin = INF
        if wz != 0.0:
            dwz = -self.spin_decay if wz > 0.0 else self.spin_decay
            t_spin = abs(wz) / self.spin_decay
        ux, uy = vx - big_r * wy, vy + big_r * wx
        u = math.hypot(ux, uy)
        speed = math.hypot(vx, vy)
        if u > EPS_U and u > 1e-12 * speed:
            ex, ey = ux / u, uy / u
            a = self.decel_slide
            k = self.spin_gain
            t_slide = u / self.slide_rate
            seg = Segment(
                t0, x, y, vx, vy, -a * ex, -a * ey, wx, wy, wz, -k * ey, k * ex, dwz, SLIDING
            )
            if t_slide <= t_spin:
                return seg, t0 + t_slide, SLIDE_ENDS | (SPIN_ENDS if t_spin == t_slide else 0)
            return seg, t0 + t_spin, SPIN_ENDS
        if speed > EPS_V:
            ex, ey = vx / speed, vy / speed
            a = self.decel_roll
            t_roll = speed / a
            seg = Segment(
                t0,
                x,
                y,
                vx,
                vy,
                -a * ex,
                -a * ey,
                -vy / big_r,
                vx / big_r,
                wz,
                a * ey / big_r,
                -a * ex / big_r,
                dwz,
                ROLLING,
            )
            if t_roll <= t_spin:
                return seg, t0 + t_roll, ROLL_ENDS | (SPIN_ENDS if t_spin == t_roll else 0)
            return seg, t0 + t_spin, SPIN_ENDS
        if wz != 0.0:
            seg = Segment(t0, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, wz, 0.0, 0.0, dwz, SPINNING)
            return seg, t0 + t_spin, SPIN_ENDS
        seg = Segment(t0, x, y, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, STATIONARY)
        return seg, INF, 0

    def flight(self, t0: float, state: BallState, z: float, vz: float) -> tuple[Segment, float]:
        """A ball off the cloth from ``t0``, its bottom ``z`` ≥ 0 above the cloth rising at
        ``vz``: the segment and the time it lands (z back to 0, coming down)."""
        x, y, vx, vy, wx, wy, wz = state
        g = self.g
        seg = Segment(t0, x, y, vx, vy, 0.0, 0.0, wx, wy, wz, 0.0, 0.0, 0.0, AIRBORNE, z, vz, -g)
        return seg, t0 + (vz + math.sqrt(vz * vz + 2.0 * g * max(z, 0.0))) / g


def height_at(seg: Segment, t: float) -> tuple[float, float]:
    """The height of the ball's bottom above the cloth, and its rate, at time ``t``."""
    tau = t - seg[0]
    az = seg[16]
    return seg[14] + (seg[15] + 0.5 * az * tau) * tau, seg[15] + az * tau


def state_at(seg: Segment, t: float) -> BallState:
    """Position, velocity and spin of the ball at absolute time ``t`` within ``seg``."""
    tau = t - seg[0]
    ax, ay = seg[5], seg[6]
    return (
        seg[1] + (seg[3] + 0.5 * ax * tau) * tau,
        seg[2] + (seg[4] + 0.5 * ay * tau) * tau,
        seg[3] + ax * tau,
        seg[4] + ay * tau,
        seg[7] + seg[10] * tau,
        seg[8] + seg[11] * tau,
        seg[9] + seg[12] * tau,
    )
