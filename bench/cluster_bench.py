"""Many nodes: cross-node shot latency against a lone node (one run, as a ratio), and the
pub/sub fan-out throughput to spectators on other nodes.

    .venv/bin/python bench/cluster_bench.py                     # 300 shots each way
    .venv/bin/python bench/cluster_bench.py --shots 100 --fanout-seconds 5 --json

Everything runs on loopback as production runs it: a real `redis-server` (append-only,
`appendfsync always`: every write is on disk before it is acknowledged), server nodes as
`python -m server` processes, WebSocket clients speaking the protocol.

**Shot latency.** Two setups play the same match side by side, shot for shot (the same
seed, the same deterministic shots, so each shot is simulated identically in both):

- `lone`: one node on its default store (an SQLite file, fsynced), everybody on it;
- `cluster`: three nodes on Redis. The room is owned by n1; Ana plays on n1, Ben on n2,
  four spectators watch from n2 and four from n3. Ben's shots cross nodes twice (his
  action to the owner, the result back), Ana's once (the result out to n2 and n3).

A shot is timed from the moment the shooter's frame is sent until the `shot_result` has
reached all ten clients. The two setups take turns in blocks of shots, so that both see
the same load on the (shared) machine. Reported: medians, p95, p99 of each, the ratio
cluster / lone of the medians and of the p95, and the median of the per-shot ratios.

**Fan-out.** One room owned by n1, its players on n1, `--spectators` spectators split
between n2 and n3 (none on the owner). A player sends chat messages (room events: stored,
then fanned out) with `--window` of them in flight, for `--fanout-seconds`; every
spectator must receive every one. Reported: events per second through the room,
deliveries per second to the remote spectators, and the latency from sending to the
last spectator's arrival (p50, p95, p99). The same run on a lone node is the reference.

Limits are lifted on the benchmark's servers (`--rate 0 --chat-rate 0 --conns-per-address 0
--handshake-rate 0 --allow-no-origin`): the figures are the servers', not the limits'.
Nothing asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from bench.botclient import Client, aim, percentile, summary  # noqa: E402
from bench.botclient import open_client as botclient_open  # noqa: E402
from protocol import messages as m  # noqa: E402
from tests.cluster_e2e.processes import Node  # noqa: E402
from tests.redis_server import RedisServer  # noqa: E402

SECRET = "cluster-bench"
SEED = 11
LIFTED = [
    *("--rate", "0", "--chat-rate", "0", "--conns-per-address", "0", "--handshake-rate", "0"),
    "--allow-no-origin",
]
LIFTED += ["--log-level", "WARNING", "--seed", str(SEED), "--secret", SECRET]


# --- clients --------------------------------------------------------------------------------


async def open_client(node: Node, name: str) -> Client:
    return await botclient_open(node.ws_url, name)


# --- shot latency ---------------------------------------------------------------------------


async def after_draw(players: list[Client], draw: m.LagResult) -> None:
    """The draw's winner chooses to break (R3, O6), if the server asks; then the rack."""
    if draw.table is not None or draw.winner is None:
        return
    await players[draw.winner].send({"t": "lag_choice", "choice": "break"})
    await players[0].wait_for(m.Ruling)


@dataclass
class Match:
    label: str
    players: list[Client]
    watchers: list[Client]
    #: Per shot: (latency to every client, the shooter's seat).
    samples: list[tuple[float, int]] = field(default_factory=list)

    @property
    def everyone(self) -> list[Client]:
        return self.players + self.watchers

    async def shoot(self) -> None:
        """One shot (rematches and push-out choices on the way are not timed)."""
        ana = self.players[0]
        while True:
            table = ana.table
            assert table is not None
            if table.match_over:
                for player in self.players:
                    await player.send({"t": "rematch"})
                await after_draw(self.players, await ana.wait_for(m.LagResult))
                continue
            assert table.turn is not None
            if table.choice_pending:
                await self.players[table.turn].send({"t": "choose", "choice": "shoot"})
                await ana.wait_for(m.Ruling)
                continue
            break
        shooter = self.players[table.turn]
        angle, speed = aim(table)
        sent = time.perf_counter()
        await shooter.send({"t": "shot", "angle": angle, "speed": speed})
        reply = await shooter.wait_for((m.Ok, m.Error))
        if isinstance(reply, m.Error):
            raise SystemExit(f"{self.label}: shot refused: {reply.code}: {reply.msg}")
        result = await ana.wait_for(m.ShotResult)
        for client in self.everyone:
            while result.seq not in client.arrivals:
                await client.wait_for(m.ShotResult)
        latency = max(client.arrivals[result.seq] for client in self.everyone) - sent
        self.samples.append((latency, table.turn))
        for client in self.everyone:
            client.pending = [p for p in client.pending if not isinstance(p, m.ShotResult)]

    async def close(self) -> None:
        for client in self.everyone:
            await client.close()


async def set_up_match(label: str, ana_node: Node, ben_node: Node, watch: list[Node]) -> Match:
    ana = await open_client(ana_node, "Ana")
    ben = await open_client(ben_node, "Ben")
    await ana.send({"t": "create", "settings": {"race_to": 21, "first_break": "draw"}})
    joined = await ana.wait_for(m.Joined)
    await ben.send({"t": "join", "room": joined.room})
    await ben.wait_for(m.Joined)
    watchers = []
    for index, node in enumerate(watch):
        watcher = await open_client(node, f"Watcher{index}")
        await watcher.send({"t": "join", "room": joined.room, "role": "spectator"})
        await watcher.wait_for(m.Joined)
        watchers.append(watcher)
    await ana.send({"t": "ready"})
    await ben.send({"t": "ready"})
    await after_draw([ana, ben], await ana.wait_for(m.LagResult))
    for client in [ana, ben, *watchers]:
        with contextlib.suppress(TimeoutError):
            while True:  # the snapshots of the start
                await client.wait_for(m.Snapshot, timeout=0.3)
    return Match(label, [ana, ben], watchers)


async def shot_latency(lone: Node, nodes: list[Node], shots: int, block: int) -> dict[str, Any]:
    n1, n2, n3 = nodes
    single = await set_up_match("lone", lone, lone, [lone] * 8)
    multi = await set_up_match("cluster", n1, n2, [n2] * 4 + [n3] * 4)
    while len(multi.samples) < shots:
        for match in (single, multi):
            for _ in range(min(block, shots - len(match.samples))):
                await match.shoot()
    await single.close()
    await multi.close()
    lone_all = [latency for latency, _ in single.samples]
    cluster_all = [latency for latency, _ in multi.samples]
    ratios = [c / s for c, s in zip(cluster_all, lone_all, strict=True)]
    return {
        "shots": shots,
        "clients": 10,
        "lone": summary(lone_all),
        "cluster": summary(cluster_all),
        "cluster_shooter_on_owner": summary([lat for lat, seat in multi.samples if seat == 0]),
        "cluster_shooter_on_other_node": summary([lat for lat, seat in multi.samples if seat == 1]),
        "ratio_of_medians": percentile(cluster_all, 50) / percentile(lone_all, 50),
        "ratio_of_p95": percentile(cluster_all, 95) / percentile(lone_all, 95),
        "median_of_per_shot_ratios": statistics.median(ratios),
        "cluster_minus_lone_median_ms": statistics.median(
            [(c - s) * 1000 for c, s in zip(cluster_all, lone_all, strict=True)]
        ),
    }


# --- fan-out --------------------------------------------------------------------------------


async def fanout(
    owner: Node, watch: list[Node], rooms: int, spectators: int, seconds: float, window: int
) -> dict[str, Any]:
    """`rooms` rooms owned by `owner`, each with `spectators` on the `watch` nodes, all
    chatting at once with `window` messages in flight per room."""
    loop = asyncio.get_running_loop()
    tables: list[tuple[Client, list[Client], list[Client]]] = []
    for _ in range(rooms):
        talker = await open_client(owner, "Talker")
        other = await open_client(owner, "Other")
        await talker.send({"t": "create", "settings": {"name": "fan-out"}})
        joined = await talker.wait_for(m.Joined)
        await other.send({"t": "join", "room": joined.room})
        await other.wait_for(m.Joined)
        watchers = []
        for index in range(spectators):
            watcher = await open_client(watch[index % len(watch)], f"Viewer{index}")
            await watcher.send({"t": "join", "room": joined.room, "role": "spectator"})
            await watcher.wait_for(m.Joined)
            watchers.append(watcher)
        tables.append((talker, watchers, [talker, other, *watchers]))
    await asyncio.sleep(0.5)
    latencies: list[float] = []
    events = 0

    async def talk(talker: Client, watchers: list[Client], stop_at: float) -> None:
        nonlocal events
        in_flight = asyncio.Semaphore(window)
        sent: dict[str, float] = {}
        confirmations = []
        counter = 0

        async def confirm(text: str) -> None:
            while any(text not in w.chats for w in watchers):
                await asyncio.sleep(0.001)
            in_flight.release()

        while loop.time() < stop_at:
            await in_flight.acquire()
            counter += 1
            text = f"c{counter}"
            sent[text] = time.perf_counter()
            await talker.send({"t": "chat", "text": text})
            confirmations.append(loop.create_task(confirm(text)))
        await asyncio.wait_for(asyncio.gather(*confirmations), 120)
        events += len(sent)
        latencies.extend(max(w.chats[text] for w in watchers) - at for text, at in sent.items())

    started = time.perf_counter()
    stop_at = loop.time() + seconds
    await asyncio.gather(*(talk(talker, watchers, stop_at) for talker, watchers, _ in tables))
    elapsed = time.perf_counter() - started
    for _, _, clients in tables:
        for client in clients:
            await client.close()
    return {
        "rooms": rooms,
        "spectators_per_room": spectators,
        "window": window,
        "events": events,
        "events_per_second": events / elapsed,
        "deliveries_per_second": events * spectators / elapsed,
        "latency_to_every_spectator": summary(latencies),
    }


# --- the run --------------------------------------------------------------------------------


async def run(args: argparse.Namespace, folder: Path) -> dict[str, Any]:
    redis = RedisServer(folder / "redis")
    redis.start()
    workers = ["--workers", str(args.workers)]
    lone = Node("lone", folder / "nodes", [*LIFTED, *workers, "--store", f"sqlite://{folder}/l.db"])
    nodes = [
        Node(
            name,
            folder / "nodes",
            [*LIFTED, *workers, "--redis-url", redis.url, "--node-id", name],
        )
        for name in ("n1", "n2", "n3")
    ]
    try:
        for node in [lone, *nodes]:
            node.launch()
        for node in [lone, *nodes]:
            node.wait_ready()
        report: dict[str, Any] = {"workers": args.workers}
        report["shot_latency"] = await shot_latency(lone, nodes, args.shots, args.block)
        shapes = {"one_room": (1, args.spectators), "many_rooms": (args.rooms, 4)}
        for shape, (rooms, spectators) in shapes.items():
            for label, owner, watch in (("cluster", nodes[0], nodes[1:]), ("lone", lone, [lone])):
                report[f"fanout_{shape}_{label}"] = await fanout(
                    owner, watch, rooms, spectators, args.fanout_seconds, args.window
                )
        return report
    finally:
        for node in [lone, *nodes]:
            node.kill()
        redis.kill()


def print_report(report: dict[str, Any]) -> None:
    shots = report["shot_latency"]
    print(
        f"shot latency, {shots['shots']} shots each, {shots['clients']} clients, "
        f"{report['workers']} physics worker(s) per node"
    )
    for key in ("lone", "cluster", "cluster_shooter_on_owner", "cluster_shooter_on_other_node"):
        figures = shots[key]
        print(
            f"  {key:32s} p50 {figures['p50_ms']:7.2f} ms  p95 {figures['p95_ms']:7.2f} ms  "
            f"p99 {figures['p99_ms']:7.2f} ms  (n={figures['n']})"
        )
    print(
        f"  cluster / lone: medians x{shots['ratio_of_medians']:.2f}, "
        f"p95 x{shots['ratio_of_p95']:.2f}, per-shot median x"
        f"{shots['median_of_per_shot_ratios']:.2f} "
        f"(+{shots['cluster_minus_lone_median_ms']:.2f} ms per shot)"
    )
    for key in [k for k in report if k.startswith("fanout_")]:
        fan = report[key]
        lat = fan["latency_to_every_spectator"]
        print(
            f"{key}: {fan['rooms']} room(s) x {fan['spectators_per_room']} spectators, "
            f"window {fan['window']}: "
            f"{fan['events_per_second']:.0f} events/s, "
            f"{fan['deliveries_per_second']:.0f} deliveries/s; to every spectator "
            f"p50 {lat['p50_ms']:.2f} ms, p95 {lat['p95_ms']:.2f} ms, p99 {lat['p99_ms']:.2f} ms"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--shots", type=int, default=300, help="timed shots per setup")
    parser.add_argument("--block", type=int, default=10, help="shots per turn of each setup")
    parser.add_argument("--workers", type=int, default=1, help="physics workers per node")
    parser.add_argument("--spectators", type=int, default=100, help="fan-out: one room's")
    parser.add_argument("--rooms", type=int, default=20, help="fan-out: rooms of 4 spectators")
    parser.add_argument("--fanout-seconds", type=float, default=10.0)
    parser.add_argument("--window", type=int, default=8, help="chat messages in flight")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="cluster-bench-") as folder:
        report = asyncio.run(run(args, Path(folder)))
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        print_report(report)


if __name__ == "__main__":
    main()
