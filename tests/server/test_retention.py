"""What the store keeps of a closed room: nothing if it never had a shot, its snapshot
and whole log (for the replay) if it had one, retired — within the memory store's bounds."""

from __future__ import annotations

from protocol import messages as m
from server.rooms.actor import decode_record
from server.store import MemoryStore
from tests.server import scripting
from tests.server.conftest import ServerFactory
from tests.server.support import Peer, decide_first_break, open_peer


async def play_one_shot_and_leave(server_peers: tuple[Peer, Peer]) -> str:
    ana, ben = server_peers
    created = await ana.request({"t": "create", "settings": {"first_break": "draw"}})
    assert isinstance(created, m.Joined)
    await ben.request({"t": "join", "room": created.room})
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    # The winner chooses who breaks (R3, O6); rulings of the rooms before are skipped.
    first = (await decide_first_break(await ana.expect(m.LagResult), (ana, ben))).table
    assert first.turn is not None
    shooter = (ana, ben)[first.turn]
    assert isinstance(await shooter.request(scripting.break_shot(first)), m.Ok)
    await ana.expect(m.ShotResult)
    for peer in (ana, ben):
        assert isinstance(await peer.request({"t": "leave"}), m.Ok)
    return created.room


async def test_a_room_closed_without_a_shot_leaves_nothing_in_the_store(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    store = MemoryStore()
    server = await make_server(store=store)
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "brief"}})
    assert isinstance(created, m.Joined)
    await ana.request({"t": "chat", "text": "anyone?"})
    assert isinstance(await ana.request({"t": "leave"}), m.Ok)
    await ana.request({"t": "ping"})  # the room has handled the leave
    assert await store.rooms() == []
    assert await store.log(created.room) == []
    assert await server.lobby.replay(created.room) is None


async def test_played_rooms_keep_their_replay_within_the_retention_bounds(
    make_server: ServerFactory, peers: list[Peer]
) -> None:
    store = MemoryStore(keep_retired=2)
    server = await make_server(store=store)
    ana = await open_peer(server, peers, "Ana")
    ben = await open_peer(server, peers, "Ben")
    rooms = [await play_one_shot_and_leave((ana, ben)) for _ in range(3)]
    await ana.request({"t": "ping"})
    assert store.retired == rooms[1:]
    assert await store.rooms() == []  # kept for their replays, not as rooms to run
    for room in rooms[1:]:
        data = await store.load(room)
        assert data is not None and decode_record(data).closed
        document = await server.lobby.replay(room)
        assert document is not None and b"shot_result" in document
    assert await server.lobby.replay(rooms[0]) is None
