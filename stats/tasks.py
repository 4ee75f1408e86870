"""Celery entry point for the dice's count (:mod:`stats.dice`). Thin: it calls a service.

Routed to the ``clock`` queue by its name (settings.CELERY_TASK_ROUTES); the beat runs it
every minute. It takes an optional ISO ``now`` for a test or an operator.
"""

from __future__ import annotations

from celery import shared_task

from backgammon.inputs import task_moment

from .dice import stats_count_dice


@shared_task(ignore_result=True)
def clock_count_dice(now: str | None = None) -> int:
    return stats_count_dice(now=task_moment(now))
