"""Reading challenges: what a player may accept, and what they sent."""

from __future__ import annotations

from django.db.models import Q, QuerySet

from accounts.models import User

from .models import Challenge


def challenges_open_to(user: User) -> QuerySet[Challenge]:
    """Open challenges ``user`` may accept: addressed to them, or to anyone but their own."""
    return (
        Challenge.objects.filter(status=Challenge.Status.OPEN)
        .filter(Q(opponent=user) | Q(opponent__isnull=True))
        .exclude(challenger=user)
        .select_related("challenger", "opponent")
    )


def challenges_sent_by(user: User) -> QuerySet[Challenge]:
    return Challenge.objects.filter(challenger=user).select_related("opponent", "match")
