"""Read-only admin views of the counters and ratings.

Counters are changed by the receivers and repaired by ``recount_stats``; editing one
by hand would only make the recount report it, so the admin shows them read-only.
"""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import Counter, PlayerStats, RatingHistory


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Counter)
class CounterAdmin(ReadOnlyAdmin):
    list_display = ["key", "player", "count"]
    list_filter = [("player", admin.EmptyFieldListFilter)]
    search_fields = ["key", "player__username"]
    list_select_related = ["player"]


@admin.register(PlayerStats)
class PlayerStatsAdmin(ReadOnlyAdmin):
    list_display = ["player", "rating", "best_rating", "experience", "rated_matches"]
    search_fields = ["player__username"]
    ordering = ["-rating"]
    list_select_related = ["player"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(ReadOnlyAdmin):
    list_display = ["player", "match", "rating", "change", "experience", "at"]
    search_fields = ["player__username"]
    list_select_related = ["player"]
