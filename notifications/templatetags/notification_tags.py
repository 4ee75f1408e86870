from django import template

from accounts.requests import context_user
from notifications.inbox import unread_count_once

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: template.Context) -> int:
    """How many unread notifications the signed-in user has (0 for visitors), counted
    once a request (the game page may have asked already)."""
    user = context_user(context)
    if user is None:
        return 0
    return unread_count_once(user)
