"""Server settings: one immutable value built from flags, environment variables and defaults.

Every setting is declared once, in `SECTIONS` below: the field it fills (`Config.port`,
`Limits.rate`, which hold its type and default), how its text is read, which values it
takes, its help text and its section. The flag (`--port`), the environment variable
(`NINEPOOL_PORT`, so the same image runs on a laptop and in a cluster without a wrapper
script), the checks, `--help` and the tables of server/README.md all come from that
(`server.ops.settings`; `python -m server.ops.settings --write` renews the tables).
"""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.edge.limits import (
    ANY_ORIGIN,
    COOLDOWN_MAX_FACTOR,
    COOLDOWN_MAX_SECONDS,
    SELF_ORIGIN,
    Limits,
    normalize_origin,
    parse_networks,
)
from server.ops.computers import COMPUTERS, Computers
from server.ops.secret_file import lone_node_secret
from server.ops.settings import (
    ENV_PREFIX,
    FOLDER,
    LIST,
    LOWER,
    NUMBER,
    TEXT,
    UPPER,
    URL,
    WHOLE,
    YES_NO,
    Section,
    Setting,
    SettingError,
    accepted_by,
    add_arguments,
    at_least,
    between,
    every,
    matching,
    more_than,
    off_or_between,
    one_of,
    read_values,
    refusal,
)
from server.ops.tournaments import TOURNAMENTS, TournamentSettings

CLIENT_DIR = Path(__file__).resolve().parents[2] / "client_web"

#: The lone node's store: one SQLite file under the working folder (nothing to install,
#: and a restart resumes every room).
LONE_NODE_STORE = "sqlite://var/rooms.db"


@dataclass(frozen=True)
class Config:
    """What the server reads. Each field set from outside has its `Setting` in `SECTIONS`
    (its meaning is that setting's help); the defaults here are those of an in-process
    server (tests, benches), which the command line shares except where noted."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 2
    log_level: str = "INFO"
    #: Quick match pairs strangers: without a clock one who never shoots stalls the other.
    shot_clock: int = 60
    rack_pause: float = 6.0
    grace: float = 60.0
    #: Computer players (server/ops/computers.py). In-process no bot tables and no offer
    #: in quick match unless asked for; the command line has both.
    computers: Computers = field(
        default_factory=lambda: Computers(bot_tables=0, quick_computer_after=0)
    )
    #: `memory://` in-process; the command line defaults to `LONE_NODE_STORE` (see
    #: `store_url`).
    store: str = "memory://"
    #: In-process: a random key; the command line keeps one beside a SQLite store (see
    #: `lone_node_secret`).
    secret: bytes = field(default_factory=lambda: secrets.token_bytes(32), repr=False)
    #: The key was given or kept, not drawn for this process alone (no setting of its own).
    secret_given: bool = False
    #: While rotating the key: tokens signed with it are accepted, never signed (None: none).
    secret_previous: bytes | None = field(default=None, repr=False)
    seed: int | None = None
    spectator_cap: int = 200
    client_dir: Path = CLIENT_DIR
    #: Each page's script served as its bundle while fresh (server/edge/bundle.py).
    client_bundle: bool = True
    #: Replays and the room list (server/edge/replays.py, server/rooms/pacing.py).
    update_interval: float = 1.0
    room_log_max: int = 10_000
    replay_max_bytes: int = 16 * 2**20
    replays_per_address: int = 2
    replay_streams: int = 32
    replay_timeout: float = 120.0
    #: Aim previews are relayed at most this often (seconds); not a setting.
    aim_interval: float = 0.1
    gc_threshold: int = 20_000

    # --- many nodes, and how long finished rooms are kept (server/cluster, store/) -------
    redis_url: str | None = None
    lease_ttl: float = 10.0
    node_timeout: float = 3.0
    node_id: str | None = None
    replays_kept: int = 1000
    replays_max_age: float = 86400.0
    #: Days a retired room is kept by the SQLite and Redis stores (0: for ever).
    replay_retention: float = 0.0

    # --- limits, session tokens and logs (gateway, sessions, logs) ----------------------
    #: Filled from the `limits` section (see `server/edge/limits.py`).
    limits: Limits = field(default_factory=Limits)
    token_ttl: float = 86400.0
    log_format: str = "json"

    # --- accounts and ratings (server/players, server/edge/api.py) --------------------
    #: None: beside the room store (`server.players.stores.players_store_url`).
    players_store: str | None = None
    login_ttl: float = 30 * 86400.0
    login_failures: int = 5
    login_failures_per_address: int = 20
    login_window: int = 900
    accounts_per_address: int = 10
    password_hashers: int = 1
    #: Filled from the `tournaments` section (`server/ops/tournaments.py`).
    tournaments: TournamentSettings = field(default_factory=TournamentSettings)


def _origins_usable(origins: tuple[str, ...]) -> None:
    for origin in origins:
        if origin not in (SELF_ORIGIN, ANY_ORIGIN) and normalize_origin(origin) is None:
            raise ValueError(origin)


_NOT_NEGATIVE = at_least(0)
_longest_cooldown = Limits.abuse_cooldown * COOLDOWN_MAX_FACTOR / 60

#: Every setting, in the order of `--help` and the README's tables.
SECTIONS: tuple[Section, ...] = (
    Section(
        "server",
        "server",
        (
            Setting(Config, "host", TEXT, "interface to bind (`0.0.0.0` in a container)"),
            Setting(Config, "port", WHOLE, "TCP port; `0` picks a free one", between(0, 65535)),
            Setting(
                Config,
                "workers",
                WHOLE,
                "physics worker processes (`0`: one thread, tiny hosts only)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "log_level",
                UPPER,
                "how much to log; `DEBUG` also logs every HTTP request",
                one_of("DEBUG", "INFO", "WARNING", "ERROR"),
            ),
            Setting(
                Config,
                "gc_threshold",
                WHOLE,
                "new objects between young garbage collections; the process also freezes "
                "what it holds at start (`0`: CPython's defaults; see "
                "[the garbage collector in server/README.md](#the-garbage-collector))",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "shot_clock",
                WHOLE,
                "seconds per shot in quick-match rooms (O3), so a player who never shoots "
                "cannot stall the other; `0`: no clock (rooms made with `create` choose "
                "their own)",
                off_or_between(5, 300),
            ),
            Setting(
                Config,
                "rack_pause",
                NUMBER,
                "seconds between the end of a game and the next break, while everyone sees "
                "the result: the breaker's shot clock starts after them, and a computer "
                "breaking waits for them (`0`: the break follows at once)",
                between(0, 60),
            ),
            Setting(
                Config,
                "grace",
                NUMBER,
                "seconds a dropped player keeps the seat before forfeiting (O5)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "store",
                URL,
                "where rooms and event logs live (`memory://`, `sqlite://…`; see "
                "`server/store/README.md`); with `--redis-url`, that Redis",
                default=None,
                shown=f"`{LONE_NODE_STORE}`",
            ),
            Setting(
                Config,
                "redis_url",
                URL,
                "Redis shared by every node (`redis://host:port/db`; a Redis Cluster: `redis+"
                "cluster://host:port/0`, deploy/README.md): rooms, leases, pub/sub; this process "
                "is then one node of a cluster (see [many nodes in server/README.md](#many-nodes))",
                shown="none",
            ),
            Setting(
                Config,
                "lease_ttl",
                NUMBER,
                "seconds a room's lease lasts unrenewed (renewed every third of it); a node "
                "that stops beating loses its rooms sooner, after `--node-timeout`",
                more_than(0.2),
            ),
            Setting(
                Config,
                "node_timeout",
                NUMBER,
                "seconds without a heartbeat (sent every sixth of it) after which a node "
                "counts as dead and the others take its rooms over",
                more_than(0.2),
            ),
            Setting(
                Config,
                "node_id",
                TEXT,
                "this node's name in the cluster (unique per process)",
                matching(r"[A-Za-z0-9._-]{1,64}", "1-64 letters, digits, '.', '_' or '-'"),
                shown="host name, pid and a random suffix",
            ),
            Setting(
                Config,
                "replays_kept",
                WHOLE,
                "in-memory store: finished rooms kept for replays (oldest forgotten first)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "replays_max_age",
                NUMBER,
                "in-memory store: seconds a finished room is kept for replays",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "replay_retention",
                NUMBER,
                "SQLite and Redis stores: days a finished room is kept for its replay, then "
                "forgotten (`0`: for ever; see `server/store/README.md`, Retention)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "secret",
                TEXT,
                "HMAC key of session tokens; share it between nodes (a lone node on SQLite "
                "keeps one in `session-secret` beside its database)",
                default=None,
                shown="random",
            ),
            Setting(
                Config,
                "secret_previous",
                TEXT,
                "the key `--secret` replaces, while rotating it: tokens it signed are still "
                "accepted (and renewed with `--secret` at the next `hello`), none is signed "
                'with it; empty: none (see deploy/README.md, "Rotating secrets")',
                default=None,
                shown="none",
            ),
            Setting(
                Config,
                "seed",
                WHOLE,
                "base seed of room seeds, for reproducible racks",
                shown="random",
            ),
            Setting(
                Config,
                "spectator_cap",
                WHOLE,
                "most spectators in one room",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "client_dir",
                FOLDER,
                "the browser client served at `/`",
                shown="`client_web/`",
            ),
            Setting(
                Config,
                "client_bundle",
                YES_NO,
                "serve each page's script as the one file `make setup` bundles it into "
                "(`client_web/.bundle/`) while every file in it is as the build found it; "
                "`off`: the modules one by one",
            ),
            Setting(
                Config,
                "update_interval",
                NUMBER,
                "seconds between two updates of a room's spectator count to its members, and "
                "of its entry to the lobby's subscribers (the newest wins; `0`: each change)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "room_log_max",
                WHOLE,
                "events a room's log keeps for its replay, chat at most a quarter of them; "
                "later ones are played and sent but not kept (see [replays](#replays))",
                at_least(10),
            ),
            Setting(
                Config,
                "replay_max_bytes",
                WHOLE,
                "largest replay sent; a longer one ends early and says `truncated`",
                at_least(65536),
            ),
            Setting(
                Config,
                "replays_per_address",
                WHOLE,
                "replays one client address (IPv6: per /64) may be reading at once; more get "
                "HTTP **429** (`0`: no limit)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "replay_streams",
                WHOLE,
                "replays being sent at once, in all; more get HTTP **503** (`0`: no limit)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "replay_timeout",
                NUMBER,
                "seconds a replay may take to send; a reader slower than that is cut off",
                more_than(0),
            ),
        ),
    ),
    Section(
        "limits",
        "limits, session tokens and logs (see the Limits section of server/README.md)",
        (
            Setting(
                Limits,
                "max_frame",
                WHOLE,
                "largest frame a client may send, bytes; larger closes with **1009** "
                "(websockets' `max_size`)",
                at_least(1024),
            ),
            Setting(
                Limits,
                "rate",
                NUMBER,
                "frames per second per connection (token bucket), aim previews apart",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "burst",
                WHOLE,
                "frames a connection may send at once before `--rate` applies",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "aim_rate",
                NUMBER,
                "aim previews per second per connection (their own bucket)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "aim_burst",
                WHOLE,
                "aim previews at once before `--aim-rate` applies",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "chat_rate",
                NUMBER,
                "chat messages per second per connection",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "chat_burst",
                WHOLE,
                "chat messages at once before `--chat-rate` applies (5 per 10 s by default)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "abuse_limit",
                WHOLE,
                "frames refused for rate (one more allowed each second) before the "
                "connection is closed with **1008** (`0`: never closed)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "conns_per_address",
                WHOLE,
                "open WebSocket connections per client address (IPv6: per /64); more get "
                "HTTP **429**",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "handshake_rate",
                NUMBER,
                "new WebSocket connections per second per client address; faster gets HTTP **429**",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "handshake_burst",
                WHOLE,
                "new connections an address may open at once before `--handshake-rate` applies",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "abuse_cooldown",
                NUMBER,
                "seconds an address may open no new connection (HTTP **429**) after one of "
                "its connections was closed for abuse; doubles on each repeat within the "
                f"hour, up to {COOLDOWN_MAX_FACTOR}× ({_longest_cooldown:g} min by default)",
                between(0, COOLDOWN_MAX_SECONDS / COOLDOWN_MAX_FACTOR),
            ),
            Setting(
                Limits,
                "trusted_proxies",
                LIST,
                "proxies whose `X-Forwarded-For` is believed, comma-separated (none by "
                "default: list nginx's address, e.g. `127.0.0.1` on the same host)",
                accepted_by(parse_networks, "IP addresses or networks"),
                shown="none",
            ),
            Setting(
                Limits,
                "origins",
                LIST,
                "origins that may open a WebSocket, comma-separated: `self` (the Host the "
                "browser asked for), `*`, or `https://host[:port]`; others get HTTP **403**",
                accepted_by(_origins_usable, "self, * or scheme://host[:port]"),
            ),
            Setting(
                Limits,
                "allow_no_origin",
                YES_NO,
                "accept handshakes without an `Origin` header (bots, scripts, load tests)",
            ),
            Setting(
                Limits,
                "open_timeout",
                NUMBER,
                "seconds for the TCP + WebSocket opening handshake (`0`: none)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "max_header_bytes",
                WHOLE,
                "bytes a request head (request line and headers) may take, else HTTP **431**",
                at_least(1024),
            ),
            Setting(
                Limits,
                "header_timeout",
                NUMBER,
                "seconds from the TCP accept to a complete request head, else HTTP **408** "
                "(slowloris; `0`: only `--open-timeout`)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "pending_handshakes",
                WHOLE,
                "connections whose request head is not complete yet, in all; past it the "
                "oldest is closed (**408**) to make room",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "pending_per_address",
                WHOLE,
                "connections whose request head is not complete yet, per TCP peer (IPv6: "
                "per /64; trusted proxies apart); more get HTTP **429**",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "max_connections",
                WHOLE,
                "TCP connections at once, kept below the descriptor limit (raised to its hard "
                "limit at start) less 64; past it only `/healthz` and `/readyz` are answered, "
                "anything else gets HTTP **503**",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "hello_timeout",
                NUMBER,
                "seconds from the handshake to an accepted `hello`, else **1008** (`0`: none)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "ping_interval",
                NUMBER,
                "seconds between keepalive pings (`0`: none)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "ping_timeout",
                NUMBER,
                "seconds to answer a ping, else closed (**1011**, by websockets; `0`: none)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "send_buffer",
                WHOLE,
                "bytes waiting to be sent to one connection (kernel and process) before it "
                "is behind: its room events are skipped until it has caught up",
                at_least(4096),
            ),
            Setting(
                Limits,
                "lag_limit",
                WHOLE,
                "times a spectator may fall behind in ten minutes; once more closes it "
                "(**1013**); `0`: at the first",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "max_rooms",
                WHOLE,
                "rooms this process holds at once; a `create` or `quick` past it is "
                "refused `too_many_rooms`",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "rooms_per_address",
                WHOLE,
                "open rooms one client address (IPv6: per /64) may have made with `create` "
                "or `quick`; more are refused `too_many_rooms`",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "metrics_token",
                TEXT,
                "`/metrics` on the public port only with `Authorization: Bearer <token>`; "
                "none: never there (404) — see [metrics](#metrics)",
                shown="none",
            ),
            Setting(
                Limits,
                "metrics_port",
                WHOLE,
                "a listener of its own for `/metrics`, `/healthz` and `/readyz` (`0`: a free "
                "port); none: no such listener",
                between(0, 65535),
                shown="none",
            ),
            Setting(
                Limits,
                "metrics_host",
                TEXT,
                "interface of the `--metrics-port` listener (`0.0.0.0` for a Prometheus "
                "in another container)",
            ),
            Setting(
                Limits,
                "invite_guesses",
                WHOLE,
                "wrong invite codes per minute per connection; then every `join` is `rate_limited`",
                _NOT_NEGATIVE,
            ),
            Setting(
                Limits,
                "invite_guesses_per_address",
                WHOLE,
                "wrong invite codes per minute per client address (IPv6 /64), shared by "
                "its connections",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "token_ttl",
                NUMBER,
                "seconds a session token stays valid; every `hello` renews it",
                more_than(0),
            ),
            Setting(
                Config,
                "log_format",
                LOWER,
                "`json`: one JSON object per line; `text`: for a terminal (`make run`)",
                one_of("json", "text"),
            ),
        ),
    ),
    Section(
        "players",
        "accounts and ratings (see the Players section of server/README.md)",
        (
            Setting(
                Config,
                "players_store",
                URL,
                "where accounts, ratings and leaderboards live (`sqlite://…`, `redis://…`)",
                shown="`players.db` beside a SQLite `--store`; the Redis of `--redis-url`; "
                "in memory with `memory://`",
            ),
            Setting(
                Config,
                "login_ttl",
                NUMBER,
                "seconds an account token from `POST /api/login` stays valid",
                more_than(0),
            ),
            Setting(
                Config,
                "login_failures",
                WHOLE,
                "failed logins for one name within `--login-window`, after which its logins "
                "get HTTP **429** until the window ends (`0`: no limit)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "login_failures_per_address",
                WHOLE,
                "the same for one client address (IPv6: per /64), whatever the names tried",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "login_window",
                WHOLE,
                "seconds from a name's or an address's first failed login in which the "
                "failures are counted",
                at_least(1),
            ),
            Setting(
                Config,
                "accounts_per_address",
                WHOLE,
                "accounts one client address may create in an hour (`0`: no limit)",
                _NOT_NEGATIVE,
            ),
            Setting(
                Config,
                "password_hashers",
                WHOLE,
                "threads hashing and checking passwords (argon2id, about 19 MiB each), off "
                "the event loop",
                at_least(1),
            ),
        ),
    ),
    TOURNAMENTS,
)

SECTIONS += (COMPUTERS,)
SETTINGS: tuple[Setting, ...] = every(SECTIONS)

#: Config fields the command line works out from more than their own setting.
_WORKED_OUT = ("store", "secret", "secret_previous", "redis_url")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m server",
        description="The nine-ball game server: WebSocket endpoint, browser client, health "
        "checks and metrics on one port. Every flag can also be set with an environment "
        f"variable {ENV_PREFIX}<FLAG> (for example {ENV_PREFIX}PORT=9000); a flag wins "
        "over its variable.",
    )
    add_arguments(parser, SECTIONS)
    return parser


def config_from_args(
    argv: Sequence[str] | None = None, environ: Mapping[str, str] = os.environ
) -> Config:
    """Flags, else `NINEPOOL_*` variables, else defaults, as a `Config`.

    Every value is checked before anything is done with any: a bad one exits (status 2)
    with a message naming its flag and its variable, and leaves no file behind (the lone
    node's key file is made only once every setting is known to be good).
    """
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        values = read_values(args, SETTINGS, environ)
        store = store_url(values["store"], values["redis_url"])
        limits = _limits(values)
    except SettingError as exc:
        parser.exit(2, refusal(parser.prog, str(exc)))
    given: str | None = values["secret"]
    if given:
        secret, secret_given = given.encode(), True
    else:
        kept = lone_node_secret(store)
        secret_given = kept is not None
        secret = kept if kept is not None else secrets.token_bytes(32)
    own = {
        setting.name: values[setting.name]
        for setting in SETTINGS
        if setting.owner is Config and setting.name not in _WORKED_OUT
    }
    return Config(
        **own,
        store=store,
        secret=secret,
        secret_given=secret_given,
        secret_previous=(values["secret_previous"] or "").encode() or None,
        redis_url=values["redis_url"] or None,
        limits=limits,
        computers=Computers(**{s.name: values[s.name] for s in COMPUTERS.settings}),
        tournaments=TournamentSettings(
            **{s.name: values[s.name] for s in SETTINGS if s.owner is TournamentSettings}
        ),
    )


def store_url(store: str | None, redis_url: str | None) -> str:
    """`--store` if given; else the Redis of `--redis-url`; else the lone node's file."""
    if redis_url:
        if store and store != redis_url:
            raise SettingError(
                f"{_where('store')} and {_where('redis_url')} name different stores; "
                "give one of them"
            )
        return redis_url
    if store and store.startswith(("redis://", "rediss://", "unix://", "redis+cluster://")):
        raise SettingError(
            f"a Redis store needs {_where('redis_url')} (leases and pub/sub live there too)"
        )
    return store or LONE_NODE_STORE


def _limits(values: Mapping[str, Any]) -> Limits:
    """The `Limits` of these values, checked as a whole (a rate that is on needs a burst)."""
    limits = Limits(
        **{setting.name: values[setting.name] for setting in SETTINGS if setting.owner is Limits}
    )
    problems = limits.problems()
    if problems:
        # Each problem starts with the field's name: say the flag and the variable too.
        named = [
            f"{_where(text.split()[0].rstrip(':'))}: {text}"
            if text.split()[0].rstrip(":") in _BY_NAME
            else text
            for text in problems
        ]
        raise SettingError("\n".join(named))
    return limits


_BY_NAME = {setting.name: setting for setting in SETTINGS}


def _where(name: str) -> str:
    return _BY_NAME[name].where
