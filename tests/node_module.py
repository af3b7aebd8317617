"""Runs a piece of the browser client under node: the parity tests hold the client's copy
of a rule or a table (a name's rule, the aim preview, ball-in-hand placement, a shot's
reach) to the server's on the same inputs."""

from __future__ import annotations

import json
import subprocess
from typing import Any


def node_json(script: str, *args: str) -> Any:
    """What `script` (an ES module, given `args` as `process.argv[1:]`) prints on its
    standard output, read as JSON; CalledProcessError if node fails."""
    result = subprocess.run(
        ["node", "--input-type=module", "-e", script, *args],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return json.loads(result.stdout)
