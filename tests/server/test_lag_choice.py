"""R3/O6: the winner of the lag (or the draw) chooses who breaks the first game."""

from __future__ import annotations

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.rooms.actor import decode_record
from server.store import MemoryStore
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer
from tests.server.test_bad_input import snapshot_of

# A stand-in for the clock so the no-choice test need not wait 30 seconds (5 is the least).
SHORT_CLOCK = 5


async def drawn(
    server: GameServer, peers: list[Peer], **settings: object
) -> tuple[Peer, Peer, Peer, m.LagResult]:
    """Two players and a spectator, right after the draw: (winner, loser, spectator, draw)."""
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw", **settings}})
    assert isinstance(created, m.Joined)
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await eve.expect(m.LagResult)
    assert draw.method == "draw" and draw.winner is not None
    assert draw.table is None  # nobody breaks before the winner has chosen
    for peer in (ana, ben, eve):
        await peer.catch_up(draw.seq + 1)
    winner, loser = (ana, ben) if draw.winner == 0 else (ben, ana)
    return winner, loser, eve, draw


async def test_r3_winner_gives_the_break_away_and_the_opponent_breaks_from_the_kitchen(
    server: GameServer, peers: list[Peer]
) -> None:
    winner, loser, eve, draw = await drawn(server, peers)
    assert draw.winner is not None
    view = await snapshot_of(eve)
    assert view.status == "lag" and view.lag_choice == draw.winner and view.table is None
    seats = (winner, loser) if draw.winner == 0 else (loser, winner)
    ruling = await decide_first_break(draw, seats, choice="give")
    opponent = 1 - draw.winner
    assert ruling.action == "lag_choice" and ruling.by == draw.winner
    assert ruling.verdict is not None and ruling.verdict.notes[0][0] == "O6"
    table = ruling.table
    assert table.breaker == opponent and table.turn == opponent
    assert table.ball_in_hand == "kitchen"
    view = await snapshot_of(eve)
    assert view.status == "playing" and view.lag_choice is None and view.table == table
    # The winner gave the break away: only the opponent may break now.
    refused = await winner.request(scripting.break_shot(table))
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    assert isinstance(await loser.request(scripting.break_shot(table)), m.Ok)
    result = await eve.expect(m.ShotResult)
    assert result.shooter == opponent
    # The choice is made once.
    late = await winner.request({"t": "lag_choice", "choice": "break"})
    assert isinstance(late, m.Error) and late.code == errors.NO_LAG_CHOICE


async def test_o6_only_the_winner_chooses_and_nobody_shoots_before(
    server: GameServer, peers: list[Peer]
) -> None:
    winner, loser, eve, draw = await drawn(server, peers)
    before = await snapshot_of(eve)
    assert before.lag_choice == draw.winner
    refused = await loser.request({"t": "lag_choice", "choice": "give"})
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    watching = await eve.request({"t": "lag_choice", "choice": "break"})
    assert isinstance(watching, m.Error) and watching.code == errors.NOT_A_PLAYER
    for peer in (winner, loser):
        early = await peer.request({"t": "shot", "angle": 0.0, "speed": 5.0})
        assert isinstance(early, m.Error) and early.code == errors.NOT_STARTED
        lag = await peer.request({"t": "lag", "speed": 2.0})
        assert isinstance(lag, m.Error) and lag.code == errors.NO_LAG
    assert await snapshot_of(eve) == before  # nothing changed, no event was sent
    assert not eve.take(m.Ruling)


async def test_o6_a_winner_who_does_not_choose_in_time_breaks(
    server: GameServer, peers: list[Peer]
) -> None:
    winner, loser, eve, draw = await drawn(server, peers, shot_clock=SHORT_CLOCK)
    await winner.close()  # gone during the choice: the timer decides
    ruling = await eve.expect(m.Ruling, timeout=SHORT_CLOCK + 10)
    assert ruling.action == "lag_choice" and ruling.by == draw.winner
    assert ruling.table.breaker == draw.winner and ruling.table.turn == draw.winner
    assert ruling.table.ball_in_hand == "kitchen"
    view = await snapshot_of(eve)
    assert view.status == "playing" and view.lag_choice is None
    not_yours = await loser.request({"t": "shot", "angle": 0.0, "speed": 5.0})
    assert isinstance(not_yours, m.Error) and not_yours.code == errors.NOT_YOUR_TURN


async def test_o6_the_choice_survives_a_restart_and_its_timer_is_armed_again(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    store = MemoryStore()
    first = await make_server(store=store)
    winner, _loser, _eve, draw = await drawn(first, peers, shot_clock=SHORT_CLOCK)
    await first.stop()
    record = await store.load(draw.room)
    assert record is not None and decode_record(record).lag_winner == draw.winner
    second = await make_server(store=store)
    back = await Peer.connect(second, winner.name, token=winner.token)
    peers.append(back)
    snapshot = await back.expect(m.Snapshot)
    assert snapshot.view.status == "lag" and snapshot.view.lag_choice == draw.winner
    # Nobody chooses: the re-armed timer lets the winner break.
    ruling = await back.expect(m.Ruling, timeout=SHORT_CLOCK + 10)
    assert ruling.action == "lag_choice" and ruling.table.breaker == draw.winner
