"""A guest's place follows them into an account, through a real server on port 0: a guest
who makes an account is no longer listed as a guest; one who logs in to an account they had
takes the place with them (it was left under the guest's id, the page offered to register
again, and the same person entered twice was drawn against themselves); an account with a
place of its own keeps it and the guest's second place goes. Only before the start."""

from __future__ import annotations

from typing import Any

from server.tournament import bracket
from server.tournament.model import Entrant, Races
from tests.server.support import Peer
from tests.tournament.support import Factory, api, settings


async def account(server: Any, name: str) -> dict[str, Any]:
    """An account made and logged in to: its token and player id."""
    password = {"name": name, "password": "correct horse battery"}
    assert (await api(server, "POST", "/api/accounts", password))[0] == 201
    status, login = await api(server, "POST", "/api/login", password)
    assert status == 200
    return dict(login)


async def test_a_guests_place_goes_with_them_into_an_account(
    make_server: Factory, opened: list[Peer]
) -> None:
    server = await make_server()
    organiser = await Peer.connect(server, "Org")
    zed, gina, hugo = [await Peer.connect(server, n) for n in ("Zed", "Gina", "Hugo")]
    opened.extend([organiser, zed, gina, hugo])
    mia = await account(server, "Mia")
    ivo = await account(server, "Ivo")
    _, made = await api(server, "POST", "/api/tournaments", settings(), organiser.token)
    path = f"/api/tournaments/{made['id']}"
    for peer, name in ((zed, "Zed"), (gina, "Gina"), (hugo, "Hugo")):
        assert (await api(server, "POST", f"{path}/register", {"name": name}, peer.token))[0] == 200
    # Ivo has a place of his own; Hugo, a guest, is Ivo too.
    assert (await api(server, "POST", f"{path}/register", {"name": "Ivo"}, ivo["token"]))[0] == 200

    # Zed logs in to Mia's account, his session's token with the login.
    status, login = await api(
        server,
        "POST",
        "/api/login",
        {"name": "Mia", "password": "correct horse battery"},
        zed.token,
    )
    assert status == 200 and login["player"] == mia["player"]
    _, view = await api(server, "GET", path, token=login["token"])
    assert view["entered"] is True, view["me"]
    entry = next(e for e in view["entrants"] if e["name"] == "Zed")
    assert (entry["player"], entry["guest"], entry["provisional"]) == (mia["player"], False, True)
    # Entered once: the account may not register again.
    status, refused = await api(server, "POST", f"{path}/register", {"name": "Mia"}, login["token"])
    assert (status, refused["code"]) == (409, "already_registered"), refused

    # Gina makes an account from her guest session: the place is hers, not a guest's.
    password = {"name": "Gina", "password": "correct horse battery"}
    assert (await api(server, "POST", "/api/accounts", password, gina.token))[0] == 201
    _, view = await api(server, "GET", path)
    entry = next(e for e in view["entrants"] if e["name"] == "Gina")
    assert (entry["player"], entry["guest"]) == (gina.player, False), entry

    # Hugo logs in to Ivo's account, which is entered already: one place, Ivo's.
    ivo_login = {"name": "Ivo", "password": "correct horse battery"}
    assert (await api(server, "POST", "/api/login", ivo_login, hugo.token))[0] == 200
    _, view = await api(server, "GET", path)
    assert sorted(e["name"] for e in view["entrants"]) == ["Gina", "Ivo", "Zed"]

    # Gina's old session token names her account now (she made it from that session):
    # sent with a login to another account it moves nothing, nor does an account's token.
    bobby = await account(server, "Bobby")
    bobby_login = {"name": "Bobby", "password": "correct horse battery"}
    assert (await api(server, "POST", "/api/login", bobby_login, gina.token))[0] == 200
    assert (await api(server, "POST", "/api/login", bobby_login, ivo["token"]))[0] == 200
    # A login without a session, or with one no longer good, is a login and nothing more.
    assert (await api(server, "POST", "/api/login", ivo_login))[0] == 200
    assert (await api(server, "POST", "/api/login", ivo_login, "not-a-token"))[0] == 200
    _, after = await api(server, "GET", path)
    assert after["entrants"] == view["entrants"]
    assert bobby["player"] not in [e["player"] for e in after["entrants"]]


def test_a_place_is_handed_over_only_before_the_start() -> None:
    made = bracket.new_tournament(
        "t1",
        "Split Open",
        format="single",
        cap=4,
        races=Races(),
        seeding="rating",
        seed=3,
        starts_at=0,
        organiser="org",
    )
    guest = Entrant("g1", "Zed", 1200.0, provisional=True, guest=True)
    other = Entrant("p2", "Ana", 1600.0)
    registered = bracket.register(bracket.register(made, guest), other)
    moved = bracket.hand_over(registered, "g1", "acc", 1710.0, False)
    assert [(e.player, e.name, e.rating, e.guest) for e in moved.entrants] == [
        ("acc", "Zed", 1710.0, False),
        ("p2", "Ana", 1600.0, False),
    ]
    # A place that is an account's already does not move, nor is it seeded again.
    assert bracket.hand_over(moved, "acc", "acc", 1.0, True) == moved
    assert bracket.hand_over(registered, "p2", "other", 1.0, True) == registered
    # A guest with no place, or an account that already has one.
    assert bracket.hand_over(registered, "nobody", "acc", 1710.0, False) == registered
    assert [e.player for e in bracket.hand_over(registered, "g1", "p2", 1.0, False).entrants] == [
        "p2"
    ]
    # The organiser took the account off: it does not come back through a guest's place.
    removed = bracket.remove(
        bracket.register(registered, Entrant("acc", "Mia", 1500.0)), "org", "Mia"
    )
    assert [e.player for e in bracket.hand_over(removed, "g1", "acc", 1.0, False).entrants] == [
        "p2"
    ]
    # Drawn already: the bracket is played by the ids it was drawn with.
    started = bracket.start(registered)
    assert bracket.hand_over(started, "g1", "acc", 1710.0, False) == started
