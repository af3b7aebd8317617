"""What the bot answers: one value per decision nine-ball asks a player for.

Each kind mirrors what a human sends over the wire (``protocol/messages.py``), so a room
can turn a decision into the same table action it would take from a client: a shot
(after placing the cue ball when it is in hand), the shoot/pass choice after a push-out,
the lag stroke and the lag winner's choice of breaker. They are frozen dataclasses of
plain values: picklable, so a process pool can return them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from server import physics

Point = tuple[float, float]


@dataclass(frozen=True, slots=True)
class Shot:
    """A stroke, as the physics takes it, with the push-out declaration (R6).

    ``place``: where to put the cue ball first, when it is in hand (R10; in the kitchen
    for a break), else ``None``. The values are the executed stroke: the level's
    execution noise is already in them, drawn from the decision's seed.
    """

    angle: float
    speed: float
    tip: tuple[float, float] = (0.0, 0.0)
    elevation: float = 0.0
    push_out: bool = False
    place: Point | None = None

    def stroke(self) -> physics.Shot:
        """The physics input for this shot."""
        return physics.Shot(
            angle=self.angle, speed=self.speed, tip=self.tip, elevation=self.elevation
        )


@dataclass(frozen=True, slots=True)
class Choose:
    """After the opponent's legal push-out: shoot from where the balls lie, or pass (R6.4)."""

    choice: Literal["shoot", "pass"]


@dataclass(frozen=True, slots=True)
class LagShot:
    """The lag stroke (O6): ``speed`` in m/s, ``angle`` in degrees off straight up the
    table (the wire allows −10…10)."""

    speed: float
    angle: float = 0.0


@dataclass(frozen=True, slots=True)
class LagChoice:
    """The lag winner breaks the first rack or gives the break away (R3, O6)."""

    choice: Literal["break", "give"]


Decision = Shot | Choose | LagShot | LagChoice
