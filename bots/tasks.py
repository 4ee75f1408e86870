"""Celery entry points of the bots, on the ``bots`` queue (settings.CELERY_TASK_ROUTES).

:func:`connect` (called by ``BotsConfig.ready``) hears ``matches.signals.turn_started``
(a move, a double offer, a take, a new game) and ``challenges.signals.challenge_accepted``
(a match's first game) and, when the player now on turn is a bot,
queues :func:`bot_play` after the commit with the game's id and ply. The task is
idempotent (the service does nothing for a turn that moved on) and retries when gnubg
fails. A draw offered to a bot is declined by :func:`bot_answer_draw`. :func:`bot_sweep`,
every minute, queues the turns whose task was lost.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import shared_task
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


@shared_task(bind=True, ignore_result=True, max_retries=MAX_RETRIES)
def bot_play(self: Any, game_id: int, ply: int) -> int:
    """Play the bot's turn in ``game_id`` if it still stands at ``ply``."""
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
