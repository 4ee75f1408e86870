"""Celery entry point for the games' clocks. Thin: it calls a service.

The name routes the task (settings.CELERY_TASK_ROUTES): ``clock_*`` to the ``clock``
queue. It takes an optional ISO ``now`` so that a test (or an operator) can run it
for a given moment.
"""

from __future__ import annotations

from celery import shared_task

from backgammon.inputs import task_moment

from .clock import games_expire_overdue


@shared_task(ignore_result=True)
def clock_expire_overdue(now: str | None = None) -> int:
    return games_expire_overdue(now=task_moment(now))
