"""The moderation app's own rows in the panel: reports (resolve or dismiss), and the
read-only audit log, suspensions and warnings."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.admin import RelatedOnlyFieldListFilter
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.admin_base import ReadOnlyAdmin, admin_link, is_superuser, short
from matches.admin import (
    message_context_html,
)

from .. import reports
from ..forms import (
    ReportCloseForm,
)
from ..models import AuditEntry, Report, Suspension, Warning
from .actions import ActionViewsMixin

# --------------------------------------------------------------------------- moderation rows


class ReportStatusFilter(admin.SimpleListFilter):
    """Open reports by default: the queue."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [*Report.Status.choices, ("all", _("All"))]

    def choices(self, changelist: Any) -> Any:
        value = self.value() or Report.Status.OPEN
        for lookup, title in self.lookup_choices:
            yield {
                "selected": value == lookup,
                "query_string": changelist.get_query_string({self.parameter_name: lookup}),
                "display": title,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Report]) -> QuerySet[Report]:
        value = self.value() or Report.Status.OPEN
        if value == "all":
            return queryset
        return queryset.filter(status=value)


@admin.register(Report)
class ReportAdmin(ActionViewsMixin, admin.ModelAdmin):
    change_form_template = "admin/moderation/change_form.html"
    list_display = [
        "created_at",
        "category",
        "status",
        "reporter",
        "reported",
        "short_text",
        "message_excerpt",
        "handled_by",
    ]
    list_select_related = ["reporter", "reported", "message", "handled_by"]
    list_filter = [ReportStatusFilter, "category"]
    search_fields = ["=reporter__username", "=reported__username", "text"]
    raw_id_fields = ["reporter", "reported", "message", "game", "handled_by"]
    ordering = ["-created_at", "-pk"]
    show_full_result_count = False
    object_actions = [
        ("close", _("Resolve or dismiss"), "moderation.change_report", ReportCloseForm)
    ]
    fields = [
        "created_at",
        "reporter",
        "reported",
        "category",
        "text",
        "game",
        "message",
        "message_in_context",
        "status",
        "resolution_note",
        "handled_by",
        "handled_at",
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        # Status changes only through "Resolve or dismiss", which tells the reporter.
        return self.fields

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # reports come from players

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def action_available(self, name: str, obj: Any) -> bool:
        return obj.status == Report.Status.OPEN

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        dismiss = form.cleaned_data["outcome"] == "dismiss"
        reports.report_close(
            moderator=moderator,
            report=obj,
            note=form.cleaned_data["note"],
            now=timezone.now(),
            dismiss=dismiss,
        )
        return str(_("The report has been dismissed.") if dismiss else _("The report is resolved."))

    @admin.display(description=_("what happened"))
    def short_text(self, obj: Report) -> str:
        return short(obj.text)

    @admin.display(description=_("message"))
    def message_excerpt(self, obj: Report) -> str:
        return short(obj.message.text, 40) if obj.message is not None else "-"

    @admin.display(description=_("The message in context"))
    def message_in_context(self, obj: Report) -> SafeString | str:
        if obj.message is None:
            return "-"
        link = admin_link(obj.message, str(_("Open the message (to hide it)")))
        return format_html("{}{}", message_context_html(obj.message), link)


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["created_at", "actor", "action", "target_user", "target_repr", "short_reason"]
    list_select_related = ["actor", "target_user"]
    list_filter = [
        "action",
        ("actor", RelatedOnlyFieldListFilter),
        ("target_user", RelatedOnlyFieldListFilter),
    ]
    search_fields = ["=actor__username", "=target_user__username", "action", "reason"]
    raw_id_fields = ["actor", "target_user"]
    show_full_result_count = False

    @admin.display(description=_("reason"))
    def short_reason(self, obj: AuditEntry) -> str:
        return short(obj.reason)


@admin.register(Suspension)
class SuspensionAdmin(ReadOnlyAdmin):
    """Created and lifted on the player's page (services); never edited."""

    list_display = [
        "user",
        "starts_at",
        "ends_at",
        "lifted_at",
        "created_by",
        "lifted_by",
        "short_reason",
    ]
    list_select_related = ["user", "created_by", "lifted_by"]
    list_filter = ["starts_at", "ends_at", "lifted_at"]
    search_fields = ["=user__username", "=user__email", "reason"]
    raw_id_fields = ["user", "created_by", "lifted_by"]

    @admin.display(description=_("reason"))
    def short_reason(self, obj: Suspension) -> str:
        return short(obj.reason)


@admin.register(Warning)
class WarningAdmin(ReadOnlyAdmin):
    list_display = ["user", "created_at", "created_by", "short_reason"]
    list_select_related = ["user", "created_by"]
    list_filter = ["created_at"]
    search_fields = ["=user__username", "=user__email", "reason"]
    raw_id_fields = ["user", "created_by"]

    @admin.display(description=_("reason"))
    def short_reason(self, obj: Warning) -> str:
        return short(obj.reason)
