"""The one page of the live app: the header's badges alone, for a page to swap in.

When a game becomes a player's or a notification comes, their socket hears only that
(``{"kind": "turn"}``, ``{"kind": "notification"}``); every open page of theirs then asks
here for the two counts, drawn by the same templates as the header itself.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
@login_required
def badges(request: HttpRequest) -> HttpResponse:
    response = render(request, "live/badges.html")
    response["Cache-Control"] = "no-store"
    return response
