"""What allauth's sign-up form adds (``ACCOUNT_SIGNUP_FORM_CLASS``).

A module of its own: allauth imports this class while it defines its forms, so it must
not import allauth's forms (``accounts.forms`` does)."""

from __future__ import annotations

from typing import Any

from django import forms

from accounts.models import User
from accounts.zones import curated_time_zones


class SignupForm(forms.Form):
    """The browser's time zone, sent by static/js/timezone.js in a hidden field, so a new
    player's deadlines and digest hour are in their zone from the first day. Empty or
    unknown: UTC, as before. The language the sign-up page was shown in (the browser's,
    or the one the footer chose) becomes the player's, so that the pages after the
    confirmation, which signs them in, and the e-mails speak it too."""

    time_zone = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)

    def clean_time_zone(self) -> str:
        value: str = self.cleaned_data["time_zone"]
        return value if value in curated_time_zones() else "UTC"

    def signup(self, request: Any, user: User) -> None:
        user.time_zone = self.cleaned_data["time_zone"]
        language = getattr(request, "LANGUAGE_CODE", "")
        if language in User.Language.values:
            user.language = language
        user.save(update_fields=["time_zone", "language"])
