import random

from django.utils import timezone

from matches import services
from matches.bots import bot_play_match
from matches.models import Match


def test_bots_play_a_whole_match(player, opponent) -> None:
    now = timezone.now()
    challenge = services.challenge_create(challenger=player, opponent=opponent, length=5, now=now)
    match = services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    match = bot_play_match(match, random.Random(3), now, double_rate=0.1)
    assert match.status == Match.Status.FINISHED
    assert max(match.score) >= 5
