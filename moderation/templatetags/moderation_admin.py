"""The admin index's overview of the work waiting (templates/admin/index.html)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils import timezone

from moderation import selectors

register = template.Library()


@register.simple_tag(takes_context=True)
def moderation_overview(context: dict[str, Any]) -> dict[str, Any] | None:
    """Open reports, matches awaiting adjudication, players with many recent time-outs.

    Only for users who may see reports (moderators and superusers). Three queries.
    """
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not user.has_perm("moderation.view_report"):
        return None
    return {
        "open_reports": selectors.reports_open().count(),
        "awaiting_adjudication": selectors.matches_awaiting_adjudication().count(),
        "timeouts": selectors.players_with_recent_timeouts(timezone.now()),
        "timeout_threshold": selectors.TIMEOUT_THRESHOLD,
        "timeout_days": selectors.TIMEOUT_WINDOW.days,
    }
