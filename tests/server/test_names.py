"""Names and chat show what they are (`protocol/text.py`): NFKC, no bidi controls or
invisible characters; a name that could pass for a seated player's is refused in that
room; Croatian and Russian names work."""

from __future__ import annotations

from dataclasses import replace

from protocol import errors
from protocol import messages as m
from protocol.text import clean, confusable, skeleton
from server.app import GameServer
from tests.server.support import Peer, open_peer


def test_lookalikes_share_a_skeleton_and_other_names_do_not() -> None:
    for name, lookalike in (
        ("Ana", "\u0410na"),  # Cyrillic capital A
        ("Ana", "ANA"),
        ("Boris", "B\u043er\u0456s"),  # Cyrillic o and i
        ("Olga", "0lga"),
        ("Bill", "BiII"),
        ("Emma", "Ernma"),
        ("Ana", "\uff21\uff4e\uff41"),  # fullwidth
    ):
        assert skeleton(name) == skeleton(lookalike), (name, lookalike)
    for name, other in (("Đurđa", "Durda"), ("Ана", "Ana"), ("Борис", "Boris"), ("Ana", "Ann")):
        assert confusable(name, [other]) is None, (name, other)
    assert clean("Ana\u202eelor\u200b\u2066") == "Anaelor"


async def test_names_come_back_cleaned_and_other_scripts_work(
    server: GameServer, peers: list[Peer]
) -> None:
    for name in ("Đurđa", "Ана", "Борис", "Zoë"):
        peer = await open_peer(server, peers, name)
        assert peer.player is not None
    spoof = await open_peer(server, peers, "An\u200ba\u202e")
    welcome = next(msg for msg in spoof.seen if isinstance(msg, m.Welcome))
    assert welcome.name == "Ana"
    bare = await Peer.connect_raw(server, "x")
    peers.append(bare)
    refused = await bare.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "\u200b\u200d\u202e"}
    )
    assert isinstance(refused, m.Error) and refused.code == errors.BAD_MESSAGE


async def test_room_names_and_chat_lose_bidi_controls(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "Free\u202e\u200broom"}})
    assert isinstance(created, m.Joined)
    snapshot = await ana.expect(m.Snapshot)
    assert snapshot.view.settings.name == "Freeroom"
    assert isinstance(await ana.request({"t": "chat", "text": "hi\u202e there"}), m.Ok)
    said = await ana.expect(m.ChatRelay)
    assert said.text == "hi there"


async def test_a_name_that_passes_for_a_seated_player_is_refused_in_that_room(
    server: GameServer, peers: list[Peer]
) -> None:
    ace = await open_peer(server, peers, "Ace")
    created = await ace.request({"t": "create"})
    assert isinstance(created, m.Joined)
    for lookalike in ("\u0410\u0441\u0435", "ace", "Ace"):  # the first in Cyrillic
        impostor = await open_peer(server, peers, lookalike)
        for role in ("player", "spectator"):
            refused = await impostor.request({"t": "join", "room": created.room, "role": role})
            assert isinstance(refused, m.Error), (lookalike, role)
            assert refused.code == errors.NAME_CONFUSABLE
    # Another name, in any script, sits down.
    boris = await open_peer(server, peers, "Борис")
    assert isinstance(await boris.request({"t": "join", "room": created.room}), m.Joined)


async def test_a_guests_name_is_held_to_the_rule_token_or_not(
    server: GameServer, peers: list[Peer]
) -> None:
    """A guest's name is chosen by one rule: 3 to 20 characters, as an account's (one
    script, a letter, a letter or digit at either end), else `bad_name` and nothing
    changed, the connection still usable. A session token does not carry a name: a known
    player saying another name (a page says its typed name with its token) is held to the
    rule too. A name from before the rule is kept where it is shown already: by a player
    coming back to the seat that carries it."""
    bare = await Peer.connect_raw(server)
    peers.append(bare)
    for name in ("Al", "A", "Grandmaster of the cue", "\u0412oris", "1234", "Ana."):
        refused = await bare.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": name})
        assert isinstance(refused, m.Error) and refused.code == errors.BAD_NAME, name
    assert not server.gateway.session_answers and all(
        c.player is None for c in server.gateway.clients
    )
    welcome = await bare.request({"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Ana  Marija"})
    assert isinstance(welcome, m.Welcome) and welcome.name == "Ana Marija"
    # With a token the server signed: the same rule.
    zorro = await open_peer(server, peers, "Zorro")
    for name in ("\u0410na", "X", "Grandmaster of the cue"):
        again = await Peer.connect_raw(server)
        peers.append(again)
        hello = {"t": "hello", "v": m.PROTOCOL_VERSION, "name": name, "token": zorro.token}
        refused = await again.request(hello)
        assert isinstance(refused, m.Error) and refused.code == errors.BAD_NAME, name
    # A seat that carries a name from before the rule (as a room stored then comes back):
    # its player comes back under it, and only under it.
    assert isinstance(await zorro.request({"t": "create"}), m.Joined)
    await zorro.expect(m.Snapshot)
    room = next(iter(server.lobby.rooms.values()))
    seat = room.state.seats[0]
    assert seat is not None and seat.player == zorro.player
    room.state = replace(room.state, seats=(replace(seat, name="Al"), room.state.seats[1]))
    back = await open_peer(server, peers, "Al", token=zorro.token)
    welcome = back.seen[0]
    assert isinstance(welcome, m.Welcome) and (welcome.name, welcome.room) == ("Al", room.id)
    elsewhere = await Peer.connect_raw(server)
    peers.append(elsewhere)
    hello = {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Bo", "token": zorro.token}
    refused = await elsewhere.request(hello)
    assert isinstance(refused, m.Error) and refused.code == errors.BAD_NAME
