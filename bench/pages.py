#!/usr/bin/env python3
"""Server time of the game page, a busy player's dashboard and the match page, at 1,000,000
finished games.

    .venv/bin/python bench/pages.py [--games 1000000] [--small 1000] [--requests 300]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db NAME] [--profile]

Creates (or re-creates) its own database (``--db``, default ``backgammon_bench_pages``) and
migrates it.
Through the services it makes a player with 100 active matches (one of them with a game
played some way by the random bot, the game page measured) and one whole match played by
the bot to its end (the match page measured). It then adds finished matches of five games
with ``INSERT … SELECT … FROM generate_series`` (copies of the bot's finished match and
game rows, one in fifty of them the measured player's), first up to ``--small`` and then
up to ``--games`` finished games, and measures at each size, with ``DEBUG`` off, the p50
and p95 of ``--requests`` GETs of each page through the full Django stack (test Client,
signed in as the measured player: every middleware, the view, selectors, templates).
The events of the cloned games are not copied: the pages read the events of the game or
match they show, by an indexed game id.

Target: p95 under 25 ms for each page at the large size.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import recreate_database, seed_finished_matches  # noqa: E402

BENCH_DB = "backgammon_bench_pages"
GAMES_PER_MATCH = 5
USERS = 1000
ACTIVE_GAMES = 100
TARGET_MS = 25.0


def percentiles(
    action: Callable[[], object], repeat: int, warmup: int = 20
) -> tuple[float, float, float, float]:
    """p50 and p95 of ``action`` in milliseconds, after ``warmup`` untimed calls: of the
    wall-clock time, and of this process's CPU time (which a loaded machine inflates far
    less; it leaves out PostgreSQL's own work)."""
    for _ in range(warmup):
        action()
    wall, cpu = [], []
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), time.process_time()
        action()
        cpu.append((time.process_time() - start_cpu) * 1000)
        wall.append((time.perf_counter() - start) * 1000)
    w = statistics.quantiles(wall, n=100, method="inclusive")
    c = statistics.quantiles(cpu, n=100, method="inclusive")
    return w[49], w[94], c[49], c[94]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default=BENCH_DB, help="the database to drop and re-create")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="at the end, a cProfile (CPU time) of 50 GETs of each page at the large size",
    )
    args = parser.parse_args()

    os.environ["DATABASE_URL"] = recreate_database(args.admin_url, args.db)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "backgammon.settings")
    # Measure as in production: DEBUG off (cached template loader, no query log).
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("REDIS_URL", None)  # local-memory cache, tasks in-process
    os.environ["LOG_LEVEL"] = "WARNING"
    import django

    django.setup()
    from django.conf import settings

    # Without collectstatic there is no manifest; plain storage only changes static URLs.
    settings.STORAGES = {
        **settings.STORAGES,
        "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
    }
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services
    from matches.bots import bot_act, bot_play_match
    from matches.models import Game, Match

    # No setup_test_environment(): it instruments template rendering so that the test
    # Client can copy every context, which is test overhead, not server time.
    # ALLOWED_HOSTS above lets the Client's "testserver" through.
    call_command("migrate", verbosity=0)

    now = timezone.now()
    rng = random.Random(13)
    users = User.objects.bulk_create(
        User(username=f"bench{i:04d}", email=f"bench{i:04d}@example.com", password="!")
        for i in range(USERS)
    )
    first_user = min(u.pk for u in users)
    assert max(u.pk for u in users) - first_user == USERS - 1, "user ids must be contiguous"
    hero = users[0]

    def start(white: User, black: User, length: int) -> Match:
        challenge = challenge_services.challenge_create(
            challenger=white, opponent=black, length=length, now=now
        )
        return challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)

    finished = bot_play_match(start(users[1], users[2], 5), rng, now, double_rate=0.2)
    assert finished.status == Match.Status.FINISHED
    active = [start(hero, users[1 + i], 7) for i in range(ACTIVE_GAMES)]
    shown = active[0].current_game
    assert shown is not None
    for _ in range(40):  # some way into the game: moves, rolls, maybe a double
        shown = bot_act(shown, rng, now, double_rate=0.05)
        if shown.state == Game.State.FINISHED:
            break
    template_match = finished
    template_game = Game.objects.filter(match=finished).order_by("number").first()
    assert template_game is not None

    seeded = {"games": Game.objects.filter(state=Game.State.FINISHED).count()}

    def seed_up_to(total_games: int) -> None:
        """Add finished matches of five games until ``total_games`` finished games exist."""
        new_matches = (total_games - seeded["games"]) // GAMES_PER_MATCH
        if new_matches <= 0:
            return
        took = seed_finished_matches(
            template_match=template_match.pk,
            template_game=template_game.pk,
            matches=new_matches,
            games_per_match=GAMES_PER_MATCH,
            match_overrides={
                # One match in fifty is the measured player's: a long history of his own.
                "white_id": f"(CASE WHEN g % 50 = 0 THEN {hero.pk} "
                f"ELSE {first_user} + 1 + (g % {USERS - 1}) END)",
                "black_id": f"{first_user} + 1 + ((g + 1 + g / {USERS}) % {USERS - 1})",
                "result": "(CASE WHEN random() < 0.5 THEN 'white' ELSE 'black' END)",
            },
            game_overrides={"winner": "(CASE WHEN random() < 0.5 THEN 0 ELSE 1 END)"},
        )
        seeded["games"] += new_matches * GAMES_PER_MATCH
        print(
            f"  {seeded['games']:,} finished games; counters recounted and analysed in "
            f"{took:.1f} s",
            flush=True,
        )

    client = Client()
    client.force_login(hero)
    pages = {
        "game page": f"/games/{shown.pk}/",
        f"dashboard ({ACTIVE_GAMES} active games)": "/dashboard/",
        "match page (finished, 5-point)": f"/matches/{finished.pk}/",
    }

    def getter(url: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return get

    from django.test.utils import CaptureQueriesContext

    for name, url in pages.items():
        with CaptureQueriesContext(connection) as queries:
            getter(url)()
        print(f"  {name}: {len(queries)} SQL statements", flush=True)

    results: dict[int, dict[str, tuple[float, float, float, float]]] = {}
    print(f"PostgreSQL database {args.db}", flush=True)
    for size in (args.small, args.games):
        began = time.perf_counter()
        seed_up_to(size)
        print(f"  (seeding took {time.perf_counter() - began:.0f} s)", flush=True)
        results[seeded["games"]] = {
            name: percentiles(getter(url), args.requests) for name, url in pages.items()
        }

    print()
    print(f"{'page':<32}{'finished games':>16}{'wall p50 / p95':>20}{'CPU p50 / p95':>20}")
    for name in pages:
        for n, figures in results.items():
            w50, w95, c50, c95 = figures[name]
            wall, cpu = f"{w50:.1f} / {w95:.1f} ms", f"{c50:.1f} / {c95:.1f} ms"
            print(f"{name:<32}{n:>16,}{wall:>20}{cpu:>20}")
    sizes = list(results)
    large = results[sizes[-1]]
    small = results[sizes[0]]
    print()
    for name, (_w50, w95, _c50, _c95) in large.items():
        verdict = "ok" if w95 < TARGET_MS else "MISSED"
        growth = w95 / small[name][1] - 1
        print(
            f"{name} at {sizes[-1]:,}: p95 {w95:.1f} ms (target < {TARGET_MS:.0f} ms: {verdict}; "
            f"{growth:+.0%} against {sizes[0]:,} games)"
        )
    if args.profile:
        import cProfile
        import pstats

        for name, url in pages.items():
            profiler = cProfile.Profile(time.process_time)  # CPU: waits on PostgreSQL left out
            get = getter(url)
            for _ in range(50):
                profiler.runcall(get)
            print(f"\ncProfile of 50 GETs, {name} (CPU time):")
            pstats.Stats(profiler).sort_stats("cumulative").print_stats(35)
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"load average during the run: {load:.1f} on {os.cpu_count()} cores")
    ok = all(w95 < TARGET_MS for _w50, w95, _c50, _c95 in large.values())
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
