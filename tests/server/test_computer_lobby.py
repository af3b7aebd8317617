"""Computer players in the lobby, through a real server: quick match offers a computer
after the wait (`--quick-computer-after`), `computer` with a bad level is refused, and
bot tables (`--bot-tables`) are listed while someone is in the lobby and no match
between people is played, each labelled as computers."""

from __future__ import annotations

import asyncio

import msgspec

from protocol import errors
from protocol import messages as m
from server.ops.computers import Computers
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer


async def test_quick_match_offers_a_computer_after_the_wait(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    offering = Computers(bot_pause=1.0, bot_tables=0, quick_computer_after=0.2)
    server = await make_server(computers=offering)
    ana = await open_peer(server, peers, "Ana")
    assert isinstance(await ana.request({"t": "quick"}), m.Ok)
    offer = await ana.expect(m.ComputerOffer)
    assert offer.level == 2
    # Taking the offer ends the wait: a room against the computer, started at once.
    joined = await ana.request({"t": "computer", "level": offer.level})
    assert isinstance(joined, m.Joined) and joined.seat == 0
    assert not server.lobby.waiting
    snapshot = await ana.expect(m.Snapshot)
    names = [(s.name, s.computer) for s in snapshot.view.seats if s is not None]
    assert names == [("Ana", None), ("Bot 2", 2)]
    # The quick match's shot clock is for strangers: nobody waits on Ana here.
    assert server.config.shot_clock == 60
    assert snapshot.view.settings.shot_clock is None
    assert snapshot.view.table is None or snapshot.view.table.clock is None
    # Its replay says which seat is the computer, so a reader's page names it their way.
    replay = await server.lobby.replay(joined.room)
    assert replay is not None
    document = msgspec.msgpack.decode(replay, type=m.Replay)
    assert document.players == ["Ana", "Bot 2"] and document.computer == [None, 2]
    # A person who comes later is not paired with Ana: she is playing.
    ben = await open_peer(server, peers, "Ben")
    assert isinstance(await ben.request({"t": "quick"}), m.Ok)
    assert server.lobby.seat_of(ana.player or "") is not None


async def test_computer_requests_are_checked(make_server: ServerFactory, peers: list[Peer]) -> None:
    server = await make_server(computers=Computers(bot_tables=0, quick_computer_after=0.0))
    ana = await open_peer(server, peers, "Ana")
    for bad in ({"level": 0}, {"level": 6}, {"level": "3"}, {"race_to": 0}):
        refused = await ana.request({"t": "computer", **bad})
        assert isinstance(refused, m.Error) and refused.code == errors.BAD_MESSAGE, bad
    assert not server.lobby.rooms, "a refused request changes nothing"
    joined = await ana.request({"t": "computer", "level": 1})
    assert isinstance(joined, m.Joined)
    twice = await ana.request({"t": "computer", "level": 1})
    assert isinstance(twice, m.Error) and twice.code == errors.ALREADY_IN_ROOM
    assert len(server.lobby.rooms) == 1
    # Quick match alone offers nothing when the offer is switched off.
    ben = await open_peer(server, peers, "Ben")
    assert isinstance(await ben.request({"t": "quick"}), m.Ok)
    assert not [msg for msg in await ben.drain(quiet=0.5) if isinstance(msg, m.ComputerOffer)]


async def _exhibitions_listed(eve: Peer, count: int) -> list[m.Info]:
    """Read the lobby's updates until `count` exhibitions are listed."""
    listed: dict[str, m.Info] = {}
    while len([i for i in listed.values() if i.computer and None not in i.computer]) < count:
        changed = await eve.expect(m.RoomChanged)
        listed[changed.info.room] = changed.info
    return [i for i in listed.values() if i.computer and None not in i.computer]


async def test_bot_tables_are_listed_for_a_visitor_and_can_be_watched(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(
        computers=Computers(bot_pause=0.5, bot_tables=2, quick_computer_after=0.0),
        update_interval=0.0,
    )
    await asyncio.sleep(0)
    assert not server.lobby.rooms, "nobody is connected: no bot table is started"
    eve = await open_peer(server, peers, "Eve")
    rooms = await eve.request({"t": "lobby"})
    assert isinstance(rooms, m.Rooms)
    exhibitions = await _exhibitions_listed(eve, 2)
    assert len(exhibitions) == 2 and len(server.lobby.rooms) == 2
    for info in exhibitions:
        assert info.name == "" and len(info.players) == 2
        assert all(level is not None and 1 <= level <= 5 for level in info.computer)
    # A computer player's name is its level: no level plays at both tables at once.
    first, second = ({*info.computer} for info in exhibitions)
    assert first.isdisjoint(second), (first, second)
    assert not {*exhibitions[0].players} & {*exhibitions[1].players}
    # A second visitor starts no more: the number is bounded.
    ivo = await open_peer(server, peers, "Ivo")
    assert isinstance(await ivo.request({"t": "lobby"}), m.Rooms)
    assert len(server.lobby.rooms) == 2
    # Eve watches one: the bots play it.
    watching = await eve.request({"t": "join", "room": exhibitions[0].room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    snapshot = await eve.expect(m.Snapshot)
    assert all(s is not None and s.computer is not None for s in snapshot.view.seats)
    shot = await eve.expect(m.ShotResult)
    assert shot.room == exhibitions[0].room


async def test_no_bot_table_starts_while_people_play(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(
        computers=Computers(bot_pause=0.5, bot_tables=2, quick_computer_after=0.0),
        update_interval=0.0,
    )
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    assert isinstance(await ana.request({"t": "quick"}), m.Ok)
    assert isinstance(await ben.request({"t": "quick"}), m.Joined)
    await ana.expect(m.Snapshot)
    eve = await open_peer(server, peers, "Eve")
    rooms = await eve.request({"t": "lobby"})
    assert isinstance(rooms, m.Rooms)
    assert [info.computer for info in rooms.rooms] == [[None, None]]
    assert len(server.lobby.rooms) == 1 and not server.lobby.exhibitions
