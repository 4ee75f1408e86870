"""Players in the moderation panel: their play, reports and moderation history, and the
actions on them (warn, suspend, lift the suspension)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin
from accounts.models import User
from backgammon.admin_base import admin_link, is_superuser, short
from backgammon.paginators import EstimatedCountPaginator
from matches.models import Match

from .. import players, selectors
from ..forms import (
    ReasonForm,
    SuspendForm,
)
from ..models import AuditEntry, Report
from .actions import ActionViewsMixin

# --------------------------------------------------------------------------- players

admin.site.unregister(User)


@admin.register(User)
class PlayerAdmin(ActionViewsMixin, UserAdmin):
    """Players: search by name or e-mail; their play, reports and moderation history."""

    change_form_template = "admin/moderation/change_form.html"
    search_fields = ["username", "email", "display_name"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    object_actions = [
        ("warn", _("Warn the player"), "moderation.warn_user", ReasonForm),
        ("suspend", _("Suspend the player"), "moderation.suspend_user", SuspendForm),
        ("lift", _("Lift the suspension"), "moderation.suspend_user", ReasonForm),
    ]
    #: Fields that grant rights: only a superuser may change them.
    RIGHTS_FIELDS = ("is_staff", "is_superuser", "groups", "user_permissions")

    def get_fieldsets(self, request: HttpRequest, obj: Any = None) -> Any:
        fieldsets = list(super().get_fieldsets(request, obj))
        if obj is not None:
            fieldsets.insert(
                1,
                (
                    _("Moderation"),
                    {"fields": ["suspension_state", "play_record", "reports", "history"]},
                ),
            )
        return fieldsets

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = [*super().get_readonly_fields(request, obj)]
        if obj is not None:
            fields += ["suspension_state", "play_record", "reports", "history"]
        if not is_superuser(request):
            fields += [f for f in self.RIGHTS_FIELDS if f not in fields]
        return fields

    def action_available(self, name: str, obj: Any) -> bool:
        suspended = selectors.suspension_of(obj) is not None
        return {"suspend": not suspended, "lift": suspended}.get(name, True)

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        now = timezone.now()
        reason = form.cleaned_data["reason"]
        if name == "warn":
            players.user_warn(moderator=moderator, user=obj, reason=reason, now=now)
            return str(_("The player has been warned."))
        if name == "suspend":
            assert isinstance(form, SuspendForm)
            players.user_suspend(
                moderator=moderator, user=obj, reason=reason, now=now, duration=form.duration()
            )
            return str(_("The player has been suspended."))
        players.user_lift_suspension(moderator=moderator, user=obj, reason=reason, now=now)
        return str(_("The suspension has been lifted."))

    @admin.display(description=_("Suspension"))
    def suspension_state(self, obj: User) -> str:
        suspension = selectors.suspension_of(obj)
        if suspension is None:
            return str(_("Not suspended"))
        return suspension.message()

    @admin.display(description=_("Play"))
    def play_record(self, obj: User) -> SafeString:
        record = selectors.player_record(obj)
        rate = record.timeout_rate
        rate_text = "-" if rate is None else f"{rate:.1%}"

        def rows(matches: list[Match]) -> SafeString:
            if not matches:
                return format_html("<li>{}</li>", _("none"))
            return format_html_join(
                "",
                "<li>{} ({} {}–{}, {})</li>",
                (
                    (
                        admin_link(m),
                        m.get_status_display(),
                        m.score_white,
                        m.score_black,
                        m.get_result_display() or m.variant,
                    )
                    for m in matches
                ),
            )

        return format_html(
            "<p>{}: {} / {} ({})</p><p>{}</p><ul>{}</ul><p>{}</p><ul>{}</ul>",
            _("Time-outs / finished games"),
            record.timeouts,
            record.finished_games,
            rate_text,
            _("Open matches"),
            rows(record.open_matches),
            _("Finished matches (latest)"),
            rows(record.finished_matches),
        )

    @admin.display(description=_("Reports about this player"))
    def reports(self, obj: User) -> SafeString:
        rows = list(
            Report.objects.filter(reported=obj)
            .select_related("reporter")
            .order_by("-created_at")[:20]
        )
        if not rows:
            return format_html("{}", _("none"))
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} {} · {} · {}: {}</li>",
                (
                    (
                        admin_link(r, f"#{r.pk}"),
                        r.created_at.date(),
                        r.get_category_display(),
                        r.get_status_display(),
                        short(r.text),
                    )
                    for r in rows
                ),
            ),
        )

    @admin.display(description=_("Moderation history"))
    def history(self, obj: User) -> SafeString:
        rows = list(
            AuditEntry.objects.filter(target_user=obj)
            .select_related("actor")
            .order_by("-created_at", "-pk")[:30]
        )
        url = (
            reverse("admin:moderation_auditentry_changelist") + f"?target_user__id__exact={obj.pk}"
        )
        items = format_html_join(
            "",
            "<li>{} · {} · {} · {}</li>",
            ((e.created_at.date(), e.action, e.actor, short(e.reason)) for e in rows),
        )
        return format_html('<ul>{}</ul><a href="{}">{}</a>', items, url, _("Whole audit log"))
