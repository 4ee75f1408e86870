"""The in-site list of notifications: what is unread, and marking it read."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime

from django.db.models import Exists, OuterRef, Q, QuerySet

from accounts.models import User
from challenges.models import Challenge
from matches.models import Game

from .models import Notification

#: The notices that the game waits for their recipient: news only while it does.
TURN_KINDS = (Notification.Kind.YOUR_TURN, Notification.Kind.DOUBLE_OFFERED)


def latest(rows: QuerySet[Notification]) -> QuerySet[Notification]:
    """Only the newest row of each game and kind: a game that owed its player ten
    ``your_turn`` notices over a week is one entry, the latest (of rows written at the
    same instant, the last). Rows without a game (challenges, moderation) each stand
    alone. A turn notice is refreshed rather than repeated while unread
    (``notifications.outbox.notify``); the other kinds may repeat, and are one entry here."""
    newer = Notification.objects.filter(
        Q(created_at__gt=OuterRef("created_at"))
        | Q(created_at=OuterRef("created_at"), pk__gt=OuterRef("pk")),
        recipient=OuterRef("recipient"),
        game=OuterRef("game"),
        kind=OuterRef("kind"),
    )
    return rows.exclude(Exists(newer))


def notifications_unread_count(user: User) -> int:
    """Unread entries, one per game and kind (:func:`latest`)."""
    return latest(Notification.objects.filter(recipient=user, read_at=None)).count()


#: Where :func:`unread_count_once` keeps its count, on the request's user object.
_UNREAD_MEMO = "_unread_notifications_count"


def unread_count_once(user: User) -> int:
    """:func:`notifications_unread_count` once a request: the header's badge, and the game
    page that asks first whether anything is unread at all before marking its notices
    read. Kept on ``user``, the request's own object (the authentication middleware loads
    a new one for each request); marking rows read through :func:`mark_game_read_once`
    forgets it."""
    counted = getattr(user, _UNREAD_MEMO, None)
    if counted is None:
        counted = notifications_unread_count(user)
        setattr(user, _UNREAD_MEMO, counted)
    return int(counted)


def mark_game_read_once(*, user: User, game: Game, now: datetime) -> int:
    """:func:`notifications_mark_game_read` for a page shown to ``user``, skipped (no
    UPDATE) when nothing of theirs is unread, which the header's badge counts anyway."""
    if not unread_count_once(user):
        return 0
    marked = notifications_mark_game_read(user=user, game=game, now=now)
    if marked:
        delattr(user, _UNREAD_MEMO)  # the badge counts again
    return marked


def notifications_mark_read(*, user: User, now: datetime, ids: Iterable[int] | None = None) -> int:
    rows = Notification.objects.filter(recipient=user, read_at=None)
    if ids is not None:
        rows = rows.filter(pk__in=list(ids))
    return rows.update(read_at=now)


def notifications_mark_game_read(*, user: User, game: Game, now: datetime) -> int:
    """``user``, one of the two players, has just been shown the page of ``game``: every
    unread notice of theirs about it is read (its turn, its double, its messages). One
    conditional UPDATE on the unread rows of one recipient (index ``notification_unread``)."""
    return Notification.objects.filter(recipient=user, game=game, read_at=None).update(read_at=now)


def notifications_mark_messages_read(*, user: User, game: Game, now: datetime) -> int:
    """``user``, one of the two players, has just been shown the messages of ``game``
    (``GET /api/games/<id>/messages``): their unread
    ``message_received`` rows for it are read, so the next message notifies them again
    (see :func:`notifications.notices.notice_message`). One conditional UPDATE, on the
    unread rows of one recipient (index ``notification_unread``); the opponent's rows
    are untouched."""
    return Notification.objects.filter(
        recipient=user, game=game, kind=Notification.Kind.MESSAGE_RECEIVED, read_at=None
    ).update(read_at=now)


def notifications_turn_over(
    *, games: Iterable[Game], now: datetime, user: User | None = None
) -> int:
    """The turns of ``games`` that ``user`` was told of are over (they acted, or the game
    ended; every player's when ``user`` is None): their unread turn notices are read.
    "It is your turn" stays on the list, and out of the badge. One conditional UPDATE."""
    rows = Notification.objects.filter(game__in=list(games), kind__in=TURN_KINDS, read_at=None)
    if user is not None:
        rows = rows.filter(recipient=user)
    return rows.update(read_at=now)


def notifications_challenge_answered(*, challenge: Challenge, now: datetime) -> int:
    """The challenged player answered ``challenge``: its notice to them is read."""
    return Notification.objects.filter(
        challenge=challenge, kind=Notification.Kind.CHALLENGE_RECEIVED, read_at=None
    ).update(read_at=now)
