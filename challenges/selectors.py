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


#: How many names the challenge form's completion offers at most.
OPPONENT_COMPLETIONS = 10


def opponent_completions(text: str, *, user: User) -> list[tuple[str, str]]:
    """(username, public name) of the active players whose username starts with ``text``
    (any case), for the challenge form's completion: ``user`` is left out, since nobody
    may challenge themselves. One small query, at most :data:`OPPONENT_COMPLETIONS` rows."""
    text = text.replace("\x00", "").strip()[:150]
    if not text:
        return []
    rows = (
        User.objects.filter(is_active=True, username__istartswith=text)
        .exclude(pk=user.pk)
        .order_by("username")
        .values_list("username", "display_name")[:OPPONENT_COMPLETIONS]
    )
    return [(username, display_name or username) for username, display_name in rows]
