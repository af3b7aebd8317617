"""The lobby: the live room list, private rooms, quick match, seats and the spectator cap."""

from __future__ import annotations

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, open_peer


async def test_lobby_lists_public_rooms_live(server: GameServer, peers: list[Peer]) -> None:
    watcher = await open_peer(server, peers, "Watcher")
    listing = await watcher.request({"t": "lobby", "on": True})
    assert isinstance(listing, m.Rooms) and listing.rooms == []
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request(
        {"t": "create", "settings": {"name": "Friday", "race_to": 7, "break_order": "alternate"}}
    )
    assert isinstance(created, m.Joined) and created.code is None
    update = await watcher.expect(m.RoomChanged)
    assert update.info.room == created.room
    assert (update.info.name, update.info.race_to, update.info.players) == ("Friday", 7, ["Ana"])
    assert update.info.status == "waiting"
    ben = await open_peer(server, peers, "Ben")
    await ben.request({"t": "join", "room": created.room})
    update = await watcher.expect(m.RoomChanged)
    assert update.info.players == ["Ana", "Ben"]
    # A newcomer sees the room in the full list.
    late = await open_peer(server, peers, "Late")
    listing = await late.request({"t": "lobby"})
    assert isinstance(listing, m.Rooms) and [r.room for r in listing.rooms] == [created.room]
    # When everyone has left, the room is gone from the list.
    assert isinstance(await ana.request({"t": "leave"}), m.Ok)
    assert isinstance(await ben.request({"t": "leave"}), m.Ok)
    gone = await watcher.expect(m.RoomGone)
    assert gone.room == created.room
    assert isinstance(await watcher.request({"t": "lobby", "on": False}), m.Ok)


async def test_private_room_joined_by_code_only(server: GameServer, peers: list[Peer]) -> None:
    watcher = await open_peer(server, peers, "Watcher")
    await watcher.request({"t": "lobby"})
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"private": True}})
    assert isinstance(created, m.Joined) and created.code is not None
    snapshot = await ana.expect(m.Snapshot)
    assert snapshot.view.code == created.code and snapshot.view.settings.private
    ben = await open_peer(server, peers, "Ben")
    by_id = await ben.request({"t": "join", "room": created.room})
    assert isinstance(by_id, m.Error) and by_id.code == errors.NO_SUCH_ROOM
    wrong = await ben.request({"t": "join", "code": "ZZZZZZ"})
    assert isinstance(wrong, m.Error) and wrong.code == errors.BAD_INVITE
    joined = await ben.request({"t": "join", "code": created.code})
    assert isinstance(joined, m.Joined) and joined.room == created.room and joined.seat == 1
    cleo = await open_peer(server, peers, "Cleo")
    watching = await cleo.request({"t": "join", "code": created.code, "role": "spectator"})
    assert isinstance(watching, m.Joined) and watching.role == "spectator"
    # Nothing of the private room ever reached the lobby.
    await watcher.drain(0.3)
    assert not [msg for msg in watcher.seen if isinstance(msg, m.RoomChanged)]
    listing = await watcher.request({"t": "lobby"})
    assert isinstance(listing, m.Rooms) and listing.rooms == []


async def test_quick_match_pairs_two_waiting_players(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    cleo = await open_peer(server, peers, "Cleo")
    assert isinstance(await ana.request({"t": "quick", "race_to": 5}), m.Ok)
    # A different race does not pair; cancelling works.
    assert isinstance(await cleo.request({"t": "quick", "race_to": 2}), m.Ok)
    twice = await cleo.request({"t": "quick", "race_to": 2})
    assert isinstance(twice, m.Error) and twice.code == errors.ALREADY_QUEUED
    assert isinstance(await cleo.request({"t": "quick", "on": False}), m.Ok)
    request_id = await ben.send({"t": "quick", "race_to": 5})
    ben_joined = await ben.reply_to(request_id)
    ana_joined = await ana.expect(m.Joined)
    assert isinstance(ben_joined, m.Joined)
    assert ana_joined.room == ben_joined.room
    assert {ana_joined.seat, ben_joined.seat} == {0, 1}
    # Both are ready at once: the lag (O6) starts.
    snapshot = await ana.expect(m.Snapshot)
    while snapshot.view.status != "lag":
        snapshot = await ana.expect(m.Snapshot)
    assert snapshot.view.settings.race_to == 5
    # With a shot clock by default: a player who never shoots cannot stall the other (O3).
    assert snapshot.view.settings.shot_clock == 60
    assert [s.name for s in snapshot.view.seats if s is not None] == ["Ana", "Ben"]
    assert all(s is not None and s.ready for s in snapshot.view.seats)


async def test_seats_are_limited_and_spectators_capped(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(spectator_cap=1)
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    ben = await open_peer(server, peers, "Ben")
    await ben.request({"t": "join", "room": created.room})
    cleo = await open_peer(server, peers, "Cleo")
    full = await cleo.request({"t": "join", "room": created.room, "role": "player"})
    assert isinstance(full, m.Error) and full.code == errors.ROOM_FULL
    watching = await cleo.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    dana = await open_peer(server, peers, "Dana")
    capped = await dana.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(capped, m.Error) and capped.code == errors.SPECTATORS_FULL
    # A player may not hold two seats in different rooms.
    other = await ana.request({"t": "leave"})
    assert isinstance(other, m.Ok)
    again = await ana.request({"t": "join", "room": created.room})
    assert isinstance(again, m.Joined) and again.seat == 0
    dana_room = await dana.request({"t": "create"})
    assert isinstance(dana_room, m.Joined)
    second = await ana.request({"t": "join", "room": dana_room.room})
    assert isinstance(second, m.Error) and second.code == errors.ALREADY_IN_ROOM


async def test_chat_reaches_everyone_in_the_room(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    cleo = await open_peer(server, peers, "Cleo")
    await cleo.request({"t": "join", "room": created.room, "role": "spectator"})
    counted = await ana.expect(m.Spectators)  # the players see the spectator arrive
    assert counted.room == created.room and counted.count == 1
    assert isinstance(await cleo.request({"t": "chat", "text": "good luck ✓"}), m.Ok)
    heard = await ana.expect(m.ChatRelay)
    assert (heard.name, heard.seat, heard.text) == ("Cleo", None, "good luck ✓")


async def test_requests_queued_behind_the_last_leave_are_answered(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    # Sent back to back: the room closes on the leave, the rest must still get answers.
    ids = [
        await ana.send({"t": "leave"}),
        await ana.send({"t": "chat", "text": "anyone?"}),
        await ana.send({"t": "leave"}),
    ]
    replies = [await ana.reply_to(request_id) for request_id in ids]
    assert isinstance(replies[0], m.Ok)
    assert all(isinstance(r, m.Ok | m.Error) for r in replies[1:])
    assert isinstance(await ana.request({"t": "ping"}), m.Pong)


async def test_quick_match_without_a_shot_clock_when_it_is_switched_off(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    server = await make_server(shot_clock=0)
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    assert isinstance(await ana.request({"t": "quick"}), m.Ok)
    assert isinstance(await ben.request({"t": "quick"}), m.Joined)
    snapshot = await ben.expect(m.Snapshot)
    assert snapshot.view.settings.shot_clock is None
