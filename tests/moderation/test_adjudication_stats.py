"""Adjudication reaches the statistics and ratings exactly as a played-out match does."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from matches import endings
from matches.models import Match
from moderation import rulings
from stats.models import Counter, PlayerStats, RatingHistory
from stats.recount import stats_differences
from tests.factories import UserFactory
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def challenger_is_white(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))


def result_counters(user: User) -> dict[str, int]:
    """The player's game and match counters (not dice: those depend on the throws)."""
    rows = Counter.objects.filter(player=user).exclude(key__startswith="roll:")
    return {
        key: n for key, n in rows.exclude(key__startswith="opening:").values_list("key", "count")
    }


def site_result_counters() -> dict[str, int]:
    rows = Counter.objects.filter(player=None, key__regex=r"^(game|match):")
    return dict(rows.values_list("key", "count"))


def ratings(user: User) -> tuple[float, float, int, int]:
    row = PlayerStats.objects.get(player=user)
    return (row.rating, row.best_rating, row.experience, row.rated_matches)


def test_an_award_counts_as_a_resignation_with_the_same_winner(moderator: User) -> None:
    alice, bob, carol, dave = (UserFactory(username=n) for n in ("alice", "bob", "carol", "dave"))
    awarded = match_start(alice, bob, length=5)
    rulings.match_adjudicate(
        moderator=moderator, match=awarded, decision="white", reason="x", now=timezone.now()
    )
    played = match_resign(match_start(carol, dave, length=5), dave)
    awarded.refresh_from_db()
    assert (awarded.result, played.result) == ("white", "white")

    assert result_counters(alice) == result_counters(carol)
    assert result_counters(bob) == result_counters(dave)
    assert ratings(alice) == ratings(carol) and ratings(alice)[0] > 1500
    assert ratings(bob) == ratings(dave) and ratings(bob)[0] < 1500
    assert RatingHistory.objects.filter(match=awarded).count() == 2
    site = site_result_counters()
    assert site["match:standard:white"] == 2 and site["game:standard:white"] == 2
    assert site["game:standard:end:adjudicated"] == 1 and site["game:standard:end:resign"] == 1
    assert stats_differences() == []


def test_an_adjudicated_draw_counts_as_an_agreed_draw(moderator: User) -> None:
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    match = match_start(alice, bob, length=5)
    rulings.match_adjudicate(
        moderator=moderator, match=match, decision="draw", reason="x", now=timezone.now()
    )
    assert result_counters(alice) == {
        "game:standard:white:drawn": 1,
        "match:standard:white:drawn": 1,
    }
    assert ratings(alice) == (1500, 1500, 0, 1)
    assert stats_differences() == []


def test_a_cancelled_match_counts_nowhere_not_even_its_finished_games(
    moderator: User, player: User, opponent: User
) -> None:
    match = match_start(player, opponent, length=5, resignation="immediate")
    game = match.current_game
    assert game is not None
    endings.game_resign(game_id=game.pk, player=opponent, expected_ply=None, now=timezone.now())
    match.refresh_from_db()
    assert match.status == Match.Status.PLAYING and match.games.count() == 2
    assert result_counters(player)  # the first game was counted as it ended
    rulings.match_adjudicate(
        moderator=moderator, match=match, decision="cancel", reason="x", now=timezone.now()
    )
    assert all(n == 0 for n in result_counters(player).values())
    assert all(n == 0 for n in result_counters(opponent).values())
    assert all(n == 0 for n in site_result_counters().values())
    assert not RatingHistory.objects.exists()
    assert not PlayerStats.objects.filter(rated_matches__gt=0).exists()
    assert stats_differences() == []
