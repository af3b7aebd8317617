"""A lone node on its SQLite file (`python -m server`, no Redis): stopped mid-match, by
SIGTERM or by SIGKILL, and started again on the same file, it resumes the match with the
same score, balls, turn and shot clock, and keeps every event for the replay."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from protocol import messages as m
from tests.cluster_e2e.clients import (
    Table,
    closed,
    fetch_replay,
    open_peer,
    room_events,
    shot_results,
    welcome_of,
)
from tests.cluster_e2e.processes import Node

SHOT_CLOCK = 60


@pytest.mark.parametrize("stop", ["sigterm", "sigkill"])
async def test_lone_node_restarted_on_its_file_resumes_the_match(tmp_path: Path, stop: str) -> None:
    database = tmp_path / "var" / "rooms.db"
    node = Node(
        "lone",
        tmp_path,
        ["--store", f"sqlite://{database}", "--secret", "s3cret", "--workers", "1", "--seed", "5"],
    )
    node.start()
    try:
        ana = await open_peer(node.ws_url, "Ana")
        ben = await open_peer(node.ws_url, "Ben")
        settings = {"race_to": 3, "first_break": "draw", "shot_clock": SHOT_CLOCK}
        created = await ana.request({"t": "create", "settings": settings})
        assert isinstance(created, m.Joined)
        room = created.room
        assert isinstance(await ben.request({"t": "join", "room": room}), m.Joined)
        assert isinstance(await ana.request({"t": "ready"}), m.Ok)
        assert isinstance(await ben.request({"t": "ready"}), m.Ok)
        draw = await ana.expect(m.LagResult)
        table = Table(players=[ana, ben])
        await table.begin(draw)
        for _ in range(3):
            await table.turn(prefer="pocket")
        before = table.table()
        seen_before = room_events(ana)
        shots_before = {result.seq for result in shot_results(ana)}

        if stop == "sigterm":
            node.terminate()  # graceful: every room saved, clients told 1001
            assert await closed(ana) == 1001
        else:
            node.kill()  # a crash: only what each save made durable survives
            await closed(ana)
        await closed(ben)

        node.start()  # the same file
        ana = await open_peer(node.ws_url, "Ana", token=ana.token)
        assert welcome_of(ana).room == room
        snapshot = await ana.expect(m.Snapshot)
        ben = await open_peer(node.ws_url, "Ben", token=ben.token)
        assert welcome_of(ben).room == room
        await ben.expect(m.Snapshot)

        after = snapshot.view.table
        assert after is not None
        assert snapshot.seq >= max(seen_before)
        assert (after.score, after.balls, after.turn, after.rack) == (
            before.score,
            before.balls,
            before.turn,
            before.rack,
        )
        assert (after.ball_in_hand, after.fouls, after.lowest) == (
            before.ball_in_hand,
            before.fouls,
            before.lowest,
        )
        assert after.clock is not None and before.clock is not None
        assert after.clock.seconds == SHOT_CLOCK
        assert after.clock.extensions == before.clock.extensions

        # Play on: the same match, its seq going on from where it stopped.
        table = Table(players=[ana, ben])
        ana.inbox.clear()
        await table.settle(snapshot.seq)
        for _ in range(2):
            result = await table.turn(prefer="pocket")
            assert result.seq > max(seen_before)

        # The replay kept every event from both lives of the process, in order.
        document = await asyncio.to_thread(fetch_replay, node.http_url, room)
        seqs = [event["seq"] for event in document["events"]]
        assert seqs == sorted(seqs) and len(set(seqs)) == len(seqs)
        replayed = {event["seq"]: event for event in document["events"]}
        for seq, event in (seen_before | room_events(ana)).items():
            assert seq in replayed, f"event {seq} ({type(event).__name__}) missing from the replay"
        shots = [e for e in document["events"] if e["t"] == "shot_result"]
        assert [e["seq"] for e in shots] == sorted(
            shots_before | {result.seq for result in shot_results(ana)}
        )
        assert node.trouble() == []
    finally:
        node.kill()
