"""The changelists' paginator: the planner's estimate for an unfiltered big table on
PostgreSQL, an exact count for everything else (and always on SQLite)."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from backgammon import paginators
from backgammon.paginators import EstimatedCountPaginator, is_unfiltered
from matches.models import Game, GameEvent, Match
from notifications.models import Notification, TimeoutWarning
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _matches(n: int) -> None:
    now = timezone.now()
    a, b = UserFactory(username="pa"), UserFactory(username="pb")
    Match.objects.bulk_create(Match(white=a, black=b, created_at=now) for _ in range(n))


def test_the_big_changelists_use_it() -> None:
    for model in (User, Match, Game, GameEvent, Notification, TimeoutWarning):
        model_admin = admin.site._registry[model]
        assert model_admin.paginator is EstimatedCountPaginator, model
        assert model_admin.show_full_result_count is False, model


def test_what_counts_as_unfiltered() -> None:
    rows = Match.objects.all()
    assert is_unfiltered(rows) and is_unfiltered(rows.order_by("-pk").select_related("white"))
    assert not is_unfiltered(rows.filter(status="playing"))
    assert not is_unfiltered(rows.filter(white__username="x"))
    assert not is_unfiltered(rows.distinct())
    assert not is_unfiltered(rows[:10])
    assert not is_unfiltered(rows.union(rows))
    assert not is_unfiltered([1, 2, 3])


def test_sqlite_counts_exactly() -> None:
    if connection.vendor == "postgresql":
        pytest.skip("the SQLite path")
    _matches(7)
    paginator = EstimatedCountPaginator(Match.objects.order_by("pk"), 5)
    paginator.threshold = 0
    with CaptureQueriesContext(connection) as queries:
        assert paginator.count == 7 and paginator.num_pages == 2
    assert len(queries) == 1 and "COUNT" in queries[0]["sql"].upper()


@pytest.fixture
def pretend_postgres(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The PostgreSQL path with a table estimate of 2,000,000 (tables asked are recorded)."""
    asked: list[str] = []

    def estimate(alias: str, table: str) -> int:
        asked.append(table)
        return 2_000_000

    monkeypatch.setattr(connection, "vendor", "postgresql")
    monkeypatch.setattr(paginators, "table_estimate", estimate)
    return asked


def test_an_unfiltered_big_table_takes_the_estimate(pretend_postgres: list[str]) -> None:
    paginator = EstimatedCountPaginator(Match.objects.order_by("pk"), 100)
    with CaptureQueriesContext(connection) as queries:
        assert paginator.count == 2_000_000 and paginator.num_pages == 20_000
    assert len(queries) == 0 and pretend_postgres == ["matches_match"]


def test_a_filtered_list_is_counted_exactly(pretend_postgres: list[str]) -> None:
    _matches(3)
    paginator = EstimatedCountPaginator(Match.objects.filter(status="playing"), 100)
    assert paginator.count == Match.objects.filter(status="playing").count()
    assert pretend_postgres == []


def test_a_small_table_is_counted_exactly(
    pretend_postgres: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _matches(3)
    monkeypatch.setattr(paginators, "table_estimate", lambda alias, table: 2)
    assert EstimatedCountPaginator(Match.objects.all(), 100).count == 3


def test_no_estimate_means_an_exact_count(
    pretend_postgres: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _matches(3)
    monkeypatch.setattr(paginators, "table_estimate", lambda alias, table: None)
    paginator = EstimatedCountPaginator(Match.objects.all(), 100)
    paginator.threshold = 0
    assert paginator.count == 3


@pytest.mark.postgres
def test_postgres_reads_reltuples() -> None:
    _matches(250)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE matches_match")
    assert paginators.table_estimate("default", "matches_match") == 250
    paginator = EstimatedCountPaginator(Match.objects.all(), 100)
    paginator.threshold = 200
    with CaptureQueriesContext(connection) as queries:
        assert paginator.count == 250
    assert "reltuples" in queries[0]["sql"] and "COUNT" not in queries[0]["sql"].upper()
    assert EstimatedCountPaginator(Match.objects.all(), 100).count == 250  # under 100,000
