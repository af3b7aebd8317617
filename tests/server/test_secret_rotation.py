"""Rotating the session key without sending anybody away (deploy/README.md, "Rotating
secrets"): a node accepts tokens of its previous key (`--secret-previous`) as well as its
own, signs only with its own, and renews a token of the previous key at the next `hello`;
an empty `NINEPOOL_SECRET_PREVIOUS` means none. The rotation through real node processes
is in tests/cluster_e2e/test_rotation.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from protocol import messages as m
from server.app import GameServer
from server.edge.sessions import Sessions
from server.ops.config import config_from_args
from tests.server.support import Peer, make_config

OLD, NEW, OTHER = b"o" * 32, b"n" * 32, b"x" * 32


def test_a_token_of_the_previous_key_is_accepted_and_only_the_current_key_signs() -> None:
    old = Sessions(OLD)
    rotated = Sessions(NEW, previous=OLD)
    token = old.issue("p_0123456789abcdef")
    assert rotated.verify(token) == "p_0123456789abcdef"
    fresh = rotated.issue("p_0123456789abcdef")
    assert Sessions(NEW).verify(fresh) == "p_0123456789abcdef"  # signed with the new key
    assert old.verify(fresh) is None  # never with the old one
    # Step 1 of the rotation: nodes still signing with the old key accept the new one.
    learning = Sessions(OLD, previous=NEW)
    assert learning.verify(fresh) == "p_0123456789abcdef"
    # Once the previous key is dropped, its tokens are refused; so are other keys'.
    assert Sessions(NEW).check(token).problem == "forged"
    assert rotated.check(Sessions(OTHER).issue("p_0123456789abcdef")).problem == "forged"


def test_an_expired_token_of_the_previous_key_is_still_expired() -> None:
    now = [1000.0]
    old = Sessions(OLD, ttl=60, clock=lambda: now[0])
    token = old.issue("p_0123456789abcdef")
    now[0] += 61
    assert Sessions(NEW, ttl=60, clock=lambda: now[0], previous=OLD).check(token).problem == (
        "expired"
    )


def test_the_previous_key_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert config_from_args(["--store", "memory://"], {}).secret_previous is None
    empty = {"NINEPOOL_SECRET_PREVIOUS": ""}  # what compose passes when it is not set
    assert config_from_args(["--store", "memory://"], empty).secret_previous is None
    given = config_from_args(["--store", "memory://", "--secret-previous", "old-key"], {})
    assert given.secret_previous == b"old-key"
    assert "old-key" not in repr(given)


async def test_a_player_comes_back_through_a_rotated_server_with_a_fresh_token() -> None:
    before = GameServer(make_config(secret=OLD))
    await before.start()
    try:
        ana = await Peer.connect(before, "Ana")
        old_token = ana.token
        await ana.close()
    finally:
        await before.stop()
    after = GameServer(make_config(secret=NEW, secret_previous=OLD))
    await after.start()
    try:
        back = await Peer.connect(after, "Ana", token=old_token)
        assert back.player == ana.player
        assert back.token is not None and back.token != old_token
        assert Sessions(NEW).verify(back.token) == ana.player  # renewed with the new key
        stranger = await Peer.connect_raw(after, "Eve")
        refused = await stranger.request(
            {
                "t": "hello",
                "v": m.PROTOCOL_VERSION,
                "name": "Eve",
                "token": Sessions(OTHER).issue(ana.player or ""),
            }
        )
        assert isinstance(refused, m.Error) and refused.code == "bad_token"
        for peer in (back, stranger):
            await peer.close()
    finally:
        await after.stop()
