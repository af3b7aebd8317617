"""`python -m server`: run the game server (see `--help`)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys

from server.app import run
from server.config import config_from_args
from server.store import StoreError


def main(argv: list[str] | None = None) -> int:
    config = config_from_args(argv)
    logging.basicConfig(
        level=config.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if config.log_level != "DEBUG":
        # One line per HTTP request and closed connection is noise outside debugging.
        logging.getLogger("websockets").setLevel(logging.WARNING)
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(run(config))
    except (OSError, StoreError) as exc:  # the port is taken, the store file unusable, …
        print(f"cannot start the server: {exc}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
