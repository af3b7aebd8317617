"""The pages for watching: `/tv`, `/overlay/<room>`, `/replay/<room>/<rack>`, and the lobby
entries the TV channel ranks tables by (rack in play, balls left); and `/rules`, the page
a player reads the rules on."""

from __future__ import annotations

import asyncio

from protocol import messages as m
from server.app import GameServer
from tests.server.scripting import break_shot
from tests.server.support import Peer, open_peer, watched_table
from tests.server.test_http import fetch


async def test_tv_is_a_plain_address_for_the_channel(server: GameServer) -> None:
    for path in ("/tv", "/tv/"):
        status, headers, _ = await fetch(server, path)
        assert status == 302 and headers["location"] == "/#/tv", path
    assert (await fetch(server, "/tv/extra"))[0] == 404
    # The page's own settings (language, pace) survive the redirect; nothing else does.
    status, headers, _ = await fetch(server, "/tv?lang=hr&linger=3&x=%3Cb%3E")
    assert status == 302 and headers["location"] == "/?lang=hr&linger=3#/tv"


async def test_a_rack_page_opens_the_viewer_on_that_rack(server: GameServer) -> None:
    status, headers, _ = await fetch(server, "/replay/k3v9x2ab/2")
    assert status == 302 and headers["location"] == "/#/replay/k3v9x2ab/2"
    # A private room's code travels along (the replay document still checks it).
    status, headers, _ = await fetch(server, "/replay/k3v9x2ab/12?code=ABCD2345")
    assert status == 302 and headers["location"] == "/#/replay/k3v9x2ab/12/ABCD2345"
    # A malformed code is dropped, not echoed into the page's address.
    status, headers, _ = await fetch(server, "/replay/k3v9x2ab/3?code=<b>&lang=ru")
    assert status == 302 and headers["location"] == "/?lang=ru#/replay/k3v9x2ab/3"
    # A rematch's rack names its match first (its racks count from 1 again).
    status, headers, _ = await fetch(server, "/replay/k3v9x2ab/2/1?code=ABCD2345&lang=hr")
    assert status == 302 and headers["location"] == "/?lang=hr#/replay/k3v9x2ab/2/1/ABCD2345"
    for bad in (
        "/replay/k3v9x2ab/0/1",
        "/replay/k3v9x2ab/2/0",
        "/replay/k3v9x2ab/1/2/3",
        "/replay/k3v9x2ab/0",
        "/replay/k3v9x2ab/01",
        "/replay/k3v9x2ab/1000",
        "/replay/k3v9x2ab/x",
        "/replay/a%2Fb/1",
    ):
        assert (await fetch(server, bad))[0] == 404, bad


async def test_overlay_page_for_any_room_shape(server: GameServer) -> None:
    page = (server.config.client_dir / "overlay.html").read_bytes()
    status, headers, body = await fetch(server, "/overlay/k3v9x2ab")
    assert status == 200 and body == page
    assert headers["content-type"].startswith("text/html")
    assert headers["cache-control"] == "no-cache"
    for bad in ("/overlay/", "/overlay/a/b", "/overlay/" + "x" * 33, "/overlay/a.b"):
        assert (await fetch(server, bad))[0] == 404, bad


async def test_the_rules_have_a_plain_address(server: GameServer) -> None:
    page = (server.config.client_dir / "rules.html").read_bytes()
    for path in ("/rules", "/rules/", "/rules?lang=hr", "/rules.html"):
        status, headers, body = await fetch(server, path)
        assert status == 200 and body == page, path
        assert headers["content-type"].startswith("text/html")
    for bad in ("/rules/x", "/rulesx", "/rules//"):
        assert (await fetch(server, bad))[0] == 404, bad


async def _entry(peer: Peer, room: str) -> m.Info:
    """The newest lobby entry of `room` this subscriber has heard."""
    while True:
        changed = await peer.expect(m.RoomChanged)
        if changed.info.room == room:
            latest = changed.info
            for later in peer.take(m.RoomChanged):
                if later.info.room == room:
                    latest = later.info
            return latest


async def test_lobby_entries_carry_the_rack_and_the_balls_left(
    server: GameServer, peers: list[Peer]
) -> None:
    watcher = await open_peer(server, peers, "Lou")
    listed = await watcher.request({"t": "lobby", "on": True})
    assert isinstance(listed, m.Rooms)
    game = await watched_table(server, peers)
    entry = await _entry(watcher, game.room)
    while entry.status != "playing":
        entry = await _entry(watcher, game.room)
    assert entry.rack == 1 and entry.balls_left == 9
    shooter = game.shooter
    assert shooter.table is not None
    result = await shooter.request({"t": "shot", **break_shot(shooter.table)})
    assert isinstance(result, m.Ok), result
    shot = await game.spectator.expect(m.ShotResult)
    on_table = sum(1 for ball in shot.table.balls[1:] if ball is not None)
    # Entries are paced (one a room per update interval): wait for the one after the shot.
    for _ in range(50):
        entry = await _entry(watcher, game.room)
        if entry.balls_left == on_table and entry.rack == shot.table.rack:
            break
        await asyncio.sleep(0)
    assert entry.balls_left == on_table and entry.rack == shot.table.rack


async def test_lobby_entries_say_which_players_are_away(
    server: GameServer, peers: list[Peer]
) -> None:
    """A player whose connection is lost keeps their seat for the grace period (O5): the
    entry says so, and the TV channel passes over a table whose people are all gone (it
    showed one forfeiting game after game while the computers played)."""
    watcher = await open_peer(server, peers, "Lou")
    assert isinstance(await watcher.request({"t": "lobby", "on": True}), m.Rooms)
    game = await watched_table(server, peers)
    entry = await _entry(watcher, game.room)
    while entry.status != "playing":
        entry = await _entry(watcher, game.room)
    assert entry.away == [False, False]
    await game.players[1].close()
    while entry.away != [False, True]:
        entry = await _entry(watcher, game.room)
    assert entry.players == ["Ana", "Ben"]
