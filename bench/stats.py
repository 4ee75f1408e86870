#!/usr/bin/env python3
"""The /stats/ page against a GROUP BY on the games table, at 2,000 and 2,000,000 games.

    .venv/bin/python bench/stats.py [--games 2000000] [--small 2000] [--requests 200]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db NAME]

Creates (or re-creates) a separate database (``--db``, default ``backgammon_bench``),
migrates it, and
seeds finished games with ``INSERT … SELECT … FROM generate_series`` (each row a
copy of one template row made through the ORM, so the script follows the schema).
The counters are then set by the project's own recount (``stats.recount``), as
they would stand had every game ended through the services.

It measures, in one run: the median time of ``GET /stats/`` through the whole
Django stack (test Client: middleware, view, selectors, template) at the small and
the large size, and the median time of
``SELECT winner, count(*) FROM matches_game WHERE state = 'finished' GROUP BY winner``
at the large size. Targets: /stats/ at least 10x faster than the query, and at most
20% slower at the large size than at the small one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import recreate_database, seed_finished_matches  # noqa: E402

BENCH_DB = "backgammon_bench"
GAMES_PER_MATCH = 5
USERS = 1000
LIVE_MATCHES = 50


def median_seconds(action: Callable[[], object], repeat: int, warmup: int = 20) -> float:
    for _ in range(warmup):
        action()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        action()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2_000_000)
    parser.add_argument("--small", type=int, default=2_000)
    parser.add_argument("--requests", type=int, default=200)
    parser.add_argument("--queries", type=int, default=9)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default=BENCH_DB, help="the database to drop and re-create")
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = recreate_database(args.admin_url, args.db)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")
    # Measure as in production: DEBUG off (cached template loader, no query log).
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    import django

    django.setup()
    from django.conf import settings

    # Without collectstatic there is no manifest; plain storage only changes static URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.test.utils import setup_test_environment
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services
    from matches.models import Game, Match

    setup_test_environment()  # lets the test Client's "testserver" host through
    call_command("migrate", verbosity=0)

    now = timezone.now()
    users = User.objects.bulk_create(
        User(username=f"bench{i:04d}", email=f"bench{i:04d}@example.com", password="!")
        for i in range(USERS)
    )
    first_user = min(u.pk for u in users)
    assert max(u.pk for u in users) - first_user == USERS - 1, "user ids must be contiguous"

    # Live matches (the same at both sizes): the "in progress" counts read them.
    for i in range(LIVE_MATCHES):
        challenge = challenge_services.challenge_create(
            challenger=users[i], opponent=users[i + 1], length=5, now=now
        )
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=users[i + 1], now=now)
    template_match = Match.objects.order_by("pk").first()
    template_game = Game.objects.order_by("pk").first()
    assert template_match is not None and template_game is not None

    seeded = {"games": 0}

    def seed_up_to(total_games: int) -> None:
        """Add finished matches of five games until ``total_games`` finished games exist."""
        new_games = total_games - seeded["games"]
        new_matches = new_games // GAMES_PER_MATCH
        took = seed_finished_matches(
            template_match=template_match.pk,
            template_game=template_game.pk,
            matches=new_matches,
            games_per_match=GAMES_PER_MATCH,
            match_overrides={
                "white_id": f"{first_user} + (g % {USERS})",
                "black_id": f"{first_user} + ((g + 1 + g / {USERS}) % {USERS})",
                "variant": "(CASE WHEN g % 10 = 0 THEN 'nackgammon' "
                "WHEN g % 25 = 1 THEN 'hypergammon' ELSE 'standard' END)",
                "result": "(CASE WHEN g % 2000 = 7 THEN 'draw' "
                "WHEN random() < 0.5 THEN 'white' ELSE 'black' END)",
                "finished_at": "t.created_at",
            },
            game_overrides={
                "winner": "(CASE WHEN g % 2000 = 3 THEN NULL "
                "WHEN random() < 0.5 THEN 0 ELSE 1 END)",
                "termination": "(CASE WHEN g % 2000 = 3 THEN 'draw' "
                "ELSE (ARRAY['single','single','single','gammon','drop','drop','resign',"
                "'timeout','backgammon','single'])[1 + g % 10] END)",
                "points": "1",
                "finished_at": "t.started_at",
            },
        )
        seeded["games"] += new_matches * GAMES_PER_MATCH
        print(
            f"  seeded {seeded['games']:,} finished games; counters recounted in {took:.1f} s",
            flush=True,
        )

    client = Client()

    def get_stats() -> None:
        response = client.get("/stats/")
        assert response.status_code == 200, response.status_code

    def group_by() -> None:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT winner, count(*) FROM matches_game WHERE state = 'finished' GROUP BY winner"
            )
            cursor.fetchall()

    print(f"PostgreSQL database {args.db}", flush=True)
    seed_up_to(args.small)
    small_page = median_seconds(get_stats, args.requests)
    small_query = median_seconds(group_by, args.queries)
    t0 = time.perf_counter()
    seed_up_to(args.games)
    print(f"  (seeding took {time.perf_counter() - t0:.0f} s)")
    large_page = median_seconds(get_stats, args.requests)
    large_query = median_seconds(group_by, args.queries)

    line = "{:<44} {:>10.3f} ms"
    print()
    print(line.format(f"/stats/ median at {args.small:,} games", small_page * 1000))
    print(line.format(f"/stats/ median at {seeded['games']:,} games", large_page * 1000))
    print(line.format(f"GROUP BY median at {args.small:,} games", small_query * 1000))
    print(line.format(f"GROUP BY median at {seeded['games']:,} games", large_query * 1000))
    speedup = large_query / large_page
    slowdown = large_page / small_page - 1
    print(f"/stats/ vs GROUP BY at {seeded['games']:,}: {speedup:.1f}x faster (target >= 10x)")
    print(f"/stats/ at {seeded['games']:,} vs {args.small:,}: {slowdown:+.1%} (target <= +20%)")
    ok = speedup >= 10 and slowdown <= 0.20
    print("targets met" if ok else "TARGETS MISSED")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min) at the end: {load} on {os.cpu_count()} cores")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
