"""Celery entry points of the analysis, on the ``analysis`` queue (CELERY_TASK_ROUTES).

:func:`connect` (called by ``AnalysisConfig.ready``) hears ``matches.signals.match_finished``
and ``games_timed_out`` (the expiry sweep's batch of matches lost on time): the match is
queued for analysis, inside its transaction; and ``analysis_queued`` (the
task is published after the commit). :func:`analysis_run` is late-acknowledged: a worker
killed mid-run leaves the message to be delivered again, and the row ``running`` with
nothing stored, from which the next delivery starts over; :func:`analysis_sweep` queues
again what a lost worker or a lost publish left behind.
"""

from __future__ import annotations

import logging
from functools import partial
from typing import Any

from celery import shared_task
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from gnubg_bridge.process import GnubgError, GnubgMissingError
from matches.models import Match
from matches.signals import games_timed_out, match_finished

from . import services
from .models import MatchAnalysis
from .signals import analysis_queued

log = logging.getLogger(__name__)

#: Seconds between attempts when gnubg fails, and how many retries before giving up.
RETRY_DELAY = 30
MAX_RETRIES = 3


def enqueue(match_id: int) -> bool:
    """Publish the analysis task of ``match_id``. Never raises: a failure is logged and
    :func:`analysis_sweep` publishes it later."""
    try:
        analysis_run.apply_async((match_id,), retry=False)
    except Exception:  # the broker is down; or, eager, the run itself failed
        log.warning("could not run the analysis of match %s; the sweeper will", match_id)
        return False
    return True


def _on_analysis_queued(sender: type, *, analysis: MatchAnalysis, **kwargs: Any) -> None:
    transaction.on_commit(partial(enqueue, analysis.pk), robust=True)


def _on_match_finished(sender: type, *, match: Match, now: Any, **kwargs: Any) -> None:
    services.analysis_request_finished(match, now)


def _on_games_timed_out(sender: type, *, matches: list[Match], now: Any, **kwargs: Any) -> None:
    # The expiry sweep's batch: each game ended its match, with no match_finished of its own.
    services.analyses_request_finished(matches, now)


def connect() -> None:
    analysis_queued.connect(_on_analysis_queued, dispatch_uid="analysis.enqueue")
    match_finished.connect(_on_match_finished, dispatch_uid="analysis.match_finished")
    games_timed_out.connect(_on_games_timed_out, dispatch_uid="analysis.games_timed_out")


@shared_task(
    bind=True,
    ignore_result=True,
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=MAX_RETRIES,
    soft_time_limit=settings.ANALYSIS_TIMEOUT + 30,
    # The broker's visibility timeout is set above it (backgammon/settings.py).
    time_limit=settings.ANALYSIS_TASK_TIME_LIMIT,
)
def analysis_run(self: Any, match_id: int) -> str:
    """Analyse match ``match_id`` (nothing if it is done or was never requested)."""
    try:
        return services.analysis_run(match_id=match_id, clock=timezone.now)
    except GnubgMissingError as error:
        services.analysis_fail(match_id=match_id, error=str(error), now=timezone.now())
        return MatchAnalysis.Status.FAILED
    except GnubgError as error:
        if self.request.retries >= MAX_RETRIES or self.app.conf.task_always_eager:
            log.error("the analysis of match %s failed: %s", match_id, error)
            services.analysis_fail(match_id=match_id, error=str(error), now=timezone.now())
            return MatchAnalysis.Status.FAILED
        raise self.retry(exc=error, countdown=RETRY_DELAY) from error


@shared_task(ignore_result=True)
def analysis_sweep() -> int:
    """Queue again the analyses whose run or task was lost."""
    return len(services.analyses_requeue_stalled(now=timezone.now()))
