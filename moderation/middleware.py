from collections.abc import Callable

from django.contrib.auth import logout
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from .selectors import SuspensionInfo, suspension_of


def suspended_response(request: HttpRequest, suspension: SuspensionInfo) -> HttpResponse:
    """403 naming the reason and the end: JSON under /api/, otherwise a page."""
    if request.path.startswith("/api/"):
        return JsonResponse({"code": "suspended", "detail": suspension.message()}, status=403)
    return render(
        request,
        "moderation/suspended.html",
        {"suspension": suspension, "message": suspension.message()},
        status=403,
    )


class SuspensionMiddleware:
    """A suspended player's session ends at their next request, which gets the reason.

    Comes after ``AuthenticationMiddleware`` and ``UserPreferencesMiddleware`` (so the
    page is in the player's language). One cache read per signed-in request.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            suspension = suspension_of(user)
            if suspension is not None:
                logout(request)
                return suspended_response(request, suspension)
        return self.get_response(request)
