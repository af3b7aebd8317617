"""Names in tournaments through a real server on port 0: a name registered anew follows
the rule for a new name, and an entrant's name that looks like another's is refused."""

from __future__ import annotations

from typing import Any

from server.edge.sessions import new_player_id
from server.players.names import fold, skeleton
from tests.server.support import Peer
from tests.tournament.support import Factory, api, settings


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
