"""The lone node keeps its session-token key beside its SQLite store (O5 across restarts).

A restarted lone node resumes every room; the players' tokens must still be valid so
they can reclaim their seats, so the key that signs them must be the same after a restart.
"""

from __future__ import annotations

import stat
from pathlib import Path

from server.ops.config import config_from_args


def test_o5_sqlite_node_keeps_its_token_key_across_restarts(tmp_path: Path) -> None:
    store = f"sqlite://{tmp_path}/var/rooms.db"
    first = config_from_args(["--store", store], environ={})
    second = config_from_args(["--store", store], environ={})
    assert first.secret == second.secret
    assert len(first.secret) >= 32
    key_file = tmp_path / "var" / "session-secret"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600


def test_a_given_secret_wins_and_writes_no_file(tmp_path: Path) -> None:
    store = f"sqlite://{tmp_path}/rooms.db"
    config = config_from_args(["--store", store, "--secret", "s" * 40], environ={})
    assert config.secret == b"s" * 40
    assert not (tmp_path / "session-secret").exists()


def test_memory_store_draws_a_fresh_key_each_start() -> None:
    first = config_from_args(["--store", "memory://"], environ={})
    second = config_from_args(["--store", "memory://"], environ={})
    assert first.secret != second.secret
    assert not first.secret_given
