from django import template

from notifications.inbox import notifications_unread_count

register = template.Library()


@register.simple_tag(takes_context=True)
def unread_notifications(context: template.Context) -> int:
    """How many unread notifications the signed-in user has (0 for visitors)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return 0
    return notifications_unread_count(user)
