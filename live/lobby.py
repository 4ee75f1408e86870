"""The lobby of live play (issue 28): the open seeks, a new seek, and the news that a
seek was accepted.

A seek is an open challenge on a live clock (``challenges``: created, accepted and
withdrawn by its services). The page lists each with its length, clock, variant, the
seeker's rating and the rating range they asked for; accepting one (the challenge's
own accept button) starts the match and takes the acceptor to the board, while the
seeker's page hears it at once through ``user.N`` (``live.receivers``) or, with no
socket, from :func:`lobby_state` a few seconds later. "Play the computer now" is a seek
to a bot, which accepts at once and plays at once; a seek no person takes within
``BOT_SEEK_WAIT`` seconds is taken by a bot unless its seeker unticked "the computer may"
(``bots.services.bot_take_seek``).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext_lazy
from django.views.decorators.http import require_GET

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.errors import ServiceError
from bots.services import bots_available
from challenges import services as challenge_services
from challenges.forms import length_choices, live_clock_choices, parse_clock
from challenges.models import Challenge
from matches.models import VariantChoice
from stats.selectors import ratings_of

#: The most seeks the lobby lists (the newest first).
LOBBY_SIZE = 100


class SeekForm(forms.Form):
    """A seek: what a player wants to play now, on which live clock."""

    length = forms.TypedChoiceField(
        label=gettext_lazy("Match length"), choices=length_choices, coerce=int, initial=1
    )
    clock = forms.ChoiceField(label=gettext_lazy("Clock"), choices=live_clock_choices)
    variant = forms.ChoiceField(
        label=gettext_lazy("Variant"),
        choices=VariantChoice.choices,
        initial=VariantChoice.STANDARD,
    )
    timeout_loses_match = forms.BooleanField(
        label=gettext_lazy("A time-out claimed loses the match (not the game)"), required=False
    )
    rated = forms.BooleanField(label=gettext_lazy("Rated"), required=False, initial=True)
    rating_min = forms.IntegerField(
        label=gettext_lazy("Lowest rating of the opponent"), required=False, min_value=0
    )
    rating_max = forms.IntegerField(
        label=gettext_lazy("Highest rating of the opponent"), required=False, min_value=0
    )
    bots_may_accept = forms.BooleanField(required=False, initial=True)
    computer = forms.ChoiceField(
        label=gettext_lazy("Or play the computer now"), required=False, choices=()
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        bots = list(User.objects.filter(is_bot=True, is_active=True).order_by("pk"))
        if bots and bots_available():
            wait = settings.BOT_SEEK_WAIT
            self.fields["bots_may_accept"].label = ngettext(
                "If no one takes it within %(seconds)s second, the computer may",
                "If no one takes it within %(seconds)s seconds, the computer may",
                wait,
            ) % {"seconds": wait}
        else:  # no computer player could take it: nothing to offer
            del self.fields["bots_may_accept"]
        computer = self.fields["computer"]
        assert isinstance(computer, forms.ChoiceField)
        computer.choices = [
            ("", pgettext_lazy("play the computer", "No, a person")),
            *((bot.username, bot.public_name) for bot in bots),
        ]


def open_seeks(now: Any) -> list[Challenge]:
    """The seeks open now, newest first: open challenges to anyone on a live clock."""
    return list(
        Challenge.objects.filter(
            status=Challenge.Status.OPEN,
            opponent__isnull=True,
            live_delay__isnull=False,
            expires_at__gt=now,
        )
        .select_related("challenger")
        .order_by("-created_at", "-pk")[:LOBBY_SIZE]
    )


def _seeks_context(request: HttpRequest) -> dict[str, Any]:
    now = timezone.now()
    seeks = open_seeks(now)
    ratings = ratings_of({seek.challenger_id for seek in seeks})
    user = request.user if request.user.is_authenticated else None
    rows = [
        {
            "seek": seek,
            "rating": ratings.get(seek.challenger_id),
            "mine": user is not None and seek.challenger_id == user.pk,
        }
        for seek in seeks
    ]
    return {"rows": rows, "stamp": ",".join(str(seek.pk) for seek in seeks)}


def lobby(request: HttpRequest) -> HttpResponse:
    """GET: the open seeks and the form; POST (signed in): post a seek."""
    status = 200
    form = SeekForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        form = SeekForm(request.POST)
        if not form.is_valid():
            status = 400
        else:
            data = form.cleaned_data
            delay, reserve = parse_clock(data["clock"])
            opponent = None
            if data.get("computer"):
                opponent = User.objects.filter(
                    username=data["computer"], is_bot=True, is_active=True
                ).first()
            try:
                seek = challenge_services.challenge_create(
                    challenger=signed_in_user(request),
                    now=timezone.now(),
                    opponent=opponent,
                    variant=data["variant"],
                    length=data["length"],
                    rated=data["rated"],
                    live_delay=delay,
                    live_reserve=reserve,
                    timeout_loses_match=data["timeout_loses_match"],
                    rating_min=data.get("rating_min"),
                    rating_max=data.get("rating_max"),
                    bots_may_accept=bool(data.get("bots_may_accept")),
                )
            except ServiceError as error:
                form.add_error(None, str(error))
                status = error.status
            else:
                if seek.match is not None:  # the computer accepted at once
                    game = seek.match.current_game
                    assert game is not None
                    return redirect("game_detail", game_id=game.pk)
                messages.success(request, _("Your seek is in the lobby: wait here for a player."))
                return redirect("lobby")
    context = {"form": form, **_seeks_context(request)}
    return render(request, "lobby/lobby.html", context, status=status)


@require_GET
def lobby_seeks(request: HttpRequest) -> HttpResponse:
    """The list of seeks alone, for the page to replace in place when it changes."""
    return render(request, "lobby/_seeks.html", _seeks_context(request))


@login_required
@require_GET
def lobby_state(request: HttpRequest) -> JsonResponse:
    """What the lobby page polls when its socket cannot connect: the open seeks' stamp,
    and the game to go to when one of the player's seeks (``?seeks=3,5``) was accepted."""
    parts = request.GET.get("seeks", "").split(",")[:20]
    wanted = [int(p) for p in parts if p.isascii() and p.isdigit() and len(p) <= 18]
    started = None
    accepted = (
        Challenge.objects.filter(
            pk__in=wanted,
            challenger=signed_in_user(request),
            status=Challenge.Status.ACCEPTED,
            match__isnull=False,
        )
        .select_related("match")
        .order_by("-responded_at")
        .first()
    )
    if accepted is not None and accepted.match is not None:
        game = accepted.match.current_game
        if game is not None:
            started = game.get_absolute_url()
    return JsonResponse({"stamp": _seeks_context(request)["stamp"], "started": started})
