"""Play in the moderation panel: matches (adjudicate, extend a deadline), game messages
(hide), chouettes (remove a player) and their messages (hide), vacations (a superuser's
correction, audited) and tournaments (cancel, replace a player)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from accounts.names import users_named
from accounts.requests import signed_in_user
from backgammon.admin_base import admin_link
from backgammon.errors import ServiceError
from chouettes.admin import ChouetteAdmin, ChouetteMessageAdmin
from chouettes.models import Chouette, Seat
from chouettes.models import Message as ChouetteMessage
from matches.admin import (
    GameMessageAdmin,
    MatchAdmin,
    VacationAdmin,
    VacationForm,
)
from matches.models import GameMessage, Match, Vacation
from tournaments.admin import TournamentAdmin
from tournaments.models import Tournament

from .. import audit, rulings, selectors
from ..forms import (
    AdjudicateForm,
    ExtendDeadlineForm,
    ReasonForm,
    RemovePlayerForm,
    ReplacePlayerForm,
)
from ..models import Report
from .actions import ActionViewsMixin

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
