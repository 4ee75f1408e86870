"""The one page players see of moderation: reporting a player or one of their messages."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.names import users_named
from accounts.requests import signed_in_user
from backgammon.errors import ServiceError
from backgammon.inputs import positive_int

from . import reports, selectors
from .forms import ReportForm


def _query_id(request: HttpRequest, name: str) -> int | None:
    """The id in ``?name=``; a value that is no id becomes 0, which no row has."""
    raw = request.GET.get(name)
    if raw is None:
        return None
    # Not int(raw) on any ASCII digits: it refuses more than 4,300 of them (a 500).
    return positive_int(raw, below=2**31) or 0


@login_required
def report_new(request: HttpRequest, username: str) -> HttpResponse:
    """Report ``username``; ``?message=<id>`` reports one of their game messages,
    ``?game=<id>`` names the game it is about (a disputed game).

    Who may see a message and report it is the selector's decision
    (:func:`moderation.selectors.report_subject`): a refusal is a page with the reason
    and the error's status, never the message's text.
    """
    reported = get_object_or_404(users_named(username))
    user = signed_in_user(request)
    try:
        subject = selectors.report_subject(
            user, message_id=_query_id(request, "message"), game_id=_query_id(request, "game")
        )
    except ServiceError as error:
        return render(
            request,
            "moderation/report_form.html",
            {"reported": reported, "refused": str(error)},
            status=error.status,
        )
    message, game = subject.message, subject.game
    form = ReportForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                reports.report_create(
                    reporter=user,
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
