#!/usr/bin/env python3
"""Server time of the game page, a busy player's dashboard and the match page, at 1,000,000
and 10,000,000 finished games, beside a signed-in hello-world page.

    .venv/bin/python bench/pages.py [--games 1000000] [--small 1000] [--requests 300]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db NAME] [--keep-db]
        [--reuse] [--cache-url redis://127.0.0.1:6379/N] [--sql] [--profile]

    # both floors of issue 27 in one run:
    .venv/bin/python bench/pages.py --small 1000000 --games 10000000

Creates (or re-creates) its own database (``--db``, default ``backgammon_bench_pages``) and
migrates it.
Through the services it makes a player with 100 active matches (one game of them played
40 actions in by the random bot, another past its 300th ply: the two game pages measured)
and one whole match played by the bot to its end (the match page measured). It then adds
finished matches of five games with ``INSERT … SELECT … FROM generate_series`` (copies of
the bot's finished match and game rows, one in fifty of them the measured player's), first
up to ``--small`` and then up to ``--games`` finished games, and measures at each size,
with ``DEBUG`` off, the p50 and p95 of ``--requests`` GETs of each page through the full
Django stack (test Client, signed in as the measured player: every middleware, the view,
selectors, templates), and the SQL statements of one GET of each. The events of the cloned
games are not copied: the pages read the events of the game or match they show, by an
indexed game id.

The signed-in hello-world (``/bench/hello/``, ``bench/bare_urls.py``: the site's base
template around one word) is what every page costs before its own work: the session, the
user, the suspension check and the header's two badges.

``--keep-db`` leaves the database and a note of the pages (``<db>.json`` in the temporary
directory); ``--reuse`` measures such a database again, seeding only what a larger
``--games`` adds: before and after a change are measured on the same rows. The cache is
Django's local memory unless ``--cache-url`` names a Redis database, as production runs.

Target: p95 under 25 ms for each page at the large size.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import drop_database, recreate_database, seed_finished_matches  # noqa: E402

BENCH_DB = "backgammon_bench_pages"
GAMES_PER_MATCH = 5
USERS = 1000
ACTIVE_GAMES = 100
LONG_GAME_PLY = 300
TARGET_MS = 25.0
HELLO = "signed-in hello-world"


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


def note_path(db: str) -> Path:
    """Where ``--keep-db`` notes the pages of a database, for ``--reuse``."""
    return Path(tempfile.gettempdir()) / f"{db}.json"


def database_exists(admin_url: str, name: str) -> bool:
    import psycopg

    with psycopg.connect(admin_url, autocommit=True) as conn:
        row = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
    return row is not None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1_000_000)
    parser.add_argument("--small", type=int, default=1_000)
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default=BENCH_DB, help="the database to drop and re-create")
    parser.add_argument("--keep-db", action="store_true", help="leave the database at the end")
    parser.add_argument(
        "--reuse", action="store_true", help="measure a database left by --keep-db again"
    )
    parser.add_argument("--cache-url", default="", help="a Redis database for the cache")
    parser.add_argument(
        "--sql", action="store_true", help="print each page's SQL statements (of one GET)"
    )
    parser.add_argument(
        "--profile",
        action="store_true",
        help="at the end, a cProfile (CPU time) of 50 GETs of each page at the large size",
    )
    args = parser.parse_args()

    note = note_path(args.db)
    reuse = args.reuse and note.exists() and database_exists(args.admin_url, args.db)
    if reuse:
        os.environ["DATABASE_URL"] = f"{args.admin_url.rsplit('/', 1)[0]}/{args.db}"
    else:
        os.environ["DATABASE_URL"] = recreate_database(args.admin_url, args.db)
    # The project's settings with /bench/hello/ (bench/bare_urls.py) and plain static
    # storage (without collectstatic there is no manifest).
    os.environ["DJANGO_SETTINGS_MODULE"] = "bench.bare_settings"
    # Measure as in production: DEBUG off (cached template loader, no query log).
    os.environ["DEBUG"] = "false"
    os.environ.setdefault("SECRET_KEY", "bench-only-not-a-secret")
    os.environ["ALLOWED_HOSTS"] = "testserver"
    os.environ.pop("REDIS_URL", None)  # tasks in-process; the cache is --cache-url's
    os.environ["LOG_LEVEL"] = "WARNING"
    # The set-up challenges 100 players at once: the players' limits out of its way.
    for limit in ("LIMIT_OPEN_CHALLENGES", "LIMIT_INVITATIONS_PER_HOUR"):
        os.environ[limit] = "1000000"
    import django

    django.setup()
    from django.conf import settings

    if args.cache_url:
        settings.CACHES = {
            "default": {
                "BACKEND": "backgammon.cache.ResilientRedisCache",
                "LOCATION": args.cache_url,
                "KEY_PREFIX": "bench-pages",
                "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
            }
        }
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    from django.core.cache import cache
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    from accounts.models import User

    cache.clear()
    # No setup_test_environment(): it instruments template rendering so that the test
    # Client can copy every context, which is test overhead, not server time.
    # ALLOWED_HOSTS above lets the Client's "testserver" through.
    if reuse:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)  # the code measured may have added a column
        seeded = json.loads(note.read_text())
        print(f"Reusing {args.db}: {seeded['games']:,} finished games", flush=True)
    else:
        seeded = set_up()
    hero = User.objects.get(pk=seeded["hero"])

    def seed_up_to(total_games: int) -> None:
        """Add finished matches of five games until ``total_games`` finished games exist."""
        new_matches = (total_games - seeded["games"]) // GAMES_PER_MATCH
        if new_matches <= 0:
            return
        first_user = seeded["first_user"]
        took = seed_finished_matches(
            template_match=seeded["template_match"],
            template_game=seeded["template_game"],
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
        HELLO: "/bench/hello/",
        f"game page ({seeded['short_ply']} plies)": f"/games/{seeded['short_game']}/",
        f"game page ({seeded['long_ply']} plies)": f"/games/{seeded['long_game']}/",
        f"dashboard ({ACTIVE_GAMES} active games)": "/dashboard/",
        "match page (finished, 5-point)": f"/matches/{seeded['match']}/",
    }

    def getter(url: str) -> Callable[[], None]:
        def get() -> None:
            response = client.get(url)
            assert response.status_code == 200, (url, response.status_code)

        return get

    def statements(url: str) -> int:
        getter(url)()  # a first page of the session may write what the next ones do not
        with CaptureQueriesContext(connection) as queries:
            getter(url)()
        if args.sql:
            print(f"  {url}:", *(f"    {q['sql'][:300]}" for q in queries), sep="\n")
        return len(queries)

    results: dict[int, dict[str, tuple[float, float, float, float]]] = {}
    counts: dict[int, dict[str, int]] = {}
    print(f"PostgreSQL database {args.db}", flush=True)
    for size in (args.small, args.games):
        if size < seeded["games"] and reuse and size != args.games:
            continue  # a reused database is measured at its size and above
        began = time.perf_counter()
        seed_up_to(size)
        print(f"  (seeding took {time.perf_counter() - began:.0f} s)", flush=True)
        counts[seeded["games"]] = {name: statements(url) for name, url in pages.items()}
        results[seeded["games"]] = {
            name: percentiles(getter(url), args.requests) for name, url in pages.items()
        }
        print(f"  load average {os.getloadavg()[0]:.1f}", flush=True)

    print()
    print(
        f"{'page':<34}{'finished games':>15}{'SQL':>5}{'wall p50 / p95':>20}{'CPU p50 / p95':>20}"
    )
    for name in pages:
        for n, figures in results.items():
            w50, w95, c50, c95 = figures[name]
            wall, cpu = f"{w50:.1f} / {w95:.1f} ms", f"{c50:.1f} / {c95:.1f} ms"
            print(f"{name:<34}{n:>15,}{counts[n][name]:>5}{wall:>20}{cpu:>20}")
    sizes = list(results)
    large = results[sizes[-1]]
    small = results[sizes[0]]
    print()
    for name, (_w50, w95, _c50, c95) in large.items():
        if name == HELLO:
            continue
        verdict = "ok" if w95 < TARGET_MS else "MISSED"
        growth = w95 / small[name][1] - 1
        print(
            f"{name} at {sizes[-1]:,}: p95 {w95:.1f} ms (target < {TARGET_MS:.0f} ms: {verdict}; "
            f"{growth:+.0%} against {sizes[0]:,} games); CPU p95 {c95:.1f} ms, "
            f"{c95 - large[HELLO][3]:.1f} ms above the hello-world's"
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
    connection.close()
    if args.keep_db:
        note.write_text(json.dumps(seeded))
        print(f"kept {args.db} ({note})")
    else:
        note.unlink(missing_ok=True)
        drop_database(args.admin_url, args.db)
    ok = all(w95 < TARGET_MS for name, (_w50, w95, _c50, _c95) in large.items() if name != HELLO)
    print("targets met" if ok else "TARGETS MISSED")
    sys.exit(0 if ok else 1)


def set_up() -> dict[str, int]:
    """Migrate, then play what the pages show through the services; the ids measured
    (Django must be set up)."""
    from django.core.management import call_command
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services
    from matches.bots import bot_act, bot_play_match
    from matches.models import Game, Match

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
    # A long game, still in play: the random bot's games are long, and when one ends
    # before its 300th ply the match's next game goes on (the next match's, if it ends).
    long_game = None
    for match in active[1:]:
        game = match.current_game
        while game is not None and game.ply < LONG_GAME_PLY:
            game = bot_act(game, rng, now)
            if game.state == Game.State.FINISHED:
                match.refresh_from_db()
                game = match.current_game if match.status == Match.Status.PLAYING else None
        if game is not None:
            long_game = game
            break
    assert long_game is not None, "no game reached its 300th ply"
    template_game = Game.objects.filter(match=finished).order_by("number").first()
    assert template_game is not None
    games = Game.objects.filter(state=Game.State.FINISHED).count()
    return {
        "hero": hero.pk,
        "first_user": first_user,
        "short_game": shown.pk,
        "short_ply": shown.ply,
        "long_game": long_game.pk,
        "long_ply": long_game.ply,
        "match": finished.pk,
        "template_match": finished.pk,
        "template_game": template_game.pk,
        "games": games,
    }


if __name__ == "__main__":
    main()
