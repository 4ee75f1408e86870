"""The outbox: a notification is a row written with the change that owes it.

:func:`notify` and :func:`notify_many` write rows inside the caller's transaction.
After the commit each e-mail row gets one delivery task: the rows are announced with
the :data:`~notifications.signals.notifications_written` signal, which
``notifications.tasks`` receives (so this module never imports a task). Sending
never raises nor blocks: with the broker down the row stays ``pending`` and the
sweeper (:func:`notifications.delivery.notifications_sweep`) sends it later.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from accounts.models import User
from challenges.models import Challenge
from matches.models import Game, Match

from .models import Notification
from .signals import notifications_written

#: A pending row the on-commit task did not deliver is re-sent by the sweeper after this.
SWEEP_GRACE = timedelta(minutes=2)

Kind = Notification.Kind
Status = Notification.Status
Delivery = Notification.Delivery

#: How a row reaches a recipient with an e-mail address, by their ``User.notify``
#: (keyed by the stored string; any other value: site only).
DELIVERY_BY_PREFERENCE: dict[str, Notification.Delivery] = {
    User.Notify.EVERY: Delivery.EMAIL,
    User.Notify.DIGEST: Delivery.DIGEST,
}


def notify(
    *,
    recipient: User,
    kind: str,
    now: datetime,
    game: Game | None = None,
    match: Match | None = None,
    challenge: Challenge | None = None,
    payload: dict[str, Any] | None = None,
) -> Notification:
    """Write one notification row in the current transaction; deliver it after commit."""
    row = _notification(
        recipient=recipient,
        kind=kind,
        now=now,
        game=game,
        match=match,
        challenge=challenge,
        payload=payload,
    )
    row.save(force_insert=True)
    notifications_written.send(sender=Notification, rows=[row])
    return row


def notify_many(items: Iterable[dict[str, Any]], *, now: datetime) -> list[Notification]:
    """:func:`notify` for several rows at once (each item its keyword arguments but ``now``):
    written in one ``bulk_create``."""
    rows = [_notification(now=now, **item) for item in items]
    Notification.objects.bulk_create(rows)
    notifications_written.send(sender=Notification, rows=rows)
    return rows


def _notification(
    *,
    recipient: User,
    kind: str,
    now: datetime,
    game: Game | None = None,
    match: Match | None = None,
    challenge: Challenge | None = None,
    payload: dict[str, Any] | None = None,
) -> Notification:
    delivery = DELIVERY_BY_PREFERENCE.get(recipient.notify, Delivery.NONE)
    if not recipient.email:
        delivery = Delivery.NONE
    return Notification(
        recipient=recipient,
        kind=kind,
        game=game,
        match=match if match is not None else (game.match if game is not None else None),
        challenge=challenge,
        payload=payload or {},
        delivery=delivery,
        status=Status.SKIPPED if delivery == Delivery.NONE else Status.PENDING,
        next_attempt_at=now + SWEEP_GRACE,
        created_at=now,
    )
