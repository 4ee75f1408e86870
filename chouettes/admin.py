"""The chouettes in the admin: read-only for everyone (only the services change them).

A chouette's page shows its seats and games; the messages have their own list. The
moderators' actions on them (remove a player, hide a message) are added by
``moderation.admin``, which replaces these admins with subclasses: no app imports
``moderation``.
"""

from __future__ import annotations

from django.contrib import admin
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from backgammon.admin_base import ReadOnlyInline, RecordAdmin, admin_link, short

from .models import Chouette, ChouetteGame, Message, Seat


class SeatInline(ReadOnlyInline):
    model = Seat
    readonly_fields = ["player", "status", "leaving", "points", "games", "joined_at", "left_at"]
    fields = ["player", "status", "leaving", "points", "games", "joined_at", "left_at"]


class GameInline(ReadOnlyInline):
    model = ChouetteGame
    readonly_fields = ["number", "board", "places", "settled_at"]
    fields = ["number", "board", "places", "settled_at"]

    @admin.display(description=_("board"))
    def board(self, obj: ChouetteGame) -> SafeString | str:
        return admin_link(obj.match)


@admin.register(Chouette)
class ChouetteAdmin(RecordAdmin):
    list_display = ["__str__", "creator", "status", "created_at", "started_at", "finished_at"]
    list_select_related = ["creator"]
    list_filter = ["status", "created_at"]
    search_fields = ["=creator__username", "=seats__player__username"]
    show_full_result_count = False
    inlines = [SeatInline, GameInline]
    readonly_fields = [
        "creator",
        "status",
        "open_to_all",
        "max_players",
        "variant",
        "days_per_move",
        "time_bank_days",
        "cube_limit",
        "jacoby",
        "automatic_doubles",
        "places_from_dice",
        "places",
        "created_at",
        "started_at",
        "finished_at",
    ]
    exclude = ["opening_rounds"]


@admin.register(Message)
class ChouetteMessageAdmin(RecordAdmin):
    list_display = ["created_at", "author", "chouette", "team", "short_text", "hidden"]
    list_select_related = ["author", "chouette"]
    list_filter = ["hidden", "team", "created_at"]
    search_fields = ["=author__username", "text"]
    raw_id_fields = ["chouette", "game", "author", "hidden_by"]
    show_full_result_count = False

    @admin.display(description=_("message"))
    def short_text(self, obj: Message) -> str:
        return short(obj.text)
