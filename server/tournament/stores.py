"""Which `TournamentStore` a process uses, chosen once from its settings: beside the
rooms' SQLite file (`var/tournaments.db`) on a lone node, the cluster's Redis (keys
`tn:`) with `--redis-url`, SQLite in memory for an in-process server (`memory://`)."""

from __future__ import annotations

from pathlib import Path

from server.store.redis import connect
from server.tournament.redis import RedisTournamentStore
from server.tournament.sqlite import IN_MEMORY, SqliteTournamentStore
from server.tournament.store import TournamentStore


def open_tournament_store(room_store: str, redis_url: str | None) -> TournamentStore:
    if redis_url:
        return RedisTournamentStore(connect(redis_url))
    if room_store.startswith("sqlite://"):
        rooms = Path(room_store.removeprefix("sqlite://"))
        return SqliteTournamentStore(rooms.parent / "tournaments.db")
    return SqliteTournamentStore(IN_MEMORY)
