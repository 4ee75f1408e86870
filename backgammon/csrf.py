"""The page of a form refused for its CSRF token (``settings.CSRF_FAILURE_VIEW``).

It happens to real players: a page left open while they signed in or out in another
tab (the token changed), a form sent again from the browser's history, or a browser
that refuses the site's cookie. Django's own page says so in a developer's words,
without the site around it; this one says what to do, in the player's language, and
(like every refusal) nothing was changed.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import REASON_NO_CSRF_COOKIE
from django.shortcuts import render
from django.utils.translation import gettext as _

from backgammon.api.errors import error_body, is_api


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    if is_api(request):
        detail = _("The request was refused: its CSRF token is missing or out of date.")
        return JsonResponse(error_body("csrf_failed", detail), status=403)
    context = {"no_cookie": reason == REASON_NO_CSRF_COOKIE}
    return render(request, "403_csrf.html", context, status=403)
