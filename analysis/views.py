"""The match page's analysis: the request button's POST, and the progress it polls."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import signed_in_user
from backgammon.errors import ServiceError
from matches.models import Match

from . import selectors, services
from .templatetags.analysis_tags import progress_text


@require_POST
@login_required
def analysis_request(request: HttpRequest, match_id: int) -> HttpResponse:
    """Ask for the match's analysis, then back to the match page; a refusal is a page
    with the reason and the error's status, nothing queued."""
    try:
        services.analysis_request(
            match_id=match_id, user=signed_in_user(request), now=timezone.now()
        )
    except ServiceError as error:
        return render(
            request,
            "analysis/refused.html",
            {"message": str(error), "match_id": match_id},
            status=error.status,
        )
    messages.success(request, _("The match is queued for analysis."))
    return redirect("match_detail", match_id)


@require_GET
def analysis_progress(request: HttpRequest, match_id: int) -> JsonResponse:
    """The analysis's state as JSON for the page's poll; 409 while the match is in play."""
    match = get_object_or_404(Match, pk=match_id)
    if not services.is_analysable(match):
        return JsonResponse(
            {"code": "match_not_finished", "detail": _("No analysis while the match is played.")},
            status=409,
        )
    state = selectors.progress(selectors.match_analysis(match))
    return JsonResponse({**state, "text": progress_text(state)})
