"""Names in tournaments through a real server on port 0: a name registered anew follows
the rule for a new name, an entrant's name that looks like another's is refused, and at
the match's table a player cannot sit down under a name like their absent opponent's."""

from __future__ import annotations

from typing import Any

from protocol import messages as m
from server.app import GameServer
from server.edge.sessions import new_player_id
from server.players.names import fold, skeleton
from tests.server.support import Peer
from tests.tournament.support import Factory, api, playing, settings, sit, until


async def _registering(server: Any, organiser: Peer) -> str:
    """A new tournament's registration path."""
    status, made = await api(
        server, "POST", "/api/tournaments", settings(format="single", cap=4), organiser.token
    )
    assert status == 201, made
    return f"/api/tournaments/{made['id']}"


async def test_a_name_like_an_entrants_is_refused(make_server: Factory, opened: list[Peer]) -> None:
    """Two entrants whose names differ only by lookalike letters ("Ivan" and "lvan", Latin
    "Ace" and Cyrillic "Асе") would be one name on the bracket: the second is refused
    `name_confusable`, and the entrants stay as they were. (A name mixing scripts, Latin
    "Boris" with a Cyrillic "В", is not one a name chosen now may be: `bad_name`.)"""
    server = await make_server()
    peers = [await Peer.connect(server, name) for name in ("Ivan", "Ace", "Luka", "Mia")]
    opened.extend(peers)
    ivan, ace, luka, mia = peers
    path = await _registering(server, ivan)
    for peer in (ivan, ace):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200
    for peer, lookalike, entrant in ((luka, "lvan", "Ivan"), (mia, "\u0410\u0441\u0435", "Ace")):
        status, answer = await api(
            server, "POST", f"{path}/register", {"name": lookalike}, peer.token
        )
        assert status == 409 and answer["code"] == "name_confusable", answer
        assert entrant in answer["error"]
    _, view = await api(server, "GET", path)
    assert [e["name"] for e in view["entrants"]] == ["Ivan", "Ace"]
    status, answer = await api(
        server, "POST", f"{path}/register", {"name": "\u0412oris"}, mia.token
    )
    assert status == 400 and answer["code"] == "bad_name", answer
    # Under names of their own they are taken.
    for peer in (luka, mia):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200


async def test_a_name_registered_anew_follows_the_rule_an_accounts_own_is_taken(
    make_server: Factory, opened: list[Peer]
) -> None:
    """A name to enter a tournament under is chosen now: 3 to 20 characters, as an
    account's, else 400 `bad_name` and nothing changed. A logged-in player's own account
    name is taken as the account has it, even one claimed before the rule ("Al")."""
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    opened.append(organiser)
    path = await _registering(server, organiser)
    for name in ("Al", "Grandmaster of the cue", "\u0412oris", "Ana."):
        status, answer = await api(
            server, "POST", f"{path}/register", {"name": name}, organiser.token
        )
        assert status == 400 and answer["code"] == "bad_name", (name, answer)
    _, view = await api(server, "GET", path)
    assert view["entrants"] == []
    # An account claimed before the rule, under a name of two characters.
    players = server.players
    player = new_player_id()
    hashed = await players.passwords.hash("correct horse")
    await players.store.create_account(player, "Al", fold("Al"), skeleton("Al"), hashed, 0)
    status, login = await api(
        server, "POST", "/api/login", {"name": "Al", "password": "correct horse"}
    )
    assert status == 200, login
    status, answer = await api(server, "POST", f"{path}/register", {"name": "Al"}, login["token"])
    assert status == 200, answer
    status, answer = await api(
        server, "POST", f"{path}/register", {"name": "Ana Marija"}, organiser.token
    )
    assert status == 200, answer
    _, view = await api(server, "GET", path)
    assert [(e["name"], e["player"]) for e in view["entrants"]] == [
        ("Al", player),
        ("Ana Marija", organiser.player),
    ]
    # The account plays under its name too.
    al = await Peer.connect(server, "whatever", token=login["token"])
    opened.append(al)
    assert al.seen[0].name == "Al"  # type: ignore[attr-defined]


async def _ivan_against_ben(server: GameServer, opened: list[Peer]) -> tuple[Peer, Peer, str]:
    """Ivan and Ben entered in a final of two, started: the two and their match's room."""
    ivan, ben = [await Peer.connect(server, name) for name in ("Ivan", "Ben")]
    opened.extend([ivan, ben])
    path = await _registering(server, ivan)
    for peer in (ivan, ben):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200
    assert (await api(server, "POST", f"{path}/start", token=ivan.token))[0] == 200
    view = await until(
        server, path.rsplit("/", 1)[1], lambda v: bool(playing(v)) and playing(v)[0]["room"]
    )
    return ivan, ben, str(playing(view)[0]["room"])


async def test_nobody_sits_at_a_match_under_a_name_like_the_absent_opponents(
    make_server: Factory, opened: list[Peer]
) -> None:
    """At a tournament's table each seat is kept for its player under their name on the
    bracket. Ben, come back under "lvan" (Ivan's, with an l), is refused `name_confusable`
    while Ivan has not come, at the door and from the stands; Ben sits under his own name,
    and coming back as "lvan" keeps his seat's name; Ivan, the real one, sits down."""
    server = await make_server()
    ivan, ben, room = await _ivan_against_ben(server, opened)
    impostor = await Peer.connect(server, "lvan", token=ben.token)  # Ben, come back renamed
    opened.append(impostor)
    refused = await sit(impostor, room)
    assert isinstance(refused, m.Error) and refused.code == "name_confusable", refused
    assert "Ivan" in refused.msg
    watching = await impostor.request({"t": "join", "room": room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
    refused = await impostor.request({"t": "sit"})
    assert isinstance(refused, m.Error) and refused.code == "name_confusable", refused
    # Under his own name Ben sits.
    back = await Peer.connect(server, "Ben", token=ben.token)
    opened.append(back)
    assert isinstance(await sit(back, room), m.Joined)
    # Ben comes back as "lvan", Ivan still away: his seat keeps "Ben" (the welcome says so).
    await back.close()
    again = await Peer.connect(server, "lvan", token=ben.token)
    opened.append(again)
    welcome = again.seen[0]
    assert isinstance(welcome, m.Welcome) and welcome.name == "Ben" and welcome.room == room
    snapshot = await again.expect(m.Snapshot)
    assert [s.name if s else None for s in snapshot.view.seats] == [
        "Ben" if p == ben.player else None for p in snapshot.view.settings.reserved
    ]
    # Ivan, the real one, sits down.
    assert isinstance(await sit(ivan, room), m.Joined)


async def test_nobody_sits_at_a_match_under_the_name_the_other_seat_shows(
    make_server: Factory, opened: list[Peer]
) -> None:
    """A seat kept for its player is theirs under their name on the bracket, whatever the
    other seat shows; under another name they are held to the rule every table keeps: not
    one that could pass for the player seated opposite, at the door or from the stands.
    (Ivan, seated, came back as "Zed"; Ben, come back as "Zed" too, was seated.)"""
    server = await make_server()
    ivan, ben, room = await _ivan_against_ben(server, opened)
    assert isinstance(await sit(ivan, room), m.Joined)
    await ivan.close()
    zed = await Peer.connect(server, "Zed", token=ivan.token)
    opened.append(zed)
    welcome = zed.seen[0]
    assert isinstance(welcome, m.Welcome) and (welcome.name, welcome.room) == ("Zed", room)
    impostor = await Peer.connect(server, "ZED", token=ben.token)
    opened.append(impostor)
    for role in ("player", "spectator"):
        refused = await impostor.request({"t": "join", "room": room, "role": role})
        assert isinstance(refused, m.Error) and refused.code == "name_confusable", (role, refused)
    # Under his own name on the bracket Ben sits.
    back = await Peer.connect(server, "Ben", token=ben.token)
    opened.append(back)
    assert isinstance(await sit(back, room), m.Joined)
