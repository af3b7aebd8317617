"""Match formats played on a real server with real WebSocket clients: the professional
shot clock (short values set through the room's settings), its warning, extensions, the
longer first shot after the break and after a push-out, the break order across racks, the
race, and the format as the lobby and the room show it."""

from __future__ import annotations

from typing import Any

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break, open_peer

#: The professional format, scaled down so a test waits seconds, not minutes.
QUICK_PRO: dict[str, Any] = {
    "shot_clock": 5,
    "first_shot_clock": 8,
    "extensions": 1,
    "extension_seconds": 5,
    "clock_warning": 2,
}


async def seated(
    server: GameServer, peers: list[Peer], settings: dict[str, Any]
) -> tuple[tuple[Peer, Peer], Peer, m.TableView]:
    """Ana (seat 0) and Ben (seat 1) at a table of these settings, Eve watching; the
    draw's winner breaks. Returns the table of the first rack."""
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    eve = await open_peer(server, peers, "Eve")
    created = await ana.request({"t": "create", "settings": {"first_break": "draw", **settings}})
    assert isinstance(created, m.Joined), created
    assert isinstance(await ben.request({"t": "join", "room": created.room}), m.Joined)
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    draw = await decide_first_break(await eve.expect(m.LagResult), (ana, ben))
    for peer in (ana, ben, eve):
        await peer.catch_up(draw.seq + 1)
    assert draw.table is not None and draw.table.turn is not None
    return (ana, ben), eve, draw.table


async def next_ruling(peer: Peer, action: str) -> m.Ruling:
    while True:
        ruling = await peer.expect(m.Ruling, timeout=40)
        if ruling.action == action:
            return ruling


async def test_a_pro_format_match_clock_warning_extension_and_loser_breaks(
    server: GameServer, peers: list[Peer]
) -> None:
    settings = {"race_to": 2, "break_order": "loser", **QUICK_PRO}
    players, eve, table = await seated(server, peers, settings)
    assert eve.view is not None and eve.view.settings.first_shot_clock == 8
    clock = table.clock
    assert clock is not None
    assert (clock.seconds, clock.warning, clock.extension, clock.first_after) == (5, 2, 5, None)
    assert clock.extensions == [1, 1]
    breaker = table.turn
    assert breaker is not None

    # The break: the first shot after it has the longer clock, whoever plays it.
    assert isinstance(await players[breaker].request(scripting.break_shot(table)), m.Ok)
    broken = await eve.expect(m.ShotResult)
    clock = broken.table.clock
    assert clock is not None and clock.seconds == 8 and clock.first_after == "break"
    assert clock.deadline is not None
    turn = broken.table.turn
    assert turn is not None
    shooter, other = players[turn], players[1 - turn]

    # One extension each per rack: used once, then refused; never on the opponent's turn.
    refused = await other.request({"t": "extend"})
    assert isinstance(refused, m.Error) and refused.code == errors.NOT_YOUR_TURN
    assert isinstance(await shooter.request({"t": "extend"}), m.Ok)
    extended = await next_ruling(eve, "extension")
    assert extended.by == turn and extended.table.clock is not None
    assert extended.table.clock.extensions[turn] == 0
    assert extended.table.clock.extensions[1 - turn] == 1
    assert extended.table.clock.deadline is not None
    assert extended.table.clock.deadline - clock.deadline == 5000
    again = await shooter.request({"t": "extend"})
    assert isinstance(again, m.Error) and again.code == errors.NO_EXTENSIONS

    # The warning reaches both players and the spectator, naming the seat and the player.
    for peer in (*players, eve):
        warning = await peer.expect(m.Warning, timeout=40)
        assert warning.kind == "clock" and warning.seat == turn
        assert shooter.name in warning.msg and "2 seconds" in warning.msg

    # Time runs out: a foul (O3); the next turn has the ordinary clock.
    expired = await next_ruling(eve, "clock_expired")
    assert expired.by == turn and expired.verdict is not None
    assert expired.verdict.fouls == ["O3"]
    assert expired.table.turn == 1 - turn and expired.table.ball_in_hand == "table"
    assert expired.table.clock is not None and expired.table.clock.seconds == 5
    assert expired.table.clock.first_after is None

    # The player to act gives up the game: under "loser breaks" they break the next rack,
    # with the extensions back.
    loser = 1 - turn
    assert isinstance(await players[loser].request({"t": "concede", "what": "game"}), m.Ok)
    conceded = await next_ruling(eve, "concede_game")
    rack2 = conceded.table
    assert rack2.rack == 2 and rack2.breaker == loser and rack2.turn == loser
    assert rack2.clock is not None and rack2.clock.extensions == [1, 1]
    assert rack2.clock.seconds == 5
    assert isinstance(await players[loser].request(scripting.break_shot(rack2)), m.Ok)
    broken2 = await eve.expect(m.ShotResult)
    assert broken2.table.clock is not None and broken2.table.clock.seconds == 8

    # A race to 2: the second game conceded ends the match.
    assert isinstance(await players[loser].request({"t": "concede", "what": "game"}), m.Ok)
    over = await eve.expect(m.MatchOver)
    assert over.winner == 1 - loser and over.score[1 - loser] == 2


async def test_the_longer_first_shot_after_a_push_out_and_alternate_breaks(
    server: GameServer, peers: list[Peer]
) -> None:
    settings = {"race_to": 3, "break_order": "alternate", **QUICK_PRO}
    players, eve, table = await seated(server, peers, settings)
    first_breaker = table.turn
    assert first_breaker is not None
    assert isinstance(await players[first_breaker].request(scripting.break_shot(table)), m.Ok)
    broken = (await eve.expect(m.ShotResult)).table
    assert broken.push_out_allowed, "the scripted break is legal"
    pusher = broken.turn
    assert pusher is not None
    push = scripting.plan_push_out(broken).message(push_out=True)
    assert isinstance(await players[pusher].request(push), m.Ok)
    pushed = (await eve.expect(m.ShotResult)).table
    assert pushed.choice_pending and pushed.turn == 1 - pusher
    assert pushed.clock is not None and pushed.clock.seconds == 8
    assert pushed.clock.first_after == "push_out"
    # Passed back: the pusher's shot is still the first after the push-out.
    assert isinstance(await players[1 - pusher].request({"t": "choose", "choice": "pass"}), m.Ok)
    passed = (await next_ruling(eve, "choose_pass")).table
    assert passed.turn == pusher and passed.clock is not None
    assert passed.clock.seconds == 8 and passed.clock.first_after == "push_out"
    foul = scripting.plan_foul(passed).message()
    assert isinstance(await players[pusher].request(foul), m.Ok)
    after = (await eve.expect(m.ShotResult)).table
    assert after.clock is not None and after.clock.seconds == 5 and after.clock.first_after is None

    # Alternate breaks, whoever wins the games.
    conceder = players[first_breaker]
    assert isinstance(await conceder.request({"t": "concede", "what": "game"}), m.Ok)
    rack2 = (await next_ruling(eve, "concede_game")).table
    assert rack2.rack == 2 and rack2.breaker == 1 - first_breaker
    assert isinstance(await conceder.request({"t": "concede", "what": "game"}), m.Ok)
    rack3 = (await next_ruling(eve, "concede_game")).table
    assert rack3.rack == 3 and rack3.breaker == first_breaker


async def test_bad_formats_are_refused_and_old_clients_get_the_defaults(
    server: GameServer, peers: list[Peer]
) -> None:
    bad: list[tuple[dict[str, Any], str]] = [
        ({"race_to": 0}, "race_to"),
        ({"shot_clock": -30}, "shot_clock"),
        ({"break_order": "coin"}, "break_order"),
        ({"shot_clock": 30, "first_shot_clock": 20}, "first_shot_clock must be at least"),
        ({"first_shot_clock": 60}, "first_shot_clock needs a shot_clock"),
        ({"extension_seconds": 30}, "extension_seconds needs a shot_clock"),
        ({"shot_clock": 30, "clock_warning": -1}, "clock_warning"),
        ({"aim_aid": "laser"}, "aim_aid"),
    ]
    for settings, words in bad:
        # A fresh connection for each: a client sending many bad frames is let go.
        asker = await open_peer(server, peers, "Ivo")
        refused = await asker.request({"t": "create", "settings": settings})
        assert isinstance(refused, m.Error), settings
        assert refused.code == errors.BAD_MESSAGE and words in refused.msg, refused
    # Nothing was created by the refusals: the lobby is empty.
    ana = await open_peer(server, peers, "Ana")
    listing = await ana.request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms) and listing.rooms == []

    # A create as older clients send it: the new options take their defaults.
    created = await ana.request(
        {"t": "create", "settings": {"name": "Old", "race_to": 4, "shot_clock": 30}}
    )
    assert isinstance(created, m.Joined)
    snapshot = await ana.expect(m.Snapshot)
    shown = snapshot.view.settings
    assert (shown.first_shot_clock, shown.extension_seconds) == (None, None)
    assert (shown.clock_warning, shown.aim_aid, shown.extensions) == (10, "full", 1)

    # The lobby lists the format with the score and the race.
    watcher = await open_peer(server, peers, "Lou")
    listing = await watcher.request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms)
    (info,) = listing.rooms
    assert info.race_to == 4 and info.score == [0, 0]
    assert info.settings is not None and info.settings.shot_clock == 30
    pro = {"name": "Pro", "race_to": 9, "break_order": "alternate", "aim_aid": "ghost"}
    bob = await open_peer(server, peers, "Bob")
    made = await bob.request({"t": "create", "settings": {**pro, **QUICK_PRO}})
    assert isinstance(made, m.Joined)
    while True:
        changed = await watcher.expect(m.RoomChanged)
        if changed.info.room == made.room:
            break
    assert changed.info.settings is not None
    assert changed.info.settings.aim_aid == "ghost"
    assert changed.info.settings.first_shot_clock == 8
    assert changed.info.settings.break_order == "alternate"
