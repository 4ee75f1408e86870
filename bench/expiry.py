#!/usr/bin/env python3
"""One expiry sweep (``games_expire_overdue``) over 1,000,000 active games, 1% overdue.

    .venv/bin/python bench/expiry.py [--games 1000000] [--overdue-every 100] [--profile]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db NAME]

Creates (or re-creates) its own database (``--db``, default ``backgammon_bench_expiry``),
migrates it,
and seeds one live match per game with ``INSERT … SELECT … FROM generate_series``
(copies of a match and a game made through the services, so the rows follow the
schema). Every ``--overdue-every``-th game has a deadline in the past. Then it:

- shows the plan of the overdue query (it must read the partial index
  ``game_active_deadline``);
- times a sweep with nothing overdue (``now`` before every deadline; median of 21);
- times one sweep that ends the overdue games (10,000 at the defaults), in claimed
  batches through ``games_time_out_batch`` as in production (ORM ``update``,
  ``bulk_update`` and ``bulk_create``): the time-out events, scoring, the match ends,
  the ``games_timed_out`` signal (stats counters, ratings) and the two notification rows
  per game. Enqueueing the e-mail tasks after each commit is replaced by a counter (in
  production it is one Redis push per row, after the commit);
- times the sweep again once nothing is left overdue.

Floors: the empty sweep under 50 ms; the sweep of 10,000 overdue games under 30 s.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import clone_rows, recreate_database  # noqa: E402

BENCH_DB = "backgammon_bench_expiry"
USERS = 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--overdue-every", type=int, default=100)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default=BENCH_DB, help="the database to drop and re-create")
    parser.add_argument(
        "--profile", action="store_true", help="print a cProfile of the sweep of overdue games"
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = recreate_database(args.admin_url, args.db)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ.pop("REDIS_URL", None)
    os.environ["EMAIL_URL"] = "dummy:"
    os.environ["LOG_LEVEL"] = "WARNING"

    import django

    django.setup()
    from datetime import timedelta

    from django.core.management import call_command
    from django.db import connection
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services
    from matches import clock
    from matches.models import Game, Match
    from notifications import tasks as notification_tasks
    from notifications.models import Notification

    call_command("migrate", verbosity=0)
    enqueued = {"n": 0}

    def count_enqueue(pk: int, countdown: float | None = None) -> bool:
        enqueued["n"] += 1
        return True

    notification_tasks.enqueue = count_enqueue  # type: ignore[assignment]

    now = timezone.now()
    users = User.objects.bulk_create(
        User(username=f"bench{i:04d}", email=f"bench{i:04d}@example.com", password="!")
        for i in range(USERS)
    )
    first_user = min(u.pk for u in users)
    challenge = challenge_services.challenge_create(
        challenger=users[0], opponent=users[1], length=5, days_per_move=3, now=now
    )
    challenge_services.challenge_accept(challenge_id=challenge.pk, user=users[1], now=now)
    template_match = Match.objects.get()
    template_game = Game.objects.get()
    # The template game is game number 1 of the 1% overdue (g = 0 in the series below).
    Game.objects.filter(pk=template_game.pk).update(deadline_at=now - timedelta(minutes=1))

    started = time.perf_counter()
    n = args.games - 1
    clone_rows(
        "matches_match",
        template_match.pk,
        n,
        {
            "white_id": f"{first_user} + (g % {USERS})",
            # 1 to USERS - 1 places further on: never the same player as White.
            "black_id": f"{first_user} + ((g % {USERS}) + 1 + (g / {USERS}) % {USERS - 1}) "
            f"% {USERS}",
        },
    )
    every = args.overdue_every
    clone_rows(
        "matches_game",
        template_game.pk,
        n,
        {
            "match_id": f"{template_match.pk} + g",
            # White and Black on turn in turn among the overdue games, so that a batch has
            # both winners (and both results and scores), as on a real site.
            "turn": f"(t.turn + g / {every}) % 2",
            # Spread the deadlines over the next 30 days; every `every`-th one is past.
            "deadline_at": f"(CASE WHEN g % {every} = 0 "
            "THEN now() - (g % 1000) * interval '1 minute' "
            "ELSE now() + interval '1 hour' + (g % 43200) * interval '1 minute' END)",
        },
    )
    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")
    active = Game.objects.exclude(state="finished").count()
    overdue = clock.overdue_games(timezone.now()).count()
    print(
        f"seeded {active:,} active games, {overdue:,} overdue, "
        f"in {time.perf_counter() - started:.1f} s",
        flush=True,
    )

    plan = clock.overdue_games(timezone.now()).order_by("deadline_at")[:100].explain()
    print("plan of the overdue query:\n  " + plan.replace("\n", "\n  "))
    assert "game_active_deadline" in plan, "the overdue query must use the partial index"

    def timed_sweep(moment: object) -> tuple[float, int]:
        start = time.perf_counter()
        ended = clock.games_expire_overdue(now=moment)  # type: ignore[arg-type]
        return time.perf_counter() - start, ended

    before_all = timezone.now() - timedelta(days=1)
    empty = [timed_sweep(before_all) for _ in range(21)]
    assert all(ended == 0 for _, ended in empty)
    empty_ms = statistics.median(t for t, _ in empty) * 1000
    print(f"sweep with 0 overdue (median of 21): {empty_ms:.2f} ms", flush=True)

    moment = timezone.now()
    if args.profile:
        import cProfile
        import pstats

        profiler = cProfile.Profile()
        seconds, ended = profiler.runcall(timed_sweep, moment)
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(40)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        profiler.dump_stats("/tmp/expiry.prof")
    else:
        seconds, ended = timed_sweep(moment)
    rows = Notification.objects.count()
    print(
        f"sweep with {ended:,} overdue: {seconds:.2f} s "
        f"({seconds / max(ended, 1) * 1000:.2f} ms per game; "
        f"{rows:,} notification rows, {enqueued['n']:,} enqueues)",
        flush=True,
    )
    again = [timed_sweep(moment) for _ in range(21)]
    assert all(e == 0 for _, e in again)
    again_ms = statistics.median(t for t, _ in again) * 1000
    print(f"sweep again, nothing left overdue (median of 21): {again_ms:.2f} ms")
    per_10k = seconds / max(ended, 1) * 10_000
    print(f"projected to 10,000 overdue games: {per_10k:.1f} s")
    ok = empty_ms < 50 and again_ms < 50 and per_10k < 30
    print("floors (empty < 50 ms, 10,000 overdue < 30 s):", "met" if ok else "MISSED")
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    print(f"load average (1, 5, 15 min) at the end: {load} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
