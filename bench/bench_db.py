"""PostgreSQL helpers shared by the benchmarks: a throw-away database, and bulk seeding.

Seeding millions of rows through the ORM would take hours; ``clone_rows`` copies one
template row ``count`` times in a single ``INSERT … SELECT … generate_series``.
"""

from __future__ import annotations


def recreate_database(admin_url: str, name: str) -> str:
    """Drop and create ``name``; return its URL (same server as ``admin_url``)."""
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        conn.execute(f"CREATE DATABASE {name}")
    return f"{admin_url.rsplit('/', 1)[0]}/{name}"


def drop_database(admin_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")


def table_columns(table: str) -> list[str]:
    """The columns of ``table`` but ``id``, in order (Django must be set up)."""
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT column_name FROM information_schema.columns "
            "WHERE table_name = %s AND column_name <> 'id' ORDER BY ordinal_position",
            [table],
        )
        return [row[0] for row in cursor.fetchall()]


def clone_rows(table: str, template_id: int, count: int, overrides: dict[str, str]) -> None:
    """Insert ``count`` copies of row ``template_id``; ``overrides`` maps a column to an SQL
    expression of ``t`` (the template) and ``g`` (1 to ``count``)."""
    from django.db import connection

    cols = table_columns(table)
    select = ", ".join(overrides.get(col, f"t.{col}") for col in cols)
    with connection.cursor() as cursor:
        # No query parameters: the expressions use the % operator literally.
        cursor.execute(
            f"INSERT INTO {table} ({', '.join(cols)}) SELECT {select} "  # noqa: S608
            f"FROM {table} t, generate_series(1, {int(count)}) g "
            f"WHERE t.id = {int(template_id)}"
        )


def seed_finished_matches(
    *,
    template_match: int,
    template_game: int,
    matches: int,
    games_per_match: int,
    match_overrides: dict[str, str],
    game_overrides: dict[str, str],
) -> float:
    """Add ``matches`` finished matches of ``games_per_match`` finished games each, copies of
    the two template rows, then recount the counters and ``VACUUM ANALYZE``.

    The copies are finished, with no dice, deadline or draw offer; each bench's overrides
    (``clone_rows`` expressions of ``t`` and ``g``) say who played and how it ended. The
    counters are set by the project's own recount (``stats.recount.stats_repair``), as they
    would stand had every game ended through the services, and the planner's statistics are
    refreshed so that the pages are measured on the plans production would use. Returns
    the seconds the recount and the vacuum took.
    """
    import time

    from django.db import connection

    from stats.recount import stats_repair

    with connection.cursor() as cursor:
        cursor.execute("SELECT coalesce(max(id), 0) FROM matches_match")
        base_match = cursor.fetchone()[0]
    clone_rows(
        "matches_match",
        template_match,
        matches,
        {"status": "'finished'", "termination": "'single'", "draw_offered_by": "NULL"}
        | match_overrides,
    )
    clone_rows(
        "matches_game",
        template_game,
        matches * games_per_match,
        {
            "match_id": f"{int(base_match)} + 1 + (g - 1) / {int(games_per_match)}",
            "number": f"1 + (g - 1) % {int(games_per_match)}",
            "state": "'finished'",
            "die1": "NULL",
            "die2": "NULL",
            "deadline_at": "NULL",
        }
        | game_overrides,
    )
    began = time.perf_counter()
    stats_repair()
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    return time.perf_counter() - began
