"""Expiry on PostgreSQL: two concurrent sweeps expire each overdue game once, and the
overdue query reads the partial index, not the whole table."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection, connections
from django.utils import timezone

from challenges import services as challenge_services
from matches import clock
from matches.models import GameEvent
from notifications.models import Notification
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres]


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_sweeps_expire_each_game_once() -> None:
    start = timezone.now() - timedelta(days=10)
    games = []
    for i in range(12):
        white = UserFactory(username=f"w{i}")
        black = UserFactory(username=f"b{i}")
        challenge = challenge_services.challenge_create(
            challenger=white, opponent=black, now=start, days_per_move=1
        )
        match = challenge_services.challenge_accept(
            challenge_id=challenge.pk, user=black, now=start
        )
        games.append(match.current_game)
    now = timezone.now()
    results: list[int] = []
    errors: list[BaseException] = []
    barrier = threading.Barrier(2)

    def sweep() -> None:
        try:
            barrier.wait()
            results.append(clock.games_expire_overdue(now=now, batch=3))
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=sweep) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
        assert not t.is_alive(), "a sweep did not finish"
    assert errors == []
    assert sum(results) == 12
    for game in games:
        assert GameEvent.objects.filter(game=game, kind=GameEvent.Kind.TIMEOUT).count() == 1
        assert Notification.objects.filter(game=game, kind="time_out").count() == 2
    assert clock.games_expire_overdue(now=now) == 0


@pytest.mark.django_db
def test_the_overdue_query_uses_the_partial_index() -> None:
    query = clock.overdue_games(timezone.now()).order_by("deadline_at")
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        plan = query.explain()
    # With sequential scans off the planner can still only use the partial index if the
    # query implies its predicate (state <> 'finished'): bench/expiry.py checks it at scale.
    assert "game_active_deadline" in plan
