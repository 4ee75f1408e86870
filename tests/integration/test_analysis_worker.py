"""The analysis end to end: a real ``celery worker`` on the ``analysis`` queue, its own
Redis broker, the test database on PostgreSQL, and gnubg.

- A match played to its end through the services is analysed by the worker: its end
  queues the task after the commit.
- A worker killed in the middle of a run leaves the row ``running`` and nothing stored;
  once the sweeper queues it again, a new worker completes it.
"""

from __future__ import annotations

import os
import random
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from analysis import services
from analysis.models import Decision, MatchAnalysis, PlayerAnalysis
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record
from matches.bots import bot_play_match
from matches.models import Match
from tests.factories import UserFactory
from tests.worker import Redis, Worker, wait_for, worker_env

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.gnubg,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def worker(redis: Redis, tmp_path: Path, live_db_url: str) -> Iterator[Worker]:
    w = Worker(worker_env(redis, live_db_url), tmp_path / "worker.log", queues="analysis")
    try:
        yield w
    finally:
        w.stop()
        connection.close()


def play_a_match(monkeypatch: pytest.MonkeyPatch, seed: int) -> Match:
    """A 3-point match between two new players, played to its end by the random player."""
    alice = UserFactory(username="alice", notify=User.Notify.NONE)
    bob = UserFactory(username="bob", notify=User.Notify.NONE)
    rng = random.Random(seed)
    monkeypatch.setattr(record, "dice", FixedDice([rng.randint(1, 6) for _ in range(20000)]))
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=alice, opponent=bob, now=now, length=3
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    match = bot_play_match(match, random.Random(seed), now, double_rate=0.1)
    assert match.status == Match.Status.FINISHED
    return match


def status_of(match: Match) -> str | None:
    row = MatchAnalysis.objects.filter(match=match).first()
    return None if row is None else row.status


def test_a_finished_match_is_analysed_by_the_worker(
    worker: Worker, monkeypatch: pytest.MonkeyPatch
) -> None:
    worker.start()
    match = play_a_match(monkeypatch, 3)
    wait_for(lambda: status_of(match) == "done", 60, "the analysis")
    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.attempts == 1 and analysis.games_done == match.games.count()
    assert PlayerAnalysis.objects.filter(analysis=analysis).count() == 2
    assert Decision.objects.filter(analysis=analysis, kind="play").exists()


def test_a_worker_killed_mid_analysis_stores_nothing_and_the_task_queued_again_completes(
    worker: Worker, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # The first worker's gnubg waits (a wrapper that sleeps before starting it), so that
    # the worker is killed while the run is under way; the wrapper says its pid.
    pid_file = tmp_path / "gnubg.pid"
    slow = tmp_path / "slow-gnubg"
    slow.write_text(f'#!/bin/sh\necho $$ > {pid_file}\nsleep 60\nexec /usr/games/gnubg "$@"\n')
    slow.chmod(0o755)
    worker.start(GNUBG=str(slow))
    match = play_a_match(monkeypatch, 5)
    wait_for(pid_file.exists, 60, "the run to start gnubg")
    assert status_of(match) == "running"
    worker.kill()
    os.kill(int(pid_file.read_text()), signal.SIGKILL)  # the wrapper the dead worker left

    analysis = MatchAnalysis.objects.get(match=match)
    assert analysis.status == "running" and analysis.attempts == 1
    assert not PlayerAnalysis.objects.filter(analysis=analysis).exists()
    assert not Decision.objects.filter(analysis=analysis).exists()

    worker.start()
    later = timezone.now() + timedelta(hours=1)
    assert services.analyses_requeue_stalled(now=later) == [match.pk]
    wait_for(lambda: status_of(match) == "done", 60, "the analysis after the restart")
    analysis.refresh_from_db()
    assert analysis.attempts == 2
    assert PlayerAnalysis.objects.filter(analysis=analysis).count() == 2
    worker.wait_idle()
