"""The chouette pages: the list, the form of a new one, the session page, and the forms
of the game page's chouette panel (the board itself is the matches app's game page,
which shows the panel through ``{% load chouette_tags %}``).

Views read through :mod:`chouettes.selectors` and write through the services
(:mod:`chouettes.seating`, :mod:`~chouettes.decisions`, :mod:`~chouettes.chat`); a
:class:`~backgammon.errors.ServiceError` is shown on the page the player was on (the
session page, or the game page), with the HTTP status it carries and nothing changed.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.requests import signed_in_user
from backgammon.errors import InvalidAction, ServiceError
from matches import views as match_views
from matches.models import Game

from . import chat, decisions, seating, selectors, texts
from .forms import ChouetteForm, CubeForm, InviteForm, MessageForm, SuggestForm
from .models import Chouette, ChouetteGame, Message, Result, Seat

# --------------------------------------------------------------------------- the list


def chouette_list(request: HttpRequest) -> HttpResponse:
    """The chouettes taking players, the viewer's own, and the ones just finished."""
    user = request.user
    mine = []
    if user.is_authenticated:
        mine = list(selectors.with_seated(selectors.chouettes_of(signed_in_user(request)))[:30])
    return render(
        request,
        "chouettes/chouette_list.html",
        {
            "open": list(selectors.with_seated(selectors.chouettes_open())[:30]),
            "mine": mine,
            "finished": list(selectors.chouettes_finished()),
        },
    )


@login_required
def chouette_new(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    status = 200
    if request.method == "POST":
        form = ChouetteForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            try:
                chouette = seating.chouette_create(
                    creator=user,
                    now=timezone.now(),
                    invite=data["invite"],
                    open_to_all=data["open_to_all"],
                    max_players=data["max_players"],
                    days_per_move=data["days_per_move"],
                    time_bank_days=data["time_bank_days"],
                    cube_limit=data["cube_limit"],
                    jacoby=data["jacoby"],
                    automatic_doubles=data["automatic_doubles"],
                    places_from_dice=data["places_from_dice"],
                )
            except ServiceError as error:
                form.add_error(form.ERROR_FIELDS.get(error.code), str(error))
                status = error.status
            else:
                messages.success(
                    request, _("Your chouette is set up. Start it once 3 have joined.")
                )
                return redirect(chouette)
        else:
            status = 400
    else:
        form = ChouetteForm()
    return render(request, "chouettes/chouette_new.html", {"form": form}, status=status)


# --------------------------------------------------------------------------- the session page


def chouette_detail(request: HttpRequest, chouette_id: int) -> HttpResponse:
    chouette = get_object_or_404(Chouette.objects.select_related("creator"), pk=chouette_id)
    return _render_session(request, chouette)


def _render_session(
    request: HttpRequest,
    chouette: Chouette,
    *,
    status: int = 200,
    invite_form: InviteForm | None = None,
) -> HttpResponse:
    user = request.user
    panel = selectors.panel(chouette, user)
    seats = list(chouette.seats.select_related("player").order_by("joined_at", "pk"))
    names = {s.player_id: s.player for s in seats}
    mine = next((s for s in seats if s.player_id == getattr(user, "pk", None)), None)
    viewer_id = user.pk if user.is_authenticated else None
    is_open = chouette.status == Chouette.Status.OPEN
    seated = mine is not None and mine.status == Seat.Status.SEATED
    game = panel.game
    live = game is not None and game.settled_at is None
    readable = list(selectors.messages_for(chouette, user).select_related("game"))
    on_team = game is not None and live and seated and selectors.in_team(game, user)
    context = {
        "chouette": chouette,
        "panel": panel,
        "lines": [_line_view(line, panel) for line in panel.lines],
        "awaited": texts.awaited_texts(panel, viewer_id),
        "you": texts.your_decision_text(panel, viewer_id),
        "standings": [s for s in seats if s.status != Seat.Status.INVITED],
        "invited": [s for s in seats if s.status == Seat.Status.INVITED],
        "seat": mine,
        "can_join": is_open
        and user.is_authenticated
        and not seated
        and (chouette.open_to_all or (mine is not None and mine.status == Seat.Status.INVITED)),
        "can_leave": seated
        and chouette.status in (Chouette.Status.OPEN, Chouette.Status.PLAYING)
        and not (mine is not None and mine.leaving),
        "is_creator": user.is_authenticated and chouette.creator_id == user.pk,
        "is_open": is_open,
        "invite_form": invite_form or InviteForm(),
        "opening_rounds": [
            [(names.get(player_id), die) for player_id, die in round_]
            for round_ in chouette.opening_rounds
        ],
        "games": _games(chouette),
        "table_messages": [m for m in readable if not m.team],
        "team_messages": [m for m in readable if m.team],
        "may_talk": seated and game is not None,
        "may_talk_team": on_team,
        "message_max_length": Message.MAX_LENGTH,
    }
    response = render(request, "chouettes/chouette_detail.html", context, status=status)
    if user.is_authenticated:
        # A member's page holds the chat they may read, their team's too: no cache keeps it.
        patch_cache_control(response, private=True, no_store=True)
    return response


def _games(chouette: Chouette) -> list[dict[str, Any]]:
    """Each game with its board and its results (points per player), in order."""
    games = list(chouette.games.order_by("number"))
    boards = {
        g.match_id: g
        for g in Game.objects.filter(match__in=[cg.match_id for cg in games]).select_related(
            "match__white", "match__black"
        )
    }
    results: dict[int, list[Result]] = defaultdict(list)
    for result in Result.objects.filter(game__chouette=chouette).select_related("player"):
        results[result.game_id].append(result)
    return [
        {
            "game": cg,
            "board": boards.get(cg.match_id),
            "results": sorted(results[cg.pk], key=lambda r: (r.role != Result.Role.BOX, r.pk)),
        }
        for cg in games
    ]


def _line_view(line: selectors.Line, panel: selectors.Panel) -> dict[str, Any]:
    return {
        "line": line,
        "player": line.seat.player,
        "role": texts.ROLE_NAMES[line.role](),
        "awaited": [texts.action_text(a, panel) for a in line.awaited],
    }


def _session_action(request: HttpRequest, chouette_id: int, action: str) -> HttpResponse:
    user = signed_in_user(request)
    now = timezone.now()
    invite_form: InviteForm | None = None
    try:
        if action == "join":
            seating.chouette_join(chouette_id=chouette_id, user=user, now=now)
            messages.success(request, _("You have joined the chouette."))
        elif action == "leave":
            seat = seating.chouette_leave(chouette_id=chouette_id, user=user, now=now)
            if seat.leaving:
                messages.success(request, _("You will leave the chouette when this game ends."))
            else:
                messages.success(request, _("You have left the chouette."))
        elif action == "start":
            seating.chouette_start(chouette_id=chouette_id, user=user, now=now)
            messages.success(request, _("The chouette has started."))
        else:
            invite_form = InviteForm(request.POST)
            if not invite_form.is_valid():
                raise InvalidAction(str(invite_form.errors["invite"][0]), code="invalid_invite")
            seating.chouette_invite(
                chouette_id=chouette_id,
                user=user,
                players=invite_form.cleaned_data["invite"],
                now=now,
            )
            messages.success(request, _("The players are invited."))
    except ServiceError as error:
        messages.error(request, str(error))
        chouette = Chouette.objects.select_related("creator").filter(pk=chouette_id).first()
        if chouette is None:
            raise Http404(str(error)) from error
        return _render_session(request, chouette, status=error.status, invite_form=invite_form)
    return redirect("chouette_detail", chouette_id=chouette_id)


@require_POST
@login_required
def chouette_join(request: HttpRequest, chouette_id: int) -> HttpResponse:
    return _session_action(request, chouette_id, "join")


@require_POST
@login_required
def chouette_leave(request: HttpRequest, chouette_id: int) -> HttpResponse:
    return _session_action(request, chouette_id, "leave")


@require_POST
@login_required
def chouette_start(request: HttpRequest, chouette_id: int) -> HttpResponse:
    return _session_action(request, chouette_id, "start")


@require_POST
@login_required
def chouette_invite(request: HttpRequest, chouette_id: int) -> HttpResponse:
    return _session_action(request, chouette_id, "invite")


def chouette_game(request: HttpRequest, chouette_id: int, number: int) -> HttpResponse:
    """A game of the chouette: its board, the matches app's game page."""
    game = get_object_or_404(ChouetteGame, chouette_id=chouette_id, number=number)
    board = get_object_or_404(Game, match_id=game.match_id)
    return redirect("game_detail", game_id=board.pk)


def chouette_game_stamp(request: HttpRequest, chouette_id: int, number: int) -> JsonResponse:
    """``{"ply": stamp}``: what the board's page, left open, polls in place of the game's
    own ply (``matches.views.game_ply``), so that it reloads after a member's vote too."""
    game = get_object_or_404(ChouetteGame, chouette_id=chouette_id, number=number)
    board = get_object_or_404(Game.objects.only("ply"), match_id=game.match_id)
    response = JsonResponse({"ply": selectors.board_stamp(game, board)})
    response["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- the game page's panel


def _board(chouette_id: int) -> Game | None:
    """The board of the chouette's game in play (or its last game); None before the start."""
    game = ChouetteGame.objects.filter(chouette_id=chouette_id).order_by("-number").first()
    return None if game is None else selectors.board_of(game)


def _refused_on_board(request: HttpRequest, chouette_id: int, error: ServiceError) -> HttpResponse:
    """The game page again, with the refusal on top and its status (the session page
    before the chouette has a board; the 404 page for no chouette)."""
    messages.error(request, str(error))
    board = _board(chouette_id)
    if board is not None:
        return match_views.game_page(request, board, status=error.status)
    chouette = Chouette.objects.select_related("creator").filter(pk=chouette_id).first()
    if chouette is None:
        raise Http404(str(error)) from error
    return _render_session(request, chouette, status=error.status)


def _to_board(chouette_id: int) -> HttpResponse:
    board = _board(chouette_id)
    if board is None:
        return redirect("chouette_detail", chouette_id=chouette_id)
    return redirect(reverse("game_detail", args=[board.pk]) + "#chouette")


@require_POST
@login_required
def chouette_cube(request: HttpRequest, chouette_id: int) -> HttpResponse:
    """A cube decision from the game page's panel: the team's proposal and votes, the
    box's answer and double, a member's answer to it (a vote or an answer confirmed)."""
    user = signed_in_user(request)
    form = CubeForm(request.POST)
    try:
        if not form.is_valid():
            if set(form.errors) == {"confirm"}:  # ErrorList[0] is the message text
                raise InvalidAction(str(form.errors["confirm"][0]), code="unconfirmed")
            raise InvalidAction(_("That decision was not understood."), code="invalid_action")
        action, ply = form.cleaned_data["action"], form.cleaned_data["ply"]
        common: dict[str, Any] = {
            "chouette_id": chouette_id,
            "user": user,
            "expected_ply": ply,
            "now": timezone.now(),
        }
        if action == "propose":
            decisions.team_propose_double(**common)
        elif action in ("vote_yes", "vote_no"):
            decisions.team_vote(agree=action == "vote_yes", **common)
        elif action in ("box_take", "box_drop"):
            decisions.box_answer(take=action == "box_take", **common)
        elif action == "box_double":
            decisions.box_double(**common)
        else:
            decisions.team_answer(take=action == "take", **common)
    except ServiceError as error:
        return _refused_on_board(request, chouette_id, error)
    return _to_board(chouette_id)


@require_POST
@login_required
def chouette_suggest(request: HttpRequest, chouette_id: int) -> HttpResponse:
    """A team mate's suggested play for the captain, for the roll on the board."""
    user = signed_in_user(request)
    form = SuggestForm(request.POST)
    try:
        if not form.is_valid():
            raise InvalidAction(_("Write the play you suggest."), code="invalid_play")
        decisions.play_suggest(
            chouette_id=chouette_id,
            user=user,
            play_text=form.cleaned_data["play"].strip(),
            expected_ply=form.cleaned_data["ply"],
            now=timezone.now(),
        )
    except ServiceError as error:
        return _refused_on_board(request, chouette_id, error)
    return _to_board(chouette_id)


@require_POST
@login_required
def chouette_message_post(request: HttpRequest, chouette_id: int) -> HttpResponse:
    """A message to the table or the team, then back to the page it was written on."""
    user = signed_in_user(request)
    form = MessageForm(request.POST)
    back = request.POST.get("back") if request.POST.get("back") in ("game", "session") else ""
    try:
        if not form.is_valid():
            raise InvalidAction(_("Write a message first."), code="invalid_message")
        chat.message_post(
            chouette_id=chouette_id,
            author=user,
            text=form.cleaned_data["text"],
            team=form.cleaned_data["team"],
            now=timezone.now(),
        )
    except ServiceError as error:
        if back == "game":
            return _refused_on_board(request, chouette_id, error)
        messages.error(request, str(error))
        chouette = Chouette.objects.select_related("creator").filter(pk=chouette_id).first()
        if chouette is None:
            raise Http404(str(error)) from error
        return _render_session(request, chouette, status=error.status)
    anchor = "#team-chat" if form.cleaned_data["team"] else "#table-chat"
    board = _board(chouette_id) if back == "game" else None
    if board is not None:
        return redirect(reverse("game_detail", args=[board.pk]) + anchor)
    return redirect(reverse("chouette_detail", args=[chouette_id]) + anchor)
