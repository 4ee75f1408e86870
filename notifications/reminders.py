"""Time-out warnings: a player on turn is told, at the hours they chose, that their
time is running out. Each warning is claimed by inserting a unique
:class:`~notifications.models.TimeoutWarning` row, so two concurrent runs warn once."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import IntegrityError, transaction

from accounts.validators import MAX_WARNING_HOURS
from matches.models import Game, Match

from .models import Notification, TimeoutWarning
from .outbox import notify


def players_remind(*, now: datetime) -> int:
    """Warn players on turn at their chosen hours before the deadline, once per turn."""
    horizon = now + timedelta(hours=MAX_WARNING_HOURS)
    games = (
        Game.objects.exclude(state=Game.State.FINISHED)
        .filter(deadline_at__gt=now, deadline_at__lte=horizon, match__status=Match.Status.PLAYING)
        .select_related("match", "match__white", "match__black")
    )
    sent = 0
    for game in games:
        color = game.turn_color
        player = game.match.player(color)
        deadline = game.deadline_at
        assert deadline is not None  # deadline_at__gt above
        left = deadline - now
        due = [h for h in player.warning_hours_list if left <= timedelta(hours=h)]
        if not due:
            continue
        claimed = [h for h in due if _claim_warning(game, deadline, h, now)]
        if not claimed:
            continue
        # Several hours may come due at once (a short turn): warn for the nearest only.
        with transaction.atomic():
            notify(
                recipient=player,
                kind=Notification.Kind.TIMEOUT_WARNING,
                now=now,
                game=game,
                payload={
                    "opponent": game.match.player(color.other).public_name,
                    "hours": min(claimed),
                    "deadline": deadline.isoformat(),
                },
            )
        sent += 1
    return sent


def _claim_warning(game: Game, deadline: datetime, hours: int, now: datetime) -> bool:
    """Claim the warning ``hours`` before ``deadline`` (the game's): False when another
    run has already claimed it."""
    try:
        with transaction.atomic():
            TimeoutWarning.objects.create(
                game=game, deadline_at=deadline, hours=hours, ply=game.ply, created_at=now
            )
    except IntegrityError:
        return False
    return True
