"""The outbox: a notification is a row written with the change that owes it.

:func:`notify` and :func:`notify_many` write rows inside the caller's transaction.
After the commit each e-mail row due now gets one delivery task: the rows are announced
with the :data:`~notifications.signals.notifications_written` signal, which
``notifications.tasks`` receives (so this module never imports a task). Sending
never raises nor blocks: with the broker down the row stays ``pending`` and the
sweeper (:func:`notifications.delivery.notifications_sweep`) sends it later.

A player on the site sees what a game's page shows them. The notices of a game they
play (:data:`HELD_KINDS`) are held while they are there: the row is written ``pending``
with its ``next_attempt_at`` at the moment they will count as away
(:func:`present_until`), and the sweeper hands it to delivery then, which sends it only
if it is still unread, still their turn for a turn notice, and they are still away
(otherwise it is held again, or skipped). A held e-mail is a row like any other: a
broker or a worker down delays it, and loses nothing.

A game that waits for the player is one entry (:data:`TURN_KINDS`): a new turn refreshes
the unread row of the game and kind rather than adding one, and owes another e-mail only
if the player came back since the last one (:func:`notify`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

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


#: Notices about a game the recipient plays, which its page shows them: held while they
#: are on the site, and not e-mailed if they read them meanwhile.
HELD_KINDS = frozenset(
    {
        Kind.YOUR_TURN,
        Kind.DOUBLE_OFFERED,
        Kind.DRAW_OFFERED,
        Kind.GAME_OVER,
        Kind.MATCH_OVER,
        Kind.MESSAGE_RECEIVED,
        Kind.CHALLENGE_ACCEPTED,
    }
)
#: The game waits for the recipient to act: one unread row per game and kind, refreshed
#: by each new turn; e-mailed only while the turn is still theirs.
TURN_KINDS = frozenset({Kind.YOUR_TURN, Kind.DOUBLE_OFFERED})


def present_until(user: User, now: datetime) -> datetime | None:
    """When ``user``, seen on the site lately, will count as away if they make no other
    request (``User.seen_at`` and settings.NOTIFY_AWAY_AFTER_SECONDS); None when they
    already are."""
    seen = user.seen_at
    if seen is None:
        return None
    until = seen + timedelta(seconds=settings.NOTIFY_AWAY_AFTER_SECONDS)
    return until if until > now else None


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
    """Write one notification row in the current transaction; deliver it after commit.

    A turn notice (:data:`TURN_KINDS`) for a game whose notice of that kind is still
    unread refreshes that row instead (its text and time; one entry per game and kind).
    The refreshed row owes a new e-mail unless one is on its way or was sent while the
    player has stayed away since (at most one e-mail per game while away)."""
    row = _notification(
        recipient=recipient,
        kind=kind,
        now=now,
        game=game,
        match=match,
        challenge=challenge,
        payload=payload,
    )
    if game is not None and kind in TURN_KINDS:
        return _refresh(row, now)
    row.save(force_insert=True)
    _announce([row], now)
    return row


def notify_many(items: Iterable[dict[str, Any]], *, now: datetime) -> list[Notification]:
    """:func:`notify` for several rows at once (each item its keyword arguments but ``now``):
    written in one ``bulk_create``. No turn notices: they are refreshed one by one."""
    rows = [_notification(now=now, **item) for item in items]
    assert not any(row.game_id is not None and row.kind in TURN_KINDS for row in rows)
    Notification.objects.bulk_create(rows)
    _announce(rows, now)
    return rows


def _refresh(fresh: Notification, now: datetime) -> Notification:
    # The row is locked (the delivery's claim waits) in the caller's transaction: the
    # game's lock already orders the turns of one game, so no savepoint is needed.
    with transaction.atomic(savepoint=False):
        row = (
            Notification.objects.select_for_update()
            .filter(recipient=fresh.recipient, game=fresh.game, kind=fresh.kind, read_at=None)
            .order_by("-created_at", "-pk")
            .first()
        )
        if row is None:
            fresh.save(force_insert=True)
            _announce([fresh], now)
            return fresh
        row.payload, row.created_at = fresh.payload, fresh.created_at
        fields = ["payload", "created_at"]
        if _owes_another(row, fresh):
            row.delivery, row.status = fresh.delivery, fresh.status
            row.next_attempt_at, row.attempts = fresh.next_attempt_at, 0
            row.claimed_at, row.last_error = None, ""
            fields += ["delivery", "status", "next_attempt_at", "attempts", "claimed_at"]
            fields += ["last_error"]
        row.save(update_fields=fields)
    if "status" in fields:
        _announce([row], now)
    return row


def _owes_another(row: Notification, fresh: Notification) -> bool:
    """Whether the unread ``row``, refreshed by a new turn like ``fresh``, owes an e-mail
    again: not while one is being sent, nor when one was sent and its recipient has not
    been back on the site since."""
    if row.status == Status.SENDING:
        return False
    if row.status == Status.SENT and row.delivery == fresh.delivery == Delivery.EMAIL:
        seen = fresh.recipient.seen_at
        return seen is not None and row.sent_at is not None and seen > row.sent_at
    return True


def _announce(rows: list[Notification], now: datetime) -> None:
    """Hand the rows due now to delivery after the commit; held rows wait for the sweeper."""
    due = [
        row
        for row in rows
        if row.status == Status.PENDING and row.next_attempt_at <= now + SWEEP_GRACE
    ]
    if due:
        notifications_written.send(sender=Notification, rows=due)


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
    held = None
    if delivery == Delivery.EMAIL and kind in HELD_KINDS:
        held = present_until(recipient, now)
    return Notification(
        recipient=recipient,
        kind=kind,
        game=game,
        match=match if match is not None else (game.match if game is not None else None),
        challenge=challenge,
        payload=payload or {},
        delivery=delivery,
        status=Status.SKIPPED if delivery == Delivery.NONE else Status.PENDING,
        next_attempt_at=now + SWEEP_GRACE if held is None else held,
        created_at=now,
    )
