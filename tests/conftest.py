"""Shared fixtures, and the markers that say which outside service a test needs.

Markers: ``postgres``, ``redis``, ``celery_worker``, ``gnubg``, ``browser``. Locally a
test whose service is missing is skipped; when ``CI=true`` it fails instead, so CI can
never go green by skipping.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, TypeVar

import pytest
from django.core.cache import cache as django_cache
from django.db import connection, transaction
from django.test import Client, override_settings
from django.utils import translation
from pytest_django.fixtures import Settings

from accounts.models import User
from tests import records
from tests.bot_games import BotGames
from tests.factories import UserFactory

CHROMIUM = Path("/usr/bin/chromium")
LOCAL_CACHE = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
T = TypeVar("T")


def pytest_configure(config: pytest.Config) -> None:
    """Hash test passwords with MD5: PBKDF2 costs half a second per user on these machines."""
    from django.conf import settings

    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    flush_by_deleting_rows()
    no_limits_by_accident(settings)


#: The players' limits (``settings.LIMIT_*``, backgammon/limits.py).
LIMITS = (
    "LIMIT_OPEN_CHALLENGES",
    "LIMIT_TO_ONE_PLAYER",
    "LIMIT_CHOUETTE_INVITATIONS",
    "LIMIT_BOT_MATCHES",
    "LIMIT_INVITATIONS_PER_HOUR",
    "LIMIT_MESSAGES_PER_MINUTE",
    "LIMIT_ANALYSES_PER_DAY",
    "LIMIT_API_ACTIONS_PER_MINUTE",
)


def no_limits_by_accident(settings: Any) -> None:
    """The players' limits out of every test's reach, but their own tests' (which set the
    numbers they test): the session's builders play many matches between the same
    players (scenarios, bot games, demo data), the fuzzers send hundreds of requests as
    one player, and a rate counted in the cache outlives a test when a builder runs
    inside one. The site's defaults are checked by ``tests/test_limits.py``."""
    for name in LIMITS:
        setattr(settings, name, 1_000_000)


#: Rows the migrations write once and no test changes: the flush after a transactional
#: test leaves them (post_migrate would only write the same rows again, under new ids).
KEPT_BY_THE_FLUSH = frozenset({"django_content_type", "auth_permission"})


def flush_by_deleting_rows() -> None:
    """The flush that ends each transactional test (``django_db(transaction=True)``)
    empties every table with ``DELETE`` instead of PostgreSQL's ``TRUNCATE``.

    ``TRUNCATE`` gives each of the ~45 tables (and their indexes) new files, a second
    or more per test on these machines, while a ``DELETE`` of the few rows a test wrote
    costs milliseconds. The statements run in one transaction and every foreign key is
    deferred (Django creates them ``DEFERRABLE INITIALLY DEFERRED``), so the order does
    not matter; sequences are not reset, as Django's test flush does not reset them
    either. A flush of some apps only (``available_apps``: ``TRUNCATE ... CASCADE``) or
    with ``reset_sequences`` keeps PostgreSQL's own statements.
    """
    from django.db.backends.postgresql.operations import DatabaseOperations

    truncate = DatabaseOperations.sql_flush

    def sql_flush(
        self: DatabaseOperations,
        style: Any,
        tables: Any,
        *,
        reset_sequences: bool = False,
        allow_cascade: bool = False,
    ) -> list[str]:
        if reset_sequences or allow_cascade:
            return truncate(
                self, style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        return [
            f"{style.SQL_KEYWORD('DELETE FROM')} {style.SQL_FIELD(self.quote_name(table))};"
            for table in tables
            if table not in KEPT_BY_THE_FLUSH
        ]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


def in_ci() -> bool:
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


@cache
def redis_problem() -> str | None:
    url = os.environ.get("REDIS_URL")
    if not url:
        return "REDIS_URL is not set"
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=2).ping()
    except redis.RedisError as exc:
        return f"Redis at REDIS_URL={url} is not reachable ({exc})"
    return None


def postgres_problem() -> str | None:
    if connection.vendor != "postgresql":
        return f"the database is {connection.vendor}, not PostgreSQL (set DATABASE_URL)"
    return None


def gnubg_executable() -> str | None:
    """gnubg's path, found as the site finds it (``GNUBG``, PATH, or Debian's /usr/games)."""
    from gnubg_bridge import process

    return process.executable()


def gnubg_problem() -> str | None:
    return None if gnubg_executable() else "gnubg is neither on PATH nor in /usr/games"


def browser_problem() -> str | None:
    if not CHROMIUM.exists():
        return f"{CHROMIUM} does not exist"
    if importlib.util.find_spec("playwright") is None:
        return "playwright is not installed"
    return None


SERVICE_CHECKS: dict[str, Callable[[], str | None]] = {
    "postgres": postgres_problem,
    "redis": redis_problem,
    "celery_worker": redis_problem,
    "gnubg": gnubg_problem,
    "browser": browser_problem,
}


def pytest_runtest_setup(item: pytest.Item) -> None:
    for marker, check in SERVICE_CHECKS.items():
        if item.get_closest_marker(marker) is None:
            continue
        problem = check()
        if problem is None:
            continue
        message = f"@pytest.mark.{marker}: {problem}"
        if in_ci():
            pytest.fail(f"{message} (CI=true: a missing service is a failure)", pytrace=False)
        pytest.skip(message)


@pytest.fixture(autouse=True)
def _default_language() -> Iterator[None]:
    """Each test starts in the site's default language, whatever an earlier test on the
    same worker left active (a page served in a player's language activates it for the
    thread, and the activation outlives the request)."""
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _isolated_cache_and_eager_tasks(
    request: pytest.FixtureRequest, settings: Settings
) -> Iterator[None]:
    """Each test starts with an empty local cache and runs Celery tasks eagerly.

    Tests marked ``redis`` keep the Redis cache from REDIS_URL; tests marked
    ``celery_worker`` send tasks to the real broker.
    """
    from backgammon.celery import app

    if request.node.get_closest_marker("redis") is None:
        settings.CACHES = LOCAL_CACHE
    django_cache.clear()
    eager = request.node.get_closest_marker("celery_worker") is None
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = eager
    try:
        yield
    finally:
        app.conf.task_always_eager = previous
        if request.node.get_closest_marker("redis") is None:
            django_cache.clear()


@pytest.fixture
def drifted() -> None:
    """Asked for by a test that corrupts a record on purpose, or seeds counters or
    ratings by hand: the record checks below do not run after it."""


@pytest.fixture(autouse=True)
def _the_records_agree(request: pytest.FixtureRequest) -> Iterator[None]:
    """After every test that used the database and left a game or a chouette behind,
    whatever it asserted itself: every game follows from its record (``replay_games``),
    every chouette from its decisions, with points that sum to zero
    (``replay_chouettes``), and every counter and rating from the finished games and
    matches (``recount_stats``). Features run together; so do their checks."""
    if request.node.get_closest_marker("django_db") is None or "drifted" in request.fixturenames:
        yield
        return
    request.getfixturevalue("db")  # so that this runs before the database rolls back
    yield
    call = getattr(request.node, "report_of_call", None)
    try:
        if call is not None and call.failed:
            return  # the test's own failure says enough
        if connection.needs_rollback:
            return  # the test ended on a database error it expected: nothing can be read
        assert_the_records_agree()
    finally:
        records.forget()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    report = yield
    if report.when == "call":
        item.report_of_call = report  # type: ignore[attr-defined]
    return report


#: Events per batch of the dice's count after each test: small, so that a long record is
#: counted in several pieces (tests/stats/test_dice_count.py cuts short ones finer).
DICE_BATCH = 100


def assert_the_records_agree() -> None:
    """The three record checks of ``replay_games``, ``replay_chouettes`` and
    ``recount_stats``, as assertions naming what differs.

    The dice are counted first as the beat counts them (every event, in small batches, so
    that a record counted in pieces is checked against the same record recounted whole:
    ``recount_stats`` recounts the dice up to the beat's cursor, here the last event)."""
    from django.db.models import Prefetch, Sum
    from django.utils import timezone

    from chouettes.models import Chouette
    from chouettes.replay import chouette_differences
    from matches.models import Game, GameEvent
    from matches.replay import game_differences
    from stats.dice import stats_count_dice
    from stats.recount import stats_differences

    games = Game.objects.select_related("match").prefetch_related(
        Prefetch("events", queryset=GameEvent.objects.order_by("ply"))
    )
    problems = [
        f"game {game.pk}: {problem}"
        for game in games.exclude(pk__in=records.GAMES)
        for problem in game_differences(game, game.events.all())
    ]
    for chouette in Chouette.objects.all():
        problems += [f"chouette {chouette.pk}: {p}" for p in chouette_differences(chouette)]
        total = chouette.seats.aggregate(total=Sum("points"))["total"] or 0
        if total:
            problems.append(f"chouette {chouette.pk}: its points sum to {total}")
    if Game.objects.exists() and not records.COUNTERS:
        stats_count_dice(now=timezone.now(), settle=None, batch=DICE_BATCH)
        problems += [
            f"recount_stats: {d}"
            for d in stats_differences()
            if not (d.player_id in records.RATINGS and d.key.startswith("stats."))
        ]
    assert not problems, "the records disagree:\n" + "\n".join(problems)


def shared_by_the_module(django_db_blocker: Any, build: Callable[[], T]) -> Iterator[T]:
    """Rows that ``build`` writes once for all the tests of a module, as Django's
    ``setUpTestData`` writes them for a TestCase's (``yield from`` it in a module-scoped
    fixture that the tests' ``db``-using fixtures ask for).

    The rows are written in a transaction that stays open while the module's tests run:
    each test's own transaction (the ``db`` fixture's) is then a savepoint inside it,
    rolled back when that test ends, so every test meets the rows exactly as built, and
    the transaction itself is rolled back after the last test (pytest ends a module's
    fixtures before it starts another module's tests). Built as a test runs: a local
    cache, emptied afterwards, and eager tasks (the ones queued on commit never run:
    nothing commits). The objects given are shared: a test re-reads what it changes.
    """
    from backgammon.celery import app

    with django_db_blocker.unblock(), transaction.atomic():
        previous = app.conf.task_always_eager
        app.conf.task_always_eager = True
        try:
            with override_settings(CACHES=LOCAL_CACHE):
                built = build()
                django_cache.clear()
        finally:
            app.conf.task_always_eager = previous
        yield built
        transaction.set_rollback(True)


@pytest.fixture
def gnubg() -> str:
    """Path of the gnubg executable (use with ``@pytest.mark.gnubg``)."""
    path = gnubg_executable()
    if path is None:
        pytest.skip("gnubg is not installed")
    return path


@pytest.fixture
def player(db: None) -> User:
    return UserFactory(username="alice")


@pytest.fixture
def opponent(db: None) -> User:
    return UserFactory(username="bob")


@pytest.fixture
def outsider(db: None) -> User:
    return UserFactory(username="charlie")


@pytest.fixture
def player_client(player: User) -> Client:
    """A test client signed in as ``player``."""
    client = Client()
    client.force_login(player)
    return client


@pytest.fixture(scope="session")
def bot_games() -> BotGames:
    """Whole bot matches, played once per session and loaded by each test that asks
    (``bot_games.load("site", alice=player, bob=opponent, charlie=outsider)``)."""
    return BotGames()
