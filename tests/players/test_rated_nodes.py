"""Two real node processes (`python -m server`) on one real redis-server finish rated
racks at the same moment: every rack is counted, once, on every side.

Four account holders, two rated races to 1 — Ana and Ben on node 1, Cleo and Dan on node
2 — are played to the last shot, and both last shots (each the third foul in a row, R13)
are sent at once. The players' statistics, their rating histories and the leaderboard
(one Redis sorted set both nodes write) all carry both racks.
"""

from __future__ import annotations

import asyncio
import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from protocol import messages as m
from server.players.redis import RedisPlayerStore
from server.players.results import RackRecord, RackResult
from server.store.redis import connect
from tests.cluster_e2e.clients import open_peer
from tests.cluster_e2e.conftest import node_args
from tests.cluster_e2e.processes import Node
from tests.players.test_rated_play import PASSWORD, follow_ups, place, settle, shoot
from tests.redis_server import RedisServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break

SEEDED = 30  # rated racks each player has before: established, on the leaderboard


@pytest.fixture
def nodes(tmp_path: Path) -> Iterator[tuple[RedisServer, list[Node]]]:
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    started = [Node(name, tmp_path / "nodes", node_args(redis.url, name)) for name in ("n1", "n2")]
    try:
        for node in started:
            node.launch()
        for node in started:
            node.wait_ready()
        yield redis, started
    finally:
        for node in started:
            node.kill()
        redis.kill()


def http(node: Node, method: str, path: str, body: Any = None) -> tuple[int, Any]:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        node.http_url + path,
        data=data,
        method=method,
        headers={"Content-Type": "application/json"} if data is not None else {},
    )
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            raw = response.read()
            return response.status, json.loads(raw) if raw else None
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"null")


async def sign_up(node: Node, name: str) -> str:
    made = await asyncio.to_thread(
        http, node, "POST", "/api/accounts", {"name": name, "password": PASSWORD}
    )
    assert made[0] == 201, made
    status, body = await asyncio.to_thread(
        http, node, "POST", "/api/login", {"name": name, "password": PASSWORD}
    )
    assert status == 200, body
    return str(body["token"])


async def to_the_last_foul(players: tuple[Peer, Peer]) -> tuple[Peer, dict[str, Any]]:
    """Break, then the breaker's opponent fouls twice in a row while the breaker plays
    safe; returns the fouler, ball in hand placed, and the shot that is their third foul."""
    first = players[0].table
    assert first is not None
    await shoot(players, players[first.turn or 0], scripting.break_shot(first))
    fouler: Peer | None = None
    for _ in range(30):
        table = players[0].table
        assert table is not None and not table.match_over and table.turn is not None
        shooter = players[table.turn]
        if table.choice_pending:
            reply = await shooter.request({"t": "choose", "choice": "shoot"})
            assert isinstance(reply, m.Ok)
            ruling = await shooter.expect(m.Ruling)
            extra = follow_ups(ruling.verdict) if ruling.verdict is not None else 0
            await settle(players, ruling.seq + extra)
            continue
        fouler = fouler or shooter
        if table.ball_in_hand is not None:
            await place(players, shooter)
            table = shooter.table
            assert table is not None
        if shooter is fouler and table.fouls[table.turn] == 2:
            return fouler, scripting.plan_foul(table).message()
        plan = (
            scripting.plan_foul(table) if shooter is fouler else scripting.plan_legal(table, "miss")
        )
        await shoot(players, shooter, plan.message())
    raise AssertionError("never on two fouls")


async def seat_two(
    node: Node, first: str, second: str, tokens: dict[str, str]
) -> tuple[Peer, Peer]:
    a = await open_peer(node.ws_url, "x", tokens[first])
    b = await open_peer(node.ws_url, "x", tokens[second])
    created = await a.request(
        {"t": "create", "settings": {"race_to": 1, "first_break": "draw", "rated": True}}
    )
    assert isinstance(created, m.Joined), created
    assert isinstance(await b.request({"t": "join", "room": created.room}), m.Joined)
    assert isinstance(await a.request({"t": "ready"}), m.Ok)
    assert isinstance(await b.request({"t": "ready"}), m.Ok)
    draw = await b.expect(m.LagResult)
    chosen = await decide_first_break(draw, (a, b))
    await settle((a, b), chosen.seq + 1)
    return a, b


async def test_two_nodes_end_rated_racks_at_once_and_lose_nothing(
    nodes: tuple[RedisServer, list[Node]],
) -> None:
    redis, (n1, n2) = nodes
    tokens = {
        name: await sign_up(n1 if name in ("Ana", "Ben") else n2, name)
        for name in ("Ana", "Ben", "Cleo", "Dan")
    }
    store = RedisPlayerStore(connect(redis.url))
    try:
        ids = {}
        for name in tokens:
            found = await store.account_by_name(name.lower())
            assert found is not None
            ids[name] = found.player
        for number in range(SEEDED):  # alternating wins: everyone stays near 500
            for a, b in (("Ana", "Ben"), ("Cleo", "Dan")):
                winner, loser = (ids[a], ids[b]) if number % 2 else (ids[b], ids[a])
                seeded = RackResult(f"seed-{a}", 1, number + 1, winner, loser, True, winner)
                assert await store.apply_rack(RackRecord(seeded, 1_780_000_000_000)) is not None

        tables = await asyncio.gather(
            seat_two(n1, "Ana", "Ben", tokens), seat_two(n2, "Cleo", "Dan", tokens)
        )
        lasts = await asyncio.gather(*(to_the_last_foul(players) for players in tables))
        # Both third fouls at once, one on each node.
        replies = await asyncio.gather(*(fouler.request(shot) for fouler, shot in lasts))
        assert all(isinstance(reply, m.Ok) for reply in replies), replies
        for fouler, _ in lasts:
            result = await fouler.expect(m.ShotResult)
            assert result.verdict.game_end == "three_fouls" and result.verdict.match_over

        async def both_counted() -> bool:
            stats = [await store.stats(ids[name]) for name in tokens]
            return all(s is not None and s.racks == SEEDED + 1 for s in stats)

        for _ in range(400):
            if await both_counted():
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("a rack was not counted")
        status, board = await asyncio.to_thread(http, n2, "GET", "/api/leaderboard?limit=10")
        assert status == 200
        assert {row["name"]: row["racks"] for row in board} == {name: SEEDED + 1 for name in tokens}
        for name in tokens:
            status, profile = await asyncio.to_thread(http, n1, "GET", f"/api/players/{name}")
            assert status == 200 and profile["racks"] == SEEDED + 1
            assert len(profile["history"]) == SEEDED + 1
            (match,) = profile["matches"]
            assert match["rated"] and match["ended_by"] == "race"
        for peers in tables:
            for peer in peers:
                await peer.close()
        assert not [line for node in (n1, n2) for line in node.trouble()]
    finally:
        await store.close()
