"""What every moderator's action shares: a required reason, the audit entry with its
dotted action name, the message to the players concerned (a ``moderation`` notification,
in their language: in-site and, by their preference, e-mail), and the checks on whom an
action may target (not oneself, not staff unless a superuser, not a player one is
playing: :mod:`moderation.stakes`).

The actions themselves are in :mod:`moderation.players` (warn, suspend, lift),
:mod:`moderation.rulings` (matches, games, chouettes, vacations, tournaments) and
:mod:`moderation.reports`. Permissions are the admin's business (the views check them
before calling); the actions trust their caller, like every service, except for one
thing no permission can grant: a moderator who has a stake in the case is refused with a
403 and its reason, before anything changes.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import models
from django.utils import formats, timezone, translation
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Forbidden, InvalidAction
from matches.models import Game, Match
from notifications.models import Notification
from notifications.outbox import notify

from . import stakes
from .models import AuditEntry

MAX_REASON = 2000


def require_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise InvalidAction(gettext_lazy("Give a reason."), code="reason_required")
    if len(reason) > MAX_REASON:
        raise InvalidAction(
            gettext_lazy("The reason is too long (at most %(max)s characters)."),
            code="reason_length",
            max=MAX_REASON,
        )
    return reason


def audit(
    *,
    actor: User,
    action: str,
    reason: str,
    now: datetime,
    target_user: User | None = None,
    target: models.Model | None = None,
    data: dict[str, Any] | None = None,
) -> AuditEntry:
    """Record one moderator's action (``action`` is a dotted name: ``moderation.user.warned``)."""
    return AuditEntry.objects.create(
        actor=actor,
        action=action,
        target_user=target_user,
        target_type=target._meta.label_lower if target is not None else "",
        target_id=target.pk if target is not None else None,
        target_repr=str(target)[:200] if target is not None else "",
        reason=reason,
        data=data or {},
        created_at=now,
    )


def tell(
    user: User,
    text: Callable[[], str],
    *,
    now: datetime,
    game: Game | None = None,
    match: Match | None = None,
) -> Notification:
    """Send ``user`` a moderation message, written in their language."""
    with translation.override(user.language or settings.LANGUAGE_CODE):
        body = str(text())
    return notify(
        recipient=user,
        kind=Notification.Kind.MODERATION,
        now=now,
        game=game,
        match=match,
        payload={"text": body},
    )


def local_time(moment: datetime, user: User) -> str:
    """``moment`` as the user reads it: their time zone, their language's format."""
    from zoneinfo import ZoneInfo

    try:
        zone = ZoneInfo(user.time_zone or "UTC")
    except (ValueError, KeyError):
        zone = ZoneInfo("UTC")
    return formats.date_format(timezone.localtime(moment, zone), "DATETIME_FORMAT") + (
        f" ({zone.key})"
    )


def check_target(moderator: User, user: User) -> None:
    if user.pk == moderator.pk:
        raise Forbidden(gettext_lazy("You cannot take this action against yourself."))
    if (user.is_staff or user.is_superuser) and not moderator.is_superuser:
        raise Forbidden(
            gettext_lazy("Only a superuser can take this action against a staff member.")
        )
    stakes.refuse(stakes.against(moderator, user), stakes.PLAYS_AGAINST)
