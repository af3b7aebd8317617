"""The players' JSON API on a real server (port 0), spoken to over real sockets.

The server keeps its players in a real SQLite file (`--players-store`); the guest
session token comes from a real WebSocket `hello`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import http.client
import json
import logging
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from server.app import GameServer
from server.players import ratings
from server.players.results import MatchResult, RackResult
from server.rooms.simulation import PhysicsPool
from tests.redis_server import RedisServer
from tests.server.support import Peer, make_config

JSON = {"Content-Type": "application/json"}


@pytest.fixture
async def server(physics_pool: PhysicsPool, tmp_path: Path) -> AsyncIterator[GameServer]:
    config = make_config(
        players_store=f"sqlite://{tmp_path / 'players.db'}",
        login_failures=3,
        login_failures_per_address=6,
        login_window=60,
    )
    game_server = GameServer(config, pool=physics_pool)
    await game_server.start()
    yield game_server
    await game_server.stop()


def _request(
    port: int, method: str, path: str, body: bytes | None, headers: dict[str, str]
) -> tuple[int, dict[str, str], Any]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        raw = response.read()
        found = {k.lower(): v for k, v in response.getheaders()}
        is_json = found.get("content-type") == "application/json"
        return response.status, found, json.loads(raw) if raw and is_json else raw
    finally:
        connection.close()


async def call(
    server: GameServer,
    method: str,
    path: str,
    body: Any = None,
    token: str | None = None,
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, str], Any]:
    sent = dict(JSON if body is not None else {})
    sent.update(headers or {})
    if token is not None:
        sent["Authorization"] = f"Bearer {token}"
    data = body if isinstance(body, bytes) else None if body is None else json.dumps(body).encode()
    return await asyncio.to_thread(_request, server.port, method, path, data, sent)


async def test_an_account_from_claim_to_deletion(server: GameServer) -> None:
    status, _, body = await call(
        server, "POST", "/api/accounts", {"name": "Alice", "password": "correct horse"}
    )
    assert (status, body) == (201, {"name": "Alice"})
    status, _, body = await call(
        server, "POST", "/api/accounts", {"name": "ALICE", "password": "another one"}
    )
    assert status == 409 and "taken" in body["error"]

    status, headers, body = await call(
        server, "POST", "/api/login", {"name": "alice", "password": "correct horse"}
    )
    assert status == 200 and body["name"] == "Alice" and body["token"]
    assert headers["cache-control"] == "no-store"
    assert headers["content-type"] == "application/json"
    phone = body["token"]
    _, _, body = await call(
        server, "POST", "/api/login", {"name": "Alice", "password": "correct horse"}
    )
    laptop = body["token"]

    status, _, profile = await call(server, "GET", "/api/players/alice")
    assert status == 200
    assert profile["name"] == "Alice" and profile["rating"] == 500
    assert profile["racks"] == 0 and profile["provisional"] is True

    assert (await call(server, "POST", "/api/logout", token=phone))[0] == 204
    assert (await call(server, "POST", "/api/logout", token=phone))[0] == 401
    assert (await call(server, "POST", "/api/logout-all", token=laptop))[0] == 204
    assert (await call(server, "DELETE", "/api/accounts/me", token=laptop))[0] == 401

    _, _, body = await call(
        server, "POST", "/api/login", {"name": "Alice", "password": "correct horse"}
    )
    assert (await call(server, "DELETE", "/api/accounts/me", token=body["token"]))[0] == 204
    assert (await call(server, "GET", "/api/players/Alice"))[0] == 404
    status, _, _ = await call(
        server, "POST", "/api/login", {"name": "Alice", "password": "correct horse"}
    )
    assert status == 401
    status, _, _ = await call(
        server, "POST", "/api/accounts", {"name": "Alice", "password": "a new owner"}
    )
    assert status == 201


@pytest.mark.parametrize(
    ("body", "why"),
    [
        ({"name": "ab", "password": "long enough"}, "3 to 20"),
        ({"name": "Bob\u200b", "password": "long enough"}, "invisible"),
        ({"name": "раураl", "password": "long enough"}, "one script"),
        ({"name": "Admin", "password": "long enough"}, "reserved"),
        ({"name": "Carol", "password": "short"}, "at least 8"),
        ({"name": "Carol"}, "strings"),
        (["Carol", "long enough"], "send"),
    ],
)
async def test_bad_names_and_passwords_get_400_with_a_reason(
    server: GameServer, body: Any, why: str
) -> None:
    status, _, answer = await call(server, "POST", "/api/accounts", body)
    assert status == 400 and why in answer["error"]


async def test_a_wrong_password_and_an_unknown_name_answer_alike_then_429(
    server: GameServer,
) -> None:
    await call(server, "POST", "/api/accounts", {"name": "Dave", "password": "correct horse"})
    wrong = await call(server, "POST", "/api/login", {"name": "Dave", "password": "nope nope"})
    unknown = await call(server, "POST", "/api/login", {"name": "Nobody", "password": "x" * 9})
    assert wrong[0] == unknown[0] == 401 and wrong[2] == unknown[2]
    await call(server, "POST", "/api/login", {"name": "Dave", "password": "nope nope"})
    await call(server, "POST", "/api/login", {"name": "Dave", "password": "nope nope"})
    status, headers, _ = await call(
        server, "POST", "/api/login", {"name": "Dave", "password": "correct horse"}
    )
    assert status == 429 and 1 <= int(headers["retry-after"]) <= 60
    # Per address: six failures from this address, whatever the names, close it too.
    for name in ("Erin", "Frank"):
        assert (await call(server, "POST", "/api/login", {"name": name, "password": "xx"}))[
            0
        ] == 401
    status, headers, _ = await call(server, "POST", "/api/login", {"name": "Gina", "password": "x"})
    assert status == 429 and int(headers["retry-after"]) >= 1


async def test_bodies_must_be_small_json(server: GameServer) -> None:
    good = {"name": "Hank", "password": "correct horse"}
    status, _, answer = await call(
        server,
        "POST",
        "/api/accounts",
        json.dumps(good).encode(),
        headers={"Content-Type": "text/plain"},
    )
    assert status == 415 and "application/json" in answer["error"]
    huge = {"name": "Hank", "password": "x" * 5000}
    assert (await call(server, "POST", "/api/accounts", huge))[0] == 413
    assert (await call(server, "POST", "/api/login", b"{not json"))[0] == 400
    status, headers, _ = await call(server, "GET", "/api/accounts")
    assert status == 405 and headers["allow"] == "POST"
    assert (await call(server, "GET", "/api/nothing-here"))[0] == 404
    # The rest of the port is unchanged: health, the client, WebSockets.
    assert (await asyncio.to_thread(_request, server.port, "GET", "/healthz", None, {}))[0] == 200


async def test_a_body_that_never_comes_gets_408(server: GameServer) -> None:
    def slow() -> bytes:
        with socket.create_connection(("127.0.0.1", server.port), timeout=30) as sock:
            sock.sendall(
                b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                b"Content-Length: 100\r\n\r\n{"
            )
            return sock.recv(4096)

    server.door.limits = dataclasses.replace(server.door.limits, header_timeout=0.3)
    answer = await asyncio.to_thread(slow)
    assert answer.startswith(b"HTTP/1.1 408")


async def test_passwords_are_never_logged_or_echoed(
    server: GameServer, caplog: pytest.LogCaptureFixture
) -> None:
    secret = "hunter2-very-secret"
    caplog.set_level(logging.DEBUG)
    for path in ("/api/accounts", "/api/login", "/api/login"):
        _, _, answer = await call(server, "POST", path, {"name": "Ivan", "password": secret})
        assert secret not in json.dumps(answer)
    await call(server, "POST", "/api/login", {"name": "Ivan", "password": secret + "x"})
    assert secret not in caplog.text
    account = await server.players.store.account_by_name("ivan")
    assert account is not None and secret not in account.password_hash


async def test_a_guest_claims_its_player_id_and_its_racks_count(server: GameServer) -> None:
    guest = await Peer.connect(server, "Judy")
    try:
        assert guest.token is not None and guest.player is not None
        status, _, _ = await call(
            server,
            "POST",
            "/api/accounts",
            {"name": "Judy", "password": "correct horse"},
            token=guest.token,
        )
        assert status == 201
    finally:
        await guest.close()
    status, _, _ = await call(
        server, "POST", "/api/accounts", {"name": "Judy2", "password": "xx" * 5}, token="forged.x"
    )
    assert status == 401
    account = await server.players.store.account_by_name("judy")
    assert account is not None and account.player == guest.player
    # The login says which player the account is: the page compares it with the player
    # it is seated as before it switches (a login to another account mid-match).
    status, _, body = await call(
        server, "POST", "/api/login", {"name": "judy", "password": "correct horse"}
    )
    assert status == 200 and body["player"] == guest.player and body["name"] == "Judy"


async def test_leaderboard_and_profile_after_rated_racks(server: GameServer) -> None:
    players = server.players
    ids = {}
    for name in ("Kate", "Liam", "Mona"):
        await call(server, "POST", "/api/accounts", {"name": name, "password": "correct horse"})
        account = await players.store.account_by_name(name.lower())
        assert account is not None
        ids[name] = account.player
    bot = ratings.bot_player_id(2)
    for number in range(40):
        players.submit_rack(
            RackResult("roomA", 1, number, ids["Kate"], bot, True, ids["Kate"], nine_on_break=True)
        )
        players.submit_rack(
            RackResult(
                "roomB",
                1,
                number,
                bot if number % 3 else ids["Liam"],
                ids["Liam"] if number % 3 else bot,
                True,
                bot,
            )
        )
    players.submit_rack(RackResult("roomC", 1, 1, ids["Mona"], bot, True, bot))
    players.submit_match(
        MatchResult("roomA", 1, (ids["Kate"], bot), ids["Kate"], (40, 0), "race", True)
    )
    await players.drain()

    status, _, board = await call(server, "GET", "/api/leaderboard?limit=10")
    assert status == 200
    assert [row["name"] for row in board] == ["Kate", "Liam"]  # Mona is provisional
    assert board[0]["racks"] == 40 and board[0]["rating"] > board[1]["rating"]
    _, _, monthly = await call(server, "GET", "/api/leaderboard?period=month&limit=1")
    assert [row["name"] for row in monthly] == ["Kate"]
    assert (await call(server, "GET", "/api/leaderboard?limit=0"))[0] == 400
    assert (await call(server, "GET", "/api/leaderboard?period=year"))[0] == 400

    status, _, kate = await call(server, "GET", "/api/players/KATE")
    assert status == 200
    assert kate["racks"] == 40 and kate["won"] == 40 and kate["lost"] == 0
    assert kate["nines_on_break"] == 40 and kate["provisional"] is False
    assert len(kate["history"]) == 40
    [match] = kate["matches"]
    assert match["replay"] == "/replay/roomA" and match["opponent"] == "Bot (level 2)"
    assert match["opponent_level"] == 2
    assert (await call(server, "GET", "/api/players/%E2%80%8Bnobody"))[0] == 404


async def test_two_nodes_on_one_redis_share_accounts_and_revocations(
    physics_pool: PhysicsPool, own_redis: RedisServer
) -> None:
    """Players on the Redis every node shares: an account made on one node logs in on the
    other, and "log out everywhere" on one refuses the token on the other at once."""
    nodes = [
        GameServer(make_config(players_store=own_redis.url), pool=physics_pool) for _ in range(2)
    ]
    for node in nodes:
        await node.start()
    try:
        one, two = nodes
        status, _, _ = await call(
            one, "POST", "/api/accounts", {"name": "Nora", "password": "correct horse"}
        )
        assert status == 201
        _, _, body = await call(
            two, "POST", "/api/login", {"name": "nora", "password": "correct horse"}
        )
        token = body["token"]
        assert (await call(one, "POST", "/api/logout-all", token=token))[0] == 204
        assert (await call(two, "POST", "/api/logout", token=token))[0] == 401
        bot = ratings.bot_player_id(4)
        account = await one.players.store.account_by_name("nora")
        assert account is not None
        for number in range(ratings.PROVISIONAL_RACKS):
            await one.players.rack_finished(
                RackResult("roomN", 1, number, account.player, bot, True, bot)
            )
        _, _, board = await call(two, "GET", "/api/leaderboard")
        assert [row["name"] for row in board] == ["Nora"]
    finally:
        for node in nodes:
            await node.stop()
