"""Matches for the analysis tests: finished ones from tests/bot_games.py's sets (played once
per session), and one in play."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone

from accounts.models import User
from analysis import services
from analysis.models import MatchAnalysis
from challenges import services as challenge_services
from matches.models import Match
from tests.bot_games import BotGames
from tests.matches.test_export import SETS

#: A 5-point match with a double taken, a redouble dropped, a resignation and a Crawford
#: game, played to its end through the services.
CUBE_MATCH = SETS["cube and resignation"]
#: A 7-point match of nine games, the cube turned at random: missed doubles among them.
SEVEN_POINTS = SETS["7 points, random cube"]


def finished_match(bot_games: BotGames, alice: User, bob: User, recipe: str = CUBE_MATCH) -> Match:
    """The match, without the analysis its end may have queued when the set was recorded
    (that depends on gnubg being there then): each test starts from none."""
    (match,) = bot_games.load(recipe, alice=alice, bob=bob)
    assert match.status == Match.Status.FINISHED
    MatchAnalysis.objects.filter(match=match).delete()
    return match


def analysed_match(bot_games: BotGames, alice: User, bob: User, recipe: str = CUBE_MATCH) -> Match:
    """The finished match, analysed through the services at a player's request (gnubg)."""
    match = finished_match(bot_games, alice, bob, recipe)
    services.analysis_request(match_id=match.pk, user=alice, now=timezone.now())
    assert services.analysis_run(match_id=match.pk, clock=timezone.now) == "done"
    return match


def match_in_play(alice: User, bob: User, now: datetime) -> Match:
    challenge = challenge_services.challenge_create(challenger=alice, opponent=bob, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    assert match.status == Match.Status.PLAYING
    return match
