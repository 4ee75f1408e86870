from __future__ import annotations

from django import template

from matches.selectors import games_awaiting

register = template.Library()


@register.simple_tag(takes_context=True)
def games_waiting(context: template.Context) -> int:
    """How many games wait for the signed-in player to act (0 for visitors): the nav's
    badge, which counts games to play rather than events that happened."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return games_awaiting(user).count()
