"""Matches finished quickly through the real services, for the stats tests."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from matches import endings
from matches.models import Match
from stats.dice import stats_count_dice


def match_start(
    challenger: User, opponent: User, *, now: datetime | None = None, **options: Any
) -> Match:
    """A match between the two; colours are drawn at random, so read ``match.white``."""
    now = now or timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=challenger, opponent=opponent, now=now, **options
    )
    return challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)


def match_resign(match: Match, loser: User, *, now: datetime | None = None) -> Match:
    """``loser`` resigns the whole match."""
    game = match.current_game
    assert game is not None
    endings.game_resign(
        game_id=game.pk,
        player=loser,
        expected_ply=None,
        now=now or timezone.now(),
        whole_match=True,
    )
    match.refresh_from_db()
    return match


def match_draw(match: Match, *, now: datetime | None = None) -> Match:
    """Both players agree to a draw."""
    now = now or timezone.now()
    game = match.current_game
    assert game is not None
    endings.match_offer_draw(game_id=game.pk, player=match.white, expected_ply=None, now=now)
    endings.match_answer_draw(
        game_id=game.pk, player=match.black, expected_ply=None, now=now, accept=True
    )
    match.refresh_from_db()
    return match


def count_dice() -> int:
    """The beat's count of the dice, now, of every roll recorded (nothing else writes)."""
    return stats_count_dice(now=timezone.now(), settle=None)
