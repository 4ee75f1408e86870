from __future__ import annotations

from django import template
from django.utils import timezone

from accounts.requests import context_user
from challenges.models import Challenge
from challenges.selectors import challenges_open_to
from matches.models import Match

register = template.Library()


@register.simple_tag(takes_context=True)
def challenges_to_me(context: template.Context) -> list[Challenge]:
    """The open challenges addressed to the signed-in player, for the dashboard (a tag,
    so the matches' dashboard view needs nothing of the challenges app)."""
    user = context_user(context)
    if user is None:
        return []
    now = timezone.now()
    return [c for c in challenges_open_to(user).filter(opponent=user) if c.expires_at > now]


#: The dashboard lists this many open challenges, the newest first (the challenges page
#: has them all).
DASHBOARD_OPEN_CHALLENGES = 5


@register.simple_tag(takes_context=True)
def open_challenges(context: template.Context) -> list[Challenge]:
    """The open challenges to anyone that the signed-in player may accept (not their own,
    not lapsed), newest first, for the dashboard: a new player's first games."""
    user = context_user(context)
    if user is None:
        return []
    challenges = challenges_open_to(user).filter(
        opponent__isnull=True, expires_at__gt=timezone.now()
    )
    return list(challenges.order_by("-created_at")[:DASHBOARD_OPEN_CHALLENGES])


@register.inclusion_tag("matches/_rematch.html", takes_context=True)
def rematch_button(context: template.Context, match: Match) -> dict[str, object]:
    """The "Rematch" button of a finished match's page, for its two players only (a tag,
    so the matches' match page needs nothing of the challenges app, which owns the view)."""
    user = context_user(context)
    show = (
        user is not None
        and match.status == Match.Status.FINISHED
        and user.pk in (match.white_id, match.black_id)
    )
    return {"show": show, "match": match, "csrf_token": context.get("csrf_token")}
