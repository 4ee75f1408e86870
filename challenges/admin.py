"""The admin of challenges: read only (a challenge changes through its services, which
start the match); a superuser may delete one."""

from __future__ import annotations

from django.contrib import admin

from backgammon.admin_base import RecordAdmin

from .models import Challenge


@admin.register(Challenge)
class ChallengeAdmin(RecordAdmin):
    list_display = ["id", "challenger", "opponent", "status", "variant", "length", "created_at"]
    list_select_related = ["challenger", "opponent"]
    list_filter = ["status", "variant", "rated"]
    search_fields = ["=challenger__username", "=opponent__username"]
    raw_id_fields = ["challenger", "opponent", "match"]
    show_full_result_count = False
