"""The base of the API's views."""

from __future__ import annotations

from typing import Any

from django.utils import translation
from django.utils.cache import patch_cache_control
from rest_framework import views
from rest_framework.request import Request
from rest_framework.response import Response


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
    """Every API view's base; the parser and the error handler come from the settings.

    Its answers are the caller's own (a game's chat, a chouette team's chat and
    suggestions): ``Cache-Control: private, no-store`` unless the view says otherwise, so
    that no cache, shared or the client's, keeps them.
    """

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_store=True)
        return response
