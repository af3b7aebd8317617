"""`python -m server.store.cleanup`: bound what a store keeps, and find damaged rooms.

    python -m server.store.cleanup sqlite://var/rooms.db --replay-retention 30
    python -m server.store.cleanup redis://redis:6379/0 --replay-retention 7
    python -m server.store.cleanup - --check             # NINEPOOL_REDIS_URL or NINEPOOL_STORE
    python -m server.store.cleanup sqlite://var/rooms.db --check --quarantine   # node stopped

What it does, in order, and prints as one JSON object at the end:

1. **Finished rooms left live by older versions** (before rooms were retired when they
   closed): each live room whose record says `closed` is retired now, so it is packed
   into an archive and joins the retention. Safe while the servers run.
2. **`--check`**: every live room is checked as a restart checks it (its record decodes
   as one, every log entry is a room event, the record is not behind its log;
   `server.store.integrity`) and each damaged one is listed. With `--quarantine` they are
   moved aside (`Store.quarantine`) — with every server stopped, since a running room
   would fail on its next save. Exit status 1 if damage is found and left in place.
3. **`--replay-retention DAYS`** (or `NINEPOOL_REPLAY_RETENTION`): archives older than
   that are deleted. A server does this itself (SQLite: hourly; Redis: each archive
   expires), but not for archives made before the retention was set or shortened.
4. **Redis**: fencing epochs of rooms long gone (older versions kept one per room ever
   played) get the expiry new ones have.

`--to-tagged` does none of that, only this: every room key of a Redis of the plain layout
is renamed to the hash-tagged layout of Redis Cluster (`room:<id>:…` to `room:{<id>}:…`,
expiries kept), the leases and the `rooms` set dropped, and the Redis marked so that no
store of the plain layout writes to it again; refused while a node beats. Then
`redis-cli --cluster import` moves the data into a cluster (`deploy/README.md`,
"Capacity").

Redis is walked with SCAN (never KEYS), a few hundred keys per round trip: the servers go
on meanwhile. On a lone node's SQLite file the command waits for the node's writes (up to
10 s each) and the node for its.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

from server.store import DamagedRoom, Store, StoreError, open_store
from server.store.integrity import check_room, record_facts, where_of
from server.store.redis import ROOM_KINDS, RedisKeys, RedisStore

#: How recently a node must have beaten (`dir:nodes`, Redis time) to count as running.
RUNNING_WITHIN_MS = 30_000


async def clean(
    store: Store, *, retention_days: float, check: bool, quarantine: bool
) -> dict[str, Any]:
    """Everything the command does, on an open store; returns its report."""
    where = where_of(store)
    report: dict[str, Any] = {"store": where, "retired_now": 0, "damaged": {}}
    live = await store.rooms()
    for room in live:
        snapshot = await store.load(room)
        if snapshot is None:
            continue
        try:
            closed = record_facts(room, snapshot, where).closed
        except DamagedRoom as damage:
            report["damaged"][room] = damage.check
            continue
        if closed:
            await store.retire(room)
            report["retired_now"] += 1
    if check:
        for room in await store.rooms():
            if room in report["damaged"]:
                continue
            try:
                await check_room(store, room)
            except DamagedRoom as damage:
                report["damaged"][room] = damage.check
    else:
        report["damaged"] = {}  # only looked at with --check
    report["quarantined"] = 0
    if quarantine:
        for room, reason in report["damaged"].items():
            await store.quarantine(room, reason)
            report["quarantined"] += 1
    report["trimmed"] = 0
    if retention_days > 0:
        report["trimmed"] = await store.trim(time.time() - retention_days * 86400)
    if isinstance(store, RedisStore):
        report["epochs_given_an_expiry"] = await store.expire_orphan_epochs()
    report["live"] = len(await store.rooms())
    archived = getattr(store, "archived", None)
    if archived is not None:
        report["archived"] = await archived()
    return report


async def to_tagged(store: RedisStore) -> dict[str, int]:
    """Rename every room's keys of a plain-layout Redis to the tagged layout,
    `room:<id>:<kind>` to `room:{<id>}:<kind>` (RENAME keeps each key's expiry), drop the
    leases and the `rooms` set, give the directory's and the players' keys their cluster
    names (`_shared_to_tagged`), and mark the Redis `tagged` (a store of the plain layout
    then refuses it). Refused while a node beats (`dir:nodes`): a running node would go
    on writing the old names. Afterwards `redis-cli --cluster import` can move the data
    into a Redis Cluster, each room's keys into one slot. Returns counts."""
    if store.keys.tagged:
        raise StoreError(f"{store.where} is opened in the tagged layout already")
    client = store.client
    seconds, micros = await client.time()
    now = int(seconds) * 1000 + int(micros) // 1000
    alive = await client.zrangebyscore(
        f"{store.keys.prefix}dir:nodes", now - RUNNING_WITHIN_MS, "+inf"
    )
    if alive:
        names = ", ".join(sorted(n.decode() if isinstance(n, bytes) else str(n) for n in alive))
        raise StoreError(f"{store.where}: nodes are running ({names}); stop every node first")
    tagged = RedisKeys(store.keys.prefix, tagged=True)
    renamed = dropped = 0
    for kind in (*ROOM_KINDS, "lease"):
        for batch in await store.scan_batches(store.keys.pattern(kind)):
            plain = [
                (key, room)
                for key in batch
                if (room := store.keys.room_of(key, kind)) is not None
                and not key.startswith(f"{store.keys.prefix}room:{{")
            ]
            pipe = client.pipeline(transaction=False)
            for key, room in plain:
                if kind == "lease":
                    pipe.delete(key)
                else:
                    pipe.renamenx(key, getattr(tagged, kind)(room))
            replies = await pipe.execute()
            if kind == "lease":
                dropped += len(plain)
                continue
            clashes = [key for (key, _), done in zip(plain, replies, strict=True) if not done]
            renamed += len(plain) - len(clashes)
            if clashes:
                raise StoreError(
                    f"{store.where}: {clashes[0]} and its tagged name both exist; "
                    f"{renamed} keys renamed so far, the rest left as they were"
                )
    if store.keys.rooms is not None:
        await client.delete(store.keys.rooms)
    directory, players = await _shared_to_tagged(store)
    await client.set(store.keys.layout, "tagged")
    return {
        "keys_renamed": renamed,
        "leases_dropped": dropped,
        "directory_renamed": directory,
        "players_renamed": players,
    }


#: The directory's hashes kept across a move (`server/cluster/directory.py`); its
#: heartbeats and quick-match queues belong to running nodes and are dropped.
_DIRECTORY_KEPT = ("open", "rooms", "codes", "seated", "owners")
#: The players store's keys (`server/players/stores.py`): `pl:…`, on a cluster `{pl}:…`.
_PLAYERS_PLAIN, _PLAYERS_TAGGED = "pl:", "{pl}:"


async def _shared_to_tagged(store: RedisStore) -> tuple[int, int]:
    """The keys every room shares, to the names a Redis Cluster gives them (one hash tag
    each, so their transactions stay in one slot): the directory's `dir:x` to `{dir}:x`,
    the players' `pl:x` to `{pl}:x`. Returns how many of each were renamed."""
    client = store.client
    prefix = store.keys.prefix
    directory = 0
    for name in _DIRECTORY_KEPT:
        if await client.exists(f"{prefix}dir:{name}"):
            await client.rename(f"{prefix}dir:{name}", f"{prefix}{{dir}}:{name}")
            directory += 1
    await client.delete(f"{prefix}dir:nodes")
    for batch in await store.scan_batches(f"{prefix}dir:quick:*"):
        await client.delete(*batch)
    players = 0
    for batch in await store.scan_batches(_PLAYERS_PLAIN + "*"):
        pipe = client.pipeline(transaction=False)
        for key in batch:
            pipe.renamenx(key, _PLAYERS_TAGGED + key.removeprefix(_PLAYERS_PLAIN))
        players += sum(1 for done in await pipe.execute() if done)
    return directory, players


def _url(given: str) -> str:
    if given != "-":
        return given
    for variable in ("NINEPOOL_REDIS_URL", "NINEPOOL_STORE"):
        value = os.environ.get(variable)
        if value:
            return value
    raise SystemExit("store '-': neither NINEPOOL_REDIS_URL nor NINEPOOL_STORE is set")


def _retention(given: float | None) -> float:
    if given is not None:
        return given
    text = os.environ.get("NINEPOOL_REPLAY_RETENTION", "0") or "0"
    try:
        value = float(text)
    except ValueError as exc:
        raise SystemExit(f"NINEPOOL_REPLAY_RETENTION={text!r} is not a number of days") from exc
    return value


def _days(text: str) -> float:
    value = float(text)
    if not value >= 0:
        raise argparse.ArgumentTypeError("days must be 0 or more")
    return value


async def _run(
    url: str, retention: float, check: bool, quarantine: bool, tagged: bool
) -> dict[str, Any]:
    store = open_store(url)
    try:
        if tagged:
            if not isinstance(store, RedisStore):
                raise StoreError(f"--to-tagged moves a Redis, not {where_of(store)}")
            return {"store": store.where, "damaged": {}, **await to_tagged(store)}
        return await clean(store, retention_days=retention, check=check, quarantine=quarantine)
    finally:
        await store.close()


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m server.store.cleanup",
        description="Retire finished rooms older versions left live, trim old replays, "
        "and check for damaged rooms (see the module's docstring).",
    )
    parser.add_argument("store", help="sqlite://… or redis://…; '-' for NINEPOOL_REDIS_URL")
    parser.add_argument(
        "--replay-retention",
        type=_days,
        default=None,
        metavar="DAYS",
        help="delete replays retired more than DAYS ago (default NINEPOOL_REPLAY_RETENTION; "
        "0: keep them)",
    )
    parser.add_argument("--check", action="store_true", help="check every live room")
    parser.add_argument(
        "--quarantine",
        action="store_true",
        help="move the damaged rooms aside (implies --check; stop every server first)",
    )
    parser.add_argument(
        "--to-tagged",
        action="store_true",
        help="only rename a Redis's room keys to the hash-tagged layout of Redis Cluster "
        "(every node stopped; deploy/README.md, Capacity)",
    )
    args = parser.parse_args(argv)
    url, retention = _url(args.store), _retention(args.replay_retention)
    check = args.check or args.quarantine
    try:
        report = asyncio.run(_run(url, retention, check, args.quarantine, args.to_tagged))
    except StoreError as exc:
        print(f"cleanup: {exc}", file=sys.stderr)
        return 1
    print(json.dumps(report, indent=2, sort_keys=True))
    return 1 if report["damaged"] and not args.quarantine else 0


if __name__ == "__main__":
    sys.exit(main())
