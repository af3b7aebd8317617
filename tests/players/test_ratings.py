"""The rating arithmetic: expected score, the update, the provisional K, bots' ladder."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.players import ratings
from server.players.ratings import Side, expected, k_factor, rate_rack

RATING = st.floats(min_value=ratings.FLOOR, max_value=ratings.CEILING)
RACKS = st.integers(min_value=0, max_value=10_000)


def test_a_hundred_points_are_two_to_one_odds_per_rack() -> None:
    assert expected(600, 500) == pytest.approx(2 / 3)
    assert expected(700, 500) == pytest.approx(4 / 5)
    assert expected(500, 500) == 0.5
    assert ratings.odds(100) == pytest.approx(2.0)
    assert ratings.odds(-200) == pytest.approx(0.25)


@given(RATING, RATING)
def test_expected_scores_of_both_sides_add_up_to_one(a: float, b: float) -> None:
    assert expected(a, b) + expected(b, a) == pytest.approx(1.0)
    assert 0.0 < expected(a, b) < 1.0


def test_k_starts_high_and_settles_at_the_established_step() -> None:
    assert k_factor(0) == pytest.approx(1 / (ratings.SLOPE * ratings.PRIOR_RACKS))
    assert 47 < k_factor(0) < 49
    assert k_factor(12) == pytest.approx(k_factor(0) / 2)
    assert 13 < k_factor(ratings.PROVISIONAL_RACKS - 1) < 15
    assert k_factor(61) == ratings.K_ESTABLISHED < k_factor(60)
    assert k_factor(10_000) == ratings.K_ESTABLISHED
    with pytest.raises(ValueError):
        k_factor(-1)


@given(RACKS)
def test_k_never_grows_with_more_racks(racks: int) -> None:
    assert k_factor(racks + 1) <= k_factor(racks)


def test_provisional_until_thirty_racks() -> None:
    assert ratings.is_provisional(0) and ratings.is_provisional(29)
    assert not ratings.is_provisional(30)


def test_an_even_rack_between_newcomers_moves_each_by_half_their_k() -> None:
    winner, loser = rate_rack(Side(500, 0), Side(500, 0))
    assert winner == pytest.approx(500 + k_factor(0) / 2)
    assert loser == pytest.approx(500 - k_factor(0) / 2)


def test_an_upset_moves_more_than_an_expected_win() -> None:
    favourite, underdog = Side(700, 100), Side(500, 100)
    won, _ = rate_rack(favourite, underdog)
    _, lost = rate_rack(underdog, favourite)
    assert won - 700 == pytest.approx(ratings.K_ESTABLISHED * (1 - 0.8))
    assert 700 - lost == pytest.approx(ratings.K_ESTABLISHED * 0.8)


def test_a_newcomer_moves_and_the_established_opponent_barely() -> None:
    newcomer, veteran = rate_rack(Side(500, 0), Side(500, 500))
    assert newcomer - 500 == pytest.approx(k_factor(0) / ratings.K_ESTABLISHED * (500 - veteran))
    assert 500 - veteran == ratings.K_ESTABLISHED / 2


@given(RATING, RACKS, RATING, RACKS)
def test_the_winner_never_loses_and_the_loser_never_gains(
    a: float, n: int, b: float, m: int
) -> None:
    winner, loser = rate_rack(Side(a, n), Side(b, m))
    assert winner >= a and loser <= b
    assert loser >= ratings.FLOOR and winner <= ratings.CEILING


@given(RATING, RATING, RACKS)
def test_a_bots_rating_never_moves(bot: float, person: float, racks: int) -> None:
    fixed = Side(bot, 0, fixed=True)
    assert rate_rack(fixed, Side(person, racks))[0] == bot
    assert rate_rack(Side(person, racks), fixed)[1] == bot


def test_bot_ids_and_levels() -> None:
    assert ratings.bot_player_id(3) == "bot_3"
    assert ratings.bot_level("bot_3") == 3
    for other in ("bot_9", "bot_", "bot_x", "p_0123456789abcdef", "bot_٣"):
        assert ratings.bot_level(other) is None
    with pytest.raises(ValueError):
        ratings.bot_player_id(0)
    levels = sorted(ratings.BOT_RATINGS)
    assert [ratings.bot_rating(level) for level in levels] == sorted(ratings.BOT_RATINGS.values())


def test_a_measured_ladder_becomes_a_rating_table() -> None:
    assert ratings.edge_of(2 / 3) == pytest.approx(100)
    table = ratings.ladder_ratings(250, [2 / 3, 0.8, 0.5])
    assert table == pytest.approx((250, 350, 550, 550))
    with pytest.raises(ValueError):
        ratings.edge_of(1.0)
    assert math.isclose(expected(table[1], table[0]), 2 / 3)
