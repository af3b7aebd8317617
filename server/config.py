"""Server settings: one immutable value built from flags, environment variables and defaults.

Every flag has an environment variable of the same name (`NINEPOOL_` + upper case), so
the same image runs on a laptop and in a cluster without a wrapper script.
"""

from __future__ import annotations

import argparse
import os
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

CLIENT_DIR = Path(__file__).resolve().parent.parent / "client_web"

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
    #: Where rooms and logs are kept: `memory://` (default).
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
        "--store", default=env("store", defaults.store), help="room store URL (memory://)"
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
    if args.grace < 0:
        parser.error("--grace must be 0 or more")
    if args.shot_clock != 0 and not 5 <= args.shot_clock <= 300:
        parser.error("--shot-clock must be 0 (off) or 5-300 seconds")
    if args.spectator_cap < 0:
        parser.error("--spectator-cap must be 0 or more")
    secret_given = bool(args.secret)
    secret = args.secret.encode() if secret_given else secrets.token_bytes(32)
    return Config(
        host=args.host,
        port=args.port,
        workers=args.workers,
        log_level=args.log_level,
        shot_clock=args.shot_clock,
        grace=args.grace,
        store=args.store,
        secret=secret,
        secret_given=secret_given,
        seed=args.seed,
        spectator_cap=args.spectator_cap,
        client_dir=Path(args.client_dir),
    )
