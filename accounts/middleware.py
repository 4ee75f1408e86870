from collections.abc import Callable
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation


class UserPreferencesMiddleware:
    """Use the signed-in user's language and time zone for the request.

    Comes after ``LocaleMiddleware`` (which picked the browser's language, and still
    does for anonymous visitors) and ``AuthenticationMiddleware``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            if translation.check_for_language(user.language):
                translation.activate(user.language)
                request.LANGUAGE_CODE = translation.get_language()
            try:
                timezone.activate(ZoneInfo(user.time_zone))
            except (ZoneInfoNotFoundError, ValueError):
                timezone.deactivate()
        else:
            timezone.deactivate()
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()
