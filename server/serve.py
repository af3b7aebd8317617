"""The game server's process (`python -m server`, see `--help`): its configuration,
logs and collector set, then the server run until SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys

from server.app import run
from server.ops import gc_policy, logs
from server.ops.config import config_from_args
from server.store import StoreError


def main(argv: list[str] | None = None) -> int:
    config = config_from_args(argv)
    # JSON lines by default (--log-format text for a terminal); never a session token.
    logs.configure(config.log_level, config.log_format)
    # Everything is imported now: freeze it, and space the collector's pauses out.
    gc_policy.tune_for_serving(config.gc_threshold)
    # SIGINT stops the server at every stage. Started as a script's background job, it
    # inherits SIGINT ignored (POSIX), and asyncio then leaves it so until the server is
    # ready and installs its own handler: an interrupt while it waited for Redis was lost.
    # (`python -m server` sets it before importing this; set again for a caller of `main`.)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(config))
    except (OSError, StoreError) as exc:  # the port is taken, the store file unusable, …
        print(f"cannot start the server: {exc}", file=sys.stderr)
        return 1
    return 0
