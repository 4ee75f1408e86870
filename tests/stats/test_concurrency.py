"""Concurrent game ends on PostgreSQL: every count arrives, none is lost."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest
from django.db import connection, transaction

from matches.models import Match
from stats import selectors
from stats.models import Counter, PlayerStats
from stats.recount import stats_differences
from stats.services import counter_add
from tests.factories import UserFactory
from tests.stats.helpers import match_resign, match_start

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def run_together(tasks: list[Callable[[], None]]) -> list[BaseException]:
    """Run each task in its own thread (and connection), released at the same moment."""
    barrier = threading.Barrier(len(tasks))
    errors: list[BaseException] = []

    def run(task: Callable[[], None]) -> None:
        try:
            barrier.wait()
            task()
        except BaseException as error:  # noqa: BLE001 - reported by the test
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(task,)) for task in tasks]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a thread did not finish"
    return errors


def test_concurrent_increments_of_a_new_counter_are_all_kept() -> None:
    def increment() -> None:
        for _ in range(20):
            with transaction.atomic():
                counter_add(key="game:standard:white")

    assert run_together([increment] * 12) == []
    assert Counter.objects.get(player__isnull=True, key="game:standard:white").count == 240


def test_concurrent_match_ends_lose_no_count() -> None:
    players = [UserFactory(username=f"p{i}") for i in range(8)]
    matches = []
    for i in range(8):
        matches.append(match_start(players[i], players[(i + 1) % 8], length=1))
    losers = {m.pk: (m.white if m.pk % 2 else m.black) for m in matches}

    tasks = [lambda m=m: match_resign(m, losers[m.pk]) for m in matches]
    assert run_together(tasks) == []

    assert Match.objects.filter(status=Match.Status.FINISHED).count() == 8
    stats = selectors.site_stats()
    assert stats.games["all"].total == 8
    assert stats.matches["all"].total == 8
    assert stats.terminations["resign"] == 8
    assert sum(row.rated_matches for row in PlayerStats.objects.all()) == 16
    assert stats_differences() == []
