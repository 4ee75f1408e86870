"""The dashboard: the player's games, those waiting for them first, and the way to the
next one (``/next/``).

Each row says what the game waits for, from the player's side (``todo``), when the
opponent on turn is away on vacation, and what the game belongs to (a tournament's round,
a chouette's board), asked once for the whole list (:mod:`matches.questions`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.requests import signed_in_user
from gammon import Color

from . import game_banner, questions, selectors
from .models import Game, Vacation
from .questions import Belonging


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    user = signed_in_user(request)
    awaiting = list(selectors.games_awaiting(user))
    waiting_ids = {game.pk for game in awaiting}
    others = [game for game in selectors.games_of(user) if game.pk not in waiting_ids]
    # Opponents on turn who are on vacation: the row says until when they are away.
    away = selectors.vacations_current(
        (g.match.player(g.turn_color).pk for g in others if not g.is_finished), timezone.now()
    )
    # What each game belongs to (a tournament's round, a chouette's game): one question
    # for the whole list, each app answering in one query.
    belongings = questions.belongings([game.match for game in (*awaiting, *others)])
    return render(
        request,
        "matches/dashboard.html",
        {
            "awaiting": [_game_row(game, user, belongings=belongings) for game in awaiting],
            "others": [_game_row(game, user, away, belongings) for game in others],
        },
    )


@login_required
def next_game(request: HttpRequest) -> HttpResponse:
    """The most urgent game waiting for the player, or the dashboard when there is none."""
    game = selectors.games_awaiting(signed_in_user(request)).first()
    if game is None:
        messages.info(request, _("No game is waiting for you. Well done!"))
        return redirect("dashboard")
    return redirect("game_detail", game_id=game.pk)


@dataclass
class GameRow:
    game: Game
    opponent: User
    color: Color
    my_score: int
    their_score: int
    todo: str
    away_until: datetime | None = None
    #: The tournament or chouette the game is played in (None for an ordinary match).
    belonging: Belonging | None = None
    #: The board's deadline, or, for a chouette's board held for its team, the first of
    #: the votes or answers it waits for.
    deadline: datetime | None = None


def _game_row(
    game: Game,
    user: User,
    away: dict[int, Vacation] | None = None,
    belongings: dict[int, Belonging] | None = None,
) -> GameRow:
    match = game.match
    color = match.color_of(user)
    assert color is not None
    opponent = match.player(color.other)
    belonging = (belongings or {}).get(match.pk)
    deadline = game.deadline_at
    if deadline is None and belonging is not None:
        deadline = belonging.deadline
    return GameRow(
        game=game,
        opponent=opponent,
        color=color,
        my_score=match.score[color],
        their_score=match.score[color.other],
        todo=_chouette_todo(game, color) if match.chouette else _todo(game, color),
        away_until=game_banner.away_until(game, away or {}),
        belonging=belonging,
        deadline=deadline,
    )


def _todo(game: Game, color: Color) -> str:
    mine = game.turn == int(color)
    if game.state == Game.State.RESIGNING:
        return _("Answer the offer to resign") if mine else _("Opponent answers your offer")
    if game.state == Game.State.DOUBLED:
        return _("Answer the double") if mine else _("Opponent answers your double")
    if game.state == Game.State.ROLLING:
        return _("Roll or double") if mine else _("Opponent rolls")
    return _("Move") if mine else _("Opponent moves")


def _chouette_todo(game: Game, color: Color) -> str:
    """A chouette board's row, to the box (White) or the team's captain (Black): the
    team's vote or answer while the board is held for it (the team is then on turn), the
    box's answer to the team's double (the only answer given on the board), else the
    board's roll or move, by who plays it."""
    box = color == Color.WHITE
    mine = game.turn == int(color)
    if game.held:
        if game.state == Game.State.DOUBLED:
            if box:
                return _("The team answers your double")
            return _("Your team answers the box's double")
        if box:
            return _("The team votes on doubling you")
        return _("Your team votes on doubling the box")
    if game.state == Game.State.DOUBLED:
        return _("Answer the team's double") if mine else _("The box answers your team's double")
    if game.state == Game.State.ROLLING:
        if mine:
            return _("Roll or double")
        return _("The team rolls") if box else _("The box rolls")
    if mine:
        return _("Move")
    return _("The team moves") if box else _("The box moves")
