"""A node killed outright takes its physics processes with it (Linux).

Nothing of a node runs after a kill -9, so its forkserver and workers used to stay behind
for good; a suite that kills nodes on purpose leaked gigabytes of them."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")
def test_the_physics_processes_die_with_a_killed_node(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "NINEPOOL_PORT": "0",
        "NINEPOOL_WORKERS": "2",
        "NINEPOOL_SECRET": "s",
        "NINEPOOL_STORE": "memory://",
    }
    node = subprocess.Popen(
        [sys.executable, "-m", "server", "--log-format", "text"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        parent = psutil.Process(node.pid)
        deadline = time.monotonic() + 60
        helpers: list[psutil.Process] = []
        while time.monotonic() < deadline:
            # The forkserver, and the two workers it forked (they share its command line).
            helpers = parent.children(recursive=True)
            forked = [p for p in helpers if "forkserver" in " ".join(p.cmdline())]
            if len(forked) >= 3:
                break
            time.sleep(0.2)
        else:
            pytest.fail(f"the node's physics pool did not start: {helpers}")
        assert node.poll() is None
        node.send_signal(signal.SIGKILL)
        node.wait(10)
        gone, alive = psutil.wait_procs(helpers, timeout=15)
        assert not alive, f"left behind: {[(p.pid, p.cmdline()[:3]) for p in alive]}"
        assert len(gone) == len(helpers)
    finally:
        if node.poll() is None:
            node.kill()
