"""Celery entry points for e-mail and time-out warnings. Thin: each calls a service.

Names route the tasks (settings.CELERY_TASK_ROUTES): ``email_*`` to the ``email``
queue, ``clock_*`` to the ``clock`` queue. Periodic ones take an optional ISO ``now``
so that a test (or an operator) can run them for a given moment.

The outbox never imports this module: :func:`connect` (called by
``NotificationsConfig.ready``) makes every new e-mail row queue :func:`email_deliver`
after the commit.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from functools import partial
from typing import Any

from celery import shared_task
from django.db import transaction
from django.utils import timezone

from backgammon.inputs import task_moment as moment

from . import delivery, reminders
from .models import Notification
from .signals import notifications_written

log = logging.getLogger(__name__)

#: Test hook: seconds to wait between claiming a row and sending it (integration tests
#: kill the worker in that window). Unset in production.
DELIVERY_DELAY_ENV = "BACKGAMMON_TEST_DELIVERY_DELAY"


def enqueue(notification_id: int, countdown: float = 0) -> bool:
    """Send the delivery task to the broker, to run ``countdown`` seconds from now (0:
    at once). Never raises and never waits long: one attempt (``retry=False``), bounded
    by the broker's connect and socket timeouts (``CELERY_BROKER_TRANSPORT_OPTIONS``); a
    failure is logged and the row stays ``pending`` for the sweeper."""
    try:
        email_deliver.apply_async((notification_id,), countdown=countdown, retry=False)
    except Exception:  # the broker is down or unreachable: the row stays pending
        log.warning("could not enqueue notification %s; the sweeper will", notification_id)
        return False
    return True


def _on_rows_written(sender: type, *, rows: Sequence[Notification], **kwargs: Any) -> None:
    """After the commit, each e-mail row gets its own delivery task (:func:`enqueue`)."""
    for row in rows:
        if row.delivery == Notification.Delivery.EMAIL:
            transaction.on_commit(partial(enqueue, row.pk), robust=True)


def connect() -> None:
    notifications_written.connect(_on_rows_written, dispatch_uid="notifications.enqueue")


def _delay_hook() -> None:
    delay = float(os.environ.get(DELIVERY_DELAY_ENV) or 0)
    if delay > 0:
        time.sleep(delay)


@shared_task(ignore_result=True)
def email_deliver(notification_id: int) -> str:
    """Send one outbox row (claimed first, so a duplicate task is harmless)."""
    outcome = delivery.notification_deliver(
        notification_id=notification_id, now=timezone.now(), before_send=_delay_hook
    )
    if outcome == "retry" and not email_deliver.app.conf.task_always_eager:
        attempts = (
            Notification.objects.filter(pk=notification_id)
            .values_list("attempts", flat=True)
            .first()
        ) or 1
        # The sweeper is the fallback if this enqueue is lost.
        enqueue(notification_id, countdown=delivery.retry_delay(attempts).total_seconds())
    return outcome


@shared_task(ignore_result=True)
def email_sweep(now: str | None = None) -> int:
    return delivery.notifications_sweep(now=moment(now), send=enqueue)


@shared_task(ignore_result=True)
def email_digests(now: str | None = None) -> int:
    return delivery.digests_send(now=moment(now))


@shared_task(ignore_result=True)
def clock_remind_players(now: str | None = None) -> int:
    return reminders.players_remind(now=moment(now))
