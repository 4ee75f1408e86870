from collections.abc import Callable
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import timezone, translation

from accounts.models import User
from accounts.services import user_mark_seen


def activate_user_preferences(request: HttpRequest, user: User) -> None:
    """Use ``user``'s language and time zone for the rest of this request.

    The middleware calls it when a request starts; a request that changes who the user is
    (a log-in) or what they prefer (the profile form) calls it again, so the texts it
    renders afterwards, such as its flash message, are in the language of the page that
    will show them rather than in the one the request arrived with.
    """
    if translation.check_for_language(user.language):
        translation.activate(user.language)
        request.LANGUAGE_CODE = translation.get_language()
    try:
        timezone.activate(ZoneInfo(user.time_zone))
    except (ZoneInfoNotFoundError, ValueError):
        timezone.deactivate()


def activate_on_login(sender: Any, request: HttpRequest | None, user: User, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: the new user's preferences, from the log-in on.

    allauth adds "Successfully signed in as …" after ``login()``; without this it would be
    written in the visitor's (browser's) language, and shown on a page in the player's.
    Only in a request being served (``LocaleMiddleware`` set its ``LANGUAGE_CODE``), not in
    the bare request that the test client's ``force_login`` makes up outside one.
    """
    if request is not None and hasattr(request, "LANGUAGE_CODE"):
        activate_user_preferences(request, user)


class UserPreferencesMiddleware:
    """Use the signed-in user's language and time zone for the request.

    Comes after ``LocaleMiddleware`` (which picked the browser's language, and still
    does for anonymous visitors) and ``AuthenticationMiddleware``.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        player = user if isinstance(user, User) and user.is_authenticated else None
        if player is not None:
            activate_user_preferences(request, player)
        else:
            timezone.deactivate()
        try:
            response = self.get_response(request)
        finally:
            timezone.deactivate()
        after = getattr(request, "user", None)  # a log-in or log-out may have changed it
        if player is not None or (after is not None and after.is_authenticated):
            remember_language(request, response)
        return response


def remember_language(request: HttpRequest, response: HttpResponse) -> None:
    """Keep the player's language in the language cookie, as the footer's switcher does.

    So the pages after a log-out are in the language the player was using, and so is
    the "You have signed out." that allauth adds to them while the player is still in.
    """
    language = getattr(request, "LANGUAGE_CODE", None)
    if not language or request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME) == language:
        return
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        path=settings.LANGUAGE_COOKIE_PATH,
        domain=settings.LANGUAGE_COOKIE_DOMAIN,
        secure=settings.LANGUAGE_COOKIE_SECURE,
        httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
    )


class ActivityMiddleware:
    """Record that the signed-in player is on the site (``User.seen_at``, a write a minute).

    After the view: a token is authenticated by the API's view, not before it, and a
    log-in makes the user known only then. A bot makes no requests of its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if isinstance(user, User) and user.is_authenticated and not user.is_bot:
            user_mark_seen(user=user, now=timezone.now())
        return response
