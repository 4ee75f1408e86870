"""Site-wide request hygiene: refuse what no view can take before any view sees it."""

from __future__ import annotations

from collections.abc import Callable

from django.forms import BaseForm
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.response import TemplateResponse
from django.utils.translation import gettext as _

from backgammon.errors import refusals_noted


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


class RefusedFormStatusMiddleware:
    """A form sent back with its errors answers 400, whichever view rendered it.

    The site's own views set the status of a refused form themselves. allauth's (log-in,
    sign-up, password, e-mail addresses) and the admin's (log-in, change forms, the
    moderators' action forms) render it as Django's ``FormView`` does, with 200, so a
    client or a bot could not tell a refused form from a page. They answer with a
    ``TemplateResponse``, whose context is still readable here, before it is rendered.
    Only a form already validated is looked at: asking an unvalidated one for its errors
    would validate it again (allauth's log-in form counts a failed attempt as it
    validates).
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_template_response(
        self, request: HttpRequest, response: TemplateResponse
    ) -> TemplateResponse:
        if request.method == "POST" and response.status_code == 200:
            context = response.context_data or {}
            # The admin's change form holds its form in "adminform".
            form = context.get("form") or getattr(context.get("adminform"), "form", None)
            if isinstance(form, BaseForm) and form.is_bound and _validated_with_errors(form):
                response.status_code = 400
        return response


def _validated_with_errors(form: BaseForm) -> bool:
    # ``_errors`` stays None until the form is validated; ``errors`` would validate it.
    errors = getattr(form, "_errors", None)
    return errors is not None and bool(errors)


class RetryAfterMiddleware:
    """A page refused with 429 says when to try again, as the API does (``Retry-After``).

    The views render a refusal themselves (a form with its error, the page with the
    reason on top) with the refusal's status, and keep no reference to the error. So the
    refusals made while a request is served are noted (:func:`refusals_noted`), and a
    429 response takes the wait of the last limit that gave one. A response that sets
    the header itself keeps it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with refusals_noted() as noted:
            response = self.get_response(request)
        if response.status_code == 429 and not response.has_header("Retry-After"):
            waits = [e.retry_after for e in noted if e.status == 429 and e.retry_after]
            if waits:
                response["Retry-After"] = str(waits[-1])
        return response
