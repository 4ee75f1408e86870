"""The game page's live clock: the claim of a fallen clock (issue 28).

The clock itself is shown by the ``live_clock_panel`` tag (``matches.templatetags``),
which counts down in the browser from what the server says; this view claims the win
through :func:`matches.endings.game_claim_time`, which alone decides. A refusal (the
clock has time left, it is your turn, the game moved on) is shown on the game page, in
the player's language, with its status (409).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from accounts.requests import signed_in_user
from backgammon.errors import ServiceError

from . import endings
from .models import Game, Match


def claim_text(game: Game) -> str:
    """What the claimer is told once their claim has ended ``game``."""
    if game.match.status == Match.Status.FINISHED:
        return _("Your opponent ran out of time: you win the match.")
    return ngettext(
        "Your opponent ran out of time: you win the game and %(points)s point.",
        "Your opponent ran out of time: you win the game and %(points)s points.",
        game.points,
    ) % {"points": game.points}


@login_required
@require_POST
def game_claim_time(request: HttpRequest, game_id: int) -> HttpResponse:
    """Claim the win on the opponent's fallen live clock; back to the game page."""
    ply_text = request.POST.get("ply", "")
    ok = ply_text.isascii() and ply_text.isdigit() and len(ply_text) < 10
    expected_ply = int(ply_text) if ok else None
    try:
        game = endings.game_claim_time(
            game_id=game_id,
            player=signed_in_user(request),
            expected_ply=expected_ply,
            now=timezone.now(),
        )
    except ServiceError as error:
        return render(
            request,
            "matches/claim_refused.html",
            {"error": str(error), "game_id": game_id},
            status=error.status,
        )
    messages.success(request, claim_text(game))
    return redirect("game_detail", game.pk)
