"""The admin of analyses: read only (the services write them; a superuser may delete one,
and a player's request then queues it again)."""

from __future__ import annotations

from django.contrib import admin

from backgammon.admin_base import RecordAdmin

from .models import MatchAnalysis


@admin.register(MatchAnalysis)
class MatchAnalysisAdmin(RecordAdmin):
    list_display = ["match", "status", "plies", "games_done", "games_total", "requested_at"]
    list_filter = ["status", "plies"]
    list_select_related = ["match"]
    exclude = ["requested_by"]
