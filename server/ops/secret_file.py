"""The lone node's session-token key, kept beside its SQLite store (`lone_node_secret`)."""

from __future__ import annotations

import os
import secrets
from pathlib import Path


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
