"""A person plays the computer through a real server: real WebSocket clients, the bot's
decisions made in the thinking workers, a race to 3 played to its end.

The person is scripted to bring about what the rules ask of the bot: a push-out after the
break (one the bot passes back, as the test finds by asking the bot itself), two
fouls in a row (the R13 warning; the bot has ball in hand after each), ball in hand for
the person after the bot's fouls. The bot plays level 1, the fastest to decide."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from protocol import messages as m
from server import physics
from server.app import GameServer
from server.bot import Choose, decide, view_of
from server.ops.computers import Computers
from server.rooms.table import Table, complete_shot, prepare_shot
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer
from tests.server.test_computer_restart import play_to_the_table

#: No pause: the bot plays as soon as it has decided (the pace is for people).
FAST = Computers(bot_pause=0.0, bot_tables=0, quick_computer_after=0.0)


def _key(table: m.TableView) -> tuple[Any, ...]:
    """What the person acts on: a new position, turn or ruling (not a new clock)."""
    return (
        table.rack,
        table.turn,
        tuple(table.balls),
        table.ball_in_hand,
        table.push_out_allowed,
        table.choice_pending,
        tuple(table.fouls),
        tuple(table.score),
    )


def _push_out_passed_back(table: Table) -> dict[str, Any]:
    """A push-out after which the level-1 bot, as the test asks it with seeds of its own,
    would pass the shot back (R6.4): about half of all clean push-outs are such."""
    me = table.state.turn
    assert me is not None
    them = table.state.opponent(me)
    fallback: dict[str, Any] | None = None
    for angle in range(0, 360, 15):
        for speed in (0.5, 1.0):
            stroke = physics.Shot(angle=float(angle), speed=speed)
            balls, shot = prepare_shot(table, me, stroke, True)
            outcome = physics.simulate(balls, shot)
            if outcome.report.pocketed or outcome.report.off_table:
                continue
            after = complete_shot(table, me, True, dict(outcome.final), outcome.report).table
            message = {"t": "shot", "angle": float(angle), "speed": speed, "push_out": True}
            fallback = fallback or message
            view = view_of(after, them)
            if all(decide(view, 1, seed) == Choose("pass") for seed in (1, 2, 3)):
                return message
    assert fallback is not None
    return fallback


@dataclass
class Script:
    """The person's side of the match and what was seen of it."""

    peer: Peer
    server: GameServer
    room: str
    fouls_wanted: int = 2
    pushed_out: int = 0
    fouled: int = 0
    placed: int = 0
    acted: set[tuple[Any, ...]] = field(default_factory=set)

    async def turn(self, table: m.TableView) -> None:
        key = _key(table)
        if key in self.acted:
            return
        self.acted.add(key)
        peer = self.peer
        if table.choice_pending:  # the bot pushed out
            assert isinstance(await peer.request({"t": "choose", "choice": "pass"}), m.Ok)
            return
        if table.ball_in_hand == "kitchen":  # the break
            reply = await peer.request(scripting.break_shot(table))
            assert isinstance(reply, m.Ok), reply
            return
        if table.push_out_allowed:
            room = self.server.lobby.rooms[self.room]
            assert room.state.table is not None
            reply = await peer.request(_push_out_passed_back(room.state.table))
            assert isinstance(reply, m.Ok), reply
            self.pushed_out += 1
            return
        if table.ball_in_hand == "table":
            spot = scripting.free_spot(table)
            assert isinstance(await peer.request({"t": "place", "pos": list(spot)}), m.Ok)
            self.placed += 1
            balls = [spot, *table.balls[1:]]
            table = m.TableView(**{**_fields(table), "balls": balls})
        if self.fouled < self.fouls_wanted:
            plan = scripting.plan_foul(table)
            self.fouled += 1
        else:
            plan = scripting.plan_legal(table)
        reply = await peer.request(plan.message())
        assert isinstance(reply, m.Ok), reply


def _fields(table: m.TableView) -> dict[str, Any]:
    return {name: getattr(table, name) for name in table.__struct_fields__}


async def _read(peer: Peer) -> m.ServerMessage:
    if peer.inbox:
        return peer.inbox.pop(0)
    return await peer._read()


async def test_the_computer_plays_a_race_to_3_to_the_end(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server: GameServer = await make_server(computers=FAST)
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    joined = await ana.request({"t": "computer", "level": 1, "race_to": 3})
    assert isinstance(joined, m.Joined) and joined.seat == 0
    # The lobby lists the room with its computer player said to be one.
    rooms = await eve.request({"t": "lobby"})
    assert isinstance(rooms, m.Rooms)
    (entry,) = [info for info in rooms.rooms if info.room == joined.room]
    assert entry.computer == [None, 1] and entry.players[0] == "Ana"
    watching = await eve.request({"t": "join", "room": joined.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    snapshot = await ana.expect(m.Snapshot)
    computer = snapshot.view.seats[1]
    assert computer is not None and computer.computer == 1 and computer.connected
    person = snapshot.view.seats[0]
    assert person is not None and person.computer is None

    script = Script(ana, server, joined.room)
    heard: list[m.ServerMessage] = []
    lagged = False
    while True:
        message = await _read(ana)
        heard.append(message)
        if isinstance(message, m.MatchOver):
            break
        if isinstance(message, m.Snapshot) and message.view.status == "lag":
            view = message.view
            if view.lag_choice == 0:
                chosen = await ana.request({"t": "lag_choice", "choice": "break"})
                assert isinstance(chosen, m.Ok), chosen
            elif view.lag_choice is None and 0 not in view.lagged and not lagged:
                lagged = True
                reply = await ana.request({"t": "lag", "speed": 1.9})
                assert isinstance(reply, m.Ok), reply
            continue
        if isinstance(message, m.LagResult) and message.winner is None:
            lagged = False  # a tie: the lag again
            continue
        table = getattr(message, "table", None)
        if isinstance(table, m.TableView) and table.turn == 0 and not table.match_over:
            await script.turn(table)

    shots = [e for e in heard if isinstance(e, m.ShotResult)]
    bot_shots = [e for e in shots if e.shooter == 1]
    assert bot_shots, "the computer played"
    over = heard[-1]
    assert isinstance(over, m.MatchOver) and max(over.score) == 3
    # A push-out (R6) by the person, and the shot passed back at least once (R6.4).
    assert any(e.shooter == 0 and e.shot.push_out for e in shots)
    choices = [e for e in heard if isinstance(e, m.Ruling) and e.action == "choose_pass"]
    assert choices, "a push-out was passed back"
    # Two fouls in a row: the R13 warning; ball in hand for the bot after each.
    warnings = [e for e in heard if isinstance(e, m.Warning) and e.kind == "three_fouls"]
    assert any(w.seat == 0 for w in warnings)
    placed = [e for e in heard if isinstance(e, m.Placed)]
    assert any(e.seat == 1 for e in placed), "the bot placed the cue ball (ball in hand)"
    # Nothing of the match was lost on the way: the seq never jumped.
    assert ana.gaps == 0
    # The spectator saw the same match end.
    assert (await eve.expect(m.MatchOver)) == over
    # The computer's seat never appears in the lobby's list of seated players.
    assert server.lobby.seat_of("computer:1") is None


async def test_a_spectator_sees_the_computers_cue_lined_up_before_its_shot(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    """Paced as at a person's table, the computer's stroke is relayed as an aim once it is
    decided: whoever watches sees the cue lined up, then the shot (a still table for
    the whole pause, then a shot out of nowhere, was all they saw)."""
    paced = Computers(bot_pause=0.6, bot_tables=0, quick_computer_after=0.0)
    server: GameServer = await make_server(computers=paced)
    ana = await open_peer(server, peers, "Ana")
    eve = await open_peer(server, peers, "Eve")
    joined = await ana.request({"t": "computer", "level": 1, "race_to": 1})
    assert isinstance(joined, m.Joined)
    watching = await eve.request({"t": "join", "room": joined.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    table = await play_to_the_table(ana)  # Ana's lag, the break given to the computer
    assert table.turn == 1
    seen: list[m.ServerMessage] = []
    while not any(isinstance(e, m.ShotResult) and e.shooter == 1 for e in seen):
        seen.append(await eve.expect(m.AimRelay | m.ShotResult))  # type: ignore[arg-type]
    shot = next(e for e in seen if isinstance(e, m.ShotResult) and e.shooter == 1)
    aims = [e for e in seen[: seen.index(shot)] if isinstance(e, m.AimRelay) and e.seat == 1]
    assert aims, "no aim of the computer's before its shot"
    assert (aims[-1].angle, aims[-1].speed) == (shot.shot.angle, shot.shot.speed)
