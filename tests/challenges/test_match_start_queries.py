"""What starting a match from a challenge (a rematch's included) costs: its notices in one
``INSERT``, and no dice counter (the beat counts the opening roll later, stats/dice.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from challenges import services
from notifications.models import Notification
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db

#: The challenge locked, its challenger read, the match, the challenge's answer, the
#: first mover's vacations read (their deadline), the game and its opening roll (one
#: ``INSERT`` each), the challenge's notice to the accepting player read, and the
#: challenger's notice written.
ACCEPT_STATEMENTS = 9


def notice_inserts(sql: list[str]) -> list[str]:
    return [s for s in sql if s.startswith('INSERT INTO "notifications_notification"')]


def test_accepting_a_challenge_writes_its_notice_in_one_insert_and_counts_no_dice(
    player: User, opponent: User
) -> None:
    now = timezone.now()
    challenge = services.challenge_create(challenger=player, opponent=opponent, now=now)
    with CaptureQueriesContext(connection) as queries:
        match = services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    sql = [q["sql"] for q in queries.captured_queries]
    assert len(notice_inserts(sql)) == 1, sql
    assert not [s for s in sql if "stats_" in s], sql
    moves = [s for s in sql if s not in ("BEGIN", "COMMIT") and "SAVEPOINT" not in s]
    assert len(moves) <= ACCEPT_STATEMENTS, "\n".join(moves)
    told = Notification.objects.get(challenge=challenge, kind="challenge_accepted")
    assert told.recipient == player and told.game == match.current_game


def test_a_rematch_is_offered_in_one_insert_of_notices(player: User, opponent: User) -> None:
    finished = match_resign(match_start(player, opponent, length=1), opponent)
    with CaptureQueriesContext(connection) as queries:
        challenge = services.challenge_rematch(
            match_id=finished.pk, user=opponent, now=timezone.now()
        )
    assert len(notice_inserts([q["sql"] for q in queries.captured_queries])) == 1
    assert Notification.objects.filter(challenge=challenge, recipient=player).count() == 1
