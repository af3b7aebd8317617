"""Which `PlayerStore` a process uses, from its settings: the choice is made once.

- `--players-store` when given (`sqlite://path`, `redis://…`);
- else beside the room store: a lone node's `sqlite://var/rooms.db` keeps players in
  `var/players.db` (a file of its own: the room store refuses tables it does not know,
  and the two are backed up and restored on their own schedules); a cluster's players
  live in the same Redis as its rooms, under keys of their own (`pl:`; on a Redis Cluster
  `{pl}:`, one slot);
- `memory://` (an in-process server, the tests): SQLite in memory, gone with the process.
"""

from __future__ import annotations

from pathlib import Path

from server.players.redis import RedisPlayerStore
from server.players.sqlite import SqlitePlayerStore
from server.players.store import PlayerStore, PlayerStoreError
from server.store import StoreError
from server.store.redis import connect, is_cluster_url, shard_url
from server.store.threaded_sqlite import IN_MEMORY

_REDIS = ("redis://", "rediss://", "unix://")
#: On a Redis Cluster every player key shares one hash tag: the players store's
#: transactions span several of its keys, and its traffic is a sliver of the rooms'.
CLUSTER_PREFIX = "{pl}:"


def players_store_url(room_store: str, redis_url: str | None, players_store: str | None) -> str:
    if players_store:
        return players_store
    if redis_url:
        return redis_url
    if room_store.startswith("sqlite://"):
        rooms = Path(room_store.removeprefix("sqlite://"))
        return f"sqlite://{rooms.parent / 'players.db'}"
    return f"sqlite://{IN_MEMORY}"


def _players_shard(url: str) -> str:
    """The `redis://` URL of the primary that serves the players' slot (`{pl}`): the
    players store's transactions span several of its keys (`shard_url`)."""
    try:
        return shard_url(url, CLUSTER_PREFIX + "names")
    except StoreError as exc:
        raise PlayerStoreError(f"players store: {exc}") from exc


def open_player_store(url: str) -> PlayerStore:
    """The store at `url`; `PlayerStoreError` for a scheme it does not know or a file it
    cannot use (Redis is only contacted at the first call)."""
    if url.startswith("sqlite://"):
        return SqlitePlayerStore(url.removeprefix("sqlite://"))
    if is_cluster_url(url):
        return RedisPlayerStore(connect(_players_shard(url)), prefix=CLUSTER_PREFIX)
    if url.startswith(_REDIS):
        return RedisPlayerStore(connect(url))
    raise PlayerStoreError(f"players store {url!r}: use sqlite://… or redis://…")
