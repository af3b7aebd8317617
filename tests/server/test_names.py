"""Names and chat show what they are (`protocol/text.py`): NFKC, no bidi controls or
invisible characters; a name that could pass for a seated player's is refused in that
room; Croatian and Russian names work."""

from __future__ import annotations

from protocol import errors
from protocol import messages as m
from protocol.text import clean, confusable, skeleton
from server.app import GameServer
from server.edge.sessions import new_player_id
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
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create"})
    assert isinstance(created, m.Joined)
    for lookalike in ("\u0410na", "ana", "Ana"):
        # A player coming back (a new one may not mix scripts: `bad_name`).
        token = server.gateway.sessions.issue(new_player_id())
        impostor = await open_peer(server, peers, lookalike, token=token)
        for role in ("player", "spectator"):
            refused = await impostor.request({"t": "join", "room": created.room, "role": role})
            assert isinstance(refused, m.Error), (lookalike, role)
            assert refused.code == errors.NAME_CONFUSABLE
    # Another name, in any script, sits down.
    boris = await open_peer(server, peers, "Борис")
    assert isinstance(await boris.request({"t": "join", "room": created.room}), m.Joined)


async def test_a_new_players_name_is_held_to_the_rule_and_a_returning_ones_is_not(
    server: GameServer, peers: list[Peer]
) -> None:
    """A `hello` without a token is a new player's, whose name is chosen now: 3 to 20
    characters, as an account's (one script, a letter, a letter or digit at either end),
    else `bad_name` and nothing changed, the connection still usable. A player coming back
    with their token keeps a name chosen before the rule (1 to 24 characters) and plays
    under it."""
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
    # Names from before the rule, said by a player the server knows (their session token:
    # one it signed before the rule came in), are taken as they are, and sit at a table.
    for old in ("Al", "Grandmaster of the cue"):
        token = server.gateway.sessions.issue(new_player_id())
        back = await open_peer(server, peers, old, token=token)
        assert back.seen[0] == m.Welcome(
            id=back.seen[0].id,
            v=m.PROTOCOL_VERSION,
            player=back.player or "",
            name=old,
            token=back.token or "",
            now=back.seen[0].now,
            room=None,
        )
        assert isinstance(await back.request({"t": "create"}), m.Joined)
        snapshot = await back.expect(m.Snapshot)
        seat = snapshot.view.seats[0]
        assert seat is not None and seat.name == old
