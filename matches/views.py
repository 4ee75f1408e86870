"""The game page and the match page (the dashboard is :mod:`matches.dashboard_views`).

What the page says above the board is :mod:`matches.game_banner`'s, its record
:mod:`matches.record_rows`'s. Views read through :mod:`matches.selectors` and write
through :mod:`matches.turns`, :mod:`matches.endings` and :mod:`matches.chat`; a
:class:`~backgammon.errors.ServiceError` is shown to the player on the page they were on,
with the HTTP status it carries.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import patch_cache_control
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.models import User
from accounts.requests import signed_in_user
from backgammon.errors import InvalidAction, ServiceError
from backgammon.inputs import positive_int
from gammon import Color, Play, Position

from . import chat, endings, game_banner, resign_page, resignations, selectors, turns
from .board_svg import (
    LastMove,
    board_geometry,
    board_svg,
    board_svg_at,
    board_viewer,
    last_move_text,
)
from .forms import GameActionForm, GameMessageForm
from .models import Game, GameEvent, GameMessage, Match
from .record_rows import last_move_replayed, record_lines, record_page, record_rows, record_steps
from .replay import ReplayError
from .signals import game_shown

SWAP_DICE = "matches.swap_dice"


# --------------------------------------------------------------------------- the game page


def _load_game(game_id: int) -> Game:
    return get_object_or_404(
        Game.objects.select_related("match", "match__white", "match__black"), pk=game_id
    )


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board, the actions the viewer may take, and the game record. Anyone may watch."""
    game = _load_game(game_id)
    if request.method != "POST":
        return _render_game(request, game)
    if not request.user.is_authenticated:
        return redirect_to_login(request.get_full_path())
    user = signed_in_user(request)
    form = GameActionForm(request.POST)
    if not form.is_valid():
        return _render_game(request, game, form=form, status=400)
    data = form.cleaned_data
    try:
        if data["action"] == "resign" and not data["confirm"]:
            # A resignation is asked twice, with what it costs (the dialog does it with JS).
            selectors.game_resignation_cost(game, user)
            return _render_game(request, game, form=form, pending_resign=True)
        if data["action"] == "move" and user.confirm_moves and not data["confirm"]:
            # The player asked to confirm every move: show it before it is sent.
            play = selectors.game_preview_play(game, data["play"].strip())
            return _render_game(request, game, form=form, pending_play=str(play))
        _act(game, user, data)
    except ServiceError as error:
        game.refresh_from_db()
        game.match.refresh_from_db()
        return _render_game(request, game, form=form, error=str(error), status=error.status)
    if data["action"] == "move":
        return _after_move(request, game)
    return redirect("game_detail", game_id=game.pk)


def _after_move(request: HttpRequest, game: Game) -> HttpResponse:
    """DailyGammon's habit: on to the next game waiting for the player, unless they stay.

    The ``stay_after_move`` preference keeps them on the game they just moved in.
    """
    user = signed_in_user(request)
    if not user.stay_after_move:
        following = selectors.games_awaiting(user).exclude(pk=game.pk).first()
        if following is not None:
            opponent = following.match.player(following.match.color_of(user).other)  # type: ignore[union-attr]
            messages.success(
                request,
                _("Move sent. Your next game, against %(name)s:")
                % {"name": getattr(opponent, "public_name", str(opponent))},
            )
            return redirect("game_detail", game_id=following.pk)
    return redirect("game_detail", game_id=game.pk)


def _act(game: Game, user: User, data: dict[str, Any]) -> None:
    common = {
        "game_id": game.pk,
        "player": user,
        "expected_ply": data["ply"],
        "now": timezone.now(),
    }
    action = data["action"]
    if action == "move":
        turns.game_play_move(play_text=data["play"].strip(), **common)
    elif action == "roll":
        turns.game_roll(**common)
    elif action == "double":
        turns.game_double(**common)
    elif action == "take":
        turns.game_take(**common)
    elif action == "drop":
        turns.game_drop(**common)
    elif action in ("resign", "resign_match"):
        endings.game_resign(whole_match=action == "resign_match", **common)
    elif action == "offer_resign":
        level = resignations.LEVELS_BY_NAME[data["level"]]
        resignations.game_offer_resignation(level=level, **common)
    elif action in ("accept_resign", "decline_resign"):
        resignations.game_answer_resignation(accept=action == "accept_resign", **common)
    elif action == "offer_draw":
        endings.match_offer_draw(**common)
    else:
        endings.match_answer_draw(accept=action == "accept_draw", **common)


@require_POST
def game_swap_dice(request: HttpRequest, game_id: int) -> HttpResponse:
    """Show this roll's dice in the other order (the page without JavaScript).

    Display only, kept in the session for this game at this ply: the next roll, and
    every other game, show the higher die first again, as the record writes them.
    """
    ply = Game.objects.filter(pk=game_id).values_list("ply", flat=True).first()
    if ply is None:
        raise Http404
    if _dice_swapped(request, game_id, ply):
        request.session.pop(SWAP_DICE, None)
    else:
        request.session[SWAP_DICE] = {"game": game_id, "ply": ply}
    return redirect(reverse("game_detail", args=[game_id]) + "#board")


def _dice_swapped(request: HttpRequest, game_id: int, ply: int) -> bool:
    return request.session.get(SWAP_DICE) == {"game": game_id, "ply": ply}


def game_ply(request: HttpRequest, game_id: int) -> JsonResponse:
    """``{"ply": n}``: what a game page left open polls to learn that the game moved on.

    One indexed read of one column, no session write, so that many open tabs stay cheap;
    the page reloads itself when the number differs from the one it was drawn at.
    """
    ply = Game.objects.filter(pk=game_id).values_list("ply", flat=True).first()
    if ply is None:
        raise Http404
    response = JsonResponse({"ply": ply})
    response["Cache-Control"] = "no-store"
    return response


def game_board_svg(request: HttpRequest, game_id: int) -> HttpResponse:
    """The board alone, as an SVG file (for links and e-mails)."""
    game = _load_game(game_id)
    last_move = record_page(game).last_move
    svg = board_svg(game, **_board_view(request, game), last_move=last_move)
    return HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")


def _board_view(request: HttpRequest, game: Game) -> dict[str, Any]:
    return {
        **board_viewer(game.match, request.user),
        "swap_dice": _dice_swapped(request, game.pk, game.ply),
    }


def game_page(request: HttpRequest, game: Game, *, status: int = 200) -> HttpResponse:
    """The game page as it stands, with ``status``: what a page of another app shows after
    refusing a form of the game page (a chouette's panel), the refusal in ``messages``."""
    return _render_game(request, game, status=status)


def _render_game(
    request: HttpRequest,
    game: Game,
    *,
    form: GameActionForm | None = None,
    error: str | None = None,
    status: int = 200,
    pending_play: str | None = None,
    pending_resign: bool = False,
) -> HttpResponse:
    match = game.match
    user = request.user
    color = match.color_of(user)
    actions = selectors.game_actions(game, user)
    legal = selectors.game_plays(game) if "move" in actions else []
    plays = [str(play) for play in legal]
    board = _board_view(request, game)
    shown_ply = _shown_ply(request, game)
    record_html = None
    if shown_ply is None:
        # The record as it stands: one cache read while the game waits (record_page).
        page = record_page(game)
        record, record_html, last_move = page.lines, page.rows_html, page.last_move
        svg = board_svg(game, **board, last_move=last_move)
    else:
        events = list(game.events.all())
        record = record_lines(events, match)
        last_move = last_move_replayed(game, events, shown_ply)
        svg = _board_at(game, events, shown_ply, board, last_move)
    # The games waiting for a signed-in viewer: counted once, for the header's badge
    # and, when this is one of them, the "next game" link's "n more".
    waiting = None
    awaiting_elsewhere = 0
    if user.is_authenticated:
        waiting = selectors.games_awaiting_count(signed_in_user(request))
        if color is not None:
            awaiting_elsewhere = waiting - int(selectors.game_awaits(game, user))
    on_turn = match.player(game.turn_color)
    away = {} if game.is_finished else selectors.vacations_current([on_turn.pk], timezone.now())
    play_value = ""
    if form is not None and form.is_bound and error is not None:
        play_value = form.data.get("play", "")
    context = {
        "game": game,
        "match": match,
        "color": color,
        "is_player": color is not None,
        "actions": actions,
        "plays": plays,
        "form": form,
        "error": error,
        "play_value": play_value,
        "board": svg,
        "shown_ply": shown_ply,
        "last_move_text": last_move_text(last_move) if last_move is not None else "",
        "pending_play": pending_play,
        "confirm_moves": bool(getattr(user, "confirm_moves", False)),
        "interactive": (
            _interactive(game, legal, board, getattr(user, "confirm_moves", False))
            if legal and shown_ply is None and pending_play is None
            else None
        ),
        "swap_dice": board["swap_dice"],
        "record": record,
        # Laid out only when the template draws them (a past position, analysis marks).
        "record_rows": partial(record_rows, record),
        "record_html": record_html,
        "record_steps": record_steps(record, game, shown_ply),
        "status_line": game_banner.status_line(game),
        **game_banner.banner_context(game, color, actions),
        "my_turn": color is not None and game.turn == int(color) and bool(actions),
        "away_texts": game_banner.away_texts(game),
        **_resign_context(game, user, color, actions),
        "pending_resign": pending_resign,
        "awaiting_elsewhere": awaiting_elsewhere,
        "games_waiting_count": waiting,
        "away_until": game_banner.away_until(game, away),
        "away_player": on_turn,
        "other_games": match.games.exclude(pk=game.pk).order_by("number"),
        "wide_page": True,  # base.html: the board takes the room a desktop offers
        # Only a page the player asked to see reads their notices: a refused POST that
        # shows the page again changes nothing.
        **game_messages_context(game, user, shown=request.method == "GET"),
    }
    response = render(request, "matches/game_detail.html", context, status=status)
    if user.is_authenticated:
        # A signed-in viewer's page may hold the players' chat, or a chouette team's chat
        # and suggestions (its panel): no cache keeps it, shared or the browser's.
        patch_cache_control(response, private=True, no_store=True)
    return response


def _resign_context(
    game: Game, user: Any, color: Color | None, actions: list[str]
) -> dict[str, Any]:
    """The resign dialog's words (``matches.resign_page``): what resigning at once costs
    where a game is resigned that way, the offers open, the offer waiting for an answer,
    and what resigning the whole match gives away."""
    context: dict[str, Any] = {
        "resign_now": None,
        "resign_offers": [],
        "resign_pending": resign_page.pending_offer(game, color),
        "resign_match_text": "",
    }
    if color is None or "resign" not in actions:
        return context
    if not selectors.resigns_by_offer(game.match):
        context["resign_now"] = resign_page.resign_now(game, user)
    if "offer_resign" in actions:
        context["resign_offers"] = resign_page.offer_choices(game, color)
    if not game.match.chouette:
        context["resign_match_text"] = resign_page.resign_match_text(game, color)
    return context


def _shown_ply(request: HttpRequest, game: Game) -> int | None:
    """The ply of a past position asked for with ``?ply=N`` (None: the current one)."""
    ply = positive_int(request.GET.get("ply"))
    return ply if ply is not None and ply < game.ply else None


def _board_at(
    game: Game,
    events: list[GameEvent],
    ply: int,
    board: dict[str, Any],
    last_move: LastMove | None = None,
) -> str:
    """The board after ``ply``, replayed from the record, with that turn's dice and cube."""
    event = next(e for e in events if e.ply == ply)
    dice = (event.die1, event.die2) if event.die1 and event.die2 else None
    try:
        return board_svg_at(
            game,
            events,
            ply,
            viewer_color=board["viewer_color"],
            home_side=board["home_side"],
            dice=dice,
            last_move=last_move,
        )
    except ReplayError:
        return board_svg(game, **board)


def _position_key(position: Position) -> str:
    """The board as the page's script writes it: ``points|bar|off``, from the mover's side."""
    return "|".join(
        ",".join(str(n) for n in part) for part in (position.points, position.bar, position.off)
    )


def _interactive(
    game: Game, plays: list[Play], board: dict[str, Any], confirm: bool
) -> dict[str, Any]:
    """What the board script needs to let the player move by clicking (see static/js/board.js).

    The board and every play's steps are from the mover's side, which is the viewer's.
    """
    position = game.position()
    return {
        "dice": list(game.dice or ()),
        "points": list(position.points),
        "bar": list(position.bar),
        "off": list(position.off),
        "color": "white" if position.turn == Color.WHITE else "black",
        "plays": [
            {
                "notation": str(play),
                "steps": [[s.source, s.dest, s.hit] for s in play.steps],
                "key": _position_key(play.position),
            }
            for play in plays
        ],
        "geometry": board_geometry(board["home_side"]),
        "confirm": bool(confirm),
        "text": {
            "pick": _("Click a checker to move it %(die)s, or drag it where it goes."),
            "next": _("Next die: %(die)s."),
            "by": _("move it %(die)s"),
            "swap": _("Swap the dice"),
            "nowhere": _("That checker cannot move."),
            "done": _("Move complete: %(play)s. Submit it, or undo."),
            "typed": _("%(play)s is legal: Submit it."),
            "sending": _("Sending %(play)s…"),
            "bar": _("bar"),
            "off": _("off"),
            "point": _("Point %(point)s"),
            "mine": _("your checkers: %(count)s"),
            "confirm": _("Send %(play)s?"),
        },
    }


# --------------------------------------------------------------------------- the match page


def match_detail(request: HttpRequest, match_id: int) -> HttpResponse:
    match = get_object_or_404(Match.objects.select_related("white", "black"), pk=match_id)
    games = list(match.games.order_by("number"))
    rows = [
        (game, game_banner.game_result_text(game, None) if game.is_finished else "")
        for game in games
    ]
    return render(
        request,
        "matches/match_detail.html",
        {
            "match": match,
            "games": rows,
            "current": games[-1] if games else None,
            "color": match.color_of(request.user),
        },
    )


def game_messages_context(game: Game, user: Any, *, shown: bool) -> dict[str, Any]:
    """What the game page shows of the messages: only to the two players (one query).

    A player who is ``shown`` the page (a ``GET``) has seen what their notices about this
    game say: ``game_shown`` has them marked read (one UPDATE), so the next message or
    turn tells them again.
    """
    rows = selectors.game_messages(game, user)
    color = game.match.color_of(user)
    if rows is None or color is None:  # not one of the two players
        return {"game_messages": None}
    if shown:
        game_shown.send(sender=Game, game=game, user=user, now=timezone.now())
    if game.match.chouette:  # its players talk in the chouette's chat (its panel)
        return {"game_messages": None}
    return {
        "game_messages": rows,
        "message_max_length": GameMessage.MAX_LENGTH,
        "message_opponent": game.match.player(color.other),
    }


@require_POST
@login_required
def game_message_post(request: HttpRequest, game_id: int) -> HttpResponse:
    """Post a message, then back to the game page.

    A refusal is the game page again with the reason on top and the error's status (a
    game that does not exist: the 404 page), and nothing stored.
    """
    user = signed_in_user(request)
    form = GameMessageForm(request.POST)
    try:
        if not form.is_valid():
            # ErrorList[i] is the message text (a str), whatever the stubs allow.
            raise InvalidAction(str(form.errors["text"][0]), code="invalid_message")
        chat.game_message_post(
            game_id=game_id, author=user, text=form.cleaned_data["text"], now=timezone.now()
        )
    except ServiceError as error:
        messages.error(request, str(error))
        if error.status == 404:
            raise Http404(str(error)) from error
        return _render_game(request, _load_game(game_id), status=error.status)
    return redirect(reverse("game_detail", args=[game_id]) + "#messages")
