"""The bots' queue is fair: one player's flood does not delay another player's bot reply.

Measured before: one client moving fast in thirty bot matches had another player's bot
reply rise from 0.6 s to 8 s, every one of the flood's turns queued ahead of it. The bots
now play one turn per person at a time (bots/tasks.py): here a real ``bots`` worker of two
processes, as README runs it, with its own Redis broker and cache, gnubg, and the test
database on PostgreSQL.

Alice floods: she moves in each of her matches against the world-class bot, queuing a
bot turn in each at once. Bob then moves in his one match. His bot answers within a few
seconds, while most of Alice's matches still wait for theirs; before, his turn came after
all of hers (two at most of hers left waiting when his came back).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from bots import services
from bots.models import Bot
from challenges import services as challenge_services
from matches.bots import bot_act
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

#: Alice's matches against the bot, each with a bot turn queued by her flood.
FLOOD = 10
#: "A few seconds": Bob's bot reply, his own turn's gnubg time included.
FEW_SECONDS = 5.0


@pytest.fixture
def bots_worker(redis: Redis, tmp_path: Path, live_db_url: str) -> Iterator[Worker]:
    worker = Worker(
        worker_env(redis, live_db_url), tmp_path / "worker.log", queues="bots", processes=2
    )
    worker.start()
    try:
        yield worker
    finally:
        worker.stop()
        connection.close()


def bot_to_play(match: Match, person: User) -> bool:
    """Whether ``match`` waits for the bot (in play, and not the person's turn)."""
    match.refresh_from_db()
    game = match.current_game
    return (
        match.status == Match.Status.PLAYING
        and game is not None
        and (match.player(game.turn_color) != person)
    )


def hand_over(match: Match, person: User, rng: random.Random) -> None:
    """The person's turn, played at random until the bot is on turn (or the match ends)."""
    for _ in range(10):
        match.refresh_from_db()
        game = match.current_game
        if match.status != Match.Status.PLAYING or game is None:
            return
        if match.player(game.turn_color) != person:
            return
        bot_act(game, rng, timezone.now())


def new_match(person: User, bot: Bot) -> Match:
    challenge = challenge_services.challenge_create(
        challenger=person, opponent=bot.user, now=timezone.now(), length=7
    )
    return Match.objects.get(challenge=challenge)


def test_one_players_flood_does_not_delay_another_players_bot_reply(
    bots_worker: Worker,
) -> None:
    bot = {b.level: b for b in services.bots_create()}["world_class"]
    alice = UserFactory(username="alice", notify=User.Notify.NONE)
    bob = UserFactory(username="bob", notify=User.Notify.NONE)
    alices = [new_match(alice, bot) for _ in range(FLOOD)]
    bobs = new_match(bob, bot)
    everyones = [(m, alice) for m in alices] + [(bobs, bob)]
    wait_for(lambda: not any(bot_to_play(m, p) for m, p in everyones), 120, "the bot's first turns")

    rng = random.Random(7)
    for match in alices:  # the flood: a bot turn queued in each of Alice's matches
        hand_over(match, alice, rng)
    assert sum(bot_to_play(m, alice) for m in alices) >= FLOOD - 2  # (a match may have ended)
    hand_over(bobs, bob, rng)
    asked = time.monotonic()
    assert bot_to_play(bobs, bob)
    wait_for(lambda: not bot_to_play(bobs, bob), 60, "Bob's bot reply")
    waited = time.monotonic() - asked
    alice_waiting = sum(bot_to_play(m, alice) for m in alices)

    assert waited < FEW_SECONDS, f"Bob waited {waited:.1f} s"
    assert alice_waiting >= FLOOD // 2, f"{alice_waiting} of Alice's matches left waiting"
    # Alice's turns are played too, one at a time.
    wait_for(lambda: not any(bot_to_play(m, alice) for m in alices), 120, "Alice's bot turns")
    assert "bots.tasks.bot_play" in bots_worker.log.read_text()
