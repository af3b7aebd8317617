"""Backups and restores of ninepool's stores, online.

    python -m deploy.backup sqlite-backup  var/rooms.db  BACKUP_DIR
    python -m deploy.backup sqlite-restore BACKUP_DIR    var/rooms.db
    python -m deploy.backup redis-backup   REDIS_URL     FILE[.gz]   [--prefix P]
    python -m deploy.backup redis-restore  FILE[.gz]     REDIS_URL   [--prefix P] [--replace]

REDIS_URL is the nodes' `--redis-url`: `redis://…` for one Redis, `redis+cluster://…` (one
node named) for a Redis Cluster.

Run from the repository root (or /app in the image). The Redis URL may also come from
NINEPOOL_REDIS_URL (give `-` for it), so a password is never on a command line.

**SQLite** (a lone node's `var/rooms.db`): SQLite's online backup API copies the database
while the node keeps running (a consistent copy, whatever it writes meanwhile) into
`BACKUP_DIR/rooms.db`, one self-contained file, and copies the session key kept beside it
(`session-secret`: without it, restored players could not reclaim their seats), and the
players' database beside it (`players.db`: accounts, ratings, leaderboards) the same way,
into `BACKUP_DIR/players.db`. Restore with the node stopped: each copy is written back
through the same API, checked, and the key put back if the node has none.

**Redis** (a cluster): every key of the project is copied with DUMP, each room's keys
(`room:<id>:state`, `:log`, `:epoch`) in one MULTI/EXEC, so a room's snapshot and its
log always agree; the global keys (`rooms`, the directory's `dir:*` hashes) likewise
together. Leases (`room:<id>:lease`), node heartbeats (`dir:nodes`) and quick-match queues
(`dir:quick:*`) belong to running processes and are left out: after a restore, nodes
take the rooms as after any restart. Restore with every node stopped, into an empty
database (or `--replace`), with RESTORE: the AOF records it like any write, so nothing
else (files, restarts of Redis) is needed. A DUMP can be restored into the same or a
newer Redis version only.

**Redis Cluster** (`redis+cluster://`): the same, on every primary. A room's keys share its
hash tag (`room:{<id>}:…`), so its MULTI/EXEC runs on the shard of its slot; the global keys
are copied in one MULTI/EXEC per slot they lie in (the directory's `{dir}:*` together, the
players' `{pl}:*` together). The file says which layout it holds (`cluster`): a backup of
a cluster restores into a cluster (of any number of shards: RESTORE goes to each key's
slot), one of a single Redis into a single Redis.

Every backup ends with a manifest (SQLite: `manifest.json`; Redis: the file's first
line) with counts that the restore checks.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import datetime
import gzip
import hashlib
import itertools
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO, Any

FORMAT = "ninepool-redis-backup"
FORMAT_VERSION = 1
SECRET_FILE = "session-secret"
SQLITE_FILE = "rooms.db"
#: The players' database a lone node keeps beside its rooms (`server.players.stores`).
PLAYERS_FILE = "players.db"
PLAYERS_TABLES = frozenset({"accounts", "ratings", "history", "seen", "matches", "monthly"})
MANIFEST = "manifest.json"

#: Keys of a room: the ones saved together (a live room's state and log, a retired room's
#: archive, a damaged room's quarantine, and the epoch), and the lease, which is not saved.
ROOM_KEYS = ("state", "log", "epoch", "archive", "quarantine")
_ROOM_KEY = re.compile(r"room:(?P<room>.+):(?P<kind>state|log|epoch|lease|archive|quarantine)")
#: Keys that describe running processes, not data: not backed up.
_TRANSIENT = (
    re.compile(r"room:.+:lease"),
    re.compile(r"(dir|\{dir\}):nodes"),
    re.compile(r"(dir|\{dir\}):quick:.*"),
)
CLUSTER_SCHEME = "redis+cluster://"
_BATCH = 500


class BackupError(Exception):
    """A backup or restore that cannot be done as asked; nothing was changed."""


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --- SQLite ------------------------------------------------------------------------------


def _sqlite_counts(db: sqlite3.Connection) -> dict[str, int]:
    counts = {}
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    # archive and quarantine: schema 2 (a file of schema 1 has neither).
    for table in ("rooms", "events", "fences", "archive", "quarantine"):
        if table in tables:
            (counts[table],) = db.execute(f"SELECT count(*) FROM {table}").fetchone()
    return counts


def _check_sqlite(db: sqlite3.Connection, where: Path) -> dict[str, int]:
    (result,) = db.execute("PRAGMA integrity_check").fetchone()
    if result != "ok":
        raise BackupError(f"{where}: integrity check failed: {result}")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not {"rooms", "events", "fences"} <= tables:
        raise BackupError(f"{where}: not a ninepool room store (tables {sorted(tables)})")
    return _sqlite_counts(db)


def _check_players(db: sqlite3.Connection, where: Path) -> dict[str, int]:
    (result,) = db.execute("PRAGMA integrity_check").fetchone()
    if result != "ok":
        raise BackupError(f"{where}: integrity check failed: {result}")
    tables = {row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables >= PLAYERS_TABLES:
        raise BackupError(f"{where}: not a ninepool players database (tables {sorted(tables)})")
    return {
        table: int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])
        for table in sorted(PLAYERS_TABLES)
    }


def _copy_live(database: Path, target: Path, check: Any) -> dict[str, int]:
    """Copy the live SQLite `database` into the new file `target` with the online backup
    API (one consistent state while the node writes); `check` it; the counts."""
    partial = target.with_name(target.name + ".partial")
    partial.unlink(missing_ok=True)
    # The node keeps writing meanwhile: the backup API copies one consistent state (a read
    # transaction, which in WAL mode never blocks the node's writes).
    source = sqlite3.connect(database, timeout=30.0)
    try:
        copy = sqlite3.connect(partial)
        try:
            source.backup(copy)
            copy.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
            counts: dict[str, int] = check(copy, database)
        finally:
            copy.close()
    finally:
        source.close()
    with partial.open("rb") as file:
        os.fsync(file.fileno())
    partial.rename(target)
    return counts


def _write_back(backup: Path, database: Path, check: Any) -> tuple[dict[str, int], dict[str, int]]:
    """Write the backup file over `database` (node stopped); the counts of both."""
    database.parent.mkdir(parents=True, exist_ok=True)
    # Read the backup from a private copy: opening it directly could change the file.
    with tempfile.TemporaryDirectory() as scratch:
        private = Path(scratch) / backup.name
        shutil.copyfile(backup, private)
        origin = sqlite3.connect(private)
        try:
            counts: dict[str, int] = check(origin, backup)
            target = sqlite3.connect(database, timeout=30.0)
            try:
                origin.backup(target)  # replaces every page, in one transaction
                target.execute("PRAGMA journal_mode = WAL")  # as the node keeps it
                restored: dict[str, int] = check(target, database)
            finally:
                target.close()
        finally:
            origin.close()
    return counts, restored


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as file:
        for block in iter(lambda: file.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def sqlite_backup(database: Path, destination: Path) -> dict[str, Any]:
    """Copy a live SQLite store (and its session key) into the folder `destination`."""
    if not database.is_file():
        raise BackupError(f"{database}: no such database")
    destination.mkdir(parents=True, exist_ok=True)
    target = destination / SQLITE_FILE
    if target.exists():
        raise BackupError(f"{target} exists; back up into a new folder")
    counts = _copy_live(database, target, _check_sqlite)
    players: dict[str, Any] | None = None
    players_db = database.parent / PLAYERS_FILE
    if players_db.is_file():
        players_copy = destination / PLAYERS_FILE
        players_counts = _copy_live(players_db, players_copy, _check_players)
        players = {"counts": players_counts, "sha256": _sha256(players_copy)}
    secret = database.parent / SECRET_FILE
    has_secret = secret.is_file()
    if has_secret:
        kept = destination / SECRET_FILE
        fd = os.open(kept, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(secret.read_bytes())
            os.fsync(file.fileno())
    manifest = {
        "kind": "sqlite",
        "created": _now(),
        "source": str(database),
        "counts": counts,
        "sha256": _sha256(target),
        "session_secret": has_secret,
        "players": players,
    }
    (destination / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n")
    _fsync_dir(destination)
    return manifest


def sqlite_restore(source: Path, database: Path) -> dict[str, Any]:
    """Write a backup folder back to `database` (the node must be stopped)."""
    manifest_path = source / MANIFEST
    backup = source / SQLITE_FILE
    if not manifest_path.is_file() or not backup.is_file():
        raise BackupError(f"{source}: not a backup folder ({MANIFEST} and {SQLITE_FILE})")
    manifest = json.loads(manifest_path.read_text())
    if manifest.get("kind") != "sqlite":
        raise BackupError(f"{source}: a {manifest.get('kind')!r} backup, not a SQLite one")
    if _sha256(backup) != manifest["sha256"]:
        raise BackupError(f"{backup}: checksum differs from the manifest (damaged copy)")
    players = manifest.get("players")
    players_backup = source / PLAYERS_FILE
    if players is not None and (
        not players_backup.is_file() or _sha256(players_backup) != players["sha256"]
    ):
        raise BackupError(f"{players_backup}: missing, or its checksum differs from the manifest")
    counts, restored = _write_back(backup, database, _check_sqlite)
    if restored != counts or counts != manifest["counts"]:
        raise BackupError(f"restored {restored}, the backup holds {manifest['counts']}")
    result: dict[str, Any] = {"counts": restored}
    if players is not None:
        held, back = _write_back(players_backup, database.parent / PLAYERS_FILE, _check_players)
        if back != held or held != players["counts"]:
            raise BackupError(f"players: restored {back}, the backup holds {players['counts']}")
        result["players"] = back
    result["session_secret"] = _restore_secret(source / SECRET_FILE, database.parent / SECRET_FILE)
    return result


def _restore_secret(kept: Path, live: Path) -> str:
    if not kept.is_file():
        return "none in the backup"
    if live.is_file():
        if live.read_bytes() == kept.read_bytes():
            return "unchanged"
        # The key was renewed after the backup: the tokens players hold now are signed with
        # the current one, so it stays.
        return f"kept the current {live} (it differs from the backup's)"
    fd = os.open(live, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as file:
        file.write(kept.read_bytes())
    return "restored"


# --- Redis -------------------------------------------------------------------------------


def _redis(url: str) -> Any:
    """A client for one Redis, or for a Redis Cluster (`redis+cluster://`)."""
    import redis  # a dependency of the server
    from redis.cluster import RedisCluster

    if _is_cluster(url):
        plain = "redis://" + url.removeprefix(CLUSTER_SCHEME)
        return RedisCluster.from_url(plain, socket_timeout=30.0, socket_connect_timeout=5.0)
    return redis.Redis.from_url(url, socket_timeout=30.0, socket_connect_timeout=5.0)


def _is_cluster(url: str) -> bool:
    return url.startswith(CLUSTER_SCHEME)


def _redis_version(client: Any, cluster: bool) -> str:
    """The Redis version (on a cluster: of its nodes, the lowest, which a restore needs)."""
    info = client.info("server")
    if not cluster or "redis_version" in info:
        return str(info.get("redis_version", "?"))
    versions = [v.get("redis_version", "?") for v in info.values() if isinstance(v, dict)]
    return min(versions, default="?", key=lambda v: [int(p) for p in re.findall(r"\d+", v)])


def _by_slot(client: Any, keys: Sequence[str], cluster: bool) -> list[list[str]]:
    """`keys` grouped so that each group may be one MULTI/EXEC: all of them on one Redis;
    on a cluster, one group per hash slot."""
    if not cluster:
        return [list(keys)] if keys else []
    groups: dict[int, list[str]] = {}
    for key in keys:
        groups.setdefault(client.keyslot(key), []).append(key)
    return [groups[slot] for slot in sorted(groups)]


def _shown(url: str) -> str:
    """The URL without its password."""
    return re.sub(r"//[^@/]*@", "//***@", url)


def _scan(client: Any, prefix: str, cluster: bool = False) -> Iterator[str]:
    """Every key under `prefix` (on a cluster: on every primary)."""
    where = {"target_nodes": "primaries"} if cluster else {}
    for key in client.scan_iter(match=_glob_escape(prefix) + "*", count=1000, **where):
        yield key.decode() if isinstance(key, bytes) else key


def _glob_escape(text: str) -> str:
    return re.sub(r"([*?\[\]\\])", r"\\\1", text)


def _groups(keys: Sequence[str], prefix: str) -> tuple[list[str], list[str]]:
    """(global keys, room ids), transient keys left out."""
    globals_: list[str] = []
    rooms: set[str] = set()
    for key in keys:
        name = key[len(prefix) :]
        if any(pattern.fullmatch(name) for pattern in _TRANSIENT):
            continue
        found = _ROOM_KEY.fullmatch(name)
        if found:
            rooms.add(found.group("room"))
        else:
            globals_.append(key)
    return sorted(globals_), sorted(rooms)


def _dump_together(
    client: Any, keys: Sequence[str], members_of: str | None = None
) -> tuple[list[tuple[str, int, bytes]], set[str]]:
    """DUMP and PTTL of `keys` in one MULTI/EXEC (one consistent view), missing keys left
    out; and, in the same view, the members of the set `members_of`."""
    pipe = client.pipeline(transaction=True)
    for key in keys:
        pipe.dump(key)
        pipe.pttl(key)
    if members_of is not None:
        pipe.smembers(members_of)
    replies = pipe.execute()
    members = set()
    if members_of is not None:
        members = {m.decode() if isinstance(m, bytes) else m for m in replies.pop()}
    out = []
    for index, key in enumerate(keys):
        payload, ttl = replies[2 * index], replies[2 * index + 1]
        if payload is not None:
            out.append((key, max(int(ttl), 0), bytes(payload)))
    return out, members


def _open_write(path: Path, compress: bool) -> IO[bytes]:
    if compress:
        return gzip.open(path, "wb")  # type: ignore[return-value]
    return path.open("wb")


def _open_read(path: Path) -> IO[bytes]:
    if path.suffix == ".gz":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb")


def redis_backup(url: str, path: Path, prefix: str = "") -> dict[str, Any]:
    """Every project key of the Redis at `url` into the file `path` (online). Written as
    it is read, a room at a time: the backup never holds the data set in memory."""
    if path.exists():
        raise BackupError(f"{path} exists; back up into a new file")
    partial = path.with_name(path.name + ".partial")
    path.parent.mkdir(parents=True, exist_ok=True)
    client = _redis(url)
    cluster = _is_cluster(url)
    try:
        header = {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "created": _now(),
            "source": _shown(url),
            "redis_version": _redis_version(client, cluster),
            "prefix": prefix,
            "cluster": cluster,
        }
        keys = rooms = 0
        with _open_write(partial, compress=path.suffix == ".gz") as file:
            file.write(json.dumps(header).encode() + b"\n")

            def write(records: list[tuple[str, int, bytes]]) -> None:
                for key, ttl, payload in records:
                    line = {"key": key, "ttl": ttl, "dump": base64.b64encode(payload).decode()}
                    file.write(json.dumps(line).encode() + b"\n")

            globals_, room_ids = _groups(sorted(set(_scan(client, prefix, cluster))), prefix)
            # The global keys first, as one view (on a cluster, one view per slot; it has
            # no `rooms` set). Every room they name is then copied too, even one made after
            # the scan: the backup is the global keys as of that moment, with each of their
            # rooms as of a moment a little later.
            listed: set[str] = set()
            if cluster:
                for group in _by_slot(client, globals_, cluster):
                    records, _ = _dump_together(client, group)
                    write(records)
                    keys += len(records)
            else:
                records, listed = _dump_together(client, globals_, members_of=f"{prefix}rooms")
                write(records)
                keys += len(records)
            for room in sorted(set(room_ids) | listed):
                names = [f"{prefix}room:{room}:{kind}" for kind in ROOM_KEYS]
                records, _ = _dump_together(client, names)
                write(records)
                keys += len(records)
                rooms += any(key.endswith(":state") for key, _, _ in records)
            # The last line: a file cut short (a full disk, a killed job) has none.
            file.write(json.dumps({"end": {"keys": keys, "rooms": rooms}}).encode() + b"\n")
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
    finally:
        client.close()
    with partial.open("rb") as raw:
        os.fsync(raw.fileno())
    partial.rename(path)
    _fsync_dir(path.parent)
    return {**header, "keys": keys, "rooms": rooms}


def _records(path: Path) -> Iterator[dict[str, Any]]:
    with _open_read(path) as file:
        for line in file:
            yield json.loads(line)


def _check_backup(path: Path) -> dict[str, Any]:
    """The backup's header with its counts, once the whole file has been read and found
    complete."""
    lines = _records(path)
    header = next(lines, None)
    if header is None:
        raise BackupError(f"{path}: empty")
    if header.get("format") != FORMAT or header.get("version") != FORMAT_VERSION:
        raise BackupError(f"{path}: not a {FORMAT} v{FORMAT_VERSION} file")
    keys = 0
    end = None
    for item in lines:
        if end is not None:
            raise BackupError(f"{path}: lines after the end")
        if "end" in item:
            end = item["end"]
        else:
            keys += 1
    if end is None:
        raise BackupError(f"{path}: cut short (no end line); use an earlier backup")
    if end["keys"] != keys:
        raise BackupError(f"{path}: {keys} keys, the end line says {end['keys']}")
    return {**header, **end}


def redis_restore(
    path: Path, url: str, prefix: str | None = None, replace: bool = False
) -> dict[str, Any]:
    """Write a backup file into the Redis at `url` (every node stopped)."""
    header = _check_backup(path)  # all of it, before anything is written
    if prefix is not None and prefix != header["prefix"]:
        raise BackupError(f"the backup was taken with prefix {header['prefix']!r}, not {prefix!r}")
    cluster = _is_cluster(url)
    if bool(header.get("cluster", False)) != cluster:
        taken = "a Redis Cluster" if header.get("cluster") else "one Redis"
        raise BackupError(
            f"the backup was taken from {taken} (its keys are laid out for it): restore it "
            f"into {taken} ({'redis+cluster://' if header.get('cluster') else 'redis://'}…)"
        )
    client = _redis(url)
    try:
        present = sum(1 for _ in _scan(client, header["prefix"], cluster))
        if present and not replace:
            raise BackupError(
                f"{_shown(url)} already holds {present} keys of the project: stop every node "
                "and restore with --replace (or into an empty database)"
            )
        pipe = client.pipeline(transaction=False)
        queued = 0
        for item in itertools.islice(_records(path), 1, None):
            if "end" in item:
                break
            pipe.restore(item["key"], int(item["ttl"]), base64.b64decode(item["dump"]), replace)
            queued += 1
            if queued % _BATCH == 0:
                pipe.execute()
        pipe.execute()
        rooms = client.scard(header["prefix"] + "rooms")
    finally:
        client.close()
    return {"keys": queued, "rooms_set": int(rooms), "backup": header}


# --- command line ------------------------------------------------------------------------


def _url(value: str) -> str:
    if value == "-":
        url = os.environ.get("NINEPOOL_REDIS_URL", "")
        if not url:
            raise SystemExit("'-' names NINEPOOL_REDIS_URL, which is not set")
        return url
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m deploy.backup",
        description="Online backups of ninepool's stores, and restores (deploy/README.md).",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    p = commands.add_parser("sqlite-backup", help="copy a lone node's SQLite store (online)")
    p.add_argument("database", type=Path, help="e.g. var/rooms.db")
    p.add_argument("destination", type=Path, help="a new folder for the copy")
    p = commands.add_parser("sqlite-restore", help="write a SQLite backup back (node stopped)")
    p.add_argument("source", type=Path, help="a folder made by sqlite-backup")
    p.add_argument("database", type=Path, help="e.g. var/rooms.db")
    p = commands.add_parser("redis-backup", help="DUMP every project key of a Redis (online)")
    p.add_argument("url", help="redis://[:password@]host:port/db, or - for NINEPOOL_REDIS_URL")
    p.add_argument("file", type=Path, help="a new file (.gz: compressed)")
    p.add_argument("--prefix", default="", help="the store's key prefix (default none)")
    p = commands.add_parser("redis-restore", help="RESTORE a Redis backup (nodes stopped)")
    p.add_argument("file", type=Path)
    p.add_argument("url", help="redis://[:password@]host:port/db, or - for NINEPOOL_REDIS_URL")
    p.add_argument("--prefix", default=None, help="must match the backup's (a safety check)")
    p.add_argument(
        "--replace", action="store_true", help="overwrite keys that exist (stop every node first)"
    )
    args = parser.parse_args(argv)
    try:
        if args.command == "sqlite-backup":
            result = sqlite_backup(args.database, args.destination)
        elif args.command == "sqlite-restore":
            result = sqlite_restore(args.source, args.database)
        elif args.command == "redis-backup":
            result = redis_backup(_url(args.url), args.file, args.prefix)
        else:
            result = redis_restore(args.file, _url(args.url), args.prefix, args.replace)
    except (BackupError, sqlite3.Error, OSError) as exc:
        print(f"{args.command}: {exc}", file=sys.stderr)
        return 1
    except Exception as exc:  # redis errors: the message says enough
        with contextlib.suppress(ImportError):
            import redis

            if isinstance(exc, redis.RedisError):
                print(f"{args.command}: redis: {exc}", file=sys.stderr)
                return 1
        raise
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
