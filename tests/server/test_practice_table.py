"""The practice table through a real server on port 0 and real WebSocket clients: place,
shoot, undo, redo, retry, preview, drills, links, spectators, a reconnect, and every bad
input refused with its code while nothing changes."""

from __future__ import annotations

import base64
import dataclasses
import math
from typing import Any

import pytest

from protocol import errors
from protocol import messages as m
from protocol import practice as pm
from server.app import GameServer
from server.edge.limits import Limits
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer


@pytest.fixture
async def server(make_server: ServerFactory) -> GameServer:
    """A server whose rate limit leaves room for a test that checks every state twice."""
    return await make_server(limits=dataclasses.replace(Limits(), rate=1000.0, burst=1000))


async def state_of(peer: Peer) -> pm.PracticeView:
    reply = await peer.request({"t": "resync"})
    assert isinstance(reply, pm.PracticeState) and reply.cause == "resync", reply
    return reply.view


async def change(peer: Peer, message: dict[str, Any]) -> pm.PracticeState:
    """A practice request that changes the table: `ok`, then the new state."""
    reply = await peer.request(message)
    assert isinstance(reply, m.Ok), reply
    return await peer.expect(pm.PracticeState)


async def refused(peer: Peer, message: dict[str, Any], code: str) -> m.Error:
    before = await state_of(peer)
    reply = await peer.request(message)
    assert isinstance(reply, m.Error), reply
    assert reply.code == code, reply
    assert reply.msg
    assert await state_of(peer) == before  # nothing changed
    return reply


async def open_table(peer: Peer, **fields: Any) -> tuple[m.Joined, pm.PracticeState]:
    joined = await peer.request({"t": "practice", **fields})
    assert isinstance(joined, m.Joined), joined
    assert joined.role == "player" and joined.seat == 0 and joined.code is None
    state = await peer.expect(pm.PracticeState)
    assert state.cause == "open" and state.room == joined.room
    return joined, state


async def shoot(peer: Peer, angle: float, speed: float) -> pm.PracticeShot:
    reply = await peer.request({"t": "shot", "angle": angle, "speed": speed})
    assert isinstance(reply, m.Ok), reply
    return await peer.expect(pm.PracticeShot)


def link(*balls: tuple[int, float, float], flags: int = 0) -> str:
    data = bytes((1, flags))
    for ball, x, y in balls:
        gx, gy = round((x + 0.06) / 0.00005), round((y + 0.06) / 0.00005)
        data += ((ball << 32) | (gx << 16) | gy).to_bytes(5, "big")
    return base64.urlsafe_b64encode(data).decode().rstrip("=")


async def test_place_shoot_undo_redo_retry_preview(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    watcher = await open_peer(server, peers, "Lobbyist")
    listing = await watcher.request({"t": "lobby", "on": True})
    _, opened = await open_table(ana, layout=link((0, 0.5, 0.635), (1, 1.5, 0.635)))
    assert opened.view.balls[0] == pytest.approx((0.5, 0.635), abs=1e-4)
    assert opened.view.undo == 0 and not opened.view.retry and opened.view.player == "Ana"

    placed = await change(ana, {"t": "practice_put", "ball": 9, "pos": [2.2, 0.3]})
    assert placed.cause == "put" and placed.view.balls[9] == (2.2, 0.3)
    start = placed.view

    # The preview says what the shot would do; nothing changes.
    preview_id = await ana.send(
        {"t": "practice_preview", "angle": 0.0, "speed": 2.0, "tip": [0.0, 0.2]}
    )
    preview = await ana.reply_to(preview_id)
    assert isinstance(preview, pm.PracticePreviewed), preview
    assert preview.report.first == 1 and preview.traj and preview.duration > 0
    assert await state_of(ana) == start

    played = await ana.request({"t": "shot", "angle": 0.0, "speed": 2.0, "tip": [0.0, 0.2]})
    assert isinstance(played, m.Ok)
    shot = await ana.expect(pm.PracticeShot)
    assert shot.final == preview.final  # the preview was the shot
    assert shot.verdict is None  # free play
    after = shot.view
    assert after.shots == 1 and after.retry and after.undo == start.undo + 1
    assert after.balls[1] != start.balls[1]

    undone = await change(ana, {"t": "practice_undo"})
    assert undone.view.balls == start.balls and undone.view.redo == 1
    redone = await change(ana, {"t": "practice_redo"})
    assert redone.view.balls == after.balls and redone.view.redo == 0
    await change(ana, {"t": "practice_remove", "ball": 9})
    again = await change(ana, {"t": "practice_retry"})
    assert again.cause == "retry" and again.view.balls == start.balls

    # Never listed in the lobby as a match.
    assert isinstance(listing, m.Rooms) and listing.rooms == []
    assert not [x for x in await watcher.drain(0.3) if isinstance(x, m.RoomChanged)]


async def test_every_bad_input_is_refused_and_changes_nothing(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    await open_table(ana, layout=link((0, 0.5, 0.635), (1, 1.5, 0.635)))
    put = {"t": "practice_put", "ball": 3}
    await refused(ana, {**put, "pos": [1.51, 0.635]}, errors.BALLS_OVERLAP)
    await refused(ana, {**put, "pos": [1.0, 1.265]}, errors.OFF_BED)
    await refused(ana, {**put, "pos": [0.01, 0.01]}, errors.IN_POCKET)
    await refused(ana, {**put, "pos": [1.27, 1.27]}, errors.IN_POCKET)
    await refused(ana, {"t": "practice_put", "ball": 12, "pos": [1.0, 0.5]}, errors.BAD_MESSAGE)
    await refused(ana, {**put, "pos": [3.0, 0.5]}, errors.BAD_MESSAGE)  # off the table's size
    await refused(ana, {"t": "practice_remove", "ball": 10}, errors.BAD_MESSAGE)
    await refused(ana, {"t": "practice_remove", "ball": 4}, errors.NOT_ON_TABLE)
    await refused(ana, {"t": "practice_redo"}, errors.NOTHING_TO_REDO)
    await refused(ana, {"t": "practice_undo"}, errors.NOTHING_TO_UNDO)
    await refused(ana, {"t": "practice_retry"}, errors.NOTHING_TO_RETRY)
    await refused(ana, {"t": "practice_load", "layout": "%%%"}, errors.BAD_LAYOUT)
    await refused(ana, {"t": "practice_load", "layout": "AQ"}, errors.BAD_LAYOUT)
    await refused(ana, {"t": "practice_load"}, errors.BAD_LAYOUT)
    await refused(ana, {"t": "practice_load", "drill": "trick_shots"}, errors.BAD_MESSAGE)
    eleven = link(*((b % 10, 0.2 + b * 0.2, 0.5) for b in range(11)))
    await refused(ana, {"t": "practice_load", "layout": eleven}, errors.TOO_MANY_BALLS)
    overlapping = link((0, 0.5, 0.5), (1, 0.52, 0.5))
    await refused(ana, {"t": "practice_load", "layout": overlapping}, errors.BALLS_OVERLAP)
    await refused(ana, {"t": "practice_load", "layout": link((7, 0.0, 0.0))}, errors.IN_POCKET)
    await refused(ana, {"t": "practice_load", "layout": link((12, 0.5, 0.5))}, errors.NO_SUCH_BALL)
    # Shots: out of range, a push-out, the match's requests.
    await refused(ana, {"t": "shot", "angle": 0, "speed": 12.9}, errors.BAD_MESSAGE)
    await refused(
        ana, {"t": "shot", "angle": 0, "speed": 2, "push_out": True}, errors.NOT_AT_PRACTICE
    )
    await refused(ana, {"t": "ready"}, errors.NOT_AT_PRACTICE)
    await refused(ana, {"t": "chat", "text": "hi"}, errors.NOT_AT_PRACTICE)
    await refused(ana, {"t": "practice"}, errors.ALREADY_IN_ROOM)
    await change(ana, {"t": "practice_remove", "ball": 0})
    await refused(ana, {"t": "shot", "angle": 0, "speed": 2}, errors.NO_CUE_BALL)
    await refused(ana, {"t": "practice_preview", "angle": 0, "speed": 2}, errors.NO_CUE_BALL)


async def test_a_malformed_link_opens_no_table(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    for code, error in [
        ("not a link", errors.BAD_LAYOUT),
        (link((0, 0.5, 0.5), (0, 1.0, 0.5)), errors.BAD_LAYOUT),
        (link((0, 0.5, 0.5), (1, 0.5, 0.5)), errors.BALLS_OVERLAP),
        (link(*((b % 10, 0.2 + b * 0.2, 0.5) for b in range(11))), errors.TOO_MANY_BALLS),
        (link((0, 2.7, 0.5)), errors.OFF_BED),
    ]:
        reply = await ana.request({"t": "practice", "layout": code})
        assert isinstance(reply, m.Error) and reply.code == error, reply
    # No table was made: the player is in none and may open one.
    assert isinstance(await ana.request({"t": "practice_undo"}), m.Error)
    await open_table(ana, drill="three_ball")


async def test_practice_requests_need_a_practice_table(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    reply = await ana.request({"t": "practice_undo"})
    assert isinstance(reply, m.Error) and reply.code == errors.NOT_IN_ROOM
    assert isinstance(await ana.request({"t": "create"}), m.Joined)
    reply = await ana.request({"t": "practice_put", "ball": 1, "pos": [1.0, 0.5]})
    assert isinstance(reply, m.Error) and reply.code == errors.PRACTICE_ONLY


async def test_drills_rules_and_verdicts(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    _, opened = await open_table(ana, drill="kick", rules=True)
    assert opened.view.drill == "kick" and opened.view.rules
    # Straight at the blocker (the 2) with the 1 the lowest ball: a foul (R8).
    cue, two = opened.view.balls[0], opened.view.balls[2]
    assert cue is not None and two is not None
    angle = math.degrees(math.atan2(two[1] - cue[1], two[0] - cue[0]))
    shot = await shoot(ana, angle, 2.0)
    assert shot.verdict is not None and shot.verdict.foul and "R8" in shot.verdict.fouls
    assert shot.view.in_hand == "table"
    for drill in pm.DRILLS:
        loaded = await change(ana, {"t": "practice_load", "drill": drill})
        assert loaded.cause == "drill" and loaded.view.drill == drill
    off = await change(ana, {"t": "practice_rules", "on": False})
    assert not off.view.rules
    shot = await shoot(ana, 0.0, 9.0)  # the spot shot's table, free play
    assert shot.verdict is None


async def test_a_link_opens_the_same_layout(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    _, opened = await open_table(ana)
    broken = await shoot(ana, 0.5, 9.0)
    _, shared = await open_table(ben, layout=broken.view.layout)
    for got, want in zip(shared.view.balls, broken.view.balls, strict=True):
        assert (got is None) == (want is None)
        if got is not None and want is not None:
            assert math.dist(got, want) < 1e-4
    assert shared.view.layout == broken.view.layout
    assert opened.room != shared.room


async def test_spectators_watch_and_cannot_act(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    joined, _ = await open_table(ana)
    seat = await eve.request({"t": "join", "room": joined.room, "role": "player"})
    assert isinstance(seat, m.Error) and seat.code == errors.ROOM_FULL
    watching = await eve.request({"t": "join", "room": joined.room, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.role == "spectator"
    seen = await eve.expect(pm.PracticeState)
    assert seen.cause == "join"
    assert (await ana.expect(m.Spectators)).count == 1
    await refused(eve, {"t": "practice_undo"}, errors.NOT_A_PLAYER)
    await refused(eve, {"t": "shot", "angle": 0, "speed": 2}, errors.NOT_A_PLAYER)
    shot = await shoot(ana, 0.0, 9.0)
    assert (await eve.expect(pm.PracticeShot)).final == shot.final
    left = await ana.request({"t": "leave"})
    assert isinstance(left, m.Ok)
    gone = await eve.expect(m.RoomGone)
    assert gone.room == joined.room


async def test_sent_twice_is_done_once(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    await open_table(ana, layout=link((0, 0.5, 0.635)))
    for x in (1.0, 1.2, 1.4):
        await change(ana, {"t": "practice_put", "ball": 1, "pos": [x, 0.3]})
    first = await ana.request({"id": 500, "t": "practice_undo"})
    again = await ana.request({"id": 500, "t": "practice_undo"})
    assert isinstance(first, m.Ok) and again == first
    view = await state_of(ana)
    assert view.undo == 2 and view.balls[1] == (1.2, 0.3)


async def test_the_player_comes_back_to_the_table(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    joined, _ = await open_table(ana, drill="three_ball")
    placed = await change(ana, {"t": "practice_put", "ball": 5, "pos": [1.9, 0.9]})
    await ana.close()
    back = await open_peer(server, peers, "Ana", token=ana.token)
    assert back.player == ana.player
    welcome = next(x for x in back.seen if isinstance(x, m.Welcome))
    assert welcome.room == joined.room
    state = await back.expect(pm.PracticeState)
    assert state.view == placed.view
    await change(back, {"t": "practice_undo"})


async def test_a_table_whose_player_stays_away_closes(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(grace=0)
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    joined, _ = await open_table(ana)
    watching = await eve.request({"t": "join", "room": joined.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await ana.close()
    gone = await eve.expect(m.RoomGone)
    assert gone.room == joined.room
    assert joined.room not in server.lobby.practice_rooms
    again = await eve.request({"t": "join", "room": joined.room, "role": "spectator"})
    assert isinstance(again, m.Error) and again.code == errors.NO_SUCH_ROOM


async def test_the_ghost_drill_scores_racks_through_the_server(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(seed=7)  # the same rack and break every run
    ana = await open_peer(server, peers, "Ana")
    _, opened = await open_table(ana, drill="nine_ghost")
    assert opened.view.ghost == pm.GhostScore(won=0, lost=0, rack="playing")
    # The break, then a shot that pockets nothing (a touch of the lowest ball).
    broken = await shoot(ana, 0.0, 9.0)
    assert broken.view.in_hand == "table"
    assert broken.view.ghost == pm.GhostScore(won=0, lost=0, rack="playing")
    view = broken.view
    cue, lowest = view.balls[0], view.balls[view.lowest or 1]
    assert cue is not None and lowest is not None
    angle = math.degrees(math.atan2(lowest[1] - cue[1], lowest[0] - cue[0]))
    touched = await shoot(ana, angle, 0.3)
    assert touched.report.pocketed == [] and touched.report.first == view.lowest
    assert touched.view.ghost == pm.GhostScore(won=0, lost=1, rack="lost")
    decided = (await state_of(ana)).ghost
    assert decided == pm.GhostScore(won=0, lost=1, rack="lost")
    # The next rack keeps the score; another drill ends it.
    rack = await change(ana, {"t": "practice_load", "drill": "nine_ghost"})
    assert rack.view.is_break and rack.view.ghost == pm.GhostScore(
        won=decided.won, lost=decided.lost, rack="playing"
    )
    other = await change(ana, {"t": "practice_load", "drill": "kick"})
    assert other.view.ghost is None
