"""A guest who makes an account in the middle of a match plays on under the account's
name, and everyone sees it at once: a real server (port 0), real WebSocket clients, the
real HTTP API, players in a real SQLite file.

The guest's browser signs up (taking the guest's player id over), logs in and says
`hello` again with the account's token, as `client_web/account.mjs` does. The opponent,
a spectator and a lobby subscriber hear the new name then, not when the match ends; the
player's chat, the room's replay and its record name them so too; the room stays as
unrated as it started.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import msgpack
import pytest

from protocol import messages as m
from server.app import GameServer
from server.rooms.simulation import PhysicsPool
from tests.players.test_api import call
from tests.server.support import Peer, make_config, watched_table

PASSWORD = "correct horse battery"
#: Long enough for a slow shared machine; the name is due at once.
SOON = 5.0


@pytest.fixture
async def server(physics_pool: PhysicsPool, tmp_path: Path) -> AsyncIterator[GameServer]:
    config = make_config(
        players_store=f"sqlite://{tmp_path / 'players.db'}",
        store=f"sqlite://{tmp_path / 'rooms.db'}",
        update_interval=0.0,
    )
    game_server = GameServer(config, pool=physics_pool)
    await game_server.start()
    yield game_server
    if game_server.ready:
        await game_server.stop()


@pytest.fixture
async def peers(server: GameServer) -> AsyncIterator[list[Peer]]:
    opened: list[Peer] = []
    yield opened
    for peer in opened:
        await peer.close()


async def sign_up_and_come_back(server: GameServer, guest: Peer, name: str) -> Peer:
    """What the page does: claim `name` with the guest's session token, log in, drop the
    connection and say hello again with the account's token."""
    status, _, body = await call(
        server, "POST", "/api/accounts", {"name": name, "password": PASSWORD}, token=guest.token
    )
    assert (status, body) == (201, {"name": name}), body
    status, _, body = await call(server, "POST", "/api/login", {"name": name, "password": PASSWORD})
    assert status == 200, body
    await guest.close()
    back = await Peer.connect(server, guest.name, token=str(body["token"]))
    welcome = next(msg for msg in back.seen if isinstance(msg, m.Welcome))
    assert welcome.account and welcome.player == guest.player
    return back


async def seat_names(peer: Peer, wanted: list[str]) -> m.Snapshot:
    """The first snapshot `peer` gets that names the seats `wanted` (others are skipped)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SOON
    while True:
        snapshot = await peer.expect(m.Snapshot, timeout=max(0.01, deadline - loop.time()))
        if [s.name if s is not None else None for s in snapshot.view.seats] == wanted:
            return snapshot


async def rated_seats(peer: Peer) -> m.Snapshot:
    """The first snapshot `peer` gets with a rating beside a seat's name."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SOON
    while True:
        snapshot = await peer.expect(m.Snapshot, timeout=max(0.01, deadline - loop.time()))
        if any(s is not None and s.rating is not None for s in snapshot.view.seats):
            return snapshot


async def listed(peer: Peer, room: str, wanted: list[str]) -> m.Info:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + SOON
    while True:
        changed = await peer.expect(m.RoomChanged, timeout=max(0.01, deadline - loop.time()))
        if changed.info.room == room and changed.info.players == wanted:
            return changed.info


async def test_a_guest_who_signs_up_mid_match_is_named_anew_at_once(
    server: GameServer, peers: list[Peer]
) -> None:
    table = await watched_table(server, peers)
    ana, ben = table.players
    eve = table.spectator
    lou = await Peer.connect(server, "Lou")
    peers.append(lou)
    rooms = await lou.request({"t": "lobby", "on": True})
    assert isinstance(rooms, m.Rooms)
    assert [info.players for info in rooms.rooms] == [["Ana", "Ben"]]

    anastasia = await sign_up_and_come_back(server, ana, "Anastasia")
    peers.append(anastasia)
    assert next(msg for msg in anastasia.seen if isinstance(msg, m.Welcome)).name == "Anastasia"
    own = await anastasia.expect(m.Snapshot)
    assert [s.name for s in own.view.seats if s is not None] == ["Anastasia", "Ben"]

    # The opponent and the spectator: at once, and in the room's order (no gap in seq).
    for peer in (ben, eve):
        renamed = await seat_names(peer, ["Anastasia", "Ben"])
        assert renamed.view.status == "playing" and not renamed.view.settings.rated
        assert peer.gaps == 0
    # The lobby's list.
    info = await listed(lou, table.room, ["Anastasia", "Ben"])
    assert not info.rated
    # Her account has a rating, shown beside her name at once (not after the rack), in a
    # room that stays unrated; the guest opposite her has none.
    for peer in (ben, eve):
        rated = await rated_seats(peer)
        assert [(s.rating, s.provisional) for s in rated.view.seats if s is not None] == [
            (500, True),
            (None, False),
        ]
        assert rated.view.status == "playing" and not rated.view.settings.rated

    # She speaks under it, and the match goes on with her in her seat.
    assert isinstance(await anastasia.request({"t": "chat", "text": "it's me"}), m.Ok)
    said = await ben.expect(m.ChatRelay)
    assert (said.seat, said.name, said.text) == (0, "Anastasia", "it's me")

    # The replay names her (its heading, and from the change on, its snapshots).
    status, _, body = await call(server, "GET", f"/replay/{table.room}")
    assert status == 200
    replay = msgpack.unpackb(body)
    assert replay["players"] == ["Anastasia", "Ben"] and not replay["settings"]["rated"]
    names = [
        [seat["name"] if seat else None for seat in event["view"]["seats"]]
        for event in replay["events"]
        if event["t"] == "snapshot"
    ]
    assert ["Ana", "Ben"] in names and names[-1] == ["Anastasia", "Ben"]

    # So does the stored room: a restart brings her seat back under the new name.
    await server.stop()
    again = GameServer(server.config, pool=server.pool)
    await again.start()
    try:
        back = await Peer.connect(again, "Anastasia", token=anastasia.token)
        peers.append(back)
        snapshot = await back.expect(m.Snapshot)
        assert [s.name for s in snapshot.view.seats if s is not None] == ["Anastasia", "Ben"]
    finally:
        await again.stop()


async def test_a_new_name_that_passes_for_the_opponents_is_not_taken(
    server: GameServer, peers: list[Peer]
) -> None:
    """Coming back under a name that could pass for the other player's (an account named
    like the opponent) keeps the seat's own name: nobody plays looking like their opponent."""
    table = await watched_table(server, peers)
    ana, ben = table.players
    benn = await sign_up_and_come_back(server, ana, "BEN")  # passes for "Ben"
    peers.append(benn)
    welcome = next(msg for msg in benn.seen if isinstance(msg, m.Welcome))
    assert welcome.name == "Ana"
    own = await benn.expect(m.Snapshot)
    assert [s.name for s in own.view.seats if s is not None] == ["Ana", "Ben"]
    assert isinstance(await benn.request({"t": "chat", "text": "hi"}), m.Ok)
    said = await ben.expect(m.ChatRelay)
    assert (said.seat, said.name) == (0, "Ana")


async def test_a_guest_who_signs_up_under_the_same_name_shows_a_rating_at_once(
    server: GameServer, peers: list[Peer]
) -> None:
    """Signing up under the name played under changes no name, but the player is an
    account now: the rating is shown beside the name at once, not after the rack."""
    table = await watched_table(server, peers)
    ana, ben = table.players
    back = await sign_up_and_come_back(server, ana, "Ana")
    peers.append(back)
    for peer in (ben, table.spectator):
        rated = await rated_seats(peer)
        assert [(s.name, s.rating, s.provisional) for s in rated.view.seats if s] == [
            ("Ana", 500, True),
            ("Ben", None, False),
        ]
        assert rated.view.status == "playing" and peer.gaps == 0
