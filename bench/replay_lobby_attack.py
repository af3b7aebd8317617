"""A running match under two attacks: replay readers that never read, and lobby churn.

    .venv/bin/python bench/replay_lobby_attack.py                         # this tree
    git worktree add /tmp/ninepool-replay-before <commit>                      # an older one
    .venv/bin/python bench/replay_lobby_attack.py --tree /tmp/ninepool-replay-before --json

A server (`python -m server` of `--tree`, on a SQLite file, one physics worker) is given
a finished room with a long log (`--replay-mib`, written with that tree's own store and
record code before it starts). Two bots play a match on it, shot after shot, the whole
time; each shot is timed from the shooter's frame until the `shot_result` has reached
both players. Three phases of `--seconds` each:

1. **quiet**: the match alone;
2. **replay readers**: `--readers` connections, each from its own loopback address
   (127.0.0.2, .3, …, so no per-address limit applies), ask for the long replay and never
   read a byte (a 4 KiB receive buffer, never drained);
3. **lobby churn**: `--subscribers` connections subscribe to the lobby and count the
   bytes they get, while `--churners` connections from two addresses join a public room
   as spectators and leave it again, as fast as the server's message rate allows (10
   frames a second per connection, the default: 5 churns a second each).

For each phase: shot latency (p50, p95, max), the server's peak RSS and CPU (main
process; the physics worker apart), and for the churn the frames and bytes the
subscribers got. Nothing asserts a figure; `bench/README.md` has the ones measured.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import resource
import socket
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path
from typing import Any

import msgpack
import psutil
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.botclient import Client, aim, open_client, summary  # noqa: E402
from protocol import messages as m  # noqa: E402

PYTHON = ROOT / ".venv" / "bin" / "python"
REPLAY_ROOM = "longreplay"
EVENT_BYTES = 8000
#: A churner's join and leave are two frames: paced to the server's 10 frames a second.
CHURN_PAUSE = 0.21

SEED = textwrap.dedent(
    """
    import asyncio, dataclasses, sys
    from protocol import messages as m
    from protocol.codec import encode
    from server.rooms import snapshots
    from server.rooms.model import Limits, new_room
    from server.store import LogEntry, open_store

    async def main(path, room, events, size):
        store = open_store("sqlite://" + path)
        state = new_room(room, m.RoomSettings(name="long one"), 7, None, Limits())
        state = dataclasses.replace(state, seq=events, shots=1, closed=True)
        record = encode(snapshots.record(state, 0.0))
        batch = []
        for seq in range(1, events + 1):
            text = "x" * size
            batch.append(LogEntry(seq, encode(m.ChatRelay(room=room, seq=seq, seat=None,
                                                          name="filler", text=text))))
            if len(batch) == 500:
                await store.save(room, record, batch)
                batch = []
        await store.save(room, record, batch)
        await store.close()

    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])))
    """
)


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


class Server:
    """`python -m server` of a tree, on a SQLite file in a temporary folder."""

    def __init__(self, tree: Path, folder: Path) -> None:
        self.tree, self.folder = tree, folder
        self.proc: subprocess.Popen[str] | None = None
        self.port = 0

    def seed(self, mib: float) -> None:
        events = int(mib * 2**20 / EVENT_BYTES)
        database = str(self.folder / "rooms.db")
        subprocess.run(
            [str(PYTHON), "-c", SEED, database, REPLAY_ROOM, str(events), str(EVENT_BYTES)],
            cwd=self.tree,
            check=True,
        )

    def start(self) -> None:
        args = [
            str(PYTHON), "-m", "server", "--host", "127.0.0.1", "--port", "0",
            "--store", f"sqlite://{self.folder / 'rooms.db'}", "--workers", "1",
            "--secret", "bench-secret-bench-secret", "--seed", "7",
            # Many connections from one address, at the server's own message rates.
            "--handshake-rate", "0", "--conns-per-address", "0",
            "--allow-no-origin", "--log-level", "WARNING", "--log-format", "text",
        ]  # fmt: skip
        self.proc = subprocess.Popen(
            args, cwd=self.tree, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            found = re.search(r":(\d+)/", line)
            if "ready" in line and found:
                self.port = int(found.group(1))
                return
        raise SystemExit(f"the server of {self.tree} did not start")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(20)
            if self.proc.poll() is None:
                self.proc.kill()


class Probe:
    """Peak RSS and CPU seconds of the server's main process over a phase."""

    def __init__(self, pid: int) -> None:
        self.proc = psutil.Process(pid)
        self.peak = 0.0
        self.cpu0 = self.wall0 = 0.0

    def begin(self) -> None:
        self.peak = self.proc.memory_info().rss / 2**20
        self.cpu0 = sum(self.proc.cpu_times()[:2])
        self.wall0 = time.perf_counter()

    async def watch(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.peak = max(self.peak, self.proc.memory_info().rss / 2**20)
            await asyncio.sleep(0.1)

    def end(self) -> dict[str, float]:
        cpu = sum(self.proc.cpu_times()[:2]) - self.cpu0
        wall = time.perf_counter() - self.wall0
        return {"rss_peak_mib": round(self.peak, 1), "cpu_percent": round(100 * cpu / wall, 1)}


class Match:
    """Two bots playing shot after shot; latencies are collected into `samples`."""

    def __init__(self, port: int) -> None:
        self.url = f"ws://127.0.0.1:{port}/ws"
        self.samples: list[float] = []
        self.players: list[Client] = []

    async def open(self) -> None:
        ana = await open_client(self.url, "Ana")
        ben = await open_client(self.url, "Ben")
        await ana.send({"t": "create", "settings": {"race_to": 21, "first_break": "draw"}})
        joined = await ana.wait_for(m.Joined)
        await ben.send({"t": "join", "room": joined.room})
        await ben.wait_for(m.Joined)
        self.players = [ana, ben]
        await ana.send({"t": "ready"})
        await ben.send({"t": "ready"})
        await self._break(await ana.wait_for(m.LagResult))

    async def _break(self, draw: m.LagResult) -> None:
        assert draw.winner is not None
        await self.players[draw.winner].send({"t": "lag_choice", "choice": "break"})
        while (await self.players[0].wait_for(m.Ruling)).action != "lag_choice":
            pass

    async def play(self, stop: asyncio.Event) -> None:
        ana, ben = self.players
        while not stop.is_set():
            table = ana.table
            assert table is not None
            if table.match_over:
                for player in self.players:
                    await player.send({"t": "rematch"})
                await self._break(await ana.wait_for(m.LagResult))
                continue
            assert table.turn is not None
            shooter = self.players[table.turn]
            if table.choice_pending:
                await shooter.send({"t": "choose", "choice": "shoot"})
                await ana.wait_for(m.Ruling)
                continue
            angle, speed = aim(table)
            sent = time.perf_counter()
            await shooter.send({"t": "shot", "angle": angle, "speed": speed})
            reply = await shooter.wait_for((m.Ok, m.Error))
            if isinstance(reply, m.Error):
                raise SystemExit(f"shot refused: {reply.code}: {reply.msg}")
            result = await ana.wait_for(m.ShotResult, timeout=120)
            while result.seq not in ben.arrivals:
                await ben.wait_for(m.ShotResult, timeout=120)
            self.samples.append(max(ana.arrivals[result.seq], ben.arrivals[result.seq]) - sent)
            for player in self.players:
                player.pending = [p for p in player.pending if not isinstance(p, m.ShotResult)]
            # A player's pause between shots: the match is a table, not a stress test.
            await asyncio.sleep(0.2)


def note(text: str) -> None:
    print(f"{time.strftime('%H:%M:%S')} {text}", file=sys.stderr, flush=True)


async def phase(
    name: str, match: Match, probe: Probe, seconds: float, attack: Any = None
) -> dict[str, Any]:
    note(f"phase {name}")
    stop = asyncio.Event()
    probe.begin()
    match.samples = []
    watcher = asyncio.get_running_loop().create_task(probe.watch(stop))
    player = asyncio.get_running_loop().create_task(match.play(stop))
    extra: dict[str, Any] = {}
    if attack is not None:
        extra = await attack(seconds)
    else:
        await asyncio.sleep(seconds)
    stop.set()
    note(f"phase {name}: done, waiting for the last shot")
    await player
    await watcher
    shots = summary(match.samples) if match.samples else {"n": 0}
    return {
        "phase": name,
        **probe.end(),
        "shots": shots["n"],
        "shot_p50_ms": round(shots.get("p50_ms", float("nan")), 1),
        "shot_p95_ms": round(shots.get("p95_ms", float("nan")), 1),
        "shot_max_ms": round(shots.get("max_ms", float("nan")), 1),
        **extra,
    }


def replay_readers(port: int, count: int) -> Any:
    async def attack(seconds: float) -> dict[str, Any]:
        socks = []
        for index in range(count):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.bind((f"127.0.0.{2 + index}", 0))
            sock.setblocking(False)
            with contextlib.suppress(BlockingIOError):
                sock.connect(("127.0.0.1", port))
            socks.append(sock)
        await asyncio.sleep(0.2)
        request = f"GET /replay/{REPLAY_ROOM} HTTP/1.1\r\nHost: bench\r\n\r\n".encode()
        for sock in socks:
            with contextlib.suppress(OSError):
                sock.send(request)
        await asyncio.sleep(seconds)
        statuses: dict[str, int] = {}
        for sock in socks:
            try:
                line = sock.recv(32).split(b"\r\n", 1)[0].decode(errors="replace")
                status = line.split()[1] if len(line.split()) > 1 else "none"
            except OSError:
                status = "none"
            statuses[status] = statuses.get(status, 0) + 1
            sock.close()
        return {"readers": count, "statuses": statuses}

    return attack


async def lobby_churn(port: int, subscribers: int, churners: int) -> Any:
    """The churn runs in a process of its own, so that its clients' work (600 sockets
    reading whatever the lobby sends) is not taken for the server's: it connects its
    subscribers first, then churns for the phase when told to."""
    child = await asyncio.create_subprocess_exec(
        str(PYTHON), __file__, "--churn-port", str(port),
        "--subscribers", str(subscribers), "--churners", str(churners),
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert child.stdin is not None and child.stdout is not None
    await child.stdout.readline()  # its subscribers are in the lobby

    async def attack(seconds: float) -> dict[str, Any]:
        assert child.stdin is not None and child.stdout is not None
        child.stdin.write(f"{seconds}\n".encode())
        await child.stdin.drain()
        report: dict[str, Any] = json.loads(await child.stdout.readline())
        await child.wait()
        return report

    return attack


async def churn_process(port: int, subscribers: int, churners: int) -> None:
    """`--churn-port`: subscribers and churners, reporting on stdout (see `lobby_churn`)."""
    url = f"ws://127.0.0.1:{port}/ws"

    async def subscriber(index: int, counts: list[int], stop: asyncio.Event) -> None:
        ws = await connect(url, compression=None, max_size=2**22, open_timeout=60)
        hello = {"t": "hello", "id": 1, "v": m.PROTOCOL_VERSION, "name": f"Sub{index}"}
        await ws.send(msgpack.packb(hello))
        await ws.recv()
        await ws.send(msgpack.packb({"t": "lobby", "id": 2, "on": True}))
        await ws.recv()
        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                try:
                    frame = await asyncio.wait_for(ws.recv(), 0.5)
                except TimeoutError:
                    continue
                counts[0] += 1
                counts[1] += len(frame)
        await ws.close()

    async def churner(index: int, room: str, joins: list[int], stop: asyncio.Event) -> None:
        source = f"127.0.0.{2 + index % 2}"
        ws = await connect(
            url, compression=None, max_size=2**22, open_timeout=60, local_addr=(source, 0)
        )
        await ws.send(msgpack.packb({"t": "hello", "id": 1, "v": 1, "name": f"Churn{index}"}))
        await ws.recv()
        next_id = 2

        async def ask(message: dict[str, Any]) -> None:
            nonlocal next_id
            next_id += 1
            await ws.send(msgpack.packb({**message, "id": next_id}))
            while True:  # the reply, whatever came before it
                reply = msgpack.unpackb(await ws.recv())
                if reply.get("id") == next_id:
                    return

        with contextlib.suppress(ConnectionClosed):
            while not stop.is_set():
                await ask({"t": "join", "room": room, "role": "spectator"})
                await ask({"t": "leave"})
                joins[0] += 1
                await asyncio.sleep(CHURN_PAUSE)
        await ws.close()

    host = await open_client(url, "Host")
    await host.send({"t": "create", "settings": {"name": "churned"}})
    room = (await host.wait_for(m.Joined)).room
    counts, joins = [0, 0], [0]
    stop = asyncio.Event()
    subs = []
    for index in range(subscribers):
        subs.append(asyncio.create_task(subscriber(index, counts, stop)))
        if index % 50 == 49:
            await asyncio.sleep(0.05)
    await asyncio.sleep(2.0)
    print("ready", flush=True)
    seconds = float(await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline))
    note(f"{subscribers} subscribers in the lobby; churn starts")
    counts[0] = counts[1] = 0
    started = time.perf_counter()
    churn = [asyncio.create_task(churner(i, room, joins, stop)) for i in range(churners)]
    await asyncio.sleep(seconds)
    stop.set()
    elapsed = time.perf_counter() - started
    frames, sent = counts
    await asyncio.gather(*churn, return_exceptions=True)
    await asyncio.gather(*subs, return_exceptions=True)
    await host.close()
    report = {
        "subscribers": subscribers,
        "churners": churners,
        "churns": joins[0],
        "lobby_frames": frames,
        "lobby_mb": round(sent / 1e6, 1),
        "lobby_frames_per_subscriber_per_s": round(frames / subscribers / elapsed, 2),
    }
    print(json.dumps(report), flush=True)


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(args.tree).resolve(), Path(folder))
        server.seed(args.replay_mib)
        server.start()
        try:
            assert server.proc is not None
            probe = Probe(server.proc.pid)
            match = Match(server.port)
            await match.open()
            results = [await phase("quiet", match, probe, args.seconds)]
            attack = replay_readers(server.port, args.readers)
            results.append(await phase("replay readers", match, probe, args.seconds, attack))
            await asyncio.sleep(2.0)
            attack = await lobby_churn(server.port, args.subscribers, args.churners)
            results.append(await phase("lobby churn", match, probe, args.seconds, attack))
            for player in match.players:
                await player.close()
            return results
        finally:
            server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=str(ROOT), help="the source tree whose server runs")
    parser.add_argument("--seconds", type=float, default=20.0, help="length of each phase")
    parser.add_argument("--replay-mib", type=float, default=34.0, help="the long replay's log")
    parser.add_argument("--readers", type=int, default=30)
    parser.add_argument("--subscribers", type=int, default=600)
    parser.add_argument("--churners", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="one JSON document")
    parser.add_argument("--churn-port", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    raise_fd_limit()
    if args.churn_port is not None:
        asyncio.run(churn_process(args.churn_port, args.subscribers, args.churners))
        return
    results = asyncio.run(run(args))
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=args.tree, capture_output=True, text=True
    ).stdout.strip()
    if args.json:
        print(json.dumps({"tree": args.tree, "commit": commit, "phases": results}, indent=2))
        return
    print(f"{args.tree} ({commit}), pid {os.getpid()}")
    for row in results:
        print(json.dumps(row))


if __name__ == "__main__":
    main()
