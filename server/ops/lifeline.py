"""Worker processes die with the process that started them.

The physics pool's processes come from a forkserver, and its workers from the forkserver.
When a node is killed outright (kill -9, the out-of-memory killer) nothing of it runs to
stop them, and on a machine that is not a container — a developer's, CI's, a bare host —
they would stay behind for good, each holding tens of megabytes (a test suite that kills
nodes on purpose leaked gigabytes). On Linux a process can ask the kernel to be killed
when its parent goes (`prctl(PR_SET_PDEATHSIG)`); the forkserver asks as it preloads
`server.ops.lifeline_preload`, each worker as it starts (`die_with_parent` is the pool's
initializer). Elsewhere this does nothing.
"""

from __future__ import annotations

import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent() -> None:
    """Have the kernel kill this process when its parent process ends (Linux only)."""
    if not sys.platform.startswith("linux"):
        return
    parent = os.getppid()
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):
        return
    if os.getppid() != parent:  # the parent went before the request was made
        os._exit(1)
