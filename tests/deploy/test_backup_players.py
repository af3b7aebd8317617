"""deploy/backup.py keeps a lone node's players too: `players.db` beside `rooms.db` is
copied online with the rooms (while ratings are being written), checked, and written back
by the restore — accounts, ratings, rating histories and leaderboards as they were."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest

from deploy import backup
from server.players import names
from server.players.results import RackRecord, RackResult
from server.players.sqlite import SqlitePlayerStore
from server.store import LogEntry
from server.store.sqlite import SqliteStore
from tests.deploy.test_backup import run_cli

AT = 1_780_000_000_000


async def claim(store: SqlitePlayerStore, player: str, name: str) -> None:
    await store.create_account(
        player, name, names.fold(name), names.skeleton(name), f"hash-{player}", 1
    )


async def keep_rating(store: SqlitePlayerStore, stop: asyncio.Event) -> int:
    racks = 0
    while not stop.is_set():
        racks += 1
        winner, loser = ("p_a", "p_b") if racks % 2 else ("p_b", "p_a")
        result = RackResult("live", 1, racks, winner, loser, True, winner)
        assert await store.apply_rack(RackRecord(result, AT)) is not None
    return racks


async def test_players_backed_up_beside_the_rooms_then_restored(tmp_path: Path) -> None:
    var = tmp_path / "var"
    rooms = SqliteStore(var / "rooms.db")
    await rooms.save("r", b"snapshot", [LogEntry(1, b"x")])
    players = SqlitePlayerStore(var / "players.db")
    await claim(players, "p_a", "Alice")
    await claim(players, "p_b", "Boris")
    stop = asyncio.Event()
    writer = asyncio.create_task(keep_rating(players, stop))
    await asyncio.sleep(0.05)
    code, out, err = await run_cli("sqlite-backup", str(var / "rooms.db"), str(tmp_path / "b"))
    stop.set()
    written = await writer
    assert code == 0, err
    manifest = json.loads(out)
    held = manifest["players"]["counts"]
    assert held["accounts"] == 2 and 0 < held["seen"] <= written
    before = (await players.stats("p_a"), await players.stats("p_b"))
    await players.close()
    await rooms.close()

    shutil.rmtree(var)  # the disk is lost
    code, out, err = await run_cli("sqlite-restore", str(tmp_path / "b"), str(var / "rooms.db"))
    assert code == 0, err
    assert json.loads(out)["players"] == held
    restored = SqlitePlayerStore(var / "players.db")
    try:
        a, b = await restored.stats("p_a"), await restored.stats("p_b")
        assert a is not None and b is not None
        assert a.racks == b.racks == held["seen"]  # every rack of the copy, both sides
        assert before[0] is not None and a.racks <= before[0].racks
        account = await restored.account_by_name("alice")
        assert account is not None and account.name == "Alice"
        # A rack counted before the backup is still known: it does not count twice.
        first = RackResult("live", 1, 1, "p_b", "p_a", True, "p_b")
        assert await restored.apply_rack(RackRecord(first, AT)) is None
    finally:
        await restored.close()


def test_a_damaged_players_copy_is_refused(tmp_path: Path) -> None:
    var = tmp_path / "var"

    async def fill() -> None:
        rooms = SqliteStore(var / "rooms.db")
        await rooms.save("r", b"s", [LogEntry(1, b"x")])
        await rooms.close()
        players = SqlitePlayerStore(var / "players.db")
        await claim(players, "p_a", "Alice")
        await players.close()

    asyncio.run(fill())
    backup.sqlite_backup(var / "rooms.db", tmp_path / "b")
    with (tmp_path / "b" / "players.db").open("r+b") as file:
        file.seek(4096 + 100)
        file.write(b"\xff" * 16)
    with pytest.raises(backup.BackupError, match="checksum"):
        backup.sqlite_restore(tmp_path / "b", tmp_path / "elsewhere" / "rooms.db")
    assert not (tmp_path / "elsewhere" / "rooms.db").exists()  # nothing written
