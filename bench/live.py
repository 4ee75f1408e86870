#!/usr/bin/env python3
"""Live pushes: 1,000 open sockets following 500 games on two web processes sharing Redis,
moves at 50 a second through the API, and how soon each reaches the opponent's socket.

    .venv/bin/python bench/live.py [--games 500] [--rate 50] [--seconds 20] [--warmup 3]
        [--admin-url postgres://postgres@127.0.0.1:5432/postgres] [--db backgammon_bench_live]
        [--redis-url redis://127.0.0.1:6379/9] [--keep-db]

1. Drops and re-creates its own PostgreSQL database (never the development or test one),
   migrates it, and seeds ``--games`` 5-point matches between 2 x ``--games`` players
   (each in one game), cube limit 1 so that after every move the server rolls for the
   opponent at once and every game always waits for a move; each player has an API token
   and a signed-in session.
2. Starts two uvicorn processes of ``backgammon.asgi`` (the production configuration:
   ``DJANGO_ENV=production``, DEBUG off, ``REDIS_URL`` set, so the channel layer is
   Redis's), as two web machines behind a load balancer.
3. Opens one socket per player, signed in by their session, following their game: White's
   on server A, Black's on server B, so that every push crosses from the process that
   made the move to the other one half of the time. Measures the servers' resident memory
   once the first tenth follow (one-time costs paid) and 3 s after the last, idle: the
   memory per idle connection.
4. Open loop: a move every 1/``--rate`` s, each due at its time whether or not the
   earlier ones were answered (no coordinated omission), on games not waiting for an
   answer, sent to server A or B in turn, as the player on turn, with a random legal play.
   For each move it records when it was sent, when its answer came, and when the
   opponent's socket heard ``{"kind": "game", "id": ..., "ply": <the answer's ply>}``.
5. Reports, over the measured ``--seconds`` (after ``--warmup``): moves per second,
   the move's HTTP round trip, and the time from sending the move to the opponent's
   socket hearing it (p50, p99), which bounds the time from the move's commit to the
   event from above (the commit is inside the round trip); how many events came after
   the move's answer, and by how much; the memory per idle connection; the servers'
   CPU per move, its pushes included.

Floors (issue 28): p99 of commit to socket under 100 ms; under 100 KB of server memory
per idle connection. The database is dropped at the end unless ``--keep-db``; the Redis
database given must be empty and is flushed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import queue
import random
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench_db import drop_database, recreate_database  # noqa: E402

from gammon import BoardView, Color, Position, legal_plays  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def environment(database_url: str, redis_url: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {"REDIS_URL", "DEBUG"}}
    env.update(
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        DJANGO_SETTINGS_MODULE="backgammon.settings",
        DJANGO_ENV="production",
        DEBUG="false",
        SECRET_KEY="bench-only-not-a-secret",
        ALLOWED_HOSTS="127.0.0.1",
        EMAIL_URL="dummy:",
        LOG_LEVEL="WARNING",
        # Each ASGI request's sync code runs on a thread of its own: a connection kept
        # past it is never reused, and PostgreSQL runs out of clients (settings.py).
        DATABASE_CONN_MAX_AGE="0",
    )
    return env


# --------------------------------------------------------------------------- seeding


@dataclass
class Player:
    username: str
    token: str
    cookie: str


def seed(games: int) -> tuple[dict[str, Player], list[dict[str, Any]]]:
    """Players (token, session) and ``games`` matches whose first game waits for a move."""
    from django.conf import settings
    from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
    from django.contrib.sessions.backends.db import SessionStore
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from challenges import services as challenge_services
    from gammon import FixedDice
    from matches import record

    now = timezone.now()
    users = User.objects.bulk_create(
        User(username=f"live{i:04d}", email=f"live{i:04d}@example.com", password="!", notify="none")
        for i in range(2 * games)
    )
    players = {}
    for user in users:
        session = SessionStore()
        session[SESSION_KEY] = str(user.pk)
        session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        session[HASH_SESSION_KEY] = user.get_session_auth_hash()
        session.save()
        players[user.username] = Player(
            user.username,
            Token.objects.create(user=user).key,
            f"{settings.SESSION_COOKIE_NAME}={session.session_key}",
        )
    pairs = [(a, b) for a in range(1, 7) for b in range(1, 7) if a != b]
    system_dice = record.dice
    record.dice = FixedDice([d for i in range(games) for d in pairs[i % len(pairs)]])
    for i in range(games):
        white, black = users[2 * i], users[2 * i + 1]
        challenge = challenge_services.challenge_create(
            challenger=white, opponent=black, length=5, cube_limit=1, now=now
        )
        challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)
    record.dice = system_dice
    return players, game_states()


def game_states() -> list[dict[str, Any]]:
    from matches.models import Game

    states = []
    for game in Game.objects.select_related("match__white", "match__black").order_by("pk"):
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
                "players": [match.white.username, match.black.username],
            }
        )
    return states


def choose_play(game: dict[str, Any], rng: random.Random) -> str:
    turn = Color.WHITE if game["turn"]["color"] == "white" else Color.BLACK
    position = Position.from_white_view(BoardView.from_dict(game["board"]), turn=turn)
    plays = legal_plays(position, tuple(game["dice"]))
    return str(rng.choice(plays)) if plays else "pass"


# --------------------------------------------------------------------------- servers


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(env: dict[str, str], port: int, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "uvicorn", "backgammon.asgi:application"]
    command += ["--host", "127.0.0.1", "--port", str(port), "--lifespan", "off"]
    command += ["--log-level", "warning", "--no-access-log"]
    with log.open("ab") as out:
        return subprocess.Popen(command, env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)


def wait_ready(port: int, server: subprocess.Popen[bytes], game_id: int) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"uvicorn exited with status {server.returncode}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", f"/api/games/{game_id}/")
            if conn.getresponse().status == 200:
                return
        except OSError:
            pass
        time.sleep(0.2)
    raise SystemExit("uvicorn did not answer in time")


def rss_kb(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                total += int(line.split()[1])
    return total


def cpu_seconds(pids: list[int]) -> float:
    total = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        total += int(fields[11]) + int(fields[12])
    return total / TICK


# --------------------------------------------------------------------------- sockets


@dataclass
class Heard:
    """When each socket heard each game event: (game id, ply) -> {username: time}."""

    times: dict[tuple[int, int], dict[str, float]] = field(default_factory=dict)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, game_id: int, ply: int, username: str, when: float) -> None:
        with self.lock:
            self.times.setdefault((game_id, ply), {})[username] = when


async def listen(
    url: str, player: Player, game_id: int, heard: Heard, opened: Any, gate: asyncio.Semaphore
) -> None:
    import websockets
    from websockets.typing import Origin

    async with websockets.connect(
        url,
        origin=Origin(url.replace("ws://", "http://").split("/ws/")[0]),
        additional_headers={"Cookie": player.cookie},
        max_queue=64,
        open_timeout=120,
    ) as socket:
        gate.release()
        await socket.send(json.dumps({"follow": [f"game.{game_id}"]}))
        following = json.loads(await socket.recv())
        assert f"game.{game_id}" in following["groups"], following
        opened()
        async for message in socket:
            now = time.monotonic()
            event = json.loads(message)
            if event.get("kind") == "game":
                heard.add(event["id"], event["ply"], player.username, now)


def open_sockets(
    urls: tuple[str, str],
    players: dict[str, Player],
    games: list[dict[str, Any]],
    heard: Heard,
    pids: list[int],
) -> tuple[int, int]:
    """A thread running one event loop with every socket; returns once all follow, with
    how much the servers' memory grew from when the first tenth followed (one-time costs
    paid) to 3 s after the last, idle (KB), and over how many sockets."""
    ready = threading.Event()
    count = [0]
    failures: list[str] = []
    total = 2 * len(games)
    tenth = max(1, total // 10)
    baseline: list[int] = []

    def opened() -> None:
        count[0] += 1
        if count[0] == tenth:
            baseline.append(rss_kb(pids))
        if count[0] + len(failures) == total:
            ready.set()

    async def follow_one(url: str, name: str, game_id: int, gate: asyncio.Semaphore) -> None:
        """One socket; one that fails to open is counted, and lets the next one go."""
        try:
            await listen(url, players[name], game_id, heard, opened, gate)
        except Exception as error:  # noqa: BLE001 - counted and reported
            if ready.is_set():
                return  # the servers' end
            failures.append(repr(error))
            gate.release()
            if count[0] + len(failures) == total:
                ready.set()

    async def main() -> None:
        tasks = []
        gate = asyncio.Semaphore(16)  # sockets opening at once, as pages load, not a herd
        for game in games:
            white, black = game["players"]
            for url, name in ((urls[0], white), (urls[1], black)):
                await gate.acquire()
                tasks.append(asyncio.create_task(follow_one(url, name, game["id"], gate)))
        await asyncio.gather(*tasks, return_exceptions=True)

    thread = threading.Thread(target=lambda: asyncio.run(main()), daemon=True)
    begun = time.monotonic()
    thread.start()
    while not ready.wait(1):
        if not thread.is_alive() or time.monotonic() - begun > 600:
            raise SystemExit(f"only {count[0]} of {total} sockets opened")
    if failures:
        print(f"{len(failures)} of {total} sockets failed to open, the first: {failures[0]}")
    time.sleep(3)
    return rss_kb(pids) - baseline[0], count[0] - tenth


# --------------------------------------------------------------------------- moves


@dataclass
class Move:
    game_id: int
    opponent: str
    sent: float
    answered: float
    ply: int


def mover(
    ports: tuple[int, int],
    work: queue.Queue[Any],
    players: dict[str, Player],
    done: list[Move],
    errors: list[str],
    games: queue.Queue[dict[str, Any]],
) -> None:
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=120) for port in ports]
    rng = random.Random(threading.get_ident())
    while True:
        item = work.get()
        if item is None:
            return
        due, index = item
        game = games.get()
        if game["state"] != "moving":
            errors.append(f"game {game['id']} is {game['state']}")
            continue
        name = game["turn"]["username"]
        opponent = next(p for p in game["players"] if p != name)
        body = json.dumps({"play": choose_play(game, rng), "ply": game["ply"]})
        side = index % 2
        headers = {
            "Authorization": f"Token {players[name].token}",
            "Content-Type": "application/json",
        }
        response = data = None
        for _ in range(2):  # a kept-alive connection the server closed meanwhile: once more
            try:
                conns[side].request("POST", f"/api/games/{game['id']}/move", body, headers)
                response = conns[side].getresponse()
                data = response.read()
                break
            except OSError as error:
                conns[side].close()
                conns[side] = http.client.HTTPConnection("127.0.0.1", ports[side], timeout=120)
                failure = str(error)
        if response is None or data is None:
            errors.append(failure)
            games.put(game)
            continue
        answered = time.monotonic()
        if response.status != 200:
            errors.append(f"{response.status} {data[:200]!r}")
            games.put(game)
            continue
        fresh = json.loads(data)
        fresh["players"] = game["players"]
        if fresh["state"] == "moving":  # else the game left play (its match went on)
            games.put(fresh)
        done.append(Move(game["id"], opponent, due, answered, fresh["ply"]))


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--rate", type=float, default=50)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--warmup", type=float, default=3)
    parser.add_argument("--admin-url", default="postgres://postgres@127.0.0.1:5432/postgres")
    parser.add_argument("--db", default="backgammon_bench_live")
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--keep-db", action="store_true")
    args = parser.parse_args()
    if not args.db.isidentifier() or args.db in {"backgammon", "postgres"}:
        raise SystemExit(f"refusing database name {args.db!r}")
    import redis

    spare = redis.Redis.from_url(args.redis_url)
    if spare.dbsize():
        raise SystemExit(f"{args.redis_url} is not empty: give a spare Redis database")

    database_url = recreate_database(args.admin_url, args.db)
    env = environment(database_url, args.redis_url)
    os.environ.update(env)
    import django

    django.setup()
    from django.core.management import call_command

    servers: list[subprocess.Popen[bytes]] = []
    log = Path("/tmp/bench-live.log")
    try:
        call_command("migrate", verbosity=0)
        started = time.monotonic()
        players, games = seed(args.games)
        print(
            f"seeded {len(games)} games, {len(players)} players "
            f"in {time.monotonic() - started:.0f} s"
        )
        from django.db import connections

        connections.close_all()
        ports = (free_port(), free_port())
        servers = [start_server(env, port, log) for port in ports]
        for port, server in zip(ports, servers, strict=True):
            wait_ready(port, server, games[0]["id"])
        pids = [s.pid for s in servers]
        before = rss_kb(pids)
        heard = Heard()
        urls = (f"ws://127.0.0.1:{ports[0]}/ws/live/", f"ws://127.0.0.1:{ports[1]}/ws/live/")
        grown, counted = open_sockets(urls, players, games, heard, pids)
        after = rss_kb(pids)
        print(
            f"{counted + max(1, len(games) // 5)} sockets open: servers' memory "
            f"{before / 1024:.0f} MB -> "
            f"{after / 1024:.0f} MB; {grown / counted:.1f} KB per idle connection "
            f"(over the last {counted}, once the first tenth had paid the one-time costs)"
        )

        pool: queue.Queue[dict[str, Any]] = queue.Queue()
        for game in games:
            pool.put(game)
        work: queue.Queue[Any] = queue.Queue()
        done: list[Move] = []
        errors: list[str] = []
        threads = [
            threading.Thread(
                target=mover, args=(ports, work, players, done, errors, pool), daemon=True
            )
            for _ in range(32)
        ]
        for thread in threads:
            thread.start()
        begin = time.monotonic()
        measure_from = begin + args.warmup
        end = measure_from + args.seconds
        interval = 1 / args.rate
        k = 0
        cpu0 = None
        while True:
            due = begin + k * interval
            if due >= end:
                break
            if cpu0 is None and due >= measure_from:
                cpu0 = cpu_seconds(pids)
            time.sleep(max(0.0, due - time.monotonic()))
            work.put((due, k))
            k += 1
        for _ in threads:
            work.put(None)
        for thread in threads:
            thread.join(60)
        cpu1 = cpu_seconds(pids)
        time.sleep(1)  # the last events on their way
        measured = [m for m in done if m.sent >= measure_from]
        round_trips, to_socket, after_answer, missing = [], [], [], 0
        for move in measured:
            when = heard.times.get((move.game_id, move.ply), {}).get(move.opponent)
            round_trips.append(move.answered - move.sent)
            if when is None:
                missing += 1
                continue
            to_socket.append(when - move.sent)
            after_answer.append(when - move.answered)
        late = [x for x in after_answer if x > 0]
        ms = 1000
        print(f"moves: {len(measured) / args.seconds:.1f}/s measured, {len(errors)} errors")
        if errors:
            print("  first error:", errors[0])
        print(
            f"move round trip (due -> answer): p50 {percentile(round_trips, 50) * ms:.1f} ms, "
            f"p99 {percentile(round_trips, 99) * ms:.1f} ms"
        )
        print(
            f"move sent -> opponent's socket (bounds commit -> socket from above): "
            f"p50 {percentile(to_socket, 50) * ms:.1f} ms, "
            f"p99 {percentile(to_socket, 99) * ms:.1f} ms"
            f" ({missing} events never heard)"
        )
        print(
            f"events heard after the move's answer: {len(late)} of {len(after_answer)}, "
            f"by p50 {percentile(late, 50) * ms:.1f} ms, p99 {percentile(late, 99) * ms:.1f} ms"
        )
        if cpu0 is not None and measured:
            print(
                f"servers' CPU: {(cpu1 - cpu0) / len(measured) * ms:.1f} ms per move "
                f"(the move and its pushes, both processes)"
            )
    finally:
        for server in servers:
            server.send_signal(signal.SIGTERM)
        for server in servers:
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
        spare.flushdb()
        if not args.keep_db:
            from django.db import connections

            connections.close_all()
            drop_database(args.admin_url, args.db)


if __name__ == "__main__":
    main()
