"""What a simulated shot comes back as: the facts the referee needs and the trajectory the
clients draw. A plain value, so the room machine can take it without knowing where the
shot was simulated (`server.rooms.simulation` runs it in worker processes)."""

from __future__ import annotations

import msgspec

from server import physics

Point = tuple[float, float]


class SimResult(msgspec.Struct, frozen=True):
    """What the room needs from one simulated shot (small, cheap to pickle)."""

    final: dict[int, Point | None]
    first: int | None
    rails: tuple[int, ...]
    pocketed: tuple[int, ...]
    off_table: tuple[int, ...]
    traj: bytes
    duration: float
    miscue: bool
    #: For a lag (O6): the ball's distance from the head rail, None if the lag is lost.
    lag_distance: float | None
    #: Wall time the worker spent, seconds.
    cpu_seconds: float

    @property
    def report(self) -> physics.ShotFacts:
        return physics.ShotFacts(
            first=self.first, rails=self.rails, pocketed=self.pocketed, off_table=self.off_table
        )
