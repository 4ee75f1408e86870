"""Celery entry points of the bots, on the ``bots`` queue (settings.CELERY_TASK_ROUTES).

:func:`connect` (called by ``BotsConfig.ready``) hears ``matches.signals.turn_started``
(a move, a double offer, a take, a new game) and ``challenges.signals.challenge_accepted``
(a match's first game) and, when the player now on turn is a bot,
queues :func:`bot_play` after the commit with the game's id and ply. The task is
idempotent (the service does nothing for a turn that moved on) and retries when gnubg
fails. A draw offered to a bot is declined by :func:`bot_answer_draw`. :func:`bot_sweep`,
every minute, queues the turns whose task was lost.

The queue is fair between people: the bots play **one turn per person at a time**. A
task takes its person's claim in the cache (``cache.add``) for as long as it runs; a
second task for the same person, meeting the claim, queues itself again
:data:`BUSY_DELAY` seconds later and gives its worker process back. One client moving
fast in thirty bot matches had every other player's bot reply wait behind all of its
turns (0.6 s became 8 s); now it holds one worker process at most, and the others'
turns take the rest (so the ``bots`` workers want two processes or more: README). The
claim expires with the task's time limit should its worker die. Without a broker
(tasks run in-process, eagerly) there is no claim, and while Redis is down the cache
grants every claim: the turns are played as they come, as before.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from challenges.signals import challenge_accepted
from gammon import Color
from gnubg_bridge.process import GnubgError, GnubgMissingError
from matches.models import Game
from matches.signals import draw_offered, turn_started

from . import receivers, services

log = logging.getLogger(__name__)

#: Seconds between attempts when gnubg fails, and how many attempts.
RETRY_DELAY = 10
MAX_RETRIES = 5
#: Seconds before a bot turn whose person has another one being played is tried again.
BUSY_DELAY = 1


def enqueue(game: Game) -> bool:
    """Queue the bot's turn in ``game`` at its ply as committed. Never raises: a failure
    is logged, and :func:`bot_sweep` queues the turn again within a minute."""
    try:
        bot_play.apply_async((game.pk, game.ply), retry=False)
    except Exception:  # the broker is down; or, eager, the bot's turn failed
        log.warning("could not play the bot's turn in game %s; the sweeper will", game.pk)
        return False
    return True


def _on_turn_started(sender: type, *, game: Game, **kwargs: Any) -> None:
    if services.bot_on_turn(game) is not None:
        # The ply is read at the commit: the service that sent the signal may add rows yet.
        transaction.on_commit(partial(enqueue, game), robust=True)


def _on_draw_offered(sender: type, *, game: Game, color: Color, **kwargs: Any) -> None:
    if services.bot_of(game.match.player(Color(color).other)) is not None:
        transaction.on_commit(partial(_enqueue_draw_answer, game.pk), robust=True)


def _enqueue_draw_answer(game_id: int) -> None:
    try:
        bot_answer_draw.apply_async((game_id,), retry=False)
    except Exception:  # the broker is down: the offer waits for the person to withdraw
        log.warning("could not queue the bot's answer to a draw in game %s", game_id)


def connect() -> None:
    turn_started.connect(_on_turn_started, dispatch_uid="bots.enqueue")
    draw_offered.connect(_on_draw_offered, dispatch_uid="bots.answer_draw")
    # A match's first game starts with its challenge's acceptance, not turn_started.
    challenge_accepted.connect(_on_turn_started, dispatch_uid="bots.enqueue_first_game")
    receivers.connect()


@contextmanager
def persons_turn(task: Any, game_id: int) -> Iterator[bool]:
    """Whether ``task`` may play the bot's turn in ``game_id`` now: True, holding the
    claim of the person the bot plays there until the block ends; False when another
    turn of theirs holds it. Always True when tasks run eagerly (no broker)."""
    person = None if task.app.conf.task_always_eager else services.bot_opponent_id(game_id)
    if person is None:
        yield True
        return
    key = f"bots:person:{person}"
    if not cache.add(key, task.request.id or "-", settings.CELERY_TASK_TIME_LIMIT):
        yield False
        return
    try:
        yield True
    finally:
        cache.delete(key)


def _later(task: Any, args: tuple[int, ...]) -> None:
    """Queue ``task`` again after :data:`BUSY_DELAY` (its person's other turn is played);
    should the broker refuse, the sweeper queues the turn within a minute."""
    try:
        task.apply_async(args, countdown=BUSY_DELAY, retry=False)
    except Exception:
        log.warning("could not queue %s%s again; the sweeper will", task.name, args)


@shared_task(bind=True, ignore_result=True, max_retries=MAX_RETRIES)
def bot_play(self: Any, game_id: int, ply: int) -> int:
    """Play the bot's turn in ``game_id`` if it still stands at ``ply``."""
    with persons_turn(self, game_id) as ours:
        if not ours:
            _later(bot_play, (game_id, ply))
            return 0
        try:
            return services.bot_play_turn(game_id=game_id, ply=ply, now=timezone.now())
        except GnubgMissingError:
            log.error("game %s waits for a bot, but gnubg is not installed", game_id)
            return 0
        except GnubgError as error:
            if self.app.conf.task_always_eager:
                raise
            raise self.retry(exc=error, countdown=RETRY_DELAY) from error


@shared_task(bind=True, ignore_result=True, max_retries=MAX_RETRIES)
def bot_answer_draw(self: Any, game_id: int) -> bool:
    """A bot declines the draw offered to it (then plays its turn if it is due)."""
    with persons_turn(self, game_id) as ours:
        if not ours:
            _later(bot_answer_draw, (game_id,))
            return False
        try:
            return services.bot_answer_draw(game_id=game_id, now=timezone.now())
        except GnubgMissingError:
            return True
        except GnubgError as error:
            if self.app.conf.task_always_eager:
                raise
            raise self.retry(exc=error, countdown=RETRY_DELAY) from error


@shared_task(ignore_result=True)
def bot_sweep() -> int:
    """Queue every bot turn still waiting (a lost task); duplicates are harmless."""
    waiting = services.bot_games_waiting()
    for game_id, ply in waiting:
        bot_play.apply_async((game_id, ply), retry=False)
    return len(waiting)
