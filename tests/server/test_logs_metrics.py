"""The Prometheus metrics a running server exports after real play: connections, rooms,
shots, simulation and shot latency, errors by code, limit hits by kind, event-loop lag."""

from __future__ import annotations

import asyncio
import http.client
import re

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.edge.limits import Limits
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer


def scrape(server: GameServer) -> dict[str, float]:
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    try:
        token = server.config.limits.metrics_token
        connection.request("GET", "/metrics", headers={"Authorization": f"Bearer {token}"})
        response = connection.getresponse()
        assert response.status == 200
        text = response.read().decode()
    finally:
        connection.close()
    samples = {}
    for line in text.splitlines():
        match = re.fullmatch(r"([a-z_]+(?:\{[^}]*\})?) ([0-9.e+-]+|NaN)", line)
        if match:
            samples[match.group(1)] = float(match.group(2))
    return samples


async def test_metrics_after_a_shot_an_error_and_a_limit(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(limits=Limits(metrics_token="scrape"))
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await ana.expect(m.LagResult), (ana, ben))
    assert draw.table is not None
    shooter, other = (ana, ben) if draw.table.turn == 0 else (ben, ana)
    refused = await other.request(scripting.break_shot(draw.table))
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    assert isinstance(await shooter.request(scripting.break_shot(draw.table)), m.Ok)
    await other.expect(m.ShotResult)
    for _ in range(21):  # chat: five at once, then one every two seconds
        await ana.send({"t": "chat", "text": "gg"})
    await ana.drain(0.3)
    samples: dict[str, float] = {}
    for _ in range(50):  # the loop-lag probe wakes every quarter second
        samples = await asyncio.to_thread(scrape, server)
        if samples.get("ninepool_event_loop_lag_seconds_count", 0) >= 1:
            break
        await asyncio.sleep(0.1)
    assert samples["ninepool_connections"] == 2
    assert samples["ninepool_rooms"] == 1
    assert samples["ninepool_shots_total"] == 1
    assert samples["ninepool_shot_seconds_count"] == 1
    assert samples["ninepool_simulate_seconds_count"] == 1
    assert samples['ninepool_errors_total{code="not_your_turn"}'] == 1
    assert samples['ninepool_errors_total{code="rate_limited"}'] >= 15
    assert samples['ninepool_limit_hits_total{kind="chat_rate"}'] >= 15
    assert samples['ninepool_limit_hits_total{kind="abuse_close"}'] == 0
    assert samples["ninepool_event_loop_lag_seconds_count"] >= 1
    assert samples["ninepool_frames_in_total"] > 0 and samples["ninepool_frames_out_total"] > 0
