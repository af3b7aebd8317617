"""A request sent twice is carried out once (`server/edge/answers.py`): the same shot
frame twice is one shot, whoever keeps the table; a repeat gets the first answer again;
with `keep_ids` the same holds across a reconnect of the session."""

from __future__ import annotations

import msgpack

from protocol import messages as m
from server.app import GameServer
from tests.server import scripting
from tests.server.support import Peer, open_peer, watched_table


async def events_until_resync(peer: Peer) -> list[m.ServerMessage]:
    """What the room sends `peer` up to the answer of a resync posted now: the room handles
    its inbox in order, so anything a repeat set off comes before it."""
    snapshot = await peer.request({"t": "resync"})
    assert isinstance(snapshot, m.Snapshot)
    seen, peer.inbox = peer.inbox, []
    return seen


async def test_the_same_shot_frame_sent_twice_is_played_once(
    server: GameServer, peers: list[Peer]
) -> None:
    table = await watched_table(server, peers)
    shooter = table.shooter
    assert shooter.table is not None
    frame = msgpack.packb({**scripting.break_shot(shooter.table), "id": 77})
    await shooter.send_raw(frame)
    await shooter.send_raw(frame)  # a flaky stack, a retry: the very same frame
    first = await shooter.reply_to(77)
    second = await shooter.reply_to(77)
    assert isinstance(first, m.Ok) and second == first
    await shooter.expect(m.ShotResult)
    later = await events_until_resync(shooter)
    assert not [msg for msg in later if isinstance(msg, m.ShotResult)]
    # The spectator saw one shot, too.
    await table.spectator.expect(m.ShotResult)
    watched = await events_until_resync(table.spectator)
    assert not [msg for msg in watched if isinstance(msg, m.ShotResult)]
    assert server.metrics.shots._value.get() == 1


async def test_a_repeat_gets_the_first_answer_refusals_included(
    server: GameServer, peers: list[Peer]
) -> None:
    table = await watched_table(server, peers)
    waiting = table.waiting
    # Not this player's turn: the refusal is the answer, and the repeat gets it again.
    assert waiting.table is not None
    shot = {**scripting.break_shot(waiting.table), "id": 90}
    refused = await waiting.request(shot)
    assert isinstance(refused, m.Error)
    assert await waiting.request(shot) == refused
    # Chat: said once, however often the frame comes.
    chat = {"t": "chat", "id": 91, "text": "good luck"}
    assert isinstance(await waiting.request(chat), m.Ok)
    assert isinstance(await waiting.request(chat), m.Ok)
    heard = await events_until_resync(table.spectator)
    assert [msg.text for msg in heard if isinstance(msg, m.ChatRelay)] == ["good luck"]
    # A new id is a new request.
    assert isinstance(await waiting.request({**chat, "id": 92}), m.Ok)


async def test_with_keep_ids_a_request_sent_again_after_a_reconnect_is_not_repeated(
    server: GameServer, peers: list[Peer]
) -> None:
    ana = await Peer.connect_raw(server, "Ana")
    peers.append(ana)
    welcome = await ana.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Ana", "keep_ids": True}
    )
    assert isinstance(welcome, m.Welcome)
    created = await ana.request({"t": "create", "id": 500})
    assert isinstance(created, m.Joined)
    # The connection drops before the client saw… say, the answer to its chat.
    await ana.send({"t": "chat", "id": 501, "text": "anyone?"})
    await ana.expect(m.ChatRelay)
    await ana.ws.close()
    again = await Peer.connect_raw(server, "Ana")
    peers.append(again)
    hello = {"t": "hello", "id": 1000, "v": m.PROTOCOL_VERSION, "name": "Ana"}
    back = await again.request({**hello, "token": welcome.token, "keep_ids": True})
    assert isinstance(back, m.Welcome) and back.room == created.room
    # Sent again on the new connection: answered, not said twice.
    assert isinstance(await again.request({"t": "chat", "id": 501, "text": "anyone?"}), m.Ok)
    assert isinstance(await again.request({"t": "create", "id": 500}), m.Joined)
    heard = await events_until_resync(again)
    assert not [msg for msg in heard if isinstance(msg, m.ChatRelay)]


async def test_without_keep_ids_a_new_connection_starts_afresh(
    server: GameServer, peers: list[Peer]
) -> None:
    # A client that numbers from 1 on every connection (the browser's page reload) must
    # not be answered from its last connection.
    ana = await open_peer(server, peers, "Ana")
    assert ana.token is not None
    created = await ana.request({"t": "create", "id": 7})
    assert isinstance(created, m.Joined)
    assert isinstance(await ana.request({"t": "leave", "id": 8}), m.Ok)
    await ana.ws.close()
    again = await open_peer(server, peers, "Ana", token=ana.token)
    recreated = await again.request({"t": "create", "id": 7})
    assert isinstance(recreated, m.Joined) and recreated.room != created.room
