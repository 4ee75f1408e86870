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
the unread row of the game and kind rather than adding one (their turn over, the row is
read: :func:`notifications.inbox.notifications_turn_over`), and owes another e-mail only
if the player came back since the last one (:func:`notify`).
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Q

from accounts.models import User
from challenges.models import Challenge
from matches.models import Game, Match

from . import inbox
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
#: are on the site, and not e-mailed if they read them meanwhile. A chouette's vote and
#: answer are its members' turns (its board's panel asks them), and its game settled
#: is its game over.
HELD_KINDS = frozenset(
    {
        Kind.YOUR_TURN,
        Kind.DOUBLE_OFFERED,
        Kind.DRAW_OFFERED,
        Kind.GAME_OVER,
        Kind.MATCH_OVER,
        Kind.MESSAGE_RECEIVED,
        Kind.CHALLENGE_ACCEPTED,
        Kind.CHOUETTE_VOTE,
        Kind.CHOUETTE_ANSWER,
        Kind.CHOUETTE_SETTLED,
    }
)
#: The game waits for the recipient to act: one unread row per game and kind, refreshed
#: by each new turn; e-mailed only while the turn is still theirs.
TURN_KINDS = frozenset(inbox.TURN_KINDS)


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

    A turn notice (:data:`TURN_KINDS`) for a game whose last turn notice is still unread
    and of that kind refreshes that row instead (its text and time; one entry per game
    and kind). Either owes a new e-mail unless the last was e-mailed and the player has
    not been on the site since (at most one e-mail per game while away)."""
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
    written in one ``bulk_create``. A turn notice only for a game started now (its first
    turn: nothing to refresh yet); the others are refreshed one by one (:func:`notify`)."""
    rows = [_notification(now=now, **item) for item in items]
    assert not any(
        row.game is not None and row.kind in TURN_KINDS and row.game.started_at != now
        for row in rows
    ), "a turn notice of a game in play is refreshed by notify(), not added"
    Notification.objects.bulk_create(rows)
    _announce(rows, now)
    return rows


def _refresh(fresh: Notification, now: datetime) -> Notification:
    """Write the turn notice ``fresh``, or refresh the unread one of its game and kind.

    The rows read are the recipient's turn notices of the game still unread, and those
    e-mailed (or being sent) since the recipient was last on the site: if there is one,
    this turn owes no e-mail, however many turns pass while they are away (a roll with
    no legal play passes by itself, and the opponent plays on). They are locked (a
    delivery's claim waits) in the caller's transaction; the game's lock already orders
    the turns of one game, so no savepoint is needed.
    """
    seen = fresh.recipient.seen_at
    emailed = Q(status=Status.SENDING) | Q(status=Status.SENT)
    if seen is not None:
        emailed = Q(status=Status.SENDING) | Q(status=Status.SENT, sent_at__gte=seen)
    emailed &= Q(delivery=Delivery.EMAIL)
    with transaction.atomic(savepoint=False):
        rows = list(
            Notification.objects.select_for_update()
            .filter(recipient=fresh.recipient, game=fresh.game, kind__in=TURN_KINDS)
            .filter(Q(read_at=None) | emailed)
            .order_by("-created_at", "-pk")
        )
        told = any(_emailed_since(r, seen) for r in rows)
        row = next((r for r in rows if r.read_at is None and r.kind == fresh.kind), None)
        if row is None:
            if told and fresh.delivery == Delivery.EMAIL:
                fresh.status = Status.SKIPPED
            fresh.save(force_insert=True)
            _announce([fresh], now)
            return fresh
        row.payload, row.created_at = fresh.payload, fresh.created_at
        fields = ["payload", "created_at"]
        if not told:
            row.delivery, row.status = fresh.delivery, fresh.status
            row.next_attempt_at, row.attempts = fresh.next_attempt_at, 0
            row.claimed_at, row.last_error = None, ""
            fields += ["delivery", "status", "next_attempt_at", "attempts", "claimed_at"]
            fields += ["last_error"]
        row.save(update_fields=fields)
    if not told:
        _announce([row], now)
    return row


def _emailed_since(row: Notification, seen: datetime | None) -> bool:
    """The ``emailed`` condition of :func:`_refresh`, for a row it read."""
    if row.delivery != Delivery.EMAIL:
        return False
    if row.status == Status.SENDING:
        return True
    if row.status != Status.SENT or row.sent_at is None:
        return False
    return seen is None or row.sent_at >= seen


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
