"""Celery entry point for old challenges. Thin: it calls a service.

Routed to the ``clock`` queue by its name (settings.CELERY_TASK_ROUTES); takes an
optional ISO ``now`` for a test or an operator.
"""

from __future__ import annotations

from celery import shared_task

from backgammon.inputs import task_moment

from .services import challenges_expire


@shared_task(ignore_result=True)
def clock_expire_challenges(now: str | None = None) -> int:
    return challenges_expire(now=task_moment(now))
