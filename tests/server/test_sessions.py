"""Disconnects (O5), reconnects with the session token, the lag (O6) and the shot clock (O3)."""

from __future__ import annotations

from typing import Any

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from server.edge.sessions import Sessions
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer


async def table_for_two(
    server: GameServer, peers: list[Peer], **settings: Any
) -> tuple[Peer, Peer, str, m.TableView]:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw", **settings}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await ana.expect(m.LagResult), (ana, ben))
    await ana.catch_up(draw.seq + 1)
    await ben.catch_up(draw.seq + 1)
    assert draw.table is not None
    return ana, ben, created.room, draw.table


def test_session_tokens_are_signed_and_bound_to_the_player() -> None:
    sessions = Sessions(b"one secret")
    token = sessions.issue("p_0123456789abcdef")
    assert sessions.verify(token) == "p_0123456789abcdef"
    assert Sessions(b"another secret").verify(token) is None
    head, _, tail = token.partition(".")
    other = Sessions(b"one secret").issue("p_fedcba9876543210")
    assert sessions.verify(head + "." + other.partition(".")[2]) is None  # swapped signature
    assert sessions.verify(head) is None
    assert sessions.verify("garbage.garbage") is None
    assert sessions.verify(token[:-2] + ("AA" if tail[-2:] != "AA" else "BB")) is None


async def test_o5_reconnect_restores_the_seat_and_the_shot_in_flight(
    server: GameServer, peers: list[Peer]
) -> None:
    ana, ben, room, table = await table_for_two(server, peers)
    shooter, other = (ana, ben) if table.turn == 0 else (ben, ana)
    seat = table.turn
    assert isinstance(await shooter.request(scripting.break_shot(table)), m.Ok)
    result = await other.expect(m.ShotResult)
    token = shooter.token
    await shooter.close()  # the shooter's connection drops while the break is rolling
    gone = await other.expect(m.Presence)
    assert (gone.seat, gone.connected) == (seat, False)
    assert gone.grace_until is not None  # O5: the seat is kept until then
    # Back with the token (a new connection): same player, same seat, same table.
    back = await Peer.connect(server, shooter.name, token=token)
    peers.append(back)
    assert back.player == shooter.player
    welcome = next(msg for msg in back.seen if isinstance(msg, m.Welcome))
    assert welcome.room == room
    snapshot = await back.expect(m.Snapshot)
    view = snapshot.view
    seat_view = view.seats[seat]
    assert seat_view is not None and seat_view.connected and seat_view.player == back.player
    assert view.table == result.table
    assert view.inflight is not None and view.inflight.result.seq == result.seq
    assert 0 < view.inflight.offset < result.duration
    back_again = await other.expect(m.Presence)
    assert (back_again.seat, back_again.connected) == (seat, True)
    # The restored player acts as before.
    assert isinstance(await back.request({"t": "chat", "text": "back"}), m.Ok)


async def test_o5_grace_period_ends_in_a_forfeit(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(grace=0.3)
    ana, ben, _room, _table = await table_for_two(server, peers, race_to=1, forfeit="match")
    await ben.close()
    presence = await ana.expect(m.Presence)
    assert presence.connected is False
    ruling = await ana.expect(m.Ruling)
    assert ruling.action == "forfeit" and ruling.by == 1
    over = await ana.expect(m.MatchOver)
    assert over.winner == 0 and over.reason == "forfeit"


async def test_o5_shot_clock_pauses_while_the_shooter_is_away(
    server: GameServer, peers: list[Peer]
) -> None:
    ana, ben, _room, table = await table_for_two(server, peers, shot_clock=60)
    assert table.clock is not None and table.clock.deadline is not None
    shooter, other = (ana, ben) if table.turn == 0 else (ben, ana)
    token = shooter.token
    await shooter.close()
    await other.expect(m.Presence)
    other.take(m.Snapshot)
    await other.send({"t": "resync"})
    paused = (await other.expect(m.Snapshot)).view.table
    assert paused is not None and paused.clock is not None
    assert paused.clock.paused and paused.clock.deadline is None
    back = await Peer.connect(server, shooter.name, token=token)
    peers.append(back)
    resumed = (await back.expect(m.Snapshot)).view.table
    assert resumed is not None and resumed.clock is not None
    assert not resumed.clock.paused and resumed.clock.deadline is not None


async def test_o3_shot_clock_expiry_is_a_foul_and_extensions_count(
    server: GameServer, peers: list[Peer]
) -> None:
    ana, ben, _room, table = await table_for_two(server, peers, shot_clock=5, extensions=1)
    assert table.clock is not None and table.clock.extensions == [1, 1]
    assert table.turn is not None
    shooter = ana if table.turn == 0 else ben
    waiting = ben if shooter is ana else ana
    # The breaker lets the clock run out: a foul (O3), the turn passes.
    expired = await waiting.expect(m.Ruling, timeout=30)
    assert expired.action == "clock_expired" and expired.by == table.turn
    assert expired.verdict is not None and expired.verdict.fouls == ["O3"]
    assert expired.table.turn == 1 - table.turn and expired.table.ball_in_hand is not None
    clock = expired.table.clock
    assert clock is not None and clock.deadline is not None
    # The incoming player uses the one extension there is.
    refused = await shooter.request({"t": "extend"})
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    assert isinstance(await waiting.request({"t": "extend"}), m.Ok)
    extended = await waiting.expect(m.Ruling)
    assert extended.action == "extension" and extended.verdict is None
    assert extended.table.clock is not None and extended.table.clock.deadline is not None
    assert extended.table.clock.extensions[1 - table.turn] == 0
    assert extended.table.clock.deadline - clock.deadline >= 4000
    none_left = await waiting.request({"t": "extend"})
    assert isinstance(none_left, m.Error) and none_left.code == errors.NO_EXTENSIONS


async def test_o6_lag_with_physics_decides_the_first_breaker(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    created = await ana.request({"t": "create", "settings": {"first_break": "lag"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    # Too soft to reach the foot rail, both of them: nobody wins, lag again.
    assert isinstance(await ana.request({"t": "lag", "speed": 0.8}), m.Ok)
    twice = await ana.request({"t": "lag", "speed": 0.8})
    assert isinstance(twice, m.Error) and twice.code == errors.ALREADY_LAGGED
    not_now = await ana.request({"t": "shot", "angle": 0.0, "speed": 5.0})
    assert isinstance(not_now, m.Error) and not_now.code == errors.NOT_STARTED
    assert isinstance(await ben.request({"t": "lag", "speed": 0.8}), m.Ok)
    again = await ana.expect(m.LagResult)
    assert again.method == "lag" and again.winner is None and again.table is None
    assert [lag.fault for lag in again.lags] == ["the ball did not reach the foot rail"] * 2
    # Ben's ball stops closer to the head rail: Ben breaks.
    assert isinstance(await ana.request({"t": "lag", "speed": 2.5}), m.Ok)
    assert isinstance(await ben.request({"t": "lag", "speed": 2.0}), m.Ok)
    lag = await ana.expect(m.LagResult)
    assert lag.winner == 1
    distances = [view.distance for view in lag.lags]
    assert distances[0] is not None and distances[1] is not None
    assert distances[1] < distances[0]
    assert all(view.traj and view.duration > 0 for view in lag.lags)
    assert lag.table is None  # R3: the winner chooses who breaks
    chosen = await decide_first_break(lag, (ana, ben))
    assert chosen.action == "lag_choice" and chosen.by == 1
    table = chosen.table
    assert table.turn == 1 and table.ball_in_hand == "kitchen" and table.breaker == 1
