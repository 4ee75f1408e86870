"""Celery entry points for time control and e-mail. Thin: each calls a service.

Names route the tasks (settings.CELERY_TASK_ROUTES): ``clock_*`` to the ``clock``
queue, ``email_*`` to the ``email`` queue. Periodic ones take an optional ISO
``now`` so that a test (or an operator) can run them for a given moment.
"""

from __future__ import annotations

import logging
import os
import time
from datetime import datetime

from celery import shared_task
from django.utils import timezone
from django.utils.dateparse import parse_datetime

log = logging.getLogger(__name__)

#: Test hook: seconds to wait between claiming a row and sending it (integration tests
#: kill the worker in that window). Unset in production.
DELIVERY_DELAY_ENV = "BACKGAMMON_TEST_DELIVERY_DELAY"


def _now(now: str | None) -> datetime:
    if now:
        parsed = parse_datetime(now)
        if parsed is None:
            raise ValueError(f"not a date-time: {now!r}")
        return parsed
    return timezone.now()


def _delay_hook() -> None:
    delay = float(os.environ.get(DELIVERY_DELAY_ENV) or 0)
    if delay > 0:
        time.sleep(delay)


@shared_task(ignore_result=True)
def email_deliver(notification_id: int) -> str:
    """Send one outbox row (claimed first, so a duplicate task is harmless)."""
    from .models import Notification
    from .notifications import enqueue, notification_deliver, retry_delay

    outcome = notification_deliver(
        notification_id=notification_id, now=timezone.now(), before_send=_delay_hook
    )
    if outcome == "retry" and not email_deliver.app.conf.task_always_eager:
        attempts = (
            Notification.objects.filter(pk=notification_id)
            .values_list("attempts", flat=True)
            .first()
        ) or 1
        # The sweeper is the fallback if this enqueue is lost.
        enqueue(notification_id, countdown=retry_delay(attempts).total_seconds())
    return outcome


@shared_task(ignore_result=True)
def email_sweep(now: str | None = None) -> int:
    from .notifications import notifications_sweep

    return notifications_sweep(now=_now(now))


@shared_task(ignore_result=True)
def email_digests(now: str | None = None) -> int:
    from .notifications import digests_send

    return digests_send(now=_now(now))


@shared_task(ignore_result=True)
def clock_expire_overdue(now: str | None = None) -> int:
    from .clock import challenges_expire, games_expire_overdue

    moment = _now(now)
    return games_expire_overdue(now=moment) + challenges_expire(now=moment)


@shared_task(ignore_result=True)
def clock_remind_players(now: str | None = None) -> int:
    from .clock import players_remind

    return players_remind(now=_now(now))
