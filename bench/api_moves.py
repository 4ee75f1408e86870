#!/usr/bin/env python3
"""Move submissions through the real HTTP stack (gunicorn) against a bare 3-statement view.

    .venv/bin/python bench/api_moves.py [--games 2000] [--clients 32] [--seconds 20]
        [--warmup 3] [--rate 50] [--workers 2*cores] [--profile] [--keep-db]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db backgammon_bench]
        [--redis-url redis://127.0.0.1:6379/9]

1. Drops and re-creates its own PostgreSQL database (``backgammon_bench``; never the
   development or test database) and migrates it.
2. Seeds ``--games`` 5-point matches through the services (challenge, accept), with
   scripted opening rolls, between 200 players who all want an e-mail on every move.
   The cube limit is 1, so nobody may double: after every move the server rolls at once
   for the opponent, and every game is always "moving" for someone. Every request the
   clients make is then a move submission (plus a GET when a game ends and the match's
   next game begins).
3. Counts the SQL statements of a few moves in-process (test Client, same settings).
4. Starts gunicorn (``--workers`` sync workers, ``DJANGO_ENV=production``, DEBUG off,
   e-mail to the ``dummy:`` backend, ``REDIS_URL`` set to ``--redis-url``, a spare Redis
   database, as production runs: the cache is Redis, and after the commit each
   notification e-mail gets its own Celery delivery task; no worker runs, so that is
   the request's whole cost of it) with
   ``bench.bare_settings``: the project's settings and URLs plus
   ``/bench/bare-move/<id>``. That Redis database must be empty at the start;
   it is flushed at the end.
5. Open loop: moves sent at a fixed rate (``--rate``, 50 a second: about 4 million a
   day), each as its time comes, whether or not the earlier ones have been answered, on
   games not waiting for an answer. A move's latency runs from the moment it was due, so
   a server that falls behind is charged for the wait (no coordinated omission).
6. Closed loop, full: ``--clients`` threads, each owning its share of the games and both
   players' tokens, loop over their games: pick a random legal play from the position
   and dice of the last response (``gammon.legal_plays``) and
   ``POST /api/games/<id>/move`` with ``{"play", "ply"}`` and the player's token.
7. Closed loop, bare: the same clients, the same games, the same server: ``POST
   /bench/bare-move/<id>`` with a play text, which runs only SELECT … FOR UPDATE,
   INSERT of the event, UPDATE of the game (bench/bare_urls.py).
8. The dice thrown meanwhile are counted as the beat counts them
   (``stats.dice.stats_count_dice``), timed: the work the move no longer does.

Each phase runs ``--warmup`` seconds unmeasured, then ``--seconds`` measured. It prints
moves per second, p50/p99 latency, and CPU per move of the gunicorn workers, the
PostgreSQL backends and the client process (Linux /proc), and the SQL statements of
in-process moves (test Client), right after seeding and between the phases.
Floors (issue 27): the server's CPU per move (gunicorn + PostgreSQL) of the bare view at
least 0.25 of the full move's, in the closed-loop phases; at most 8 statements per move
(the transaction and the token before it, as ``tests/matches/test_api_queries.py``
counts them); the open loop's p99 under 100 ms. The closed loop's p99 is reported, not a
floor: at saturation it measures the queue, not the site. ``--profile`` adds a cProfile
(CPU time) of the in-process moves between the phases. The database is dropped at the
end unless ``--keep-db``.
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import os
import queue
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import drop_database, recreate_database  # noqa: E402

from gammon import BoardView, Color, Position, legal_plays  # noqa: E402

USERS = 200
MATCH_LENGTH = 5
PROFILE_MOVES = 40
#: The open loop sends no move due in the phase later than this after the phase's end.
DRAIN = 10.0
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


# --------------------------------------------------------------------------- database


def redis_database(url: str) -> Any:
    """The spare Redis database of the run (cache and Celery broker); it must be empty."""
    import redis

    client = redis.Redis.from_url(url)
    keys = client.dbsize()
    if keys:
        raise SystemExit(
            f"{url} holds {keys} keys: give --redis-url a spare, empty database "
            "(this bench flushes it at the end)"
        )
    return client


def bench_environment(database_url: str, redis_url: str) -> dict[str, str]:
    """The environment of the gunicorn server (and of this process's Django)."""
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DEBUG"}}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="bench.bare_settings",
        DJANGO_ENV="production",
        DEBUG="false",
        SECRET_KEY="bench-only-not-a-secret",
        ALLOWED_HOSTS="127.0.0.1",
        EMAIL_URL="dummy:",
        LOG_LEVEL="WARNING",
        # gunicorn's sync workers serve a request on the thread that served the last
        # one, so a WSGI server keeps its connection (the site's default, 0, is ASGI's).
        DATABASE_CONN_MAX_AGE="60",
    )
    return env


# --------------------------------------------------------------------------- seeding


def seed(games: int, notify: str) -> dict[str, str]:
    """Players with tokens and ``games`` matches whose first game waits for a move.

    ``notify`` is every player's notification preference. Returns username -> token key.
    """
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from challenges import services as challenge_services
    from gammon import FixedDice
    from matches import record
    from matches.models import Game

    now = timezone.now()
    users = User.objects.bulk_create(
        User(
            username=f"bench{i:03d}",
            email=f"bench{i:03d}@example.com",
            password="!",
            notify=notify,
        )
        for i in range(USERS)
    )
    tokens = {u.username: Token.objects.create(user=u).key for u in users}
    # Scripted opening rolls: the 30 ordered pairs of different dice, in turn.
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
    system_dice = record.dice
    record.dice = FixedDice([d for i in range(games) for d in pairs[i % len(pairs)]])
    for i in range(games):
        white, black = users[(2 * i) % USERS], users[(2 * i + 1 + i // USERS) % USERS]
        if white.pk == black.pk:
            black = users[(2 * i + 2) % USERS]
        challenge = challenge_services.challenge_create(
            challenger=white,
            opponent=black,
            length=MATCH_LENGTH,
            cube_limit=1,
            rated=True,
            now=now,
        )
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)
    record.dice = system_dice
    assert Game.objects.filter(state=Game.State.MOVING).count() == games
    return tokens


def game_states() -> list[dict[str, Any]]:
    """Every live game as the API would show its essentials (turn, dice, board, ply)."""
    from matches.models import Game

    states = []
    rows = (
        Game.objects.exclude(state=Game.State.FINISHED)
        .select_related("match__white", "match__black")
        .order_by("pk")
    )
    for game in rows:
        match = game.match
        states.append(
            {
                "id": game.pk,
                "ply": game.ply,
                "state": game.state,
                "turn": {
                    "color": "white" if game.turn == 0 else "black",
                    "username": (match.white if game.turn == 0 else match.black).username,
                },
                "dice": list(game.dice) if game.dice else None,
                "board": game.board,
                "next_game": None,
            }
        )
    return states


def choose_play(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal play for the player on turn, from a game payload."""
    board = game["board"]
    turn = Color.WHITE if game["turn"]["color"] == "white" else Color.BLACK
    position = Position.from_white_view(BoardView.from_dict(board), turn=turn)
    plays = legal_plays(position, tuple(game["dice"]))
    return str(rng.choice(plays)) if plays else "pass"


# --------------------------------------------------------------------------- in-process profile


def move_statements(sql: list[str]) -> list[str]:
    """A move's own statements, as ``tests/matches/test_api_queries.py`` counts them: the
    token before the transaction, and the transaction up to its ``COMMIT`` (the
    response's reads after it are not the move's)."""
    return sql[: sql.index("COMMIT") + 1] if "COMMIT" in sql else sql


def profile_in_process(tokens: dict[str, str], moves: int, cprofile: bool) -> dict[str, Any]:
    """SQL statements per move (and optionally a cProfile), through the test Client."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import CaptureQueriesContext

    client = Client(SERVER_NAME="127.0.0.1")
    rng = random.Random(7)
    games = game_states()[-moves:]
    counts: list[int] = []
    whole: list[int] = []
    sample: list[str] = []
    times: list[float] = []
    profiler = None
    if cprofile:
        import cProfile

        # CPU time of this process: the waits on PostgreSQL and on other processes for a
        # core do not count, so the profile says where the move's own CPU goes.
        profiler = cProfile.Profile(time.process_time)
    for game in games:
        body = {"play": choose_play(game, rng), "ply": game["ply"]}
        token = tokens[game["turn"]["username"]]
        with CaptureQueriesContext(connection) as queries:
            start = time.perf_counter()
            if profiler:
                profiler.enable()
            response = client.post(
                f"/api/games/{game['id']}/move",
                body,
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Token {token}",
            )
            if profiler:
                profiler.disable()
            times.append(time.perf_counter() - start)
        assert response.status_code == 200, (response.status_code, response.content[:300])
        sql = [q["sql"] for q in queries.captured_queries]
        counts.append(len(move_statements(sql)))
        whole.append(len(sql))
        if not sample:
            sample = sql
    result: dict[str, Any] = {
        "queries": statistics.median(counts),
        "queries_max": max(counts),
        "queries_min": min(counts),
        "request_queries": statistics.median(whole),
        "time": statistics.median(times),
        "sample": sample,
    }
    if profiler:
        import io
        import pstats

        out = io.StringIO()
        stats = pstats.Stats(profiler, stream=out).sort_stats("cumulative")
        stats.print_stats(r"/(matches|stats|accounts)/|rest_framework/views|transaction", 40)
        pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(30)
        result["profile"] = out.getvalue()
    return result


# --------------------------------------------------------------------------- server


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_gunicorn(env: dict[str, str], port: int, workers: int, log: Path) -> subprocess.Popen:
    command = [
        sys.executable,
        "-m",
        "gunicorn",
        "backgammon.wsgi:application",
        "--workers",
        str(workers),
        "--bind",
        f"127.0.0.1:{port}",
        "--chdir",
        str(ROOT),
        "--timeout",
        "60",
        "--log-level",
        "warning",
        "--error-logfile",
        str(log),
    ]
    return subprocess.Popen(command, env=env, cwd=ROOT)


def wait_ready(port: int, server: subprocess.Popen, game_id: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"gunicorn exited with status {server.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"/api/games/{game_id}/")
            if conn.getresponse().status == 200:
                conn.close()
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("gunicorn did not answer in time")


def cpu_seconds(pids: list[int]) -> float:
    """utime + stime of ``pids`` (Linux /proc; 0 for a process that is gone)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / TICK


def worker_pids(master: int) -> list[int]:
    try:
        text = Path(f"/proc/{master}/task/{master}/children").read_text()
    except OSError:
        return []
    return [int(pid) for pid in text.split()]


def postgres_pids(db: str) -> list[int]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = %s AND pid <> pg_backend_pid()",
            [db],
        )
        return [row[0] for row in cursor.fetchall()]


# --------------------------------------------------------------------------- clients


@dataclass
class Phase:
    measure_from: float
    measure_until: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    other_requests: int = 0
    skipped: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def count(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)

    def record(self, started: float, seconds: float) -> None:
        if started >= self.measure_from and started + seconds <= self.measure_until:
            with self.lock:
                self.latencies.append(seconds)

    def record_due(self, seconds: float) -> None:
        with self.lock:
            self.latencies.append(seconds)


class Connection:
    """One keep-alive connection (gunicorn's sync workers close it; it then reconnects)."""

    def __init__(self, port: int) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)

    def send(self, method: str, path: str, body: bytes | None, token: str | None) -> tuple:
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if token:
            headers["Authorization"] = f"Token {token}"
        for attempt in (1, 2):
            try:
                self.conn.request(method, path, body=body, headers=headers)
                response = self.conn.getresponse()
                return response.status, response.read()
            except (http.client.HTTPException, ConnectionError):
                self.conn.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")


def full_client(
    port: int,
    games: list[dict[str, Any]],
    tokens: dict[str, str],
    phase: Phase,
    seed_value: int,
    start: threading.Barrier,
) -> None:
    rng = random.Random(seed_value)
    conn = Connection(port)
    start.wait()
    index = 0
    while games and time.monotonic() < phase.measure_until:
        index = (index + 1) % len(games)
        game = games[index]
        if game["state"] == "finished":
            next_game = game.get("next_game")
            if next_game is None:
                games.pop(index)
                continue
            status, data = conn.send("GET", f"/api/games/{next_game}/", None, None)
            phase.count("other_requests")
            games[index] = json.loads(data)
            continue
        token = tokens[game["turn"]["username"]]
        if game["state"] == "rolling":  # only after 200 automatic passes in a row
            body = json.dumps({"ply": game["ply"]}).encode()
            status, data = conn.send("POST", f"/api/games/{game['id']}/roll", body, token)
            phase.count("other_requests")
        elif game["state"] == "moving":
            body = json.dumps({"play": choose_play(game, rng), "ply": game["ply"]}).encode()
            started = time.monotonic()
            status, data = conn.send("POST", f"/api/games/{game['id']}/move", body, token)
            phase.record(started, time.monotonic() - started)
        else:  # nobody may double here; drop such a game rather than guess
            games.pop(index)
            continue
        if status == 200:
            games[index] = json.loads(data)
            continue
        phase.count("errors")
        status, data = conn.send("GET", f"/api/games/{game['id']}/", None, None)
        games[index] = json.loads(data)


def bare_client(
    port: int,
    games: list[dict[str, Any]],
    phase: Phase,
    seed_value: int,
    start: threading.Barrier,
) -> None:
    rng = random.Random(seed_value)
    conn = Connection(port)
    texts = ["24/18 13/11", "8/5 6/5", "13/9 24/23", "24/14", "6/off 5/off", "bar/22* 13/7"]
    start.wait()
    index = 0
    while time.monotonic() < phase.measure_until:
        index = (index + 1) % len(games)
        game_id = games[index]["id"]
        body = json.dumps({"play": rng.choice(texts), "ply": 0}).encode()
        started = time.monotonic()
        status, _ = conn.send("POST", f"/bench/bare-move/{game_id}", body, None)
        phase.record(started, time.monotonic() - started)
        if status != 200:
            phase.count("errors")


def open_loop(
    port: int,
    games: list[dict[str, Any]],
    tokens: dict[str, str],
    phase: Phase,
    rate: float,
    senders: int,
) -> None:
    """Send a move every ``1 / rate`` seconds until the phase ends, each when it is due,
    on the next game not waiting for an answer. ``senders`` threads send them, enough
    that a due move waits for the server, not for a free thread; a move's latency is from
    the moment it was due (a move that waited in the queue is charged for the wait)."""
    idle: collections.deque[dict[str, Any]] = collections.deque(games)
    idle_lock = threading.Lock()
    jobs: queue.Queue[tuple[float, dict[str, Any]] | None] = queue.Queue()

    def send() -> None:
        rng = random.Random(threading.get_ident())
        conn = Connection(port)
        while (job := jobs.get()) is not None:
            due, game = job
            if time.monotonic() > phase.measure_until + DRAIN:
                # Still waiting this long after the phase: never sent, and charged as
                # never answered (an infinite latency), so the percentiles say so.
                if phase.measure_from <= due < phase.measure_until:
                    phase.record_due(float("inf"))
                phase.count("skipped")
                continue
            token = tokens[game["turn"]["username"]]
            body = json.dumps({"play": choose_play(game, rng), "ply": game["ply"]}).encode()
            status, data = conn.send("POST", f"/api/games/{game['id']}/move", body, token)
            if phase.measure_from <= due < phase.measure_until:
                phase.record_due(time.monotonic() - due)
            if status != 200:
                phase.count("errors")
                status, data = conn.send("GET", f"/api/games/{game['id']}/", None, None)
            game = json.loads(data)
            if game["state"] == "finished" and game.get("next_game"):
                status, data = conn.send("GET", f"/api/games/{game['next_game']}/", None, None)
                phase.count("other_requests")
                game = json.loads(data)
            if game["state"] == "moving":  # else the match is over (or, rarely, rolling)
                with idle_lock:
                    idle.append(game)

    threads = [threading.Thread(target=send, daemon=True) for _ in range(senders)]
    for thread in threads:
        thread.start()
    start = time.monotonic()
    k = 0
    while (due := start + k / rate) < phase.measure_until:
        k += 1
        time.sleep(max(0.0, due - time.monotonic()))
        with idle_lock:
            game = idle.popleft() if idle else None
        if game is None:
            phase.count("skipped")
            continue
        jobs.put((due, game))
    for _ in threads:
        jobs.put(None)
    for thread in threads:
        thread.join(timeout=120)


@dataclass
class Result:
    name: str
    moves: int
    seconds: float
    latencies: list[float]
    errors: int
    other_requests: int
    cpu_workers: float
    cpu_postgres: float
    cpu_client: float
    skipped: int = 0

    @property
    def rate(self) -> float:
        return self.moves / self.seconds

    @property
    def server_cpu(self) -> float:
        """CPU seconds per move of the server: the gunicorn workers and PostgreSQL."""
        return (self.cpu_workers + self.cpu_postgres) / max(self.moves, 1)

    def percentile(self, p: float) -> float:
        """The ``p``-th percentile (infinite when no move was answered at all)."""
        ordered = sorted(self.latencies)
        if not ordered:
            return float("inf")
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]


def run_phase(
    name: str,
    clients: int,
    warmup: float,
    seconds: float,
    target: Any,
    args_for: Any,
    master: int,
    db: str,
) -> Result:
    now = time.monotonic()
    phase = Phase(measure_from=now + 1 + warmup, measure_until=now + 1 + warmup + seconds)
    start = threading.Barrier(clients)
    threads = [
        threading.Thread(target=target, args=(*args_for(i), phase, 1000 + i, start), daemon=True)
        for i in range(clients)
    ]
    for thread in threads:
        thread.start()
    time.sleep(max(0.0, phase.measure_from - time.monotonic()))
    workers, backends = worker_pids(master), postgres_pids(db)
    cpu0 = cpu_seconds(workers), cpu_seconds(backends), time.process_time()
    time.sleep(max(0.0, phase.measure_until - time.monotonic()))
    cpu1 = cpu_seconds(workers), cpu_seconds(backends), time.process_time()
    for thread in threads:
        thread.join(timeout=120)
    return Result(
        name=name,
        moves=len(phase.latencies),
        seconds=seconds,
        latencies=phase.latencies,
        errors=phase.errors,
        other_requests=phase.other_requests,
        cpu_workers=cpu1[0] - cpu0[0],
        cpu_postgres=cpu1[1] - cpu0[1],
        cpu_client=cpu1[2] - cpu0[2],
    )


def run_open_phase(
    rate: float,
    warmup: float,
    seconds: float,
    port: int,
    games: list[dict[str, Any]],
    tokens: dict[str, str],
    master: int,
    db: str,
) -> Result:
    now = time.monotonic()
    phase = Phase(measure_from=now + warmup, measure_until=now + warmup + seconds)
    thread = threading.Thread(
        target=open_loop, args=(port, games, tokens, phase, rate, 64), daemon=True
    )
    thread.start()
    time.sleep(max(0.0, phase.measure_from - time.monotonic()))
    workers, backends = worker_pids(master), postgres_pids(db)
    cpu0 = cpu_seconds(workers), cpu_seconds(backends), time.process_time()
    time.sleep(max(0.0, phase.measure_until - time.monotonic()))
    cpu1 = cpu_seconds(workers), cpu_seconds(backends), time.process_time()
    thread.join(timeout=180)
    return Result(
        name=f"open loop, {rate:g} moves/s",
        moves=sum(1 for latency in phase.latencies if latency != float("inf")),
        seconds=seconds,
        latencies=phase.latencies,
        errors=phase.errors,
        other_requests=phase.other_requests,
        cpu_workers=cpu1[0] - cpu0[0],
        cpu_postgres=cpu1[1] - cpu0[1],
        cpu_client=cpu1[2] - cpu0[2],
        skipped=phase.skipped,
    )


def count_dice() -> tuple[int, float] | None:
    """The rolls thrown since the last count, counted as the beat counts them (timed);
    None where the move still counts its dice itself (the code before issue 27)."""
    try:
        from stats.dice import stats_count_dice
    except ImportError:
        return None
    from django.utils import timezone

    began = time.process_time()
    counted = stats_count_dice(now=timezone.now(), settle=None)  # the phases are over
    return counted, time.process_time() - began


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument(
        "--rate", type=float, default=50, help="the open loop's moves a second (0: no open loop)"
    )
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    parser.add_argument("--workers", type=int, default=2 * (cores or 1))
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default="backgammon_bench")
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/9",
        help="a spare, empty Redis database: the cache and the Celery broker (flushed at the end)",
    )
    parser.add_argument(
        "--notify",
        choices=["every", "digest", "none"],
        default="every",
        help="every player's e-mail preference (every: one e-mail enqueued per move)",
    )
    parser.add_argument("--profile", action="store_true", help="cProfile in-process moves")
    parser.add_argument("--keep-db", action="store_true", help="do not drop the database")
    args = parser.parse_args()
    if not args.db.isidentifier() or args.db in {"backgammon", "postgres"}:
        raise SystemExit(f"refusing database name {args.db!r}")
    if args.games < args.clients:
        raise SystemExit("--games must be at least --clients")

    redis_client = redis_database(args.redis_url)
    database_url = recreate_database(args.admin_url, args.db)
    env = bench_environment(database_url, args.redis_url)
    os.environ.pop("DEBUG", None)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection

    server = None
    log = Path(tempfile.mkdtemp(prefix="bench-api-moves-")) / "gunicorn.log"
    try:
        call_command("migrate", verbosity=0)
        with connection.cursor() as cursor:
            cursor.execute("SHOW server_version")
            pg_version = cursor.fetchone()[0]
        t0 = time.perf_counter()
        tokens = seed(args.games, args.notify)
        print(
            f"PostgreSQL {pg_version}, database {args.db}: seeded {args.games:,} matches "
            f"through the services in {time.perf_counter() - t0:.0f} s "
            f"(players' e-mail preference: {args.notify})",
            flush=True,
        )
        first = profile_in_process(tokens, min(PROFILE_MOVES, args.games), False)
        with connection.cursor() as cursor:
            cursor.execute("VACUUM ANALYZE")
        states = game_states()

        port = free_port()
        server = start_gunicorn(env, port, args.workers, log)
        wait_ready(port, server, states[0]["id"])
        print(
            f"gunicorn: {args.workers} sync workers on 127.0.0.1:{port}; "
            f"{args.clients} clients, {args.warmup:g} s warm-up + {args.seconds:g} s each",
            flush=True,
        )
        opened = None
        if args.rate:
            opened = run_open_phase(
                args.rate,
                args.warmup,
                args.seconds,
                port,
                states,
                tokens,
                server.pid,
                args.db,
            )
            states = game_states()
        shares = [states[i :: args.clients] for i in range(args.clients)]
        full = run_phase(
            "full API move",
            args.clients,
            args.warmup,
            args.seconds,
            full_client,
            lambda i: (port, shares[i], tokens),
            server.pid,
            args.db,
        )
        # Between the phases (the bare view leaves the games' turn and ply out of step with
        # their boards): the players' counters exist by now, as on a site in use.
        profile = profile_in_process(tokens, min(PROFILE_MOVES, args.games), args.profile)
        bare_shares = [states[i :: args.clients] for i in range(args.clients)]
        bare = run_phase(
            "bare 3-statement view",
            args.clients,
            args.warmup,
            args.seconds,
            bare_client,
            lambda i: (port, bare_shares[i]),
            server.pid,
            args.db,
        )
        dice = count_dice()
    finally:
        if server is not None:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        connection.close()
        queued = redis_client.llen("email")
        redis_client.flushdb()
        if not args.keep_db:
            drop_database(args.admin_url, args.db)

    print()
    print(f"Redis {args.redis_url}: {queued:,} delivery tasks left queued (no worker ran), flushed")
    print(f"In-process (test Client), median of {PROFILE_MOVES} moves:")
    for when, moves in (("right after seeding", first), ("after the full phase", profile)):
        print(
            f"  {when}: {moves['queries']:g} SQL statements per move, the token and the "
            f"transaction (min {moves['queries_min']}, max {moves['queries_max']}); "
            f"{moves['request_queries']:g} in the whole request; {moves['time'] * 1000:.1f} ms"
        )
    for sql in profile["sample"]:
        print(f"    {sql[:110]}")
    if "profile" in profile:
        print(profile["profile"])
    if dice is not None:
        counted, seconds = dice
        print(
            f"The beat's count of the dice thrown in the run: {counted:,} rolls in "
            f"{seconds * 1000:.0f} ms of this process's CPU "
            f"({seconds / max(counted, 1) * 1e6:.0f} us a roll)"
        )
    print()
    header = "{:<24} {:>9} {:>8} {:>8} {:>8} {:>6} {:>9} {:>9} {:>9}"
    print(header.format("", "", "", "", "", "", "CPU ms per move", "", "").rstrip())
    print(
        header.format(
            "", "moves/s", "p50 ms", "p99 ms", "moves", "errors", "gunicorn", "postgres", "client"
        )
    )
    results = [r for r in (opened, full, bare) if r is not None]
    for r in results:
        per = [c / max(r.moves, 1) * 1000 for c in (r.cpu_workers, r.cpu_postgres, r.cpu_client)]
        print(
            f"{r.name:<24} {r.rate:>9.1f} {r.percentile(50) * 1000:>8.1f} "
            f"{r.percentile(99) * 1000:>8.1f} {r.moves:>8,} {r.errors:>6} "
            f"{per[0]:>9.2f} {per[1]:>9.2f} {per[2]:>9.2f}"
        )
    for r in results:
        if r.other_requests:
            print(f"({r.name} also made {r.other_requests} GET/roll requests, not counted)")
        if r.skipped:
            print(
                f"({r.name}: {r.skipped} moves not sent: no game was free, or the move was "
                f"still waiting {DRAIN:g} s after the phase)"
            )
    ratio = bare.server_cpu / full.server_cpu
    print(
        f"server CPU per move (gunicorn + PostgreSQL), closed loop: full "
        f"{full.server_cpu * 1000:.2f} ms, bare {bare.server_cpu * 1000:.2f} ms; "
        f"ratio bare / full: {ratio:.3f} (floor >= 0.25)"
    )
    print(f"closed loop, {args.clients} clients: full p99 {full.percentile(99) * 1000:.1f} ms")
    open_p99 = opened.percentile(99) * 1000 if opened is not None else None
    if opened is not None:
        print(
            f"open loop at {args.rate:g} moves/s: p50 {opened.percentile(50) * 1000:.1f} ms, "
            f"p99 {open_p99:.1f} ms (floor < 100 ms)"
        )
    print(f"SQL statements per move: {profile['queries']:g} (floor <= 8)")
    print(
        "load average (1, 5, 15 min) at the end: {:.2f} {:.2f} {:.2f} on {} cores".format(
            *os.getloadavg(), os.cpu_count()
        )
    )
    if log.exists() and log.stat().st_size:
        print(f"gunicorn wrote to {log}")
    else:
        log.unlink(missing_ok=True)
        log.parent.rmdir()
    ok = ratio >= 0.25 and profile["queries"] <= 8
    ok = ok and (open_p99 is None or open_p99 < 100)
    ok = ok and not any(r.errors for r in results)
    print("floors met" if ok else "FLOORS MISSED")
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
