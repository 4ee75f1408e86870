from __future__ import annotations

from django import template
from django.utils import timezone

from challenges.models import Challenge
from challenges.selectors import challenges_open_to
from matches.models import Match

register = template.Library()


@register.simple_tag(takes_context=True)
def challenges_to_me(context: template.Context) -> list[Challenge]:
    """The open challenges addressed to the signed-in player, for the dashboard (a tag,
    so the matches' dashboard view needs nothing of the challenges app)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return []
    now = timezone.now()
    return [c for c in challenges_open_to(user).filter(opponent=user) if c.expires_at > now]


@register.inclusion_tag("matches/_rematch.html", takes_context=True)
def rematch_button(context: template.Context, match: Match) -> dict[str, object]:
    """The "Rematch" button of a finished match's page, for its two players only (a tag,
    so the matches' match page needs nothing of the challenges app, which owns the view)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    show = (
        user is not None
        and user.is_authenticated
        and match.status == Match.Status.FINISHED
        and user.pk in (match.white_id, match.black_id)
    )
    return {"show": show, "match": match, "csrf_token": context.get("csrf_token")}
