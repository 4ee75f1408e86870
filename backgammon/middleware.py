"""Site-wide request hygiene: refuse what no view can take before any view sees it."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def query_has_nul(request: HttpRequest) -> bool:
    """Whether a name or a value of the query string holds a NUL character (``%00``)."""
    return any(
        "\x00" in key or any("\x00" in value for value in values)
        for key, values in request.GET.lists()
    )


class RejectNulMiddleware:
    """A URL with a NUL character in it gets a 4xx, in the user's language.

    No name, id or parameter of this site holds a NUL, and PostgreSQL cannot store or
    compare one in a text column: ``/players/%00/`` reached the lookup and answered 500
    (``DataError``), and so did the admin's search for ``?q=%00``. So it is refused once
    here for every URL rather than in each view: in the path with 404 (there is nothing at
    such an address; under ``/api/`` the API's JSON 404, ``backgammon.api.errors``), in the
    query string of a page with 400. The API's query parameters are left to its
    serializers, which refuse a NUL in the ones an endpoint reads and ignore the others,
    as its schema says. Form and serializer fields refuse a NUL in a body themselves
    (Django's and DRF's ``CharField`` carry ``ProhibitNullCharactersValidator``).

    Comes after ``UserPreferencesMiddleware``, so that the page is in the user's language.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if "\x00" in request.path_info:
            # handler404: the site's page (templates/404.html), or the API's JSON 404.
            raise Http404
        if not request.path_info.startswith("/api/") and query_has_nul(request):
            detail = _("The address holds a character that is not allowed (NUL).")
            return render(request, "400.html", {"detail": detail}, status=400)
        return self.get_response(request)
