"""Celery entry points of the bots, on the ``bots`` queue (settings.CELERY_TASK_ROUTES).

:func:`connect` (called by ``BotsConfig.ready``) hears ``matches.signals.turn_started``
(a move, a double offer, a take, a new game) and ``challenges.signals.challenge_accepted``
(a match's first game) and, when the player now on turn is a bot,
queues :func:`bot_play` after the commit with the game's id and ply. The task is
idempotent (the service does nothing for a turn that moved on) and retries when gnubg
fails. A draw offered to a bot is declined by :func:`bot_answer_draw`.

On a live clock the same signals, when it is the person's turn against a bot, queue
:func:`bot_claim_time` for the moment their flag falls: the bot claims the win if they
have not moved. A live seek posted in the lobby (``challenge_created``) queues
:func:`bot_take_seek` for when its wait (``BOT_SEEK_WAIT``) is over: a bot takes it if no
person has. Both services judge everything again when they run, so a task that comes
early (tasks run at once without a broker, whatever their countdown) or twice does
nothing. :func:`bot_sweep`, every minute, queues the turns, seeks and claims whose task
was lost.

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
from datetime import datetime
from functools import partial
from typing import Any

from celery import shared_task
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone

from challenges.models import Challenge
from challenges.signals import challenge_accepted, challenge_created
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


def _on_turn_started(sender: type, *, game: Game, now: datetime, **kwargs: Any) -> None:
    if services.bot_on_turn(game) is not None:
        # The ply is read at the commit: the service that sent the signal may add rows yet.
        transaction.on_commit(partial(enqueue, game), robust=True)
        return
    due_in = services.bot_claim_due_in(game, now)
    if due_in is not None:
        transaction.on_commit(partial(_enqueue_claim, game, due_in), robust=True)


def _enqueue_claim(game: Game, due_in: float) -> None:
    """Queue the bot's claim for when the person's flag falls; should the broker refuse,
    the sweeper claims within a minute of the fall."""
    try:
        bot_claim_time.apply_async((game.pk, game.ply), countdown=due_in, retry=False)
    except Exception:
        log.warning("could not queue the bot's claim of time in game %s", game.pk)


def _on_challenge_created(sender: type, *, challenge: Challenge, **kwargs: Any) -> None:
    if services.seek_for_bots(challenge):
        transaction.on_commit(partial(_enqueue_seek, challenge.pk), robust=True)


def _enqueue_seek(challenge_id: int) -> None:
    """Queue a bot's taking of the seek for when its wait is over; should the broker
    refuse, the sweeper takes it within a minute."""
    countdown = settings.BOT_SEEK_WAIT + services.MARGIN
    try:
        bot_take_seek.apply_async((challenge_id,), countdown=countdown, retry=False)
    except Exception:
        log.warning("could not queue a bot for seek %s; the sweeper will", challenge_id)


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
    challenge_created.connect(_on_challenge_created, dispatch_uid="bots.take_seek")
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
def bot_take_seek(challenge_id: int) -> bool:
    """A bot takes the seek if no person has within its wait (whether it took it)."""
    return services.bot_take_seek(challenge_id=challenge_id, now=timezone.now()) is not None


@shared_task(ignore_result=True)
def bot_claim_time(game_id: int, ply: int) -> bool:
    """The bot claims the win if the person's live clock has fallen (whether it did)."""
    return services.bot_claim_time(game_id=game_id, ply=ply, now=timezone.now()) is not None


@shared_task(ignore_result=True)
def bot_sweep() -> int:
    """Queue every bot turn still waiting, every seek a bot may take and every fallen
    clock a bot may claim (tasks lost while the broker was down); duplicates are
    harmless. Returns how many tasks it queued."""
    now = timezone.now()
    waiting = services.bot_games_waiting()
    for game_id, ply in waiting:
        bot_play.apply_async((game_id, ply), retry=False)
    seeks = services.bot_seeks_waiting(now)
    for challenge_id in seeks:
        bot_take_seek.apply_async((challenge_id,), retry=False)
    claims = services.bot_claims_due(now)
    for game_id, ply in claims:
        bot_claim_time.apply_async((game_id, ply), retry=False)
    return len(waiting) + len(seeks) + len(claims)
