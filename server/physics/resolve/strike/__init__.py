"""Cue strike models: a ``Shot`` → the cue ball's initial velocity and spin.

A model is ``f(shot, params) -> (vx, vy, wx, wy, wz)`` for a tip offset within the miscue
limit. Past the limit (|tip| > ``Params.miscue_limit``) :func:`strike` does not call the
model: the tip slips off the ball, which leaves along the aim at
``miscue_speed_factor`` × the requested speed with no spin (a weak, centre-ball-like push).

An elevated cue also drives the ball down into the slate at v·tan θ (the vertical part of
the impulse along the cue, per unit mass, for a cue-ball speed v): :func:`strike` returns
that speed too, and the bed model decides what the slate gives back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from server.physics.resolve import Velocity
from server.physics.resolve.strike import instantaneous_point

if TYPE_CHECKING:
    from server.physics.params import Params
    from server.physics.shot import Shot

StrikeModel = Callable[["Shot", "Params"], Velocity]

MODELS: dict[str, StrikeModel] = {
    "instantaneous_point": instantaneous_point.strike,
}


def strike(shot: Shot, params: Params) -> tuple[Velocity, float, bool]:
    """The cue ball's (vx, vy, wx, wy, wz) just after the strike, the speed with which the
    stroke drives it down into the slate (≥ 0), and whether it miscued (a miscue's tip
    slips off the ball and drives nothing down)."""
    import math

    from server.physics.shot import is_miscue

    if is_miscue(shot, params.miscue_limit):
        speed = shot.speed * params.miscue_speed_factor
        a = math.radians(shot.angle)
        return (speed * math.cos(a), speed * math.sin(a), 0.0, 0.0, 0.0), 0.0, True
    down = shot.speed * math.tan(math.radians(shot.elevation))
    return MODELS[params.strike_model](shot, params), down, False
