"""A private room reveals nothing to anyone who has not joined it with its code.

The room id is no secret (it is in the page and the URL), so an outsider is given every
room id here and tries everything with it: each HTTP path the port serves, the replay
with no code, a wrong code or a token of their own, joining by id as a player and as a
spectator, and the lobby's list and updates. Each answer must be the one a room that does
not exist gets, and nothing the outsider receives may hold the code, the room's name, a
player's name or a word of the chat. The members read the replay with the code or with a
seat's session token, also after the room has closed.
"""

from __future__ import annotations

import msgpack
import msgspec

from protocol import errors
from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, decide_first_break, open_peer
from tests.server.test_http import fetch

NAME = "Cellar Club"
SECRET_CHAT = "swordfish is the word"


def _leaks(text: bytes, code: str) -> list[str]:
    """What of the private room's secrets `text` holds."""
    secrets = (code, NAME, "Ottoline", "Barnaby", SECRET_CHAT)
    return [secret for secret in secrets if secret.encode() in text]


async def test_an_outsider_learns_nothing_of_a_private_room(
    server: GameServer, peers: list[Peer]
) -> None:
    outsider = await open_peer(server, peers, "Mallory")
    listing = await outsider.request({"t": "lobby"})
    assert isinstance(listing, m.Rooms)

    ana = await open_peer(server, peers, "Ottoline")
    ben = await open_peer(server, peers, "Barnaby")
    created = await ana.request(
        {"t": "create", "settings": {"name": NAME, "private": True, "first_break": "draw"}}
    )
    assert isinstance(created, m.Joined) and created.code is not None
    room, code = created.room, created.code
    joined = await ben.request({"t": "join", "code": code})
    assert isinstance(joined, m.Joined)
    assert isinstance(await ana.request({"t": "chat", "text": SECRET_CHAT}), m.Ok)
    await ana.request({"t": "ready"})
    await ben.request({"t": "ready"})
    first = (await decide_first_break(await ana.expect(m.LagResult), (ana, ben))).table
    assert first.turn is not None
    assert isinstance(await (ana, ben)[first.turn].request(scripting.break_shot(first)), m.Ok)
    await ana.expect(m.ShotResult)  # a room where a shot was played keeps its replay

    # --- HTTP: the replay, every way an outsider can ask, answers as for no room at all.
    missing = await fetch(server, "/replay/nosuchroomx")
    assert missing[0] == 404
    for path, headers in (
        (f"/replay/{room}", {}),
        (f"/replay/{room}?code=", {}),
        (f"/replay/{room}?code=ABCDEFGHJKLMNPQRSTUV", {}),
        (f"/replay/{room}?code={code.lower()}x", {}),
        (f"/replay/{room}", {"Authorization": f"Bearer {outsider.token}"}),
        (f"/replay/{room}", {"Authorization": "Bearer forged.token"}),
        (f"/replay/{room}", {"Authorization": f"Basic {code}"}),
    ):
        status, _, body = await fetch(server, path, headers)
        assert (status, body) == (404, missing[2]), (path, headers, status, body[:80])
    # Every other path the port serves holds nothing of the room either.
    for path in ("/", "/index.html", "/healthz", "/readyz", "/metrics", f"/{room}", "/app.mjs"):
        _, _, body = await fetch(server, path)
        assert room.encode() not in body and not _leaks(body, code), path

    # --- WebSocket: joining by id, as a player or to watch, is "no such room".
    nowhere = await outsider.request({"t": "join", "room": "nosuchroomx"})
    assert isinstance(nowhere, m.Error)
    for role in ("player", "spectator"):
        refused = await outsider.request({"t": "join", "room": room, "role": role})
        assert isinstance(refused, m.Error), refused
        assert (refused.code, refused.msg) == (nowhere.code, nowhere.msg)
    assert nowhere.code == errors.NO_SUCH_ROOM
    # Nor does resyncing or chatting into it from outside reach it.
    stray = await outsider.request({"t": "resync"})
    assert isinstance(stray, m.Error) and stray.code == errors.NOT_IN_ROOM

    # --- The lobby never listed it, and nothing the outsider got names it.
    await ana.request({"t": "chat", "text": SECRET_CHAT})
    await outsider.drain(0.3)
    again = await outsider.request({"t": "lobby"})
    assert isinstance(again, m.Rooms) and room not in [r.room for r in again.rooms]
    for message in outsider.seen:
        frame = msgspec.msgpack.encode(message)
        assert room.encode() not in frame and not _leaks(frame, code), message

    # --- The members read it with the code or with a seat's token.
    status, _, body = await fetch(server, f"/replay/{room}?code={code}")
    assert status == 200
    document = msgpack.unpackb(body)
    assert document["settings"]["name"] == NAME
    assert SECRET_CHAT in [e.get("text") for e in document["events"]]
    for token in (ana.token, ben.token):
        status, _, body = await fetch(
            server, f"/replay/{room}", {"Authorization": f"Bearer {token}"}
        )
        assert status == 200 and msgpack.unpackb(body)["room"] == room

    # After the room has closed (its seats are empty then), still only for them.
    assert isinstance(await ana.request({"t": "leave"}), m.Ok)
    assert isinstance(await ben.request({"t": "leave"}), m.Ok)
    await ben.drain(0.2)
    status, _, _ = await fetch(server, f"/replay/{room}", {"Authorization": f"Bearer {ben.token}"})
    assert status == 200
    assert (await fetch(server, f"/replay/{room}?code={code}"))[0] == 200
    assert (await fetch(server, f"/replay/{room}"))[:3:2] == (404, missing[2])
    status, _, _ = await fetch(
        server, f"/replay/{room}", {"Authorization": f"Bearer {outsider.token}"}
    )
    assert status == 404


async def test_public_rooms_stay_open_to_everyone(server: GameServer, peers: list[Peer]) -> None:
    ana = await open_peer(server, peers, "Ana")
    created = await ana.request({"t": "create", "settings": {"name": "Open table"}})
    assert isinstance(created, m.Joined) and created.code is None
    status, _, body = await fetch(server, f"/replay/{created.room}")
    assert status == 200 and msgpack.unpackb(body)["settings"]["name"] == "Open table"
    eve = await open_peer(server, peers, "Eve")
    watching = await eve.request({"t": "join", "room": created.room, "role": "spectator"})
    assert isinstance(watching, m.Joined)
