"""Tournaments in the admin: schedules are edited here by those allowed to run
tournaments; a tournament itself is read-only (only the services change it). The
moderators' actions on one (cancel it, replace a player) are added by
``moderation.admin``, which replaces :class:`TournamentAdmin` with a subclass."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.http import HttpRequest
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from backgammon.admin_base import ReadOnlyInline, RecordAdmin, admin_link
from backgammon.errors import ServiceError

from . import creation
from .models import Entry, Pairing, Schedule, Tournament


class EntryInline(ReadOnlyInline):
    model = Entry
    readonly_fields = ["player", "status", "seed", "rating", "group", "rank"]
    fields = ["player", "status", "seed", "rating", "group", "rank"]


class PairingInline(ReadOnlyInline):
    model = Pairing
    readonly_fields = ["stage", "round", "index", "white", "black", "winner", "game"]
    fields = ["stage", "round", "index", "white", "black", "winner", "game"]

    @admin.display(description=_("match"))
    def game(self, obj: Pairing) -> SafeString | str:
        return admin_link(obj.match) if obj.match else "—"


@admin.register(Tournament)
class TournamentAdmin(RecordAdmin):
    list_display = ["name", "format", "length", "status", "starts_at", "finished_at"]
    list_filter = ["status", "format", "length"]
    search_fields = ["name", "=entries__player__username"]
    inlines = [EntryInline, PairingInline]
    show_full_result_count = False


class ScheduleForm(forms.ModelForm):
    """A schedule's options are checked as a new repeating tournament's are, since its
    editions are made from them: what :func:`~tournaments.creation.check_options` and
    :func:`~tournaments.creation.check_repeat` refuse is refused here, with its message."""

    class Meta:
        model = Schedule
        fields = [
            "name",
            "format",
            *creation.SCHEDULED_OPTIONS,
            "every_days",
            "registration_days",
            "next_start_at",
            "active",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            options: dict[str, Any] = {name: data[name] for name in creation.CHECKED_OPTIONS}
            creation.check_options(**options)
            creation.check_repeat(
                repeat_days=data["every_days"], invitation_only=data["invitation_only"]
            )
        except ServiceError as error:
            raise forms.ValidationError(str(error), code=error.code) from None
        return data


@admin.register(Schedule)
class ScheduleAdmin(admin.ModelAdmin):
    form = ScheduleForm
    list_display = ["name", "format", "length", "every_days", "next_start_at", "active"]
    list_filter = ["active", "format"]
    readonly_fields = ["created_by"]

    def save_model(self, request: HttpRequest, obj: Schedule, form: Any, change: bool) -> None:
        if not change:
            obj.created_by = request.user  # type: ignore[assignment]
        super().save_model(request, obj, form, change)
