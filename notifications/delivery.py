"""Delivery of the outbox's e-mail rows, and the daily digests.

- :func:`notification_deliver` claims the row (``pending -> sending``, a conditional
  update), sends, then marks it ``sent``. No lock is held across the SMTP exchange.
  A failed send goes back to ``pending`` with an exponential back-off; after
  :data:`MAX_ATTEMPTS` the row is ``failed`` and keeps the last error.
- A notice held while its recipient was on the site (``notifications.outbox.HELD_KINDS``)
  is checked when claimed: read since, or a turn that is no longer theirs (a chouette's
  vote or answer given), it is ``skipped``; its recipient back on the site, it goes
  back to ``pending`` until they have been away long enough again (``held``: no attempt
  counted).
- :func:`notifications_sweep` (every minute) re-sends rows still ``pending`` after
  their ``next_attempt_at`` and rows left in ``sending`` longer than
  :data:`SENDING_TIMEOUT` (a worker killed between claim and mark). The one case
  that can send twice is a worker that dies after the SMTP server accepted the mail
  and before the single UPDATE that marks the row sent: that window is one local
  database round trip, and it is accepted.
- :func:`notifications_resend` (a superuser, in the admin) puts failed e-mail rows
  back to ``pending`` with fresh attempts and queues them after the commit.
- :func:`digests_send` sends each ``digest`` recipient one e-mail a day, at their
  ``digest_hour`` in their time zone, with every row owed since.

The functions take a ``send`` callable where they hand a row to the queue, so the
Celery task stays in ``notifications.tasks``, which calls them.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import transaction
from django.db.models import F

from accounts.models import User
from gammon import Color
from matches.models import Game
from matches.questions import game_awaiting
from matches.selectors import Decision

from .models import Notification
from .outbox import HELD_KINDS, SWEEP_GRACE, TURN_KINDS, present_until
from .texts import render_digest, render_email

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
#: A row claimed longer ago than this was dropped by a dead worker (hard limit 120 s).
SENDING_TIMEOUT = timedelta(minutes=5)

Status = Notification.Status
Delivery = Notification.Delivery


def notification_deliver(
    *, notification_id: int, now: datetime, before_send: Callable[[], None] | None = None
) -> str:
    """Claim, send and mark one e-mail row. Returns what happened, for logs and tests."""
    claimed = Notification.objects.filter(pk=notification_id, status=Status.PENDING).update(
        status=Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
    )
    if claimed != 1:
        return "not-pending"
    row = Notification.objects.select_related("recipient", "game__match", "match", "challenge").get(
        pk=notification_id
    )
    recipient = row.recipient
    if row.delivery == Delivery.EMAIL and recipient.notify == User.Notify.DIGEST:
        _release(row, now, delivery=Delivery.DIGEST, attempts=row.attempts - 1)
        return "to-digest"
    if row.delivery != Delivery.EMAIL or recipient.notify != User.Notify.EVERY:
        _mark(row, Status.SKIPPED, now)
        return "skipped"
    if row.kind in HELD_KINDS:
        if row.read_at is not None or not _turn_still_theirs(row):
            _mark(row, Status.SKIPPED, now)
            return "not-owed"
        until = present_until(recipient, now)
        if until is not None:
            _release(row, until, attempts=row.attempts - 1)
            return "held"
    if before_send is not None:
        before_send()
    try:
        render_email(row).send()
    except Exception as exc:
        return _failed(row, now, exc)
    _mark(row, Status.SENT, now)
    return "sent"


def _mark(row: Notification, status: str, now: datetime) -> None:
    Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
        status=status, sent_at=now if status == Status.SENT else None, last_error=""
    )


def _release(row: Notification, at: datetime, **fields: Any) -> None:
    Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
        status=Status.PENDING, claimed_at=None, next_attempt_at=at, **fields
    )


#: A chouette member's notices of a decision off the board, and what the board's
#: ``awaiting`` calls it: owed while the board still waits for the member's.
CHOUETTE_DECISIONS: dict[str, Decision] = {
    Notification.Kind.CHOUETTE_VOTE: Decision.VOTE,
    Notification.Kind.CHOUETTE_ANSWER: Decision.TAKE_OR_DROP,
}


def _turn_still_theirs(row: Notification) -> bool:
    """A turn notice (``your_turn``, ``double_offered``) is owed while its game still
    waits for its recipient to do that, a chouette member's vote or answer while the
    board still waits for theirs (a member is not one of the board's two players, so
    the page never marks it read: what they decided does); any other kind, always."""
    game = row.game
    if row.kind in CHOUETTE_DECISIONS and game is not None:
        decision = CHOUETTE_DECISIONS[row.kind]
        return any(
            a.player.pk == row.recipient_id and a.decision == decision for a in game_awaiting(game)
        )
    if row.kind not in TURN_KINDS or game is None:
        return True
    if game.state == Game.State.FINISHED:
        return False
    match = game.match
    on_turn = match.white_id if game.turn_color == Color.WHITE else match.black_id
    doubled = game.state == Game.State.DOUBLED
    return on_turn == row.recipient_id and doubled == (row.kind == Notification.Kind.DOUBLE_OFFERED)


def _failed(row: Notification, now: datetime, exc: Exception) -> str:
    error = f"{type(exc).__name__}: {exc}"[:2000]
    if row.attempts >= MAX_ATTEMPTS:
        Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
            status=Status.FAILED, last_error=error
        )
        log.error("notification %s failed for good: %s", row.pk, error)
        return "failed"
    delay = retry_delay(row.attempts)
    Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
        status=Status.PENDING, claimed_at=None, next_attempt_at=now + delay, last_error=error
    )
    log.warning("notification %s: attempt %s failed (%s)", row.pk, row.attempts, error)
    return "retry"


def retry_delay(attempts: int) -> timedelta:
    """How long a refused e-mail waits before its next attempt (the row's
    ``next_attempt_at`` and its task's countdown alike): settings.NOTIFICATION_RETRY_BASE_SECONDS
    (30 s by default, an env value so the worker tests can shorten it), doubled per attempt."""
    return timedelta(seconds=settings.NOTIFICATION_RETRY_BASE_SECONDS) * 2 ** (attempts - 1)


def notifications_sweep(*, now: datetime, send: Callable[[int], bool], batch: int = 500) -> int:
    """Hand e-mail rows still owed to ``send`` again; free rows a dead worker left in
    ``sending``. ``send`` queues one row's delivery and says whether it could."""
    stale = Notification.objects.filter(
        status=Status.SENDING, claimed_at__lte=now - SENDING_TIMEOUT
    ).values_list("pk", "claimed_at")[:batch]
    for pk, claimed_at in list(stale):
        Notification.objects.filter(pk=pk, status=Status.SENDING, claimed_at=claimed_at).update(
            status=Status.PENDING, claimed_at=None, next_attempt_at=now
        )
    due = list(
        Notification.objects.filter(
            status=Status.PENDING, delivery=Delivery.EMAIL, next_attempt_at__lte=now
        )
        .order_by("next_attempt_at")
        .values_list("pk", "next_attempt_at")[:batch]
    )
    sent = 0
    for pk, at in due:
        # Push the row back so the next sweep does not enqueue it again meanwhile.
        moved = Notification.objects.filter(
            pk=pk, status=Status.PENDING, next_attempt_at=at
        ).update(next_attempt_at=now + SWEEP_GRACE)
        if moved and send(pk):
            sent += 1
    return sent


@transaction.atomic
def notifications_resend(
    *, notification_ids: Iterable[int], now: datetime, send: Callable[[int], bool]
) -> int:
    """Give the failed e-mails among ``notification_ids`` another full set of attempts.

    Each goes back to ``pending`` (no attempts, due ``now``), and ``send`` queues its
    delivery after the commit; if the broker is down, the sweeper queues it. Rows that
    are not failed e-mails are left as they are. Returns how many were reset.
    """
    failed = list(
        Notification.objects.select_for_update()
        .filter(pk__in=list(notification_ids), status=Status.FAILED, delivery=Delivery.EMAIL)
        .order_by("pk")
        .values_list("pk", flat=True)
    )
    count = Notification.objects.filter(pk__in=failed).update(
        status=Status.PENDING, attempts=0, claimed_at=None, next_attempt_at=now
    )
    for pk in failed:
        transaction.on_commit(partial(send, pk), robust=True)
    return count


def last_digest_moment(user: User, now: datetime) -> datetime:
    """The latest ``digest_hour`` in the user's zone that is not after ``now``."""
    local = now.astimezone(ZoneInfo(user.time_zone or "UTC"))
    moment = local.replace(hour=user.digest_hour, minute=0, second=0, microsecond=0)
    if moment > local:
        moment -= timedelta(days=1)
    return moment


def digests_send(*, now: datetime) -> int:
    """Send each digest recipient the rows owed before their latest digest hour."""
    recipients = (
        Notification.objects.filter(status=Status.PENDING, delivery=Delivery.DIGEST)
        .values_list("recipient_id", flat=True)
        .distinct()
    )
    count = 0
    for user in User.objects.filter(pk__in=list(recipients)):
        moment = last_digest_moment(user, now)
        candidates = Notification.objects.filter(
            recipient=user,
            status=Status.PENDING,
            delivery=Delivery.DIGEST,
            created_at__lte=moment,
        ).values_list("pk", flat=True)
        claimed = [
            pk
            for pk in candidates
            if Notification.objects.filter(pk=pk, status=Status.PENDING).update(
                status=Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
            )
        ]
        if not claimed:
            continue
        rows = list(
            Notification.objects.filter(pk__in=claimed)
            .select_related("game", "match", "challenge")
            .order_by("created_at")
        )
        if user.notify == User.Notify.NONE or not user.email:
            Notification.objects.filter(pk__in=claimed, status=Status.SENDING).update(
                status=Status.SKIPPED
            )
            continue
        try:
            render_digest(user, rows).send()
        except Exception as exc:
            for row in rows:
                _failed(row, now, exc)
            continue
        Notification.objects.filter(pk__in=claimed, status=Status.SENDING).update(
            status=Status.SENT, sent_at=now, last_error=""
        )
        count += 1
    return count
