"""A plain websockets echo server: the baseline `bench/load.py` compares the game server to.

    .venv/bin/python bench/echo_baseline.py --port 0     # prints "echo ready on 127.0.0.1:PORT"

Same library, same settings where they apply (no compression, loopback), no game: every
binary frame is sent straight back to its sender. What the game server costs beyond this
is the game.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import resource
import signal

from websockets.asyncio.server import ServerConnection, serve


async def echo(ws: ServerConnection) -> None:
    with contextlib.suppress(Exception):
        async for frame in ws:
            await ws.send(frame)


async def run(port: int) -> None:
    _soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    async with serve(
        echo, "127.0.0.1", port, compression=None, max_size=2**22, ping_interval=20
    ) as server:
        bound = server.sockets[0].getsockname()[1]
        print(f"echo ready on 127.0.0.1:{bound}", flush=True)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        await stop.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=0)
    asyncio.run(run(parser.parse_args().port))


if __name__ == "__main__":
    main()
