"""The admin of matches, games, their record, chat messages and vacations.

What moderators may see and do is the permission matrix of ``moderation.permissions``.
Play state changes only through the services: nobody edits a game or a match here,
and a superuser's change of a vacation goes through :func:`matches.clock.vacation_change`
(deadlines move with it). The moderators' own actions (adjudicate, extend a deadline,
hide a message) write the audit log, so ``moderation.admin`` adds them to the match
and message admins below, by registering subclasses of them: ``matches`` never imports
``moderation``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from backgammon.admin_base import (
    ReadOnlyAdmin,
    RecordAdmin,
    admin_link,
    is_superuser,
    short,
)
from backgammon.errors import ServiceError
from backgammon.paginators import EstimatedCountPaginator

from . import clock
from .models import Game, GameEvent, GameMessage, Match, Vacation


class PlayStateAdmin(admin.ModelAdmin):
    """A game's or a match's state is what its record replays to (``matches/replay.py``),
    and only the services change it (a moderator adjudicates or extends a deadline from
    the match page): nobody adds or edits one here, superusers included. A board saved by
    hand (``{"points": [1]}``, twenty checkers a side) made the game page answer 500.
    Superusers may still delete (deleting a match takes its games with it)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)


@admin.register(Match)
class MatchAdmin(PlayStateAdmin):
    list_display = [
        "id",
        "white",
        "black",
        "variant",
        "length",
        "status",
        "result",
        "score_white",
        "score_black",
        "created_at",
        "finished_at",
    ]
    list_select_related = ["white", "black"]
    list_filter = ["status", "result", "variant", "rated"]
    search_fields = ["=white__username", "=black__username", "=white__email", "=black__email"]
    raw_id_fields = ["white", "black"]
    date_hierarchy = None
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    readonly_fields = ["games_list"]

    @admin.display(description=_("Games"))
    def games_list(self, obj: Match) -> SafeString:
        games = obj.games.order_by("number")
        return format_html(
            "<ul>{}</ul>",
            format_html_join(
                "",
                "<li>{} · {} · {} · {}</li>",
                (
                    (
                        admin_link(g),
                        g.get_state_display(),
                        g.get_termination_display() or "",
                        g.deadline_at or "",
                    )
                    for g in games
                ),
            ),
        )


@admin.register(Game)
class GameAdmin(PlayStateAdmin):
    list_display = [
        "id",
        "match",
        "number",
        "state",
        "turn",
        "ply",
        "cube_value",
        "deadline_at",
        "termination",
        "finished_at",
    ]
    list_select_related = ["match__white", "match__black"]  # the match's name has both
    list_filter = ["state", "termination"]
    search_fields = ["=match__white__username", "=match__black__username"]
    raw_id_fields = ["match"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator
    readonly_fields = ["messages_list"]

    @admin.display(description=_("Messages"))
    def messages_list(self, obj: Game) -> SafeString:
        return messages_html(obj.messages.select_related("author").order_by("created_at", "pk"))


@admin.register(GameEvent)
class GameEventAdmin(ReadOnlyAdmin):
    """The record of play is append-only: read-only for everyone."""

    list_display = ["game", "ply", "kind", "color", "die1", "die2", "notation", "created_at"]
    list_select_related = ["game"]
    list_filter = ["kind"]
    search_fields = ["=game__match__white__username", "=game__match__black__username"]
    raw_id_fields = ["game"]
    show_full_result_count = False
    paginator = EstimatedCountPaginator


def messages_html(rows: Any, highlight: int | None = None) -> SafeString:
    """A list of chat messages (``highlight`` in bold; hidden ones marked)."""

    def line(m: GameMessage) -> tuple[Any, ...]:
        style = "font-weight:bold" if m.pk == highlight else ""
        hidden = f" [{_('hidden')}]" if m.hidden else ""
        return (style, m.created_at.strftime("%Y-%m-%d %H:%M"), m.author, m.text, hidden)

    items = format_html_join("", '<li style="{}">{} · {}: {}{}</li>', (line(m) for m in rows))
    return format_html("<ul>{}</ul>", items) if items else format_html("{}", _("none"))


def message_context_html(message: GameMessage, around: int = 10) -> SafeString:
    """The messages of the game around ``message`` (it in bold)."""
    rows = GameMessage.objects.filter(game_id=message.game_id).select_related("author")
    before = list(
        rows.filter(
            Q(created_at__lt=message.created_at)
            | Q(created_at=message.created_at, pk__lt=message.pk)
        ).order_by("-created_at", "-pk")[:around]
    )
    after = list(
        rows.filter(
            Q(created_at__gt=message.created_at)
            | Q(created_at=message.created_at, pk__gt=message.pk)
        ).order_by("created_at", "pk")[:around]
    )
    return messages_html([*reversed(before), message, *after], highlight=message.pk)


@admin.register(GameMessage)
class GameMessageAdmin(RecordAdmin):
    list_display = ["created_at", "author", "game", "short_text", "hidden"]
    list_select_related = ["author", "game"]
    list_filter = ["hidden", "created_at"]
    search_fields = ["=author__username", "text"]
    raw_id_fields = ["game", "author", "hidden_by"]
    show_full_result_count = False
    readonly_fields = ["in_context"]

    @admin.display(description=_("message"))
    def short_text(self, obj: GameMessage) -> str:
        return short(obj.text)

    @admin.display(description=_("In context"))
    def in_context(self, obj: GameMessage) -> SafeString:
        return message_context_html(obj)


# --------------------------------------------------------------------------- vacations


class VacationForm(forms.ModelForm):
    """A vacation's first and last days; :func:`matches.clock.vacation_change_check`
    decides, and its refusal is the form's error."""

    class Meta:
        model = Vacation
        fields = ["start", "end"]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        #: The one moment of this request: the check and the save use the same "today".
        self.now: datetime = timezone.now()
        start, end = data.get("start"), data.get("end")
        if self.instance.pk is not None and start is not None and end is not None:
            try:
                clock.vacation_change_check(
                    vacation_id=self.instance.pk, start=start, end=end, now=self.now
                )
            except ServiceError as error:
                raise forms.ValidationError(str(error), code=error.code) from error
        return data


@admin.register(Vacation)
class VacationAdmin(admin.ModelAdmin):
    """Taken and cancelled by players (``matches.clock``); moderators look, superusers fix.

    A superuser's change or removal goes through :func:`matches.clock.vacation_change` and
    :func:`matches.clock.vacation_delete`, which move the deadlines of the games where
    the player is on turn. Nobody adds one here: players take them, within their allowance.
    """

    form = VacationForm
    list_display = ["user", "start", "end", "days", "starts_at", "ends_at", "created_at"]
    list_select_related = ["user"]
    list_filter = ["start", "end"]
    search_fields = ["=user__username", "=user__email"]
    fields = ["user", "start", "end", "starts_at", "ends_at", "created_at"]
    readonly_fields = ["user", "starts_at", "ends_at", "created_at"]
    show_full_result_count = False

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # players take vacations; the allowance is checked there

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def save_model(self, request: HttpRequest, obj: Vacation, form: Any, change: bool) -> None:
        data = form.cleaned_data
        clock.vacation_change(
            vacation_id=obj.pk, start=data["start"], end=data["end"], now=form.now
        )

    def delete_model(self, request: HttpRequest, obj: Vacation) -> None:
        clock.vacation_delete(vacation_id=obj.pk, now=timezone.now())

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Vacation]) -> None:
        """The changelist's "delete selected": each one through the service too."""
        now = timezone.now()
        for pk in list(queryset.values_list("pk", flat=True)):
            clock.vacation_delete(vacation_id=pk, now=now)

    @admin.display(description=_("days"))
    def days(self, obj: Vacation) -> int:
        return obj.days
