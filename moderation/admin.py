"""The moderation panel: the Django admin, with moderators' actions as forms on services.

Who may do what is the permission matrix of ``moderation.permissions``: moderators
(``moderators`` group, ``is_staff``) view players, matches, games and their records,
act through the forms here (each checks its own permission and calls a service that
writes the audit entry), and change only reports. The record of play and the audit log
are read-only for everyone; superusers may change the rest.

Each app registers the admin of its own models (``accounts``, ``matches``,
``challenges``, ``notifications``). The moderators' actions write the audit log
(``moderation.players``, ``rulings`` and ``reports``), and the apps below may not import
``moderation``. So this
module takes the User, Match and GameMessage admins they registered and registers a
subclass of each in their place (``admin.site.unregister`` + ``register``), adding the
action forms, the reports and the moderation history. The arrows stay one way:
moderation imports the apps' admins, never the reverse.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import RelatedOnlyFieldListFilter
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Model, QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.admin import UserAdmin
from accounts.models import User
from accounts.names import users_named
from accounts.requests import signed_in_user
from backgammon.admin_base import ReadOnlyAdmin, admin_link, is_superuser, short
from backgammon.errors import ServiceError
from backgammon.paginators import EstimatedCountPaginator
from chouettes.admin import ChouetteAdmin, ChouetteMessageAdmin
from chouettes.models import Chouette, Seat
from chouettes.models import Message as ChouetteMessage
from matches.admin import (
    GameMessageAdmin,
    MatchAdmin,
    VacationAdmin,
    VacationForm,
    message_context_html,
)
from matches.models import GameMessage, Match, Vacation
from tournaments.admin import TournamentAdmin
from tournaments.models import Tournament

from . import audit, players, reports, rulings, selectors
from .forms import (
    AdjudicateForm,
    ExtendDeadlineForm,
    ReasonForm,
    RemovePlayerForm,
    ReplacePlayerForm,
    ReportCloseForm,
    SuspendForm,
)
from .models import AuditEntry, Report, Suspension, Warning


class ActionViewsMixin:
    """Moderators' actions on one object: a form with a required reason, then a service.

    Each action is ``(name, title, permission, form class)``; ``do_action(moderator, name,
    obj, form)`` calls the service and returns the success message. The form page is
    ``<object id>/<name>/`` and the change page links to it.
    """

    object_actions: list[tuple[str, Any, str, type[forms.Form]]] = []

    def get_urls(self) -> list[URLPattern]:
        meta = self.model._meta  # type: ignore[attr-defined]
        own = [
            path(
                f"<path:object_id>/{name}/",
                self.admin_site.admin_view(self._action_view(name)),  # type: ignore[attr-defined]
                name=f"{meta.app_label}_{meta.model_name}_{name}",
            )
            for name, _title, _perm, _form in self.object_actions
        ]
        return own + super().get_urls()  # type: ignore[misc]

    def object_action_links(self, request: HttpRequest, obj: Model) -> list[tuple[str, str]]:
        meta = obj._meta
        return [
            (str(title), reverse(f"admin:{meta.app_label}_{meta.model_name}_{name}", args=[obj.pk]))
            for name, title, perm, _form in self.object_actions
            if request.user.has_perm(perm) and self.action_available(name, obj)
        ]

    def action_available(self, name: str, obj: Model) -> bool:
        return True

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        raise NotImplementedError

    def _action_view(self, name: str) -> Callable[..., HttpResponse]:
        _name, title, perm, form_class = next(a for a in self.object_actions if a[0] == name)

        def view(request: HttpRequest, object_id: str) -> HttpResponse:
            moderator = request.user  # admin_view let only signed-in staff through
            if not isinstance(moderator, User) or not moderator.has_perm(perm):
                raise PermissionDenied
            model = self.model  # type: ignore[attr-defined]
            obj = get_object_or_404(model, pk=object_id)
            form = form_class(request.POST or None)
            status = 200  # a refused form: 400 (RefusedFormStatusMiddleware)
            if request.method == "POST" and form.is_valid():
                try:
                    done = self.do_action(moderator, name, obj, form)
                except ServiceError as error:
                    form.add_error(None, str(error))
                    status = error.status  # a stake's 403, a match already over's 409
                else:
                    self.message_user(request, done, messages.SUCCESS)  # type: ignore[attr-defined]
                    meta = model._meta
                    return HttpResponseRedirect(
                        reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
                    )
            context = {
                **self.admin_site.each_context(request),  # type: ignore[attr-defined]
                "title": title,
                "subtitle": str(obj),
                "opts": model._meta,
                "original": obj,
                "form": form,
                "action_name": name,
            }
            return TemplateResponse(
                request, "admin/moderation/action_form.html", context, status=status
            )

        return view

    def render_change_form(
        self, request: HttpRequest, context: dict[str, Any], *args: Any, **kwargs: Any
    ) -> HttpResponse:
        obj = kwargs.get("obj")
        context["moderation_actions"] = (
            self.object_action_links(request, obj) if obj is not None else []
        )
        return super().render_change_form(request, context, *args, **kwargs)  # type: ignore[misc]


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


# --------------------------------------------------------------------------- matches and messages


class AwaitingAdjudicationFilter(admin.SimpleListFilter):
    title = _("awaiting adjudication")
    parameter_name = "awaiting"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Disputed, in play"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Match]) -> QuerySet[Match]:
        if self.value() == "yes":
            return queryset.filter(pk__in=selectors.matches_awaiting_adjudication().values("pk"))
        return queryset


admin.site.unregister(Match)


@admin.register(Match)
class ModeratedMatchAdmin(ActionViewsMixin, MatchAdmin):
    """``matches``' match admin, plus the adjudication queue, the match's reports and the
    moderators' actions: adjudicate, extend the current game's deadline."""

    change_form_template = "admin/moderation/change_form.html"
    list_filter = [AwaitingAdjudicationFilter, *MatchAdmin.list_filter]
    readonly_fields = [*MatchAdmin.readonly_fields, "reports_list"]
    object_actions = [
        ("adjudicate", _("Adjudicate the match"), "matches.adjudicate_match", AdjudicateForm),
        (
            "extend-deadline",
            _("Extend the deadline of the current game"),
            "matches.extend_deadline",
            ExtendDeadlineForm,
        ),
    ]

    def action_available(self, name: str, obj: Any) -> bool:
        return obj.status == Match.Status.PLAYING

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        now = timezone.now()
        data = form.cleaned_data
        if name == "adjudicate":
            rulings.match_adjudicate(
                moderator=moderator,
                match=obj,
                decision=data["decision"],
                reason=data["reason"],
                now=now,
            )
            return str(_("The match has been adjudicated."))
        game = obj.current_game
        if game is None:
            raise ServiceError(_("This match has no game."))
        rulings.game_extend_deadline(
            moderator=moderator,
            game=game,
            extra=timedelta(hours=data["hours"]),
            reason=data["reason"],
            now=now,
        )
        return str(_("The deadline has been extended."))

    @admin.display(description=_("Reports"))
    def reports_list(self, obj: Match) -> SafeString:
        rows = Report.objects.filter(game__match=obj).order_by("-created_at")[:20]
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} · {} · {}</li>",
                (
                    (admin_link(r, f"#{r.pk}"), r.get_category_display(), r.get_status_display())
                    for r in rows
                ),
            ),
        )


admin.site.unregister(GameMessage)


@admin.register(GameMessage)
class ModeratedGameMessageAdmin(ActionViewsMixin, GameMessageAdmin):
    """``matches``' message admin, plus how often each message was reported, and the
    moderators' action: hide the message."""

    change_form_template = "admin/moderation/change_form.html"
    list_display = [*GameMessageAdmin.list_display, "report_count"]
    object_actions = [("hide", _("Hide the message"), "matches.hide_gamemessage", ReasonForm)]

    def get_queryset(self, request: HttpRequest) -> QuerySet[GameMessage]:
        return super().get_queryset(request).annotate(n_reports=Count("reports"))

    def action_available(self, name: str, obj: Any) -> bool:
        return not obj.hidden

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        rulings.game_message_hide(
            moderator=moderator,
            message=obj,
            reason=form.cleaned_data["reason"],
            now=timezone.now(),
        )
        return str(_("The message has been hidden."))

    @admin.display(description=_("reports"), ordering="n_reports")
    def report_count(self, obj: Any) -> int:
        return int(getattr(obj, "n_reports", 0))


# --------------------------------------------------------------------------- chouettes

admin.site.unregister(Chouette)


@admin.register(Chouette)
class ModeratedChouetteAdmin(ActionViewsMixin, ChouetteAdmin):
    """``chouettes``' admin, plus the moderators' action: remove a player. A chouette
    game's board is adjudicated on its match's page (the board's end settles the game)."""

    change_form_template = "admin/moderation/change_form.html"
    object_actions = [
        ("remove-player", _("Remove a player"), "chouettes.moderate_chouette", RemovePlayerForm)
    ]

    def action_available(self, name: str, obj: Any) -> bool:
        return obj.status in (Chouette.Status.OPEN, Chouette.Status.PLAYING)

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        data = form.cleaned_data
        player = users_named(data["username"]).first()
        if player is None:
            raise ServiceError(_("No player has that username."))
        seat = rulings.chouette_remove_player(
            moderator=moderator,
            chouette=obj,
            player=player,
            reason=data["reason"],
            now=timezone.now(),
        )
        if seat.status == seat.Status.REMOVED:
            return str(_("The player has been removed."))
        return str(_("The player will be removed when the game in play ends."))


admin.site.unregister(ChouetteMessage)


@admin.register(ChouetteMessage)
class ModeratedChouetteMessageAdmin(ActionViewsMixin, ChouetteMessageAdmin):
    """``chouettes``' message admin, plus the moderators' action: hide the message."""

    change_form_template = "admin/moderation/change_form.html"
    object_actions = [("hide", _("Hide the message"), "chouettes.hide_message", ReasonForm)]

    def get_queryset(self, request: HttpRequest) -> QuerySet[ChouetteMessage]:
        """Not the messages of a chouette the moderator sits at: there a box would read the
        team's private discussion of the game they play against it."""
        seated = Seat.objects.filter(player_id=request.user.pk).exclude(status=Seat.Status.INVITED)
        return super().get_queryset(request).exclude(chouette__in=seated.values("chouette"))

    def action_available(self, name: str, obj: Any) -> bool:
        return not obj.hidden

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        rulings.chouette_message_hide(
            moderator=moderator, message=obj, reason=form.cleaned_data["reason"], now=timezone.now()
        )
        return str(_("The message has been hidden."))


# --------------------------------------------------------------------------- vacations

admin.site.unregister(Vacation)


class AuditedVacationForm(VacationForm):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 2}),
        max_length=audit.MAX_REASON,
        help_text=_("Required. Kept in the audit log."),
    )


@admin.register(Vacation)
class AuditedVacationAdmin(VacationAdmin):
    """``matches``' vacation admin, whose changes (with their reason) and removals are
    audited (``moderation.vacation.changed``, ``moderation.vacation.deleted``)."""

    form = AuditedVacationForm
    fields = [*VacationAdmin.fields, "reason"]

    def save_model(self, request: HttpRequest, obj: Vacation, form: Any, change: bool) -> None:
        data = form.cleaned_data
        rulings.vacation_change(
            moderator=signed_in_user(request),
            vacation_id=obj.pk,
            start=data["start"],
            end=data["end"],
            reason=data["reason"],
            now=form.now,
        )

    def delete_model(self, request: HttpRequest, obj: Vacation) -> None:
        rulings.vacation_delete(
            moderator=signed_in_user(request), vacation_id=obj.pk, now=timezone.now()
        )

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Vacation]) -> None:
        now, moderator = timezone.now(), signed_in_user(request)
        for pk in list(queryset.values_list("pk", flat=True)):
            rulings.vacation_delete(moderator=moderator, vacation_id=pk, now=now)


# --------------------------------------------------------------------------- tournaments

admin.site.unregister(Tournament)


def _player(username: str) -> User:
    player = users_named(username).first()
    if player is None:
        raise ServiceError(_("No player has that username."))
    return player


@admin.register(Tournament)
class ModeratedTournamentAdmin(ActionViewsMixin, TournamentAdmin):
    """``tournaments``' admin, plus the moderators' actions: cancel the tournament, and
    replace a player before their first match is under way. A tournament match is
    adjudicated on its match's page (its end advances the tournament)."""

    change_form_template = "admin/moderation/change_form.html"
    object_actions = [
        ("cancel", _("Cancel the tournament"), "tournaments.manage_tournament", ReasonForm),
        (
            "replace-player",
            _("Replace a player"),
            "tournaments.manage_tournament",
            ReplacePlayerForm,
        ),
    ]

    def action_available(self, name: str, obj: Any) -> bool:
        return obj.status in (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)

    def do_action(self, moderator: User, name: str, obj: Any, form: forms.Form) -> str:
        data = form.cleaned_data
        if name == "cancel":
            rulings.tournament_cancel(
                moderator=moderator, tournament=obj, reason=data["reason"], now=timezone.now()
            )
            return str(_("The tournament has been cancelled."))
        rulings.tournament_replace_player(
            moderator=moderator,
            tournament=obj,
            player=_player(data["username"]),
            replacement=_player(data["replacement"]),
            reason=data["reason"],
            now=timezone.now(),
        )
        return str(_("The player has been replaced."))


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
