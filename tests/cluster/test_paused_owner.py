"""A real owner process is paused (SIGSTOP) past its lease; another node takes the room.
When the old owner resumes, its save is refused by the fence, before the new owner has
written anything, and its lease keeper reports the loss."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

import redis.asyncio as aioredis

from server.cluster import Leases
from server.store.redis import RedisStore, connect
from tests.redis_server import RedisServer

WAIT = 30.0

_OWNER = """
import asyncio, sys
from server.cluster import Leases
from server.store import FencedError, LogEntry
from server.store.redis import RedisStore, connect

async def main(url):
    client = connect(url)
    leases = Leases(client, node="paused-owner", ttl=0.3)
    store = RedisStore(connect(url))
    lease = await leases.acquire("r1")
    keeper = leases.keep_alive(lease, on_lost=lambda lease: print("lost", flush=True))
    await store.save("r1", b"old owner", [LogEntry(1, b"first")], fence=lease.epoch)
    print("owner", lease.epoch, flush=True)
    loop = asyncio.get_running_loop()
    seq = 1
    while (await loop.run_in_executor(None, sys.stdin.readline)).strip() != "quit":
        seq += 1
        try:
            await store.save("r1", b"old owner again", [LogEntry(seq, b"late")], fence=lease.epoch)
            print("saved", flush=True)
        except FencedError:
            print("fenced", flush=True)
    await keeper.stop()
    await store.close()
    await client.aclose()

asyncio.run(main(sys.argv[1]))
"""


async def read_line(process: subprocess.Popen[str]) -> str:
    assert process.stdout is not None
    line = await asyncio.wait_for(asyncio.to_thread(process.stdout.readline), WAIT)
    assert line, "the owner process ended"
    return line.strip()


async def test_a_paused_owner_process_is_fenced_out(
    own_redis: RedisServer, client: aioredis.Redis
) -> None:
    owner = subprocess.Popen(
        [sys.executable, "-c", _OWNER, own_redis.url],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[2],
    )
    try:
        assert await read_line(owner) == "owner 1"
        os.kill(owner.pid, signal.SIGSTOP)  # a long GC pause, a frozen VM...

        other = Leases(client, node="new-owner", ttl=30.0)
        taken = None
        for _ in range(int(WAIT / 0.02)):  # the paused owner cannot renew: its lease runs out
            taken = await other.acquire("r1")
            if taken is not None:
                break
            await asyncio.sleep(0.02)
        assert taken is not None and taken.epoch == 2

        os.kill(owner.pid, signal.SIGCONT)
        assert owner.stdin is not None
        owner.stdin.write("save\n")
        owner.stdin.flush()
        said = {await read_line(owner), await read_line(owner)}
        assert said == {"fenced", "lost"}

        store = RedisStore(connect(own_redis.url))
        assert await store.load("r1") == b"old owner"
        assert [entry.seq for entry in await store.log("r1")] == [1]
        await store.close()

        owner.stdin.write("quit\n")
        owner.stdin.flush()
        assert await asyncio.to_thread(owner.wait, WAIT) == 0
    finally:
        if owner.poll() is None:
            os.kill(owner.pid, signal.SIGCONT)
            owner.kill()
            owner.wait()
