"""The admin of the outbox and the time-out warnings: read-only for everyone, except
that a superuser may send failed e-mails again
(:func:`notifications.delivery.notifications_resend`)."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from backgammon.admin_base import ReadOnlyAdmin, is_superuser, short
from backgammon.paginators import EstimatedCountPaginator

from . import delivery
from .models import Notification, TimeoutWarning
from .tasks import enqueue


@admin.register(TimeoutWarning)
class TimeoutWarningAdmin(ReadOnlyAdmin):
    """The claims that each time-out warning goes out once: read-only for everyone."""

    list_display = ["game", "hours", "deadline_at", "ply", "created_at"]
    list_select_related = ["game"]
    list_filter = ["hours"]
    search_fields = ["=game__match__white__username", "=game__match__black__username"]
    raw_id_fields = ["game"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """The outbox: nobody adds or edits rows; a superuser may send failed e-mails again."""

    list_display = [
        "id",
        "created_at",
        "recipient",
        "kind",
        "delivery",
        "status",
        "attempts",
        "next_attempt_at",
        "sent_at",
        "read_at",
        "short_error",
    ]
    list_select_related = ["recipient"]
    list_filter = ["status", "delivery", "kind"]
    search_fields = ["=recipient__username", "=recipient__email"]
    raw_id_fields = ["recipient", "game", "match", "challenge"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    actions = ["resend_failed"]

    def has_resend_permission(self, request: HttpRequest) -> bool:
        return is_superuser(request)

    @admin.action(description=_("Send the failed e-mails again"), permissions=["resend"])
    def resend_failed(self, request: HttpRequest, queryset: QuerySet[Notification]) -> None:
        """The service resets the selected failed e-mails; each is queued after the commit
        by the delivery task (an admin may import a task; the service may not)."""
        count = delivery.notifications_resend(
            notification_ids=list(queryset.values_list("pk", flat=True)),
            now=timezone.now(),
            send=enqueue,
        )
        self.message_user(
            request,
            _("%(count)d failed e-mail(s) queued again.") % {"count": count},
            messages.SUCCESS,
        )

    @admin.display(description=_("last error"))
    def short_error(self, obj: Notification) -> str:
        return short(obj.last_error, 40)
