"""The players service on a real SQLite file with real argon2id hashing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from argon2 import PasswordHasher

from server.players import ratings
from server.players.passwords import Passwords
from server.players.results import MatchResult, RackResult
from server.players.service import AccountError, Players, Rules, Throttled
from server.players.sqlite import SqlitePlayerStore
from server.players.tokens import AccountTokens
from server.rooms.reporting import Reporter
from server.rooms.seams import Command, Rated

SECRET = b"k" * 32


class Clock:
    def __init__(self) -> None:
        self.now = 1_780_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def players(tmp_path: Path) -> AsyncIterator[Players]:
    clock = Clock()
    service = Players(
        SqlitePlayerStore(tmp_path / "players.db", clock=clock),
        Passwords(workers=2),
        AccountTokens(SECRET, ttl=3600, clock=clock),
        Rules(failures_per_account=3, failures_per_address=5, window=60, accounts_per_address=4),
        clock=clock,
    )
    yield service
    await service.close()


async def test_claim_log_in_and_out(players: Players) -> None:
    account = await players.create_account("Alice", "correct horse", "10.0.0.1")
    assert account.name == "Alice" and account.player.startswith("p_")
    assert "correct horse" not in account.password_hash
    assert account.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")

    token, same = await players.login("ALICE", "correct horse", "10.0.0.1")
    assert same == account
    identity = await players.identify(token)
    assert identity is not None and (identity.player, identity.name) == (account.player, "Alice")

    other, _ = await players.login("alice", "correct horse", "10.0.0.2")
    await players.logout(identity)
    assert await players.identify(token) is None
    assert await players.identify(other) is not None  # only that one token

    renewed = players.renew((await players.identify(other)) or pytest.fail("no identity"))
    assert await players.identify(renewed) is not None
    everywhere = await players.identify(other)
    assert everywhere is not None
    await players.logout_everywhere(everywhere)
    assert await players.identify(other) is None
    assert await players.identify(renewed) is None
    fresh, _ = await players.login("alice", "correct horse", "10.0.0.1")
    assert await players.identify(fresh) is not None


async def test_a_hash_made_with_weaker_parameters_is_renewed_at_login(players: Players) -> None:
    weak = PasswordHasher(time_cost=1, memory_cost=8192, parallelism=1)
    account = await players.create_account("Alice", "correct horse", "10.0.0.1")
    await players.store.set_password_hash(account.player, weak.hash("correct horse"))
    await players.login("alice", "correct horse", "10.0.0.1")
    renewed = await players.store.account(account.player)
    assert renewed is not None
    assert renewed.password_hash.startswith("$argon2id$v=19$m=19456,t=2,p=1$")
    await players.login("alice", "correct horse", "10.0.0.1")


async def test_a_wrong_name_and_a_wrong_password_get_the_same_answer(players: Players) -> None:
    await players.create_account("Alice", "correct horse", "10.0.0.1")
    with pytest.raises(AccountError) as wrong_password:
        await players.login("Alice", "wrong horse", "10.0.0.1")
    with pytest.raises(AccountError) as wrong_name:
        await players.login("Alicia", "correct horse", "10.0.0.1")
    assert wrong_password.value.kind == wrong_name.value.kind == "unknown"
    assert str(wrong_password.value) == str(wrong_name.value)


async def test_repeated_failures_are_throttled_per_account_and_per_address(
    players: Players,
) -> None:
    await players.create_account("Alice", "correct horse", "10.0.0.1")
    for _ in range(3):
        with pytest.raises(AccountError):
            await players.login("alice", "guess", "10.0.0.9")
    with pytest.raises(Throttled) as throttled:
        await players.login("alice", "correct horse", "10.0.0.1")  # even the right one
    assert 0 < throttled.value.retry_after <= 60
    # Another name from the same address still gets an answer, until the address's own
    # count is full.
    for name in ("bob", "carol"):
        with pytest.raises(AccountError):
            await players.login(name, "guess", "10.0.0.9")
    with pytest.raises(Throttled):
        await players.login("dave", "guess", "10.0.0.9")
    # A success forgives the name's count.
    await players.create_account("Erin", "correct horse", "10.0.0.2")
    with pytest.raises(AccountError):
        await players.login("erin", "guess", "10.0.0.3")
    await players.login("erin", "correct horse", "10.0.0.3")
    assert (await players.store.attempts("name:erin")).count == 0


async def test_names_and_passwords_are_checked(players: Players) -> None:
    for name, password, kind in (
        ("ab", "long enough", "invalid"),
        ("Admin", "long enough", "invalid"),
        ("Alice", "short", "invalid"),
    ):
        with pytest.raises(AccountError) as refused:
            await players.create_account(name, password, "10.0.0.1")
        assert refused.value.kind == kind
    await players.create_account("Alice", "long enough", "10.0.0.1")
    for taken in ("alice", "ALICE", "AIice"):
        with pytest.raises(AccountError) as refused:
            await players.create_account(taken, "long enough", "10.0.0.1")
        assert refused.value.kind == "taken"


async def test_new_accounts_per_address_are_limited(players: Players) -> None:
    for index in range(4):
        await players.create_account(f"Player{'abcd'[index]}", "long enough", "10.0.0.7")
    with pytest.raises(Throttled):
        await players.create_account("Another", "long enough", "10.0.0.7")
    await players.create_account("Another", "long enough", "10.0.0.8")


async def test_a_claimed_guest_keeps_its_player_id_and_its_racks_count(
    players: Players,
) -> None:
    guest = "p_00000000000000aa"
    rack = RackResult("room", 1, 1, guest, ratings.bot_player_id(2), True, guest)
    assert await players.rack_finished(rack) is None  # a guest's rack: nobody's rating
    account = await players.create_account("Alice", "long enough", "10.0.0.1", guest=guest)
    assert account.player == guest
    after = RackResult("room", 1, 2, guest, ratings.bot_player_id(2), True, guest)
    assert await players.rack_finished(after) is not None
    profile = await players.profile("alice")
    assert profile is not None and profile["racks"] == 1
    with pytest.raises(AccountError) as again:
        await players.create_account("Alice2", "long enough", "10.0.0.1", guest=guest)
    assert again.value.kind == "taken"


async def test_racks_that_do_not_count(players: Players) -> None:
    a = (await players.create_account("Alice", "long enough", "1.1.1.1")).player
    b = (await players.create_account("Bobby", "long enough", "1.1.1.1")).player
    for number, rated, ended_by in (
        (1, False, "nine"),
        (2, True, "forfeit"),
        (4, True, "stalemate"),
    ):
        rack = RackResult("room", 1, number, a, b, rated, a, ended_by=ended_by)  # type: ignore[arg-type]
        assert await players.rack_finished(rack) is None
    three_fouls = RackResult("room", 1, 5, a, b, True, b, fouls={b: 3}, ended_by="three_fouls")
    assert await players.rack_finished(three_fouls) is not None
    profile = await players.profile("bobby")
    assert profile is not None
    assert (profile["racks"], profile["lost"], profile["fouls"], profile["breaks"]) == (1, 1, 3, 1)
    assert profile["fouls_per_rack"] == 3.0


async def test_a_conceded_game_counts_as_lost(players: Players) -> None:
    """A game conceded is a game lost on purpose: it moves the ratings like one lost at the
    table (else a player about to lose a rack could concede it and never lose a point)."""
    a = (await players.create_account("Alice", "long enough", "1.1.1.1")).player
    b = (await players.create_account("Bobby", "long enough", "1.1.1.1")).player
    before = await players.profile("bobby")
    assert before is not None
    conceded = RackResult("room", 1, 1, a, b, True, b, ended_by="concede")
    assert await players.rack_finished(conceded) is not None
    after = await players.profile("bobby")
    winner = await players.profile("alice")
    assert after is not None and winner is not None
    assert (after["racks"], after["lost"]) == (1, 1) and after["rating"] < before["rating"]
    assert (winner["won"], winner["rating"] > before["rating"]) == (1, True)


async def test_the_profile_and_the_leaderboard(players: Players, tmp_path: Path) -> None:
    a = (await players.create_account("Alice", "long enough", "1.1.1.1")).player
    bot = ratings.bot_player_id(3)
    for number in range(ratings.PROVISIONAL_RACKS):
        players.submit_rack(
            RackResult("room7", 1, number, a, bot, True, a, break_and_run=number % 2 == 0)
        )
    players.submit_match(MatchResult("room7", 1, (a, bot), a, (30, 0), "race", True))
    await players.drain()
    profile = await players.profile("ALICE")
    assert profile is not None
    assert profile["name"] == "Alice" and profile["racks"] == 30
    assert profile["provisional"] is False
    assert profile["won"] == 30 and profile["break_and_runs"] == 15
    assert len(profile["history"]) == 30
    assert profile["rating"] == round(profile["history"][-1]["rating"])
    [match] = profile["matches"]
    assert match["opponent"] == "Bot (level 3)" and match["replay"] == "/replay/room7"
    assert match["opponent_level"] == 3
    assert match["score"] == [30, 0] and match["won"] is True
    board = await players.leaderboard(10)
    assert board == [{"name": "Alice", "rating": profile["rating"], "racks": 30}]
    assert await players.leaderboard(10, monthly=True) == board
    assert await players.profile("nobody") is None


class Room:
    """A room as the reporter reaches it: what was posted to it, in order."""

    id = "room"

    def __init__(self) -> None:
        self.posted: list[Command] = []

    def post(self, command: Command) -> None:
        self.posted.append(command)


async def test_a_racks_two_new_ratings_reach_the_room_together(players: Players) -> None:
    """After a rated rack the room hears both players' new ratings in one command, so its
    one snapshot shows the winner's and the loser's change together."""
    a = (await players.create_account("Ljerka", "correct horse", "10.0.0.1")).player
    b = (await players.create_account("Dmitrij", "correct horse", "10.0.0.2")).player
    reporter, room = Reporter(players, retry_delays=()), Room()
    reporter.report(room, RackResult("room", 1, 1, b, a, True, b))
    await reporter.drain()
    (told,) = room.posted
    assert isinstance(told, Rated)
    shown = {r.player: r.rating for r in told.ratings}
    assert shown[b] is not None and shown[a] is not None and shown[b] > 500 > shown[a]
