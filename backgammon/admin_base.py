"""Building blocks that every app's ``admin.py`` shares.

They sit in the project package, below all the apps (as ``backgammon.api`` does for
the APIs), so that ``matches``, ``challenges`` and ``notifications`` can each register
their own admin without importing ``moderation``, which is above them.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.text import Truncator


def is_superuser(request: HttpRequest) -> bool:
    return bool(getattr(request.user, "is_superuser", False))


def admin_link(obj: Model | None, text: str | None = None) -> SafeString | str:
    """A link to ``obj``'s admin change page (``-`` for none)."""
    if obj is None:
        return "-"
    meta = obj._meta
    url = reverse(f"admin:{meta.app_label}_{meta.model_name}_change", args=[obj.pk])
    return format_html('<a href="{}">{}</a>', url, text or str(obj))


def short(text: str, length: int = 60) -> str:
    return Truncator(text).chars(length)


class ReadOnlyAdmin(admin.ModelAdmin):
    """Nobody adds, changes or deletes these rows here, superusers included."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class SuperuserEditsAdmin(admin.ModelAdmin):
    """Moderators only look (they have no change permission either); superusers fix."""

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)


class RecordAdmin(admin.ModelAdmin):
    """Rows that only a service may change (a challenge's answer starts a match, a hidden
    message writes the audit log): everyone reads, nobody adds or edits; a superuser may
    delete (spam, a test row)."""

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return is_superuser(request)


class ReadOnlyInline(admin.TabularInline):
    """The rows of a record shown on its parent's page, which nobody edits there."""

    extra = 0
    can_delete = False
    show_change_link = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
