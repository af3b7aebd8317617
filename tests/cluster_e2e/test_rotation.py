"""Rotating the session key through real nodes, as deploy/README.md ("Rotating secrets")
says to, one node at a time: a seated player reconnects between every step, to whichever
node, and is never sent away; only once the old key is dropped are its tokens refused."""

from __future__ import annotations

from pathlib import Path

from websockets.asyncio.client import connect
from websockets.typing import Origin

from protocol import messages as m
from tests.cluster_e2e.clients import open_peer
from tests.cluster_e2e.conftest import node_args
from tests.cluster_e2e.processes import Node
from tests.redis_server import RedisServer
from tests.server.support import Peer

OLD = "old-session-key-" + "o" * 24
NEW = "new-session-key-" + "n" * 24


def keys(secret: str, previous: str = "") -> list[str]:
    return ["--secret", secret, "--secret-previous", previous]


def restart(node: Node, redis_url: str, *extra: str) -> None:
    node.kill()
    node.args = node_args(redis_url, node.name, *extra)
    node.start()


async def comes_back(node: Node, name: str, token: str | None, room: str) -> Peer:
    """The player reconnects through `node` with `token`: the same player, back in the
    seat, with a fresh token."""
    peer = await open_peer(node.ws_url, name, token=token)
    welcome = next(message for message in peer.seen if isinstance(message, m.Welcome))
    assert welcome.room == room
    assert peer.token != token
    await peer.expect(m.Snapshot)
    return peer


async def hello_with(node: Node, token: str) -> m.ServerMessage:
    """What `node` answers a `hello` with this token."""
    origin = Origin(f"http://127.0.0.1:{node.port}")
    probe = Peer(await connect(node.ws_url, origin=origin, compression=None), "Ana")
    answer = await probe.request(
        {"t": "hello", "v": m.PROTOCOL_VERSION, "name": "Ana", "token": token}
    )
    await probe.close()
    return answer


async def test_the_session_key_rotates_without_unseating_anybody(tmp_path: Path) -> None:
    redis = RedisServer(tmp_path / "redis")
    redis.start()
    nodes = [
        Node(name, tmp_path / "nodes", node_args(redis.url, name, *keys(OLD)))
        for name in ("n1", "n2")
    ]
    try:
        for node in nodes:
            node.start()
        n1, n2 = nodes
        ana = await open_peer(n1.ws_url, "Ana")
        player = ana.player
        created = await ana.request({"t": "create", "settings": {"name": "rotation"}})
        assert isinstance(created, m.Joined)
        room = created.room
        old_token = ana.token
        await ana.close()

        # 1. Every node learns the new key, still signing with the old one.
        restart(n2, redis.url, *keys(OLD, NEW))
        restart(n1, redis.url, *keys(OLD, NEW))
        ana = await comes_back(n2, "Ana", old_token, room)
        assert ana.player == player
        await ana.close()

        # 2. Nodes sign with the new key, one at a time; a token of either key works on
        #    any node meanwhile.
        restart(n1, redis.url, *keys(NEW, OLD))
        ana = await comes_back(n1, "Ana", old_token, room)  # renewed with the new key
        new_token = ana.token
        assert new_token is not None
        await ana.close()
        ana = await comes_back(n2, "Ana", new_token, room)  # n2 is still at step 1
        await ana.close()
        restart(n2, redis.url, *keys(NEW, OLD))
        ana = await comes_back(n2, "Ana", old_token, room)
        await ana.close()

        # 3. After a token's lifetime the old key goes: its tokens are refused, the new
        #    key's are not.
        restart(n1, redis.url, *keys(NEW))
        answer = await hello_with(n1, old_token or "")
        assert isinstance(answer, m.Error) and answer.code == "bad_token", answer
        ana = await comes_back(n1, "Ana", new_token, room)
        assert ana.player == player
        await ana.close()
        assert [node.trouble() for node in nodes] == [[], []]
    finally:
        for node in nodes:
            node.kill()
        redis.kill()
