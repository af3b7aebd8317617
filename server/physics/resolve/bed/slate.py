"""A ball bouncing off the slate: restitution on the vertical speed, cloth friction at the
contact point during the bounce.

Why: a cue that is not level drives the ball down into the slate, and the slate gives it
back: the ball leaves the cloth, more the steeper and harder the stroke — that is what a
jump shot is, and on a hard break the cue ball hops all the way to the rack (Alciatore
analyses the hop of an elevated stroke, its bounces and the speed they cost, in his
technical proof TP B.10). The same happens to a ball landing from a jump, and to a ball on
the cloth struck from above by a ball in flight. All of these are short impacts (a
fraction of a millisecond to a millisecond), so the slate's elastic return acts within
them. A cushion pushing a ball down (its nose is
above the ball's centre) is not: it presses for milliseconds while the ball rolls on, and
the slate takes that push as a steady load (Mathavan, Jackson & Parkin 2010 keep the ball
on the table throughout the cushion impact), so the cushion models send it into the bed.

The model, for a ball meeting the slate at vertical speed vz < 0:

* normal impulse P = (1 + e_slate)·m·|vz|, so the ball leaves at e_slate·|vz|
  (≈ 0.5: a cue elevated by θ launches a centre-hit ball at tan α ≈ e·tan θ, 27° at 45°);
* Coulomb friction at the contact point, against its slip u = v + ω × (−R·ẑ), with the
  cloth's sliding coefficient: F = −min(μs·P, (2/7)·m·|u|)·û — the second term stops the
  slip, so a bounce never reverses it. Δv = F/m, Δω = (−R·ẑ) × F / I.

A ball landing with backspin therefore loses speed and spin at each bounce, and an
elevated stroke's sliding ball is turned toward rolling by its first bounce.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from server.physics.resolve import Velocity

if TYPE_CHECKING:
    from server.physics.params import Params


def bounce(velocity: Velocity, vz: float, params: Params) -> tuple[Velocity, float]:
    vx, vy, wx, wy, wz = velocity
    if vz >= 0.0:
        return velocity, vz
    m = params.ball_mass
    big_r = params.ball_radius
    impulse = (1.0 + params.e_slate) * m * -vz
    ux, uy = vx - big_r * wy, vy + big_r * wx
    slip = math.hypot(ux, uy)
    if slip > 0.0 and params.mu_slide > 0.0:
        f = min(params.mu_slide * impulse, 2.0 * m * slip / 7.0)
        fx, fy = -f * ux / slip, -f * uy / slip
        k = big_r / (0.4 * m * big_r * big_r)
        vx, vy = vx + fx / m, vy + fy / m
        # Torque (−R·ẑ) × F = (R·Fy, −R·Fx, 0).
        wx, wy = wx + k * fy, wy - k * fx
    return (vx, vy, wx, wy, wz), -params.e_slate * vz
