"""Site-wide request hygiene: refuse what no view can take before any view sees it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from backgammon.api.errors import error_body, is_api


def has_nul(request: HttpRequest) -> tuple[bool, bool]:
    """Whether the path, and whether the query string, hold a NUL character (``%00``)."""
    in_path = "\x00" in request.path_info
    in_query = any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.GET.lists()
    )
    return in_path, in_query


class RejectNulMiddleware:
    """A URL with a NUL character in it gets a 4xx, in the user's language.

    No name, id or parameter of this site holds a NUL, and PostgreSQL cannot store or
    compare one in a text column: ``/players/%00/`` reached the lookup and answered 500
    (``DataError``). So it is refused once here for every URL rather than in each view:
    in the path with 404 (there is nothing at such an address), in the query string with
    400. Under ``/api/`` the body is the API's JSON ``{"code", "detail"}``
    (``backgammon.api.errors``). Form and
    serializer fields refuse a NUL in a body themselves (Django's and DRF's ``CharField``
    carry ``ProhibitNullCharactersValidator``).

    Comes after ``UserPreferencesMiddleware``, so that the page is in the user's language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        in_path, in_query = has_nul(request)
        if not (in_path or in_query):
            return self.get_response(request)
        if in_path:
            # handler404: the site's page (templates/404.html), or the API's JSON 404.
            raise Http404
        detail = _("The address holds a character that is not allowed (NUL).")
        if is_api(request):
            return JsonResponse(error_body("bad_request", detail), status=400)
        return render(request, "400.html", {"detail": detail}, status=400)
