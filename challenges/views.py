"""The challenge pages: the list, the form, and accepting, declining or withdrawing.

Views read through :mod:`challenges.selectors` and write through
:mod:`challenges.services`; a :class:`~backgammon.errors.ServiceError` is shown on the
page the player was on, with the HTTP status it carries.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.requests import signed_in_user
from backgammon.errors import ServiceError
from matches import views as match_views

from . import selectors, services
from .forms import ChallengeForm
from .models import Challenge


@login_required
def challenge_list(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    now = timezone.now()
    open_to = [c for c in selectors.challenges_open_to(user) if c.expires_at > now]
    return render(
        request,
        "matches/challenge_list.html",
        {
            "to_me": [c for c in open_to if c.opponent_id == user.pk],
            "open": [c for c in open_to if c.opponent_id is None],
            "sent": list(selectors.challenges_sent_by(user)[:30]),
            "now": now,
        },
    )


@login_required
def challenge_new(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    status = 200
    if request.method == "POST":
        form = ChallengeForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                challenge = services.challenge_create(
                    challenger=user,
                    now=timezone.now(),
                    opponent=data["opponent"],
                    variant=data["variant"],
                    length=data["length"],
                    days_per_move=data["days_per_move"],
                    time_bank_days=data["time_bank_days"],
                    cube_limit=data["cube_limit"],
                    jacoby=data["jacoby"],
                    automatic_doubles=data["automatic_doubles"],
                    rated=data["rated"],
                    resignation=data["resignation"],
                    live_delay=data["live_delay"],
                    live_reserve=data["live_reserve"],
                    timeout_loses_match=data["timeout_loses_match"],
                    message=data["message"],
                )
            except ServiceError as error:
                form.add_error(form.ERROR_FIELDS.get(error.code), str(error))
                status = error.status
            else:
                if challenge.match is not None:  # a computer player accepts at once
                    return _to_the_board(request, challenge)
                if challenge.opponent is None:
                    messages.success(request, _("Your open challenge is posted."))
                else:
                    messages.success(
                        request,
                        _("Your challenge has been sent to %(name)s.")
                        % {"name": challenge.opponent.public_name},
                    )
                return redirect("challenge_list")
        else:
            status = 400
    else:
        form = ChallengeForm(
            initial={
                "opponent": request.GET.get("opponent", ""),
                "computer": request.GET.get("computer", ""),
            }
        )
    return render(request, "matches/challenge_new.html", {"form": form}, status=status)


def _to_the_board(request: HttpRequest, challenge: Challenge) -> HttpResponse:
    """A challenge a computer player accepted at once: straight to the board of the match's
    first game, ready to play (issue 26), as accepting a challenge does."""
    assert challenge.opponent is not None and challenge.match is not None
    messages.success(
        request,
        _("%(name)s accepted: your match has begun.") % {"name": challenge.opponent.public_name},
    )
    game = challenge.match.current_game
    assert game is not None  # a match starts with its first game
    return redirect("game_detail", game_id=game.pk)


def _challenge_action(request: HttpRequest, challenge_id: int, action: str) -> HttpResponse:
    user = signed_in_user(request)
    now = timezone.now()
    try:
        if action == "accept":
            match = services.challenge_accept(challenge_id=challenge_id, user=user, now=now)
            messages.success(request, _("Challenge accepted. Good luck!"))
            game = match.current_game
            assert game is not None
            return redirect("game_detail", game_id=game.pk)
        if action == "decline":
            services.challenge_decline(challenge_id=challenge_id, user=user, now=now)
            messages.success(request, _("Challenge declined."))
        else:
            services.challenge_withdraw(challenge_id=challenge_id, user=user, now=now)
            messages.success(request, _("Challenge withdrawn."))
    except ServiceError as error:
        messages.error(request, str(error))
        response = challenge_list(request)
        response.status_code = error.status
        return response
    return redirect("challenge_list")


@login_required
@require_POST
def challenge_accept(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(request, challenge_id, "accept")


@login_required
@require_POST
def challenge_decline(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(request, challenge_id, "decline")


@login_required
@require_POST
def challenge_withdraw(request: HttpRequest, challenge_id: int) -> HttpResponse:
    return _challenge_action(request, challenge_id, "withdraw")


@login_required
@require_POST
def match_rematch(request: HttpRequest, match_id: int) -> HttpResponse:
    """Offer the opponent of a finished match a new one with the same options. A refusal
    is the match page again with the reason, and the refusal's status."""
    try:
        challenge = services.challenge_rematch(
            match_id=match_id, user=signed_in_user(request), now=timezone.now()
        )
    except ServiceError as error:
        messages.error(request, str(error))
        response = match_views.match_detail(request, match_id)
        response.status_code = error.status
        return response
    assert challenge.opponent is not None
    if challenge.match is not None:  # a computer player's rematch begins at once
        return _to_the_board(request, challenge)
    messages.success(
        request,
        _("Your challenge has been sent to %(name)s.") % {"name": challenge.opponent.public_name},
    )
    return redirect("challenge_list")


@login_required
@require_GET
def challenge_opponents(request: HttpRequest) -> HttpResponse:
    """Usernames for the challenge form's completion: ``?q=al`` gives up to ten active
    players whose username starts with it. The browser may keep an answer a minute, and
    the form's script asks only after a pause in typing, so completion stays light."""
    rows = selectors.opponent_completions(request.GET.get("q", ""), user=signed_in_user(request))
    response = JsonResponse({"players": [{"username": u, "name": n} for u, n in rows]})
    response["Cache-Control"] = "private, max-age=60"
    return response
