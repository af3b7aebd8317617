"""Which `TournamentStore` a process uses, chosen once from its settings: beside the
rooms' SQLite file (`var/tournaments.db`) on a lone node, the cluster's Redis (keys
`tn:`, or `{tn}:` in one hash slot of a Redis Cluster) with `--redis-url`, SQLite in
memory for an in-process server (`memory://`)."""

from __future__ import annotations

from pathlib import Path

from server.store.redis import connect, is_cluster_url, shard_url
from server.store.threaded_sqlite import IN_MEMORY
from server.tournament.redis import RedisTournamentStore
from server.tournament.sqlite import SqliteTournamentStore
from server.tournament.store import TournamentStore

#: The keys' prefix on a Redis Cluster: one hash tag, so a change's keys share a slot.
CLUSTER_PREFIX = "{tn}:"


def open_tournament_store(room_store: str, redis_url: str | None) -> TournamentStore:
    if redis_url and is_cluster_url(redis_url):
        # A change WATCHes and MULTIs over several keys: all of them in one hash slot
        # (`{tn}`), served by a plain client of that slot's primary (`shard_url`).
        return RedisTournamentStore(
            connect(shard_url(redis_url, CLUSTER_PREFIX + "lead")), prefix=CLUSTER_PREFIX
        )
    if redis_url:
        return RedisTournamentStore(connect(redis_url))
    if room_store.startswith("sqlite://"):
        rooms = Path(room_store.removeprefix("sqlite://"))
        return SqliteTournamentStore(rooms.parent / "tournaments.db")
    return SqliteTournamentStore(IN_MEMORY)
