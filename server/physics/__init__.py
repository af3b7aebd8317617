"""Authoritative shot physics: the table, the rack, the cue strike and an event-based
simulator with exact contact times. See README.md in this folder."""

from server.physics.engine import simulate
from server.physics.lag import lag_distance, lag_shot, lag_spot
from server.physics.outcome import Event, Segment, ShotFacts, ShotOutcome
from server.physics.params import DEFAULT_PARAMS, Params, ParamsError, params_dict
from server.physics.placement import (
    PlacementError,
    check_placement,
    kitchen_spot,
    rack,
    spot_ball,
)
from server.physics.shot import Shot, ShotError, validate_shot
from server.physics.table import TABLE, Table

__all__ = [
    "DEFAULT_PARAMS",
    "TABLE",
    "Event",
    "Params",
    "ParamsError",
    "PlacementError",
    "Segment",
    "Shot",
    "ShotError",
    "ShotFacts",
    "ShotOutcome",
    "Table",
    "check_placement",
    "kitchen_spot",
    "lag_distance",
    "lag_shot",
    "lag_spot",
    "params_dict",
    "rack",
    "simulate",
    "spot_ball",
    "validate_shot",
]
