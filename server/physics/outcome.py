"""What a simulated shot produces: trajectory segments, events, facts for the referee."""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

# Segment states (ARCHITECTURE.md).
STATIONARY = 0
SPINNING = 1
SLIDING = 2
ROLLING = 3
POCKETED = 4
OFF_TABLE = 5
AIRBORNE = 6  # off the cloth: flying, bouncing, or falling into a pocket's hole


class Segment(NamedTuple):
    """One piece of a ball's motion, valid from ``t0`` until the next segment's ``t0``.

    Position ``p(τ) = p0 + v·τ + ½·a·τ²`` and spin ``ω(τ) = w + dw·τ`` with ``τ = t − t0``.
    ``state``: 0 at rest, 1 spinning in place, 2 sliding, 3 rolling, 4 pocketed (the ball
    leaves the table at ``t0``), 5 off the table, 6 off the cloth (in flight, or falling
    into a pocket's hole). The height of the ball's bottom above the cloth is
    ``z(τ) = z + vz·τ + ½·az·τ²`` (0 on the cloth, below 0 over a hole; ``az`` is −g off
    the cloth). A ball's last segment lasts forever.
    """

    t0: float
    x: float
    y: float
    vx: float
    vy: float
    ax: float
    ay: float
    wx: float
    wy: float
    wz: float
    dwx: float
    dwy: float
    dwz: float
    state: int
    z: float = 0.0
    vz: float = 0.0
    az: float = 0.0


class Event(NamedTuple):
    """A contact the referee cares about.

    ``kind`` is ``"ball"`` (``a`` hit ``b``; ``a`` is the lower id, except that the cue
    ball's first contact names the cue ball), ``"rail"`` (``a`` touched cushion ``rail``;
    ``jaw`` names the pocket when it was a jaw), ``"pocket"`` (``a`` dropped in
    ``pocket``) or ``"off"`` (``a`` flew off the table over cushion ``rail``, or over the
    back of ``pocket``).
    """

    t: float
    kind: str
    a: int
    b: int | None = None
    rail: str | None = None
    pocket: str | None = None
    jaw: str | None = None


@dataclass(frozen=True, slots=True)
class ShotFacts:
    """The shot report the referee takes (its ``ShotAction`` minus the shooter).

    ``first``: the first object ball the cue ball touched, or None. ``rails``: balls that
    touched a cushion (jaws count) after that first contact, or during the whole shot if
    there was none, ascending. ``pocketed`` and ``off_table``: in the order it happened.
    """

    first: int | None
    rails: tuple[int, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ShotOutcome:
    """Everything one shot produced; ``final`` is None for a pocketed / off-table ball."""

    events: tuple[Event, ...]
    final: dict[int, tuple[float, float] | None]
    report: ShotFacts
    tracks: dict[int, tuple[Segment, ...]]
    duration: float
    miscue: bool
