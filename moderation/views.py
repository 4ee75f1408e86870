"""The one page players see of moderation: reporting a player or one of their messages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from matches.errors import ServiceError
from matches.models import Game, GameMessage

from . import services
from .forms import ReportForm


@login_required
def report_new(request: HttpRequest, username: str) -> HttpResponse:
    """Report ``username``; ``?message=<id>`` reports one of their game messages,
    ``?game=<id>`` names the game it is about (a disputed game)."""
    reported = get_object_or_404(User, username=username)
    message = None
    game = None
    if request.GET.get("message", "").isdigit():
        message = get_object_or_404(
            GameMessage.objects.select_related("game__match"), pk=int(request.GET["message"])
        )
        game = message.game
    elif request.GET.get("game", "").isdigit():
        game = get_object_or_404(Game.objects.select_related("match"), pk=int(request.GET["game"]))
    form = ReportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.report_create(
                    reporter=request.user,  # type: ignore[arg-type]
                    reported=reported,
                    category=form.cleaned_data["category"],
                    text=form.cleaned_data["text"],
                    message=message,
                    game=game,
                    now=timezone.now(),
                )
            except ServiceError as error:
                form.add_error(None, str(error))
                status = error.status
            else:
                messages.success(request, _("Thank you: the moderators will look at your report."))
                if game is not None:
                    return redirect("game_detail", game_id=game.pk)
                return redirect("player_detail", username=reported.username)
        else:
            status = 400
    return render(
        request,
        "moderation/report_form.html",
        {
            "form": form,
            "reported": reported,
            "message": message if message is not None and not message.hidden else None,
            "game": game,
        },
        status=status,
    )
