"""Celery entry point for the chouettes' off-board deadlines. Thin: it calls a service.

``clock_*`` routes it to the ``clock`` queue (settings.CELERY_TASK_ROUTES); the beat
runs it every minute. An optional ISO ``now`` runs it for a given moment.
"""

from __future__ import annotations

from celery import shared_task

from backgammon.inputs import task_moment

from .decisions import decisions_expire


@shared_task(ignore_result=True)
def clock_expire_decisions(now: str | None = None) -> int:
    return decisions_expire(now=task_moment(now))
