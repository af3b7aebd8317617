"""Server settings: one immutable value built from flags, environment variables and defaults.

Every flag has an environment variable of the same name (`NINEPOOL_` + upper case), so
the same image runs on a laptop and in a cluster without a wrapper script.
"""

from __future__ import annotations

import argparse
import os
import re
import secrets
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.edge.limits import Limits

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client_web"

ENV_PREFIX = "NINEPOOL_"


@dataclass(frozen=True)
class Config:
    host: str = "127.0.0.1"
    port: int = 8000
    #: Physics worker processes (0 = run shots in one worker thread; tests and tiny hosts).
    workers: int = 2
    log_level: str = "INFO"
    #: Shot clock (seconds, 0 = off) for quick-match rooms.
    shot_clock: int = 0
    #: O5: how long a dropped player keeps the seat.
    grace: float = 60.0
    #: Where rooms and logs are kept. `memory://` here (in-process servers, tests); the
    #: command line defaults to `LONE_NODE_STORE` (see `store_url`).
    store: str = "memory://"
    #: HMAC key for session tokens; nodes of one service must share it.
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    secret_given: bool = False
    #: Base seed for room seeds; None draws each room's seed at random.
    seed: int | None = None
    spectator_cap: int = 200
    client_dir: Path = CLIENT_DIR
    #: Aim previews are relayed at most this often (seconds).
    aim_interval: float = 0.1
    #: `python -m server` only: young collections of the garbage collector this many new
    #: objects apart (0 = CPython's default); see `server.ops.gc_policy`.
    gc_threshold: int = 20_000

    # --- many nodes, and how long finished rooms are kept (server/cluster, store/) -------
    #: Redis of a cluster (`redis://host:port/db`); None: a lone node on `store`.
    redis_url: str | None = None
    #: Seconds a room's lease lasts unrenewed: how long a dead owner's rooms wait.
    lease_ttl: float = 10.0
    #: This process's name among the nodes (None: host name, pid and a random suffix).
    node_id: str | None = None
    #: In-memory store: finished rooms kept for replays, at most this many ...
    replays_kept: int = 1000
    #: ... and for at most this many seconds.
    replays_max_age: float = 86400.0

    # --- limits, session tokens and logs (gateway, sessions, logs) ----------------------
    #: What one connection or one client address may cost (see `server/edge/limits.py`).
    limits: Limits = field(default_factory=Limits)
    #: Seconds a session token stays valid after it was issued (each hello renews it).
    token_ttl: float = 86400.0
    #: `json` (one object per line) or `text`.
    log_format: str = "json"


def _env(environ: Mapping[str, str], name: str, default: str | None) -> str | None:
    return environ.get(ENV_PREFIX + name.upper().replace("-", "_"), default)


def build_parser(environ: Mapping[str, str] = os.environ) -> argparse.ArgumentParser:
    defaults = Config(secret=b"")
    parser = argparse.ArgumentParser(
        prog="python -m server",
        description="The nine-ball game server: WebSocket endpoint, browser client, health "
        "checks and metrics on one port. Every flag can also be set with an environment "
        f"variable {ENV_PREFIX}<FLAG> (for example {ENV_PREFIX}PORT=9000).",
    )

    def env(name: str, default: object) -> str | None:
        return _env(environ, name, None if default is None else str(default))

    parser.add_argument("--host", default=env("host", defaults.host), help="interface to bind")
    parser.add_argument(
        "--port", type=int, default=env("port", defaults.port), help="TCP port (0 = any free)"
    )
    parser.add_argument(
        "--workers",
        type=int,
        default=env("workers", defaults.workers),
        help="physics worker processes (0 = a thread, for tiny hosts)",
    )
    parser.add_argument(
        "--gc-threshold",
        type=int,
        default=env("gc_threshold", defaults.gc_threshold),
        help="new objects between young garbage collections; the process also freezes "
        "what it holds at start (0 = CPython's defaults; see server/ops/gc_policy.py)",
    )
    parser.add_argument(
        "--log-level",
        default=env("log_level", defaults.log_level),
        choices=["DEBUG", "INFO", "WARNING", "ERROR"],
        type=str.upper,
    )
    parser.add_argument(
        "--shot-clock",
        type=int,
        default=env("shot_clock", defaults.shot_clock),
        help="shot clock in seconds for quick-match rooms (0 = off)",
    )
    parser.add_argument(
        "--grace",
        type=float,
        default=env("grace", defaults.grace),
        help="seconds a disconnected player keeps the seat before forfeiting (O5)",
    )
    parser.add_argument(
        "--store",
        default=env("store", None),
        help=f"room store URL (default {LONE_NODE_STORE}; the Redis of --redis-url with it)",
    )
    parser.add_argument(
        "--secret",
        default=env("secret", None),
        help="key that signs session tokens (share it between nodes); random if unset",
    )
    parser.add_argument(
        "--seed",
        type=int,
        default=env("seed", None),
        help="base seed for room racks (reproducible rooms); random if unset",
    )
    parser.add_argument(
        "--spectator-cap",
        type=int,
        default=env("spectator_cap", defaults.spectator_cap),
        help="most spectators in one room",
    )
    parser.add_argument(
        "--client-dir",
        type=Path,
        default=env("client_dir", defaults.client_dir),
        help="folder of the browser client served at /",
    )
    _add_cluster_flags(parser, env)
    _add_guard_flags(parser, env)
    return parser


def config_from_args(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] = os.environ
) -> Config:
    """Parse flags (falling back to environment variables) into a `Config`."""
    parser = build_parser(environ)
    args = parser.parse_args(argv)
    if not 0 <= args.port <= 65535:
        parser.error("--port must be 0-65535")
    if args.workers < 0:
        parser.error("--workers must be 0 or more")
    if args.gc_threshold < 0:
        parser.error("--gc-threshold must be 0 or more")
    if args.grace < 0:
        parser.error("--grace must be 0 or more")
    if args.shot_clock != 0 and not 5 <= args.shot_clock <= 300:
        parser.error("--shot-clock must be 0 (off) or 5-300 seconds")
    if args.spectator_cap < 0:
        parser.error("--spectator-cap must be 0 or more")
    secret_given = bool(args.secret)
    store = store_url(parser, args)
    if secret_given:
        secret = args.secret.encode()
    else:
        kept = lone_node_secret(store)
        secret_given = kept is not None
        secret = kept if kept is not None else secrets.token_bytes(32)
    return Config(
        host=args.host,
        port=args.port,
        workers=args.workers,
        gc_threshold=args.gc_threshold,
        log_level=args.log_level,
        shot_clock=args.shot_clock,
        grace=args.grace,
        store=store,
        secret=secret,
        secret_given=secret_given,
        seed=args.seed,
        spectator_cap=args.spectator_cap,
        client_dir=Path(args.client_dir),
        **_cluster_settings(parser, args),
        **_guard_settings(parser, args),
    )


def lone_node_secret(store: str) -> bytes | None:
    """The session-token key kept beside a SQLite store, made on first use.

    A lone node resumes every room after a restart; its players must be able to reclaim
    their seats with the tokens they hold, so the key that signs them has to survive the
    restart too. It lives next to the database (`session-secret`, readable by the owner
    only). Other stores return None: nodes of a cluster share `--secret` instead.
    """
    if not store.startswith("sqlite://"):
        return None
    database = Path(store.removeprefix("sqlite://"))
    path = database.parent / "session-secret"
    try:
        if path.exists():
            key = path.read_bytes().strip()
            if len(key) < 32:
                raise SystemExit(f"{path} holds a key shorter than 32 bytes; delete it to renew")
            return key
        path.parent.mkdir(parents=True, exist_ok=True)
        key = secrets.token_hex(32).encode()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as file:
            file.write(key + b"\n")
        return key
    except OSError as exc:
        raise SystemExit(f"cannot keep the session key at {path}: {exc}") from exc


# --- many nodes, and how long finished rooms are kept ---------------------------------

#: The lone node's store: one SQLite file under the working folder (nothing to install,
#: and a restart resumes every room).
LONE_NODE_STORE = "sqlite://var/rooms.db"


def _add_cluster_flags(
    parser: argparse.ArgumentParser, env: Callable[[str, object], str | None]
) -> None:
    defaults = Config(secret=b"")
    parser.add_argument(
        "--redis-url",
        default=env("redis_url", None),
        help="Redis shared by every node (redis://host:port/db): rooms, leases, pub/sub",
    )
    parser.add_argument(
        "--lease-ttl",
        type=float,
        default=env("lease_ttl", defaults.lease_ttl),
        help="seconds a room's lease lasts unrenewed (a dead node's rooms move after this)",
    )
    parser.add_argument(
        "--node-id",
        default=env("node_id", None),
        help="this node's name in the cluster (default: host name, pid and a random suffix)",
    )
    parser.add_argument(
        "--replays-kept",
        type=int,
        default=env("replays_kept", defaults.replays_kept),
        help="memory store: finished rooms kept for replays (oldest forgotten first)",
    )
    parser.add_argument(
        "--replays-max-age",
        type=float,
        default=env("replays_max_age", defaults.replays_max_age),
        help="memory store: seconds a finished room is kept for replays",
    )


def store_url(parser: argparse.ArgumentParser, args: argparse.Namespace) -> str:
    """`--store` if given; else the Redis of `--redis-url`; else the lone node's file."""
    store: str | None = args.store
    redis_url: str | None = args.redis_url
    if redis_url:
        if store and store != redis_url:
            parser.error("--store and --redis-url name different stores; give one of them")
        return redis_url
    if store and store.startswith(("redis://", "rediss://", "unix://")):
        parser.error("a Redis store needs --redis-url (leases and pub/sub live there too)")
    return store or LONE_NODE_STORE


def _cluster_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    if not args.lease_ttl > 0.2:
        parser.error("--lease-ttl must be more than 0.2 seconds")
    if args.replays_kept < 0:
        parser.error("--replays-kept must be 0 or more")
    if not args.replays_max_age >= 0:
        parser.error("--replays-max-age must be 0 or more")
    if args.node_id is not None and not _NODE_ID.fullmatch(args.node_id):
        parser.error("--node-id: 1-64 letters, digits, '.', '_' or '-'")
    return {
        "redis_url": args.redis_url or None,
        "lease_ttl": args.lease_ttl,
        "node_id": args.node_id,
        "replays_kept": args.replays_kept,
        "replays_max_age": args.replays_max_age,
    }


_NODE_ID = re.compile(r"[A-Za-z0-9._-]{1,64}")


# --- limits, session tokens and logs ----------------------------------------------------

#: (flag, Limits field, type, help) of every limit; the default comes from `Limits`.
_LIMIT_FLAGS: tuple[tuple[str, str, type, str], ...] = (
    ("--max-frame", "max_frame", int, "largest frame a client may send, bytes (closed 1009)"),
    ("--rate", "rate", float, "frames per second per connection, aim previews apart (0 = off)"),
    ("--burst", "burst", int, "frames a connection may send at once before --rate applies"),
    ("--aim-rate", "aim_rate", float, "aim previews per second per connection (0 = off)"),
    ("--aim-burst", "aim_burst", int, "aim previews at once before --aim-rate applies"),
    ("--chat-rate", "chat_rate", float, "chat messages per second per connection (0 = off)"),
    ("--chat-burst", "chat_burst", int, "chat messages at once before --chat-rate applies"),
    (
        "--abuse-limit",
        "abuse_limit",
        int,
        "frames refused for rate (one more allowed each second) before closing with 1008 "
        "(0 = never close)",
    ),
    (
        "--conns-per-address",
        "conns_per_address",
        int,
        "open WebSocket connections per client address, IPv6 per /64 (0 = no limit)",
    ),
    (
        "--handshake-rate",
        "handshake_rate",
        float,
        "new WebSocket connections per second per client address (0 = no limit)",
    ),
    (
        "--handshake-burst",
        "handshake_burst",
        int,
        "new connections an address may open at once before --handshake-rate applies",
    ),
    (
        "--abuse-cooldown",
        "abuse_cooldown",
        float,
        "seconds an address may open no connection after one was closed for abuse, "
        "doubling on each repeat within the hour up to 16x (0 = none)",
    ),
    ("--open-timeout", "open_timeout", float, "seconds for the opening handshake (0 = none)"),
    ("--hello-timeout", "hello_timeout", float, "seconds to say hello after connecting (0 = none)"),
    ("--ping-interval", "ping_interval", float, "seconds between keepalive pings (0 = none)"),
    ("--ping-timeout", "ping_timeout", float, "seconds to answer a ping before closing (0 = none)"),
    (
        "--send-buffer",
        "send_buffer",
        int,
        "bytes waiting for one connection before it counts as behind (skipped ahead)",
    ),
    (
        "--lag-limit",
        "lag_limit",
        int,
        "times a spectator may fall behind in ten minutes before it is closed (1013)",
    ),
    ("--invite-guesses", "invite_guesses", int, "wrong invite codes per minute per connection"),
    (
        "--invite-guesses-per-address",
        "invite_guesses_per_address",
        int,
        "wrong invite codes per minute per client address",
    ),
)


def _flag_bool(text: str) -> bool:
    value = text.strip().lower()
    if value in ("1", "true", "yes", "on"):
        return True
    if value in ("0", "false", "no", "off", ""):
        return False
    raise argparse.ArgumentTypeError(f"not a yes/no value: {text!r}")


def _split_list(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def _add_guard_flags(
    parser: argparse.ArgumentParser, env: Callable[[str, object], str | None]
) -> None:
    limits = Limits()
    group = parser.add_argument_group("limits (see the Limits section of server/README.md)")
    for flag, name, kind, text in _LIMIT_FLAGS:
        default = getattr(limits, name)
        shown = f"{default:g}" if kind is float else str(default)
        group.add_argument(
            flag, type=kind, default=env(name, default), help=f"{text} (default {shown})"
        )
    group.add_argument(
        "--trusted-proxies",
        type=_split_list,
        default=env("trusted_proxies", ",".join(limits.trusted_proxies)),
        help="comma-separated addresses or networks whose X-Forwarded-For is believed "
        f"(default {','.join(limits.trusted_proxies)})",
    )
    group.add_argument(
        "--origins",
        type=_split_list,
        default=env("origins", ",".join(limits.origins)),
        help="comma-separated origins allowed to open a WebSocket: 'self' (the Host the "
        "browser asked for), '*', or https://host[:port] (default self)",
    )
    group.add_argument(
        "--allow-no-origin",
        type=_flag_bool,
        nargs="?",
        const=True,
        default=env("allow_no_origin", "false"),
        help="accept WebSocket handshakes without an Origin header (bots, scripts)",
    )
    defaults = Config(secret=b"")
    parser.add_argument(
        "--token-ttl",
        type=float,
        default=env("token_ttl", defaults.token_ttl),
        help="seconds a session token stays valid; each hello renews it (default 86400)",
    )
    parser.add_argument(
        "--log-format",
        default=env("log_format", defaults.log_format),
        choices=["json", "text"],
        type=str.lower,
        help="json: one JSON object per line (default); text: for reading in a terminal",
    )


def _guard_settings(parser: argparse.ArgumentParser, args: argparse.Namespace) -> dict[str, Any]:
    values: dict[str, Any] = {name: getattr(args, name) for _, name, _, _ in _LIMIT_FLAGS}
    limits = Limits(
        **values,
        trusted_proxies=tuple(args.trusted_proxies),
        origins=tuple(args.origins),
        allow_no_origin=bool(args.allow_no_origin),
    )
    problems = limits.problems()
    if problems:
        parser.error("; ".join(problems))
    if not args.token_ttl > 0:
        parser.error("--token-ttl must be more than 0 seconds")
    return {"limits": limits, "token_ttl": args.token_ttl, "log_format": args.log_format}
