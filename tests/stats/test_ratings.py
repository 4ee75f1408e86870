"""Ratings applied when matches end, checked against values computed by hand."""

from __future__ import annotations

import math
from datetime import timedelta

import pytest
from django.utils import timezone

from accounts.models import User
from stats import selectors
from stats.models import PlayerStats, RatingHistory
from tests import records
from tests.factories import UserFactory
from tests.stats.helpers import match_draw, match_resign, match_start

pytestmark = pytest.mark.django_db


def rating(user: User) -> PlayerStats:
    return PlayerStats.objects.get(player=user)


def test_newcomers_in_a_one_point_match_move_ten_points(player: User, opponent: User) -> None:
    match_resign(match_start(player, opponent, length=1), opponent)
    assert rating(player).rating == 1510.0
    assert rating(opponent).rating == 1490.0
    assert rating(player).experience == rating(opponent).experience == 1
    assert rating(player).best_rating == 1510.0
    assert rating(opponent).best_rating == 1500.0


def test_a_second_match_uses_the_new_ratings_and_experience(player: User, opponent: User) -> None:
    match_resign(match_start(player, opponent, length=1), opponent)
    match_resign(match_start(player, opponent, length=1), opponent)
    # D = 1510 - 1490 = 20, n = 1: P = 1 / (10 ** 0.01 + 1) = 0.4942434…; K = 5 - 1/100 = 4.99
    p = 1 / (10**0.01 + 1)
    assert p == pytest.approx(0.4942434)
    assert rating(player).rating == pytest.approx(1510 + 4 * 4.99 * p)  # 1519.8651…
    assert rating(player).rating == pytest.approx(1519.8651)
    assert rating(opponent).rating == pytest.approx(1490 - 4 * 4.99 * p)


def test_experienced_equal_players_move_two_points(player: User, opponent: User) -> None:
    PlayerStats.objects.create(player=player, experience=400)
    PlayerStats.objects.create(player=opponent, experience=500)
    records.rating_set_by_hand(player.pk)
    records.rating_set_by_hand(opponent.pk)
    match_resign(match_start(player, opponent, length=1), player)
    assert rating(opponent).rating == 1502.0
    assert rating(player).rating == 1498.0


def test_a_five_point_match_scales_with_its_square_root(player: User, opponent: User) -> None:
    PlayerStats.objects.create(player=player, experience=1000)
    PlayerStats.objects.create(player=opponent, experience=1000)
    records.rating_set_by_hand(player.pk)
    records.rating_set_by_hand(opponent.pk)
    match_resign(match_start(player, opponent, length=5), opponent)
    assert rating(player).rating == pytest.approx(1500 + 2 * math.sqrt(5))
    assert rating(player).experience == 1005


def test_unrated_matches_leave_ratings_unchanged(player: User, opponent: User) -> None:
    match_resign(match_start(player, opponent, length=3, rated=False), opponent)
    assert selectors.player_record(player).rating == 1500.0
    assert not RatingHistory.objects.exists()
    assert selectors.player_record(player).matches.total.won == 1


def test_a_money_session_is_never_rated(player: User, opponent: User) -> None:
    match = match_start(player, opponent, length=0, cube_limit=None)
    match_resign(match, opponent)
    match.refresh_from_db()
    assert rating(player).rating == 1500.0
    assert rating(player).rated_matches == 0


def test_a_draw_leaves_ratings_but_counts_as_a_rated_match(player: User, opponent: User) -> None:
    match_draw(match_start(player, opponent, length=5))
    row = rating(player)
    assert (row.rating, row.experience, row.rated_matches) == (1500.0, 0, 1)
    assert not RatingHistory.objects.exists()


def test_history_records_each_rated_match_in_order(player: User, opponent: User) -> None:
    now = timezone.now()
    match_resign(match_start(player, opponent, length=1, now=now), opponent, now=now)
    later = now + timedelta(days=1)
    match_resign(match_start(player, opponent, length=1, now=later), player, now=later)
    history = selectors.player_record(player).history
    assert [round(point.rating, 4) for point in history] == [
        1510.0,
        round(rating(player).rating, 4),
    ]
    assert [point.experience for point in history] == [1, 2]
    assert history[0].at < history[1].at


def test_the_leaderboard_needs_five_rated_matches_and_sorts_by_rating(
    player: User, opponent: User
) -> None:
    PlayerStats.objects.create(player=player, rating=1700, rated_matches=5)
    PlayerStats.objects.create(player=opponent, rating=1800, rated_matches=4)
    third = UserFactory(username="dave")
    PlayerStats.objects.create(player=third, rating=1750, rated_matches=9)
    assert [row.player.username for row in selectors.leaderboard()] == ["dave", "alice"]
