"""The notification outbox: written with the change, delivered after the commit.

- :func:`notify` writes one :class:`~matches.models.Notification` row inside the
  caller's transaction and, after the commit, sends one ``matches.tasks.email_deliver``
  task for it (:func:`enqueue`; without Redis the task runs in-process). This never
  raises nor blocks: with the broker down the row stays ``pending`` for the sweeper.
- :func:`notification_deliver` claims the row (``pending -> sending``, a conditional
  update), sends, then marks it ``sent``. No lock is held across the SMTP exchange.
  A failed send goes back to ``pending`` with an exponential back-off; after
  :data:`MAX_ATTEMPTS` the row is ``failed`` and keeps the last error.
- :func:`notifications_sweep` (every minute) re-enqueues rows still ``pending`` after
  their ``next_attempt_at`` and rows left in ``sending`` longer than
  :data:`SENDING_TIMEOUT` (a worker killed between claim and mark). The one case
  that can send twice is a worker that dies after the SMTP server accepted the mail
  and before the single UPDATE that marks the row sent: that window is one local
  database round trip, and it is accepted.
- :func:`digests_send` sends each ``digest`` recipient one e-mail a day, at their
  ``digest_hour`` in their time zone, with every row owed since.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from datetime import datetime, timedelta
from email.mime.image import MIMEImage
from functools import partial
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import NoReverseMatch, reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from accounts.models import User

from .models import Challenge, Game, Match, Notification

log = logging.getLogger(__name__)

MAX_ATTEMPTS = 6
RETRY_BASE = timedelta(seconds=30)
#: A pending row the on-commit enqueue did not deliver is re-sent after this.
SWEEP_GRACE = timedelta(minutes=2)
#: A row claimed longer ago than this was dropped by a dead worker (hard limit 120 s).
SENDING_TIMEOUT = timedelta(minutes=5)
UNSUBSCRIBE_SALT = "matches.notifications.unsubscribe"
UNSUBSCRIBE_MAX_AGE = timedelta(days=365)

Kind = Notification.Kind
Status = Notification.Status
Delivery = Notification.Delivery


# --------------------------------------------------------------------------- writing


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
    _enqueue_on_commit([row])
    return row


def notify_many(items: Iterable[dict[str, Any]], *, now: datetime) -> list[Notification]:
    """:func:`notify` for several rows at once (each item its keyword arguments but ``now``):
    written in one ``bulk_create``."""
    rows = [_notification(now=now, **item) for item in items]
    Notification.objects.bulk_create(rows)
    _enqueue_on_commit(rows)
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
    delivery = {
        User.Notify.EVERY: Delivery.EMAIL,
        User.Notify.DIGEST: Delivery.DIGEST,
    }.get(recipient.notify, Delivery.NONE)
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


def _enqueue_on_commit(rows: Iterable[Notification]) -> None:
    """After the commit, each e-mail row gets its own delivery task (:func:`enqueue`,
    which never raises: a broker that is down leaves the row to the sweeper)."""
    for row in rows:
        if row.delivery == Delivery.EMAIL:
            transaction.on_commit(partial(enqueue, row.pk), robust=True)


def enqueue(notification_id: int, countdown: float | None = None) -> bool:
    """Send the delivery task to the broker. Never raises and never waits long: one
    attempt (``retry=False``), bounded by the broker's connect and socket timeouts
    (``CELERY_BROKER_TRANSPORT_OPTIONS``); a failure is logged and the row stays
    ``pending`` for the sweeper."""
    from .tasks import email_deliver

    try:
        email_deliver.apply_async((notification_id,), countdown=countdown, retry=False)
    except Exception:  # the broker is down or unreachable: the row stays pending
        log.warning("could not enqueue notification %s; the sweeper will", notification_id)
        return False
    return True


# --------------------------------------------------------------------------- delivery


def notification_deliver(
    *, notification_id: int, now: datetime, before_send: Callable[[], None] | None = None
) -> str:
    """Claim, send and mark one e-mail row. Returns what happened, for logs and tests."""
    claimed = Notification.objects.filter(pk=notification_id, status=Status.PENDING).update(
        status=Status.SENDING, claimed_at=now, attempts=F("attempts") + 1
    )
    if claimed != 1:
        return "not-pending"
    row = Notification.objects.select_related("recipient", "game", "match", "challenge").get(
        pk=notification_id
    )
    recipient = row.recipient
    if row.delivery == Delivery.EMAIL and recipient.notify == User.Notify.DIGEST:
        _release(row, now, delivery=Delivery.DIGEST, attempts=row.attempts - 1)
        return "to-digest"
    if row.delivery != Delivery.EMAIL or recipient.notify != User.Notify.EVERY:
        _mark(row, Status.SKIPPED, now)
        return "skipped"
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


def _release(row: Notification, now: datetime, **fields: Any) -> None:
    Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
        status=Status.PENDING, claimed_at=None, next_attempt_at=now, **fields
    )


def _failed(row: Notification, now: datetime, exc: Exception) -> str:
    error = f"{type(exc).__name__}: {exc}"[:2000]
    if row.attempts >= MAX_ATTEMPTS:
        Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
            status=Status.FAILED, last_error=error
        )
        log.error("notification %s failed for good: %s", row.pk, error)
        return "failed"
    delay = RETRY_BASE * 2 ** (row.attempts - 1)
    Notification.objects.filter(pk=row.pk, status=Status.SENDING).update(
        status=Status.PENDING, claimed_at=None, next_attempt_at=now + delay, last_error=error
    )
    log.warning("notification %s: attempt %s failed (%s)", row.pk, row.attempts, error)
    return "retry"


def retry_delay(attempts: int) -> timedelta:
    """The countdown of a refused e-mail's next task: settings.NOTIFICATION_RETRY_BASE_SECONDS
    (30 s by default, an env value so the worker tests can shorten it), doubled per attempt."""
    return timedelta(seconds=settings.NOTIFICATION_RETRY_BASE_SECONDS) * 2 ** (attempts - 1)


def notifications_sweep(*, now: datetime, batch: int = 500) -> int:
    """Re-enqueue e-mail rows still owed; free rows a dead worker left in ``sending``."""
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
        if moved and enqueue(pk):
            sent += 1
    return sent


# --------------------------------------------------------------------------- digest


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


# --------------------------------------------------------------------------- unsubscribe


def unsubscribe_token(user: User) -> str:
    """A signed token that turns e-mails off; it dies when the preference changes."""
    return signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).sign_object(
        {"u": user.pk, "n": user.notify}
    )


def unsubscribe_user(token: str) -> User | None:
    """The user the token names, if it is valid and their preference is unchanged."""
    try:
        data = signing.TimestampSigner(salt=UNSUBSCRIBE_SALT).unsign_object(
            token, max_age=UNSUBSCRIBE_MAX_AGE
        )
    except (signing.BadSignature, TypeError, ValueError):
        return None
    user = User.objects.filter(pk=data.get("u")).first()
    if user is None or user.notify != data.get("n") or user.notify == User.Notify.NONE:
        return None
    return user


def unsubscribe_url(user: User) -> str:
    path = reverse("notifications_unsubscribe", args=[unsubscribe_token(user)])
    return settings.SITE_URL.rstrip("/") + path


# --------------------------------------------------------------------------- rendering


def notification_url(row: Notification) -> str:
    """The page a notification points to (a path)."""
    try:
        if row.game_id is not None and row.kind == Kind.MESSAGE_RECEIVED:
            return reverse("game_detail", args=[row.game_id]) + "#messages"
        if row.game_id is not None:
            return reverse("game_detail", args=[row.game_id])
        if row.match_id is not None:
            return reverse("match_detail", args=[row.match_id])
        return reverse("challenge_list")
    except NoReverseMatch:
        return "/notifications/"


def notification_text(row: Notification) -> str:
    """One sentence saying what happened, in the active language."""
    p = row.payload or {}
    opponent = p.get("opponent", "?")
    kind = row.kind
    if kind == Kind.YOUR_TURN:
        return _("It is your turn in your game against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.CHALLENGE_RECEIVED:
        return _("%(opponent)s has challenged you to a match.") % {"opponent": opponent}
    if kind == Kind.CHALLENGE_ACCEPTED:
        return _("%(opponent)s accepted your challenge: the match has started.") % {
            "opponent": opponent
        }
    if kind == Kind.CHALLENGE_DECLINED:
        return _("%(opponent)s declined your challenge.") % {"opponent": opponent}
    if kind == Kind.DOUBLE_OFFERED:
        return _("%(opponent)s doubles to %(cube)s: take or drop.") % {
            "opponent": opponent,
            "cube": p.get("cube", 2),
        }
    if kind == Kind.DRAW_OFFERED:
        return _("%(opponent)s offers to end the match as a draw.") % {"opponent": opponent}
    if kind == Kind.TIMEOUT_WARNING:
        hours = int(p.get("hours", 0))
        return ngettext(
            "Less than %(hours)s hour left to play against %(opponent)s.",
            "Less than %(hours)s hours left to play against %(opponent)s.",
            hours,
        ) % {"hours": hours, "opponent": opponent}
    if kind == Kind.TIME_OUT:
        if p.get("won"):
            return _("%(opponent)s ran out of time: you win.") % {"opponent": opponent}
        return _("You ran out of time in your game against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.GAME_OVER:
        values = {"opponent": opponent, "points": p.get("points", 0)}
        if p.get("won"):
            return _("You won the game against %(opponent)s (%(points)s points).") % values
        return _("You lost the game against %(opponent)s (%(points)s points).") % values
    if kind == Kind.MATCH_OVER:
        if p.get("won") is None:
            return _("Your match against %(opponent)s ended in a draw.") % {"opponent": opponent}
        if p.get("won"):
            return _("You won the match against %(opponent)s.") % {"opponent": opponent}
        return _("You lost the match against %(opponent)s.") % {"opponent": opponent}
    if kind == Kind.MESSAGE_RECEIVED:
        return _("%(opponent)s sent you a message in your game.") % {"opponent": opponent}
    if kind == Kind.MODERATION:
        # Written in the recipient's language by moderation.services when it was sent.
        return str(p.get("text") or row.get_kind_display())
    return str(row.get_kind_display())


def notification_subject(row: Notification) -> str:
    return _("Backgammon: %(what)s") % {"what": row.get_kind_display()}


def _board_svg(row: Notification) -> str | None:
    """The position as SVG, from the recipient's side, when the board renderer exists."""
    game = row.game
    if game is None:
        return None
    try:
        from .board_svg import board_svg

        color = game.match.color_of(row.recipient)
        kwargs: dict[str, Any] = {"home_side": getattr(row.recipient, "board_side", "right")}
        if color is not None:
            kwargs["viewer_color"] = color
        return board_svg(game, **kwargs)
    except Exception:  # a picture is a nicety: never let it stop the e-mail
        log.exception("no board picture for notification %s", row.pk)
        return None


def _headers(user: User) -> dict[str, str]:
    return {
        "List-Unsubscribe": f"<{unsubscribe_url(user)}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    }


def render_email(row: Notification) -> EmailMultiAlternatives:
    """The e-mail for one row, in the recipient's language."""
    user = row.recipient
    site = settings.SITE_URL.rstrip("/")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        svg = _board_svg(row)
        context = {
            "user": user,
            "text": notification_text(row),
            "link": site + notification_url(row),
            "unsubscribe": unsubscribe_url(user),
            "notifications": site + reverse("notifications"),
            "board": svg is not None,
        }
        subject = notification_subject(row)
        body = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    message = EmailMultiAlternatives(
        subject, body, to=[user.email], headers=_headers(user) | {"X-Notification": str(row.pk)}
    )
    message.attach_alternative(html, "text/html")
    if svg is not None:
        message.mixed_subtype = "related"
        image = MIMEImage(svg.encode(), _subtype="svg+xml")
        image.add_header("Content-ID", "<board>")
        image.add_header("Content-Disposition", "inline", filename="board.svg")
        message.attach(image)
    return message


def render_digest(user: User, rows: Iterable[Notification]) -> EmailMultiAlternatives:
    site = settings.SITE_URL.rstrip("/")
    with translation.override(user.language or settings.LANGUAGE_CODE):
        items = [{"text": notification_text(r), "link": site + notification_url(r)} for r in rows]
        context = {
            "user": user,
            "items": items,
            "unsubscribe": unsubscribe_url(user),
            "notifications": site + reverse("notifications"),
        }
        subject = _("Backgammon: your daily digest")
        body = render_to_string("emails/digest.txt", context)
        html = render_to_string("emails/digest.html", context)
    message = EmailMultiAlternatives(subject, body, to=[user.email], headers=_headers(user))
    message.attach_alternative(html, "text/html")
    return message


# --------------------------------------------------------------------------- in-site list


def notifications_unread_count(user: User) -> int:
    return Notification.objects.filter(recipient=user, read_at=None).count()


def notifications_mark_read(*, user: User, now: datetime, ids: Iterable[int] | None = None) -> int:
    rows = Notification.objects.filter(recipient=user, read_at=None)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=now)


def notifications_mark_messages_read(*, user: User, game: Game, now: datetime) -> int:
    """``user``, one of the two players, has just been shown the messages of ``game``
    (the game page, or ``GET /api/games/<id>/messages``): their unread
    ``message_received`` rows for it are read, so the next message notifies them again
    (see ``services._notify_message``). One conditional UPDATE, on the unread rows of
    one recipient (index ``notification_unread``); the opponent's rows are untouched."""
    return Notification.objects.filter(
        recipient=user, game=game, kind=Kind.MESSAGE_RECEIVED, read_at=None
    ).update(read_at=now)
