from __future__ import annotations

from django import template

from accounts.requests import context_user
from matches.selectors import games_awaiting_count

register = template.Library()


@register.simple_tag(takes_context=True)
def games_waiting(context: template.Context) -> int:
    """How many games wait for the signed-in player to act (0 for visitors): the nav's
    badge, which counts games to play rather than events that happened.

    A page that counted them already (the dashboard lists them, the game page counts
    them for its "next game" link) passes ``games_waiting_count``: counted once a request.
    """
    user = context_user(context)
    if user is None:
        return 0
    counted = context.get("games_waiting_count")
    if counted is not None:
        return int(counted)
    return games_awaiting_count(user)
