"""A changelist paginator that does not count millions of rows.

Django's changelist counts the rows it pages through (``SELECT COUNT(*)``), which on
PostgreSQL reads the whole table: seconds with 2,000,000 games. For an unfiltered
changelist of a big table :class:`EstimatedCountPaginator` takes the planner's estimate
(``pg_class.reltuples``, kept up to date by autovacuum's ANALYZE) instead. Filtered or
searched lists, small tables, tables never analysed and other databases (SQLite) are
counted exactly.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.db import connections
from django.db.models import QuerySet
from django.utils.functional import cached_property

#: Below this estimate the table is counted exactly (the count is cheap and exact).
ESTIMATE_THRESHOLD = 100_000


def is_unfiltered(queryset: Any) -> bool:
    """Whether ``queryset`` has every row of its table, once each (so reltuples applies)."""
    if not isinstance(queryset, QuerySet):
        return False
    query = queryset.query
    return (
        not query.where
        and not query.distinct
        and not query.combinator
        and query.low_mark == 0
        and query.high_mark is None
    )


def table_estimate(alias: str, table: str) -> int | None:
    """The planner's row estimate for ``table`` on PostgreSQL; None if it has none."""
    connection = connections[alias]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT reltuples FROM pg_class WHERE oid = to_regclass(%s)",
            [connection.ops.quote_name(table)],
        )
        row = cursor.fetchone()
    if row is None or row[0] is None or row[0] < 0:  # -1: never vacuumed or analysed
        return None
    return int(row[0])


def planner_estimate(queryset: Any) -> int | None:
    """The estimate for an unfiltered queryset on PostgreSQL, else None (count it)."""
    if not is_unfiltered(queryset):
        return None
    if connections[queryset.db].vendor != "postgresql":
        return None
    return table_estimate(queryset.db, queryset.model._meta.db_table)


class EstimatedCountPaginator(Paginator):
    """Counts with the planner's estimate for an unfiltered big table, exactly otherwise."""

    threshold = ESTIMATE_THRESHOLD

    @cached_property
    def count(self) -> int:
        estimate = planner_estimate(self.object_list)
        if estimate is not None and estimate >= self.threshold:
            return estimate
        return super().count
