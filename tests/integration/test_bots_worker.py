"""A bot answers its turns from a real Celery worker consuming the ``bots`` queue, with a
real Redis broker, gnubg, and the test database on PostgreSQL.

The person plays through the services in this process; each of the person's actions, once
committed, queues the bot's turn on the broker; the worker plays it through the same
services and the person finds their turn again.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from bots import services
from challenges import services as challenge_services
from matches.bots import bot_act
from matches.models import GameEvent, Match
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
def bots_worker(redis: Redis, tmp_path: Path, live_db_url: str) -> Iterator[Worker]:
    worker = Worker(worker_env(redis, live_db_url), tmp_path / "worker.log", queues="bots")
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()
        connection.close()


def test_the_bot_answers_its_turns_from_the_bots_queue(bots_worker: Worker) -> None:
    bot = {b.level: b for b in services.bots_create()}["expert"]
    person = UserFactory(username="alice", notify=User.Notify.NONE)
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=person, opponent=bot.user, now=now, length=1
    )
    match = Match.objects.get(challenge=challenge)
    rng = random.Random(4)

    def persons_turn_or_over() -> bool:
        match.refresh_from_db()
        game = match.current_game
        if match.status != Match.Status.PLAYING or game is None:
            return True
        return match.player(game.turn_color) == person

    for _ in range(6):  # a few of the person's turns, each answered by the worker
        wait_for(persons_turn_or_over, 60, "the bot to play its turn")
        if match.status != Match.Status.PLAYING:
            break
        game = match.current_game
        assert game is not None
        bot_act(game, rng, timezone.now())
    wait_for(persons_turn_or_over, 60, "the bot to play its last turn")
    bot_color = match.color_of(bot.user)
    assert bot_color is not None
    bot_actions = GameEvent.objects.filter(
        game__match=match, color=int(bot_color), kind=GameEvent.Kind.MOVE
    ).count()
    assert bot_actions >= 1
    assert "bots.tasks.bot_play" in bots_worker.log.read_text()
