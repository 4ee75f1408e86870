"""The same move form sent twice at the same instant, in the default set-up (an SQLite file).

On PostgreSQL the second submission waits for the game's row lock and is refused as stale
(tests/integration/test_concurrency.py). SQLite locks the whole file: with its default
``BEGIN DEFERRED`` both requests read, then the second to write failed at once with
"database is locked" (a 500). The settings make SQLite take the write lock when the
transaction begins (``transaction_mode: IMMEDIATE``) and wait for it (``timeout``), so the
second request queues and gets the same conflict answer as on PostgreSQL.

The race runs in a child process whose ``DATABASE_URL`` is an SQLite file, with the real
settings module: the test database of pytest-django is in memory (a single shared
connection), and CI's is PostgreSQL, so neither could show it. Each thread has its own
connection, as two web server workers would.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

RACE = r"""
import json, threading
import django
django.setup()
from django.core.management import call_command
from django.db import connection
from django.test import Client
from django.utils import timezone

call_command("migrate", verbosity=0)
from gammon import FixedDice

from matches.models import Game, GameEvent
from tests.factories import UserFactory
from challenges import services as challenge_services
from matches import record

results = []
for attempt in range(ATTEMPTS):
    record.dice = FixedDice([6, 1, 3, 1])  # White opens 6-1; Black's roll after it
    alice, bob = UserFactory(username=f"alice{attempt}"), UserFactory(username=f"bob{attempt}")
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=alice, opponent=bob, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    game = match.current_game
    assert game.state == Game.State.MOVING and game.turn == 0, game.state
    clients = [Client(), Client()]
    for client in clients:
        client.force_login(match.white)
    connection.close()
    barrier = threading.Barrier(2)
    outcome = [None, None]

    def send(index):
        client = clients[index]
        barrier.wait(timeout=30)
        try:
            response = client.post(
                f"/games/{game.pk}/",
                {"action": "move", "ply": game.ply, "play": "13/7 8/7", "confirm": "on"},
            )
            outcome[index] = [response.status_code, response.content.decode()]
        except Exception as error:  # the 500 under test: kept for the assertion
            outcome[index] = [500, repr(error)]
        finally:
            connection.close()

    threads = [threading.Thread(target=send, args=(i,)) for i in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
        assert not thread.is_alive(), "a writer did not finish"
    moves = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.MOVE).count()
    results.append({"outcome": outcome, "moves": moves})
print("RESULT " + json.dumps(results))
"""


def test_two_identical_move_forms_at_once_on_sqlite_give_one_move_and_one_409(
    tmp_path: Path,
) -> None:
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"DATABASE_URL", "REDIS_URL", "DJANGO_ENV", "DEBUG"}
    }
    env.update(
        DATABASE_URL=f"sqlite:///{tmp_path / 'race.sqlite3'}",
        DJANGO_SETTINGS_MODULE="backgammon.settings",
        ALLOWED_HOSTS="testserver",
        EMAIL_URL="locmem:",
        LOG_LEVEL="CRITICAL",
    )
    child = subprocess.run(
        [sys.executable, "-c", RACE.replace("ATTEMPTS", "3")],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert child.returncode == 0, child.stderr
    line = next(x for x in child.stdout.splitlines() if x.startswith("RESULT "))
    for result in json.loads(line.removeprefix("RESULT ")):
        statuses = sorted(status for status, _body in result["outcome"])
        assert statuses == [302, 409], [(s, body[-300:]) for s, body in result["outcome"]]
        conflict = next(body for status, body in result["outcome"] if status == 409)
        assert "The game has changed since you loaded it" in conflict
        assert result["moves"] == 1
