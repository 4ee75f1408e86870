"""Celery entry points that run the tournaments with no one at the wheel. Thin.

``clock_*`` routes them to the ``clock`` queue; the beat runs them every minute. Each
service is idempotent, so a run twice (or two at once) changes nothing more. An
optional ISO ``now`` runs one for a given moment.
"""

from __future__ import annotations

from celery import shared_task

from backgammon.inputs import task_moment

from . import advance, schedules


@shared_task(ignore_result=True)
def clock_tournaments(now: str | None = None) -> int:
    """Open scheduled editions, start (or cancel) the tournaments due, and record any
    tournament match that ended unrecorded."""
    moment = task_moment(now)
    return (
        schedules.schedules_run(now=moment)
        + advance.tournaments_start_due(now=moment)
        + advance.tournaments_advance(now=moment)
    )
