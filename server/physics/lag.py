"""The lag (O6): each player shoots one ball from behind the head string to the foot rail
and back; the ball that stops closer to the head rail wins.

The server simulates each player's lag alone: ``simulate({0: lag_spot(k)}, lag_shot(speed))``
— the struck ball is always id 0 — and scores it with :func:`lag_distance`. With the
default coefficients a level centre-ball lag of about 1.6–1.8 m/s comes back close to the
head rail (1.5 m/s stops near the middle, 2 m/s bounces off the head rail). Any further
lag rule (e.g. touching a side rail) can be judged from ``outcome.events``.
"""

from __future__ import annotations

from server.physics.outcome import ShotOutcome
from server.physics.shot import Shot
from server.physics.table import TABLE


def lag_spot(player: int) -> tuple[float, float]:
    """Where player 0 or 1 places the lag ball: behind the head string, one on each half."""
    if player not in (0, 1):
        raise ValueError(f"player must be 0 or 1, got {player!r}")
    return (TABLE.head_string_x - 0.1, TABLE.width * (0.25 if player == 0 else 0.75))


def lag_shot(speed: float, tip_height: float = 0.0) -> Shot:
    """A lag stroke straight up the table toward the foot rail."""
    return Shot(angle=0.0, speed=speed, tip=(0.0, tip_height), elevation=0.0)


def lag_distance(outcome: ShotOutcome) -> float | None:
    """Distance from the head-rail nose to the lag ball's centre at rest, or None when the
    lag is lost outright: the ball fell or left the table, or never touched the foot rail."""
    end = outcome.final.get(0)
    if end is None:
        return None
    if not any(ev.kind == "rail" and ev.a == 0 and ev.rail == "foot" for ev in outcome.events):
        return None
    return end[0]
