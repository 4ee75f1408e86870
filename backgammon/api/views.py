"""The base of the API's views."""

from __future__ import annotations

from django.utils import translation
from rest_framework import views
from rest_framework.request import Request


class UserLanguageMixin:
    """Errors in the user's language also for token-authenticated requests.

    The preferences middleware only sees session users; DRF authenticates a token later,
    so the language is switched here once the user is known.
    """

    def perform_authentication(self, request: Request) -> None:
        super().perform_authentication(request)  # type: ignore[misc]
        language = getattr(request.user, "language", None)
        if language and translation.check_for_language(language):
            translation.activate(language)
            request._request.LANGUAGE_CODE = translation.get_language()


class APIView(UserLanguageMixin, views.APIView):
    """Every API view's base; the parser and the error handler come from the settings."""
