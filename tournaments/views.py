"""The tournament pages: the list, a tournament (its bracket, crosstables or Swiss
standings), registering and withdrawing, and the form of a new tournament.

Views read through :mod:`tournaments.selectors` and write through the services
(:mod:`~tournaments.creation`, :mod:`~tournaments.registration`,
:mod:`~tournaments.directing`); a :class:`~backgammon.errors.ServiceError` is shown on
the page the player was on, with its message and the HTTP status it carries.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import signed_in_user
from backgammon.errors import ServiceError

from . import creation, directing, registration, selectors
from .bracket_svg import bracket_svg, round_title
from .forms import TournamentFilterForm, TournamentForm
from .models import Entry, Format, Pairing, Tournament

LIST_SIZE = 50


def tournament_list(request: HttpRequest) -> HttpResponse:
    """Upcoming, running and finished tournaments, filtered by format and length."""
    form = TournamentFilterForm(request.GET)
    status = 200
    if form.is_valid():
        kind, length = form.cleaned_data["type"] or None, form.cleaned_data["length"]
    else:
        kind, length, status = None, None, 400
    sections = [
        (
            key,
            title,
            list(selectors.tournaments_listed(status=key, format=kind, length=length)[:LIST_SIZE]),
        )
        for key, title in (
            ("upcoming", _("Upcoming")),
            (Tournament.Status.RUNNING, _("Running")),
            (Tournament.Status.FINISHED, _("Finished")),
        )
    ]
    return render(
        request,
        "tournaments/tournament_list.html",
        {
            "form": form,
            "sections": sections,
            "repeating": list(
                selectors.schedules_repeating(format=kind, length=length)[:LIST_SIZE]
            ),
            "may_create": request.user.is_authenticated
            and creation.may_create(signed_in_user(request)),
        },
        status=status,
    )


def tournament_detail(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """A tournament: its options, progress, entries, and the drawing of its format."""
    tournament = selectors.tournaments_listed().filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(_("No such tournament."))
    rows = list(selectors.pairings_of(tournament))
    context: dict[str, object] = {
        "tournament": tournament,
        "progress": selectors.progress(tournament),
        "entries": list(selectors.entries_of(tournament)),
        "registration": selectors.registration_for(tournament, request.user, timezone.now()),
        "entered": selectors.entered(tournament, request.user),
        "may_direct": directing.may_direct(request.user, tournament),
    }
    entered = context["entered"]
    context["may_withdraw"] = isinstance(entered, Entry) and (
        tournament.status == Tournament.Status.REGISTERING
        or (
            tournament.status == Tournament.Status.RUNNING
            and entered.status == Entry.Status.PLAYING
        )
    )
    knockout = selectors.bracket(tournament, rows)
    if knockout:
        context["bracket_svg"] = bracket_svg(
            knockout, title=_("The bracket of %(name)s") % {"name": tournament.name}
        )
        context["bracket_rounds"] = [
            (round_title(r, len(knockout)), cells) for r, cells in enumerate(knockout, start=1)
        ]
    if tournament.format == Format.ROUND_ROBIN and rows:
        context["crosstables"] = selectors.crosstables(tournament, rows)
    if tournament.format == Format.SWISS and rows:
        context["standings"] = selectors.standings(tournament)
        context["swiss_rounds"] = selectors.rounds_of(rows, Pairing.Stage.SWISS)
    if request.user.is_authenticated:
        me = signed_in_user(request)
        context["my_pairings"] = [
            p
            for p in rows
            if p.white.player_id == me.pk or (p.black is not None and p.black.player_id == me.pk)
        ]
    return render(request, "tournaments/tournament_detail.html", context)


def _refused(request: HttpRequest, tournament_id: int, error: ServiceError) -> HttpResponse:
    """The tournament page again with the refusal's message and its status."""
    messages.error(request, str(error))
    try:
        response = tournament_detail(request, tournament_id)
    except Http404:
        response = render(
            request, "tournaments/refused.html", {"message": str(error)}, status=error.status
        )
    response.status_code = error.status
    return response


@login_required
@require_POST
def tournament_register(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        registration.tournament_register(
            tournament_id=tournament_id, user=signed_in_user(request), now=timezone.now()
        )
    except ServiceError as error:
        return _refused(request, tournament_id, error)
    messages.success(request, _("You are registered. Good luck!"))
    return redirect("tournament_detail", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_withdraw(request: HttpRequest, tournament_id: int) -> HttpResponse:
    try:
        registration.tournament_withdraw(
            tournament_id=tournament_id, user=signed_in_user(request), now=timezone.now()
        )
    except ServiceError as error:
        return _refused(request, tournament_id, error)
    messages.success(request, _("You have withdrawn from the tournament."))
    return redirect("tournament_detail", tournament_id=tournament_id)


@login_required
@require_POST
def tournament_stop_repeating(request: HttpRequest, tournament_id: int) -> HttpResponse:
    """Its director, or a moderator, stops the repeating tournament this one is an edition of."""
    try:
        directing.schedule_stop(tournament_id=tournament_id, user=signed_in_user(request))
    except ServiceError as error:
        return _refused(request, tournament_id, error)
    messages.success(request, _("No more editions of this tournament will open."))
    return redirect("tournament_detail", tournament_id=tournament_id)


@login_required
def tournament_create(request: HttpRequest) -> HttpResponse:
    """The form of a new tournament, for those who may create one (a 403 for the rest)."""
    user = signed_in_user(request)
    if not creation.may_create(user):
        return render(
            request,
            "tournaments/refused.html",
            {"message": _("Only the moderators create tournaments.")},
            status=403,
        )
    status = 200
    repeating = user.has_perm(creation.MANAGE_PERMISSION)
    if request.method == "POST":
        form = TournamentForm(request.POST, repeating=repeating)
        if form.is_valid():
            try:
                tournament = creation.tournament_create(
                    creator=user, now=timezone.now(), **form.options()
                )
            except ServiceError as error:
                form.add_error(form.ERROR_FIELDS.get(error.code), str(error))
                status = error.status
            else:
                messages.success(request, _("The tournament is open for registration."))
                return redirect(tournament)
        else:
            status = 400
    else:
        form = TournamentForm(repeating=repeating)
    return render(request, "tournaments/tournament_new.html", {"form": form}, status=status)
