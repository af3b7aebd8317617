"""Names in tournaments through a real server on port 0: a name registered anew follows
the rule for a new name, an entrant's name that looks like another's is refused, and at
the match's table a player cannot sit down under a name like their absent opponent's."""

from __future__ import annotations

from typing import Any

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
    "Boris" and "Вoris" with a Cyrillic В) would be one name on the bracket: the second is
    refused `name_confusable`, and the entrants stay as they were."""
    server = await make_server()
    peers = [await Peer.connect(server, name) for name in ("Ivan", "Boris", "Luka", "Mia")]
    opened.extend(peers)
    ivan, boris, luka, mia = peers
    path = await _registering(server, ivan)
    for peer in (ivan, boris):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200
    for peer, lookalike, entrant in ((luka, "lvan", "Ivan"), (mia, "\u0412oris", "Boris")):
        status, answer = await api(
            server, "POST", f"{path}/register", {"name": lookalike}, peer.token
        )
        assert status == 409 and answer["code"] == "name_confusable", answer
        assert entrant in answer["error"]
    _, view = await api(server, "GET", path)
    assert [e["name"] for e in view["entrants"]] == ["Ivan", "Boris"]
    # Under names of their own they are taken.
    for peer in (luka, mia):
        status, _ = await api(server, "POST", f"{path}/register", {"name": peer.name}, peer.token)
        assert status == 200
