"""Referee actions through the room: stalemate (R14), concede (O4), rematch, live aim."""

from __future__ import annotations

import asyncio

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break, open_peer


async def started(server: GameServer, peers: list[Peer], **settings: object) -> tuple[Peer, ...]:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw", **settings}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await eve.expect(m.LagResult), (ana, ben))
    assert draw.table is not None and draw.table.turn is not None
    for peer in (ana, ben, eve):
        await peer.catch_up(draw.seq + 1)
        peer.inbox.clear()
    shooter = (ana, ben)[draw.table.turn]
    other = ben if shooter is ana else ana
    return shooter, other, eve


async def test_r14_agreed_stalemate_warning_then_three_fruitless_innings_each(
    server: GameServer, peers: list[Peer]
) -> None:
    shooter, other, eve = await started(server, peers)
    assert shooter.table is not None
    breaker = shooter.table.breaker
    early = await shooter.request({"t": "stalemate", "action": "propose"})
    assert isinstance(early, m.Error) and early.code == errors.INVALID_ACTION  # before the break
    assert isinstance(await shooter.request(scripting.break_shot(shooter.table)), m.Ok)
    await eve.expect(m.ShotResult)
    players = {0: shooter if breaker == 0 else other, 1: other if breaker == 0 else shooter}
    # Right after the break no referee would warn: refused until three fruitless innings.
    early = await shooter.request({"t": "stalemate", "action": "propose"})
    assert isinstance(early, m.Error) and early.code == errors.STALEMATE_TOO_EARLY
    for _ in range(12):
        table = eve.table
        assert table is not None and table.turn is not None
        if table.stalemate_open:
            break
        plan = scripting.plan_legal(table, "miss")
        assert isinstance(await players[table.turn].request(plan.message()), m.Ok)
        await eve.expect(m.ShotResult)
    else:
        raise AssertionError("no stalemate proposal open after fruitless innings")
    assert isinstance(await shooter.request({"t": "stalemate", "action": "propose"}), m.Ok)
    proposed = await eve.expect(m.Ruling)
    assert proposed.action == "stalemate_propose"
    assert proposed.table.stalemate_proposed_by == breaker
    own = await shooter.request({"t": "stalemate", "action": "accept"})
    assert isinstance(own, m.Error) and own.code == errors.NO_STALEMATE_PROPOSAL
    assert isinstance(await other.request({"t": "stalemate", "action": "accept"}), m.Ok)
    accepted = await eve.expect(m.Ruling)
    assert accepted.action == "stalemate_accept" and accepted.verdict is not None
    assert accepted.verdict.stalemate_warning_given and accepted.table.stalemate_warning
    warning = await eve.expect(m.Warning)
    assert warning.kind == "stalemate"
    # Three innings each without a ball pocketed: the rack is replayed, same breaker.
    for _ in range(12):
        table = eve.table
        assert table is not None and table.turn is not None
        plan = scripting.plan_legal(table, "miss")
        assert isinstance(await players[table.turn].request(plan.message()), m.Ok)
        result = await eve.expect(m.ShotResult)
        assert not result.verdict.foul and not result.report.pocketed
        if result.verdict.stalemate:
            break
    else:
        raise AssertionError("no re-rack after three fruitless innings each")
    assert result.verdict.new_rack and result.table.rack == 2
    assert result.table.breaker == breaker and result.table.ball_in_hand == "kitchen"
    assert result.table.score == [0, 0]


async def test_o4_concede_game_then_match_then_rematch(
    server: GameServer, peers: list[Peer]
) -> None:
    shooter, other, eve = await started(server, peers, race_to=3)
    assert shooter.table is not None and shooter.table.turn is not None
    loser = shooter.table.turn
    assert isinstance(await shooter.request({"t": "concede", "what": "game"}), m.Ok)
    game = await eve.expect(m.GameOver)
    assert game.winner == 1 - loser and game.reason == "concede"
    assert isinstance(await shooter.request({"t": "concede", "what": "match"}), m.Ok)
    over = await eve.expect(m.MatchOver)
    assert over.winner == 1 - loser and over.reason == "concede"
    late = await other.request({"t": "shot", "angle": 0.0, "speed": 2.0})
    assert isinstance(late, m.Error) and late.code == errors.MATCH_OVER
    # Rematch: both ask, a new match starts from 0-0.
    assert isinstance(await shooter.request({"t": "rematch"}), m.Ok)
    asked = await eve.expect(m.Snapshot)
    assert asked.view.status == "finished" and asked.view.rematch == [loser]
    assert isinstance(await other.request({"t": "rematch"}), m.Ok)
    draw = await eve.expect(m.LagResult)
    assert draw.table is None and draw.winner is not None  # R3: the winner chooses
    snapshot = await eve.expect(m.Snapshot)
    assert snapshot.view.status == "lag" and snapshot.view.rematch == []
    assert snapshot.view.lag_choice == draw.winner
    seats = (shooter, other) if loser == 0 else (other, shooter)
    chosen = await decide_first_break(draw, seats)
    assert chosen.table.score == [0, 0] and chosen.table.rack == 1
    snapshot = await eve.expect(m.Snapshot)
    assert snapshot.view.status == "playing" and snapshot.view.lag_choice is None


async def test_live_aim_is_relayed_throttled_and_never_changes_state(
    server: GameServer, peers: list[Peer]
) -> None:
    shooter, other, eve = await started(server, peers)
    seq_before = eve.seq
    refused = await other.request({"t": "aim", "angle": 10.0, "speed": 2.0})
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    spectator = await eve.request({"t": "aim", "angle": 10.0, "speed": 2.0})
    assert isinstance(spectator, m.Error) and spectator.code == errors.NOT_A_PLAYER
    for step in range(10):  # 20 per second, for half a second
        await shooter.send(
            {"t": "aim", "angle": float(step), "speed": 2.0, "tip": [0.0, 0.1], "cue": [0.4, 0.5]}
        )
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.3)
    relayed = [msg for msg in await eve.drain(0.3) if isinstance(msg, m.AimRelay)]
    assert 2 <= len(relayed) <= 8  # throttled to one per 100 ms
    assert relayed[-1].angle == 9.0  # the latest aim always arrives
    assert relayed[-1].cue == (0.4, 0.5) and relayed[-1].seat == shooter.table.turn  # type: ignore[union-attr]
    assert not [msg for msg in await shooter.drain(0.1) if isinstance(msg, m.AimRelay)]
    assert eve.seq == seq_before  # aims are not room events
    # Faster than 20 per second is refused.
    replies = [await shooter.send({"t": "aim", "angle": 1.0, "speed": 2.0}) for _ in range(40)]
    errors_seen = [msg for msg in await shooter.drain(0.3) if isinstance(msg, m.Error)]
    assert replies and errors_seen and all(e.code == errors.RATE_LIMITED for e in errors_seen)


async def test_a_push_out_is_announced_with_the_aim_where_one_may_be_played(
    server: GameServer, peers: list[Peer]
) -> None:
    """R6: a push-out is announced before it is played. The aim says it to the opponent
    and the spectators, once one may be played (the shot after the break); an aim that
    claims one where none may be is relayed without it."""
    shooter, other, eve = await started(server, peers)
    assert shooter.table is not None
    at_break = shooter.table
    await shooter.send({"t": "aim", "angle": 0.0, "speed": 2.0, "push_out": True})
    relayed = await other.expect(m.AimRelay)
    assert relayed.push_out is False, "no push-out on the break"
    assert isinstance(await shooter.request(scripting.break_shot(at_break)), m.Ok)
    result = await eve.expect(m.ShotResult)
    table = result.table
    assert table.push_out_allowed, "the scripted break is legal: a push-out may follow"
    players = {id(p): p for p in (shooter, other)}
    turn = next(p for p in players.values() if p.table and p.table.turn == table.turn)
    watcher = other if turn is shooter else shooter
    await asyncio.sleep(0.15)  # past the aim throttle
    for peer in (watcher, eve):
        peer.inbox.clear()
    await turn.send({"t": "aim", "angle": 1.0, "speed": 1.5, "push_out": True})
    for peer in (watcher, eve):
        announced = await peer.expect(m.AimRelay)
        assert announced.push_out is True and announced.angle == 1.0
