"""The moderators' actions on a player: a warning, a suspension, its lifting."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Conflict, InvalidAction

from .audit import audit, check_target, local_time, require_reason, tell
from .models import Suspension, Warning
from .selectors import suspensions_in_force


@transaction.atomic
def user_warn(*, moderator: User, user: User, reason: str, now: datetime) -> Warning:
    """Warn ``user``; they are sent the warning with its reason."""
    reason = require_reason(reason)
    check_target(moderator, user)
    warning = Warning.objects.create(user=user, reason=reason, created_by=moderator, created_at=now)
    audit(
        actor=moderator,
        action="moderation.user.warned",
        reason=reason,
        now=now,
        target_user=user,
        target=warning,
    )
    tell(
        user,
        lambda: _("The moderators have sent you a warning: %(reason)s") % {"reason": reason},
        now=now,
    )
    return warning


@transaction.atomic
def user_suspend(
    *,
    moderator: User,
    user: User,
    reason: str,
    now: datetime,
    duration: timedelta | None = None,
) -> Suspension:
    """Suspend ``user`` for ``duration`` from ``now``, or permanently (``None``).

    While suspended they cannot log in, and a session or API token they hold is
    refused with the reason and the end (``moderation.middleware``,
    ``moderation.authentication``, ``moderation.adapters``). Their games go on: their
    clocks run, as for a player who stays away.
    """
    reason = require_reason(reason)
    check_target(moderator, user)
    if duration is not None and duration <= timedelta(0):
        raise InvalidAction(gettext_lazy("A suspension must last some time."), code="duration")
    User.objects.select_for_update().filter(pk=user.pk).first()  # one suspension at a time
    if suspensions_in_force(now).filter(user=user).exists():
        raise Conflict(
            gettext_lazy("This player is already suspended: lift that suspension first."),
            code="already_suspended",
        )
    ends_at = None if duration is None else now + duration
    suspension = Suspension.objects.create(
        user=user, reason=reason, starts_at=now, ends_at=ends_at, created_by=moderator
    )
    audit(
        actor=moderator,
        action="moderation.user.suspended",
        reason=reason,
        now=now,
        target_user=user,
        target=suspension,
        data={"ends_at": ends_at.isoformat() if ends_at else None},
    )
    if ends_at is None:
        tell(
            user,
            lambda: (
                _("Your account has been suspended permanently. Reason: %(reason)s")
                % {"reason": reason}
            ),
            now=now,
        )
    else:
        tell(
            user,
            lambda: (
                _("Your account is suspended until %(until)s. Reason: %(reason)s")
                % {"until": local_time(ends_at, user), "reason": reason}
            ),
            now=now,
        )
    return suspension


@transaction.atomic
def user_lift_suspension(
    *, moderator: User, user: User, reason: str, now: datetime
) -> list[Suspension]:
    """End every suspension of ``user`` in force now; they may log in again."""
    reason = require_reason(reason)
    check_target(moderator, user)
    rows = list(suspensions_in_force(now).select_for_update().filter(user=user))
    if not rows:
        raise Conflict(gettext_lazy("This player is not suspended."), code="not_suspended")
    for row in rows:
        row.lifted_at = now
        row.lifted_by = moderator
        row.save(update_fields=["lifted_at", "lifted_by"])
        audit(
            actor=moderator,
            action="moderation.user.suspension_lifted",
            reason=reason,
            now=now,
            target_user=user,
            target=row,
        )
    tell(
        user,
        lambda: (
            _("Your suspension has been lifted: you may play again. Reason: %(reason)s")
            % {"reason": reason}
        ),
        now=now,
    )
    return rows
