"""The `TournamentStore` interface: tournaments kept by SQLite on a lone node and by the
shared Redis in a cluster, so every node serves them and they outlive any process.

A tournament changes in one atomic step, `update(id, change)`: the store reads the
stored value, calls the pure `change` on it (`server.tournament.bracket`'s functions)
and writes the result, with nothing else written to that tournament in between (SQLite:
`BEGIN IMMEDIATE`; Redis: WATCH/MULTI, the whole step run again if another node changed
it meanwhile). A `change` that raises `TournamentError` leaves the stored value as it
was. One contract suite runs against both (tests/tournament/test_tournament_store.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from server.tournament.model import Tournament

Change = Callable[[Tournament], Tournament]


class TournamentStoreError(Exception):
    """The store could not do what was asked (unreachable, damaged, refused)."""


class TournamentExists(TournamentStoreError):
    """A tournament with this id is stored already."""


class TournamentStore(Protocol):
    async def create(self, tournament: Tournament, created: int) -> None:
        """Store a new tournament (`TournamentExists` if its id is taken)."""

    async def get(self, tournament_id: str) -> Tournament | None: ...

    async def update(self, tournament_id: str, change: Change) -> Tournament | None:
        """Apply `change` atomically; the new value, or None if there is no such
        tournament. What `change` raises propagates and nothing is written."""

    async def listing(self, limit: int) -> list[Tournament]:
        """The newest `limit` tournaments, newest first."""

    async def active(self) -> list[Tournament]:
        """Every tournament still registering or running (the service drives these)."""

    async def lead(self, node: str, ttl: float) -> bool:
        """Take or keep the lead for `ttl` seconds: whether `node` drives the tournaments
        now (one node of a cluster at a time; a lone node always)."""

    async def close(self) -> None: ...
