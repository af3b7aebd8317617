"""A tournament's table settings: the organiser's shot clock (`shot_clock`, optional, none
by default as before it existed) and how the first break is decided (`first_break`,
optional, drawn by default), checked by the API, shown in the tournament's view, and
carried into every match's room as a table made in the lobby with them has them."""

from __future__ import annotations

from typing import Any

import msgspec

from protocol import messages as m
from server.app import GameServer
from server.tournament.model import decode_tournament
from tests.server.support import Peer
from tests.tournament.support import Factory, api, playing, settings, until


async def _room_settings(
    server: GameServer, organiser: Peer, made: dict[str, Any], watcher: Peer
) -> m.RoomSettings:
    """Starts the two-player tournament `made` and reads its match's room settings as a
    spectator's snapshot gives them."""
    tournament = str(made["id"])
    # A name of the id's letters and digits: an id may end in "-" or "_", which no name
    # may (the test failed on such an id, refused `bad_name`).
    tag = "".join(char for char in tournament if char.isalnum())[:8]
    for name in ("Ana", "Ben"):
        player = await Peer.connect(server, f"{name} {tag}")
        path = f"/api/tournaments/{tournament}/register"
        assert (await api(server, "POST", path, {"name": player.name}, player.token))[0] == 200
        await player.close()
    start = f"/api/tournaments/{tournament}/start"
    assert (await api(server, "POST", start, token=organiser.token))[0] == 200
    view = await until(server, tournament, lambda v: bool(playing(v)))
    room = playing(view)[0]["room"]
    joined = await watcher.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(joined, m.Joined)
    snapshot = await watcher.expect(m.Snapshot)
    await watcher.request({"t": "leave"})
    return snapshot.view.settings


async def test_the_organisers_shot_clock_reaches_every_table(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    watcher = await Peer.connect(server, "Eve")
    opened.extend([organiser, watcher])
    for bad in (4, 301, "30", True, 30.5):
        status, answer = await api(
            server, "POST", "/api/tournaments", settings(shot_clock=bad), organiser.token
        )
        assert status == 400 and "shot_clock" in answer["error"], (bad, answer)
    two = {"format": "single", "cap": 2}
    # Without the field: no clock, as every tournament had before the setting.
    status, plain = await api(server, "POST", "/api/tournaments", settings(**two), organiser.token)
    assert status == 201 and plain["shot_clock"] is None
    room = await _room_settings(server, organiser, plain, watcher)
    assert room.shot_clock is None and room.tournament == plain["id"]
    # 30 s a shot: shown with the tournament, and the match's room has it as a lobby table
    # made with a 30 s clock has it (one extension a rack, of as long).
    status, timed = await api(
        server, "POST", "/api/tournaments", settings(shot_clock=30, **two), organiser.token
    )
    assert status == 201 and timed["shot_clock"] == 30
    _, seen = await api(server, "GET", f"/api/tournaments/{timed['id']}")
    assert seen["shot_clock"] == 30
    room = await _room_settings(server, organiser, timed, watcher)
    assert (room.shot_clock, room.extensions, room.extension_seconds) == (30, 1, None)
    assert room.first_shot_clock is None and room.clock_warning == 10
    # Explicitly none is none too.
    status, off = await api(
        server, "POST", "/api/tournaments", settings(shot_clock=None, **two), organiser.token
    )
    assert status == 201 and off["shot_clock"] is None


def test_a_tournament_saved_before_the_setting_has_no_clock() -> None:
    """A stored tournament without the field (saved by an older server) reads back with
    no shot clock: its tables go on as they were made."""
    saved = {
        "id": "t1",
        "name": "Old",
        "format": "single",
        "cap": 2,
        "races": {"winners": 3, "losers": 3, "final": 5},
        "seeding": "random",
        "seed": 1,
        "starts_at": 0,
        "organiser": "p1",
    }
    old = decode_tournament(msgspec.json.encode(saved))
    assert old.shot_clock is None and old.first_break == "draw" and old.removed == ()


async def test_the_organisers_first_break_reaches_every_table(
    make_server: Factory, opened: list[Peer]
) -> None:
    """Every tournament drew for the first break: the organiser may now have it lagged
    for, as the WPA's rules do (O6), or keep the draw (the default, as before)."""
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    watcher = await Peer.connect(server, "Eve")
    opened.extend([organiser, watcher])
    for bad in ("toss", "", None, True, 1):
        status, answer = await api(
            server, "POST", "/api/tournaments", settings(first_break=bad), organiser.token
        )
        assert status == 400 and "first_break" in answer["error"], (bad, answer)
    assert await api(server, "GET", "/api/tournaments") == (200, [])  # nothing made
    two = {"format": "single", "cap": 2}
    status, plain = await api(server, "POST", "/api/tournaments", settings(**two), organiser.token)
    assert status == 201 and plain["first_break"] == "draw"
    assert (await _room_settings(server, organiser, plain, watcher)).first_break == "draw"
    status, lagged = await api(
        server, "POST", "/api/tournaments", settings(first_break="lag", **two), organiser.token
    )
    assert status == 201 and lagged["first_break"] == "lag"
    _, seen = await api(server, "GET", f"/api/tournaments/{lagged['id']}")
    assert seen["first_break"] == "lag"
    room = await _room_settings(server, organiser, lagged, watcher)
    assert room.first_break == "lag" and room.tournament == lagged["id"]
