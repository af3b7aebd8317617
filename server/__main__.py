"""`python -m server`: run the game server (see `--help`; the work is `server.serve`).

SIGINT is made to stop the process before anything else is imported. Started as a script's
background job, the process inherits SIGINT ignored (POSIX); set only once the server's
modules were imported, an interrupt sent while a loaded machine was still importing them
(seconds) was lost, and the node went on to wait for Redis, deaf to it. An interrupt
before the server runs ends the process as one while it runs does: quietly, status 0.
"""

from __future__ import annotations

import signal
import sys

signal.signal(signal.SIGINT, signal.default_int_handler)


def _main() -> int:
    try:
        from server.serve import main

        return main()
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(_main())
