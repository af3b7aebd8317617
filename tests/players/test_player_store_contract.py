"""One contract for every `PlayerStore`: SQLite on a real file, Redis on a real server.

Each test runs against both (`player_store` in conftest.py): what one backend does, the
other does the same, down to the rating arithmetic.
"""

from __future__ import annotations

import asyncio
import itertools
from pathlib import Path

import pytest

from server.players import names, ratings
from server.players.redis import RedisPlayerStore
from server.players.results import MatchResult, RackRecord, RackResult
from server.players.sqlite import SqlitePlayerStore
from server.players.store import (
    HISTORY_KEPT,
    MATCHES_KEPT,
    NameTaken,
    PlayerStore,
    PlayerTaken,
    Stats,
)
from server.store.redis import connect

JUNE = 1_780_000_000_000  # 2026-05-28 … a fixed wall-clock instant (ms)
MONTH = "2026-05"
_racks = itertools.count(1)


async def claim(store: PlayerStore, player: str, name: str) -> None:
    await store.create_account(
        player, name, names.fold(name), names.skeleton(name), f"hash-of-{player}", 1
    )


def rack(
    winner: str,
    loser: str,
    *,
    room: str = "room1",
    match: int = 1,
    number: int | None = None,
    at: int = JUNE,
    **details: object,
) -> RackRecord:
    result = RackResult(
        room=room,
        match=match,
        rack=next(_racks) if number is None else number,
        winner=winner,
        loser=loser,
        rated=True,
        breaker=str(details.pop("breaker", winner)),
        **details,  # type: ignore[arg-type]
    )
    return RackRecord(result, at)


# --- accounts ---------------------------------------------------------------------------------


async def test_an_account_is_found_by_player_and_by_folded_name(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    by_player = await player_store.account("p_1")
    by_name = await player_store.account_by_name(names.fold("ＡＬＩＣＥ"))
    assert by_player is not None and by_player == by_name
    assert by_player.name == "Alice" and by_player.password_hash == "hash-of-p_1"
    assert by_player.generation == 0
    assert await player_store.account("p_2") is None
    assert await player_store.account_by_name("bob") is None
    assert await player_store.names(["p_1", "p_2"]) == {"p_1": "Alice"}
    assert await player_store.stats("p_1") == Stats()


async def test_a_password_hash_is_replaced(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    assert await player_store.set_password_hash("p_1", "new-hash") is True
    account = await player_store.account("p_1")
    assert account is not None and account.password_hash == "new-hash"
    assert await player_store.set_password_hash("p_2", "new-hash") is False


async def test_a_name_is_claimed_once_after_folding_and_by_its_look(
    player_store: PlayerStore,
) -> None:
    await claim(player_store, "p_1", "PayPaI")
    for other in ("paypai", "PAYPAI", "paypal", "pay.pal"):
        with pytest.raises(NameTaken):
            await claim(player_store, "p_2", other)
    with pytest.raises(PlayerTaken):
        await claim(player_store, "p_1", "Somebody")
    await claim(player_store, "p_2", "Bob")  # the failed claims left nothing behind
    assert await player_store.names(["p_1", "p_2"]) == {"p_1": "PayPaI", "p_2": "Bob"}


async def test_deleting_an_account_erases_it_and_frees_its_name(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    await claim(player_store, "p_2", "Bob")
    for _ in range(ratings.PROVISIONAL_RACKS):
        await player_store.apply_rack(rack("p_1", "p_2"))
    await player_store.record_match(
        MatchResult("room9", 1, ("p_1", "p_2"), "p_1", (7, 3), "race", True), JUNE
    )
    assert [row.player for row in await player_store.leaderboard(10)] == ["p_1", "p_2"]

    assert await player_store.delete_account("p_1") is True
    assert await player_store.delete_account("p_1") is False
    assert await player_store.account("p_1") is None
    assert await player_store.profile("p_1") is None
    assert await player_store.stats("p_1") is None
    assert await player_store.account_by_name("alice") is None
    assert [row.player for row in await player_store.leaderboard(10)] == ["p_2"]
    assert [row.player for row in await player_store.leaderboard(10, MONTH)] == ["p_2"]
    # Bob's match stays, its other side nobody's.
    profile = await player_store.profile("p_2")
    assert profile is not None and len(profile.matches) == 1
    assert await player_store.names([profile.matches[0].opponent]) == {}
    # The name is free; the player id is not (its old tokens must never log in again).
    await claim(player_store, "p_3", "Alice")
    with pytest.raises(PlayerTaken):
        await claim(player_store, "p_1", "Carol")


async def test_generations_and_revoked_tokens(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    assert await player_store.token_state("p_1", "t1") == 0
    assert await player_store.new_generation("p_1") == 1
    assert await player_store.token_state("p_1", "t1") == 1
    await player_store.revoke("t1", 4_000_000_000)
    assert await player_store.token_state("p_1", "t1") is None
    assert await player_store.token_state("p_1", "t2") == 1
    assert await player_store.new_generation("p_9") is None
    assert await player_store.token_state("p_9", "t2") is None


async def test_failures_are_counted_in_a_window_and_forgiven(player_store: PlayerStore) -> None:
    assert (await player_store.attempts("acct:alice")).count == 0
    first = await player_store.fail("acct:alice", 300)
    second = await player_store.fail("acct:alice", 300)
    assert (first.count, second.count) == (1, 2)
    assert 0 < second.retry_after <= 300
    assert (await player_store.attempts("acct:alice")).count == 2
    assert (await player_store.attempts("addr:1.2.3.4")).count == 0
    await player_store.forgive("acct:alice")
    assert (await player_store.attempts("acct:alice")).count == 0


# --- racks ---------------------------------------------------------------------------------------


async def test_a_rack_moves_both_ratings_as_the_arithmetic_says(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    await claim(player_store, "p_2", "Bob")
    applied = await player_store.apply_rack(
        rack(
            "p_1",
            "p_2",
            breaker="p_1",
            break_and_run=True,
            nine_on_break=True,
            fouls={"p_2": 2},
        )
    )
    expected = ratings.rate_rack(ratings.Side(ratings.START, 0), ratings.Side(ratings.START, 0))
    assert applied is not None
    assert (applied.winner_rating, applied.loser_rating) == expected
    alice, bob = await player_store.stats("p_1"), await player_store.stats("p_2")
    assert alice == Stats(expected[0], 1, 1, 0, 1, 1, 1, 0)
    assert bob == Stats(expected[1], 1, 0, 1, 0, 0, 0, 2)
    profile = await player_store.profile("p_1")
    assert profile is not None
    assert [(p.at, p.rating) for p in profile.history] == [(JUNE, expected[0])]


async def test_a_rack_counts_once(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    await claim(player_store, "p_2", "Bob")
    first = rack("p_1", "p_2", room="r", match=2, number=5)
    assert await player_store.apply_rack(first) is not None
    again = rack("p_2", "p_1", room="r", match=2, number=5)  # the same rack, told otherwise
    assert await player_store.apply_rack(again) is None
    assert await player_store.apply_rack(first) is None
    assert (await player_store.stats("p_1")) == (await player_store.stats("p_1"))
    stats = await player_store.stats("p_2")
    assert stats is not None and (stats.racks, stats.lost) == (1, 1)
    # The same rack number of the next match is another rack.
    assert await player_store.apply_rack(rack("p_2", "p_1", room="r", match=3, number=5))


async def test_a_rack_against_a_guest_changes_nothing(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    assert await player_store.apply_rack(rack("p_1", "p_guest")) is None
    assert await player_store.apply_rack(rack("p_guest", "p_1")) is None
    assert await player_store.stats("p_1") == Stats()


async def test_a_bots_rating_is_fixed_and_only_the_person_moves(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    bot = ratings.bot_player_id(5)
    applied = await player_store.apply_rack(rack(bot, "p_1", breaker=bot, break_and_run=True))
    assert applied is not None
    assert applied.winner_rating == ratings.BOT_RATINGS[5]
    expected = ratings.rate_rack(
        ratings.Side(ratings.BOT_RATINGS[5], 0, fixed=True), ratings.Side(ratings.START, 0)
    )
    alice = await player_store.stats("p_1")
    assert alice is not None and alice.rating == expected[1] < ratings.START
    assert (alice.racks, alice.lost, alice.breaks) == (1, 1, 0)
    assert await player_store.stats(bot) is None
    assert [row.player for row in await player_store.leaderboard(10)] == []


async def test_history_keeps_the_latest_points(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    bot = ratings.bot_player_id(1)
    for index in range(HISTORY_KEPT + 3):
        await player_store.apply_rack(rack("p_1", bot, at=JUNE + index))
    profile = await player_store.profile("p_1")
    assert profile is not None
    assert len(profile.history) == HISTORY_KEPT
    assert profile.history[0].at == JUNE + 3 and profile.history[-1].at == JUNE + HISTORY_KEPT + 2
    assert profile.history[-1].rating == profile.stats.rating
    assert profile.stats.racks == HISTORY_KEPT + 3


# --- leaderboards ------------------------------------------------------------------------------


async def test_the_leaderboard_holds_established_players_best_first(
    player_store: PlayerStore,
) -> None:
    for index in range(1, 5):
        await claim(player_store, f"p_{index}", f"Player {index}")
    weak = ratings.bot_player_id(1)
    # Three established players with different results; one provisional.
    for player, wins in (("p_1", 30), ("p_2", 20), ("p_3", 10)):
        for index in range(ratings.PROVISIONAL_RACKS):
            if index < wins:
                await player_store.apply_rack(rack(player, weak))
            else:
                await player_store.apply_rack(rack(weak, player, breaker=weak))
    await player_store.apply_rack(rack("p_4", weak))
    board = await player_store.leaderboard(10)
    assert [row.player for row in board] == ["p_1", "p_2", "p_3"]
    assert [row.name for row in board] == ["Player 1", "Player 2", "Player 3"]
    assert all(row.racks == ratings.PROVISIONAL_RACKS for row in board)
    assert board[0].rating > board[1].rating > board[2].rating
    stats = await player_store.stats("p_1")
    assert stats is not None and board[0].rating == stats.rating
    assert [row.player for row in await player_store.leaderboard(2)] == ["p_1", "p_2"]


async def test_the_monthly_board_counts_that_months_racks(player_store: PlayerStore) -> None:
    await claim(player_store, "p_1", "Alice")
    await claim(player_store, "p_2", "Bob")
    weak = ratings.bot_player_id(1)
    april = 1_775_000_000_000  # 2026-03-31 … in another month
    for index in range(ratings.PROVISIONAL_RACKS):
        await player_store.apply_rack(rack("p_1", weak, at=april + index))
        await player_store.apply_rack(rack("p_2", weak, at=april + index))
    for _ in range(3):
        await player_store.apply_rack(rack("p_2", weak, at=JUNE))
    may = await player_store.leaderboard(10, MONTH)
    assert [(row.player, row.racks) for row in may] == [("p_2", 3)]
    assert [row.player for row in await player_store.leaderboard(10, "2026-03")] in (
        ["p_1", "p_2"],
        ["p_2", "p_1"],
    )
    assert await player_store.leaderboard(10, "2020-01") == []


# --- matches -----------------------------------------------------------------------------------


async def test_matches_are_recorded_once_newest_first_for_account_holders(
    player_store: PlayerStore,
) -> None:
    await claim(player_store, "p_1", "Alice")
    for index in range(MATCHES_KEPT + 2):
        result = MatchResult(
            "room" + str(index), 1, ("p_guest", "p_1"), "p_1", (2, 5), "race", True
        )
        assert await player_store.record_match(result, JUNE + index) is True
        assert await player_store.record_match(result, JUNE + index) is False
    profile = await player_store.profile("p_1")
    assert profile is not None and len(profile.matches) == MATCHES_KEPT
    newest = profile.matches[0]
    assert newest.room == f"room{MATCHES_KEPT + 1}" and newest.at == JUNE + MATCHES_KEPT + 1
    assert (newest.won, newest.score, newest.ended_by, newest.rated) == (True, (5, 2), "race", True)
    assert newest.opponent == "p_guest"
    assert await player_store.profile("p_guest") is None


# --- at the same time ----------------------------------------------------------------------------


async def test_concurrent_racks_from_two_connections_lose_nothing(
    player_store: PlayerStore, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Two store objects (two SQLite connections on one file, or two Redis clients), each
    counting racks among the same three players at once."""
    second: PlayerStore
    if isinstance(player_store, SqlitePlayerStore):
        second = SqlitePlayerStore(player_store.path)
    else:
        assert isinstance(player_store, RedisPlayerStore)
        second = RedisPlayerStore(connect(request.getfixturevalue("own_redis").url))
    try:
        players = ("p_1", "p_2", "p_3")
        for player in players:
            await claim(player_store, player, f"Player {player}")
        pairs = list(itertools.permutations(players, 2))
        racks = [
            rack(*pairs[index % len(pairs)], room="busy", number=index) for index in range(120)
        ]
        # Every rack sent by both, interleaved: each counts once.
        await asyncio.gather(
            *(player_store.apply_rack(r) for r in racks),
            *(second.apply_rack(r) for r in reversed(racks)),
        )
        totals = [await player_store.stats(player) for player in players]
        assert sum(s.racks for s in totals if s is not None) == 2 * len(racks)
        for player, stats in zip(players, totals, strict=True):
            assert stats is not None
            played = [r for r in racks if player in (r.result.winner, r.result.loser)]
            assert stats.racks == len(played) == 80
            assert stats.won == sum(r.result.winner == player for r in played)
            profile = await player_store.profile(player)
            assert profile is not None and len(profile.history) == 80
            assert profile.history[-1].rating == stats.rating
    finally:
        await second.close()


async def test_name_holder_by_folded_name_or_look(player_store: PlayerStore) -> None:
    await claim(player_store, "p_a", "PayPal")
    held = names.fold("paypal"), names.skeleton("paypal")
    assert await player_store.name_holder(*held) == "p_a"
    looks = names.fold("PayPaI"), names.skeleton("PayPaI")  # a capital I for the l
    assert await player_store.name_holder(*looks) == "p_a"
    other = names.fold("Bob"), names.skeleton("Bob")
    assert await player_store.name_holder(*other) is None
    await player_store.delete_account("p_a")
    assert await player_store.name_holder(*held) is None
