"""The admin of bots: read only (``create_bots`` makes them)."""

from __future__ import annotations

from django.contrib import admin

from backgammon.admin_base import RecordAdmin

from .models import Bot


@admin.register(Bot)
class BotAdmin(RecordAdmin):
    list_display = ["user", "level"]
    list_select_related = ["user"]
