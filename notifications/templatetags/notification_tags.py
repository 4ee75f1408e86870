from django import template

from accounts.requests import context_user
from notifications.inbox import notifications_unread_count

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: template.Context) -> int:
    """How many unread notifications the signed-in user has (0 for visitors)."""
    user = context_user(context)
    if user is None:
        return 0
    return notifications_unread_count(user)
