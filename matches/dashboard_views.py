"""The dashboard: the player's games, those waiting for them first, and the way to the
next one (``/next/``).

Each row says what the game waits for, from the player's side (``todo``), when the
opponent on turn is away on vacation, and what the game belongs to (a tournament's round,
a chouette's board), asked once for the whole list (:mod:`matches.questions`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from accounts.models import User
from accounts.requests import signed_in_user
from gammon import Color

from . import game_banner, questions, selectors
from .models import Game, Match, Vacation, VariantChoice
from .questions import Belonging

#: How long a games table is kept: its rows are in its key, so only the "… left" texts
#: (and a name changed) age in it, by a minute at most.
TABLE_SECONDS = 60


@login_required
def dashboard(request: HttpRequest) -> HttpResponse:
    """The player's games in two tables, those waiting for them first.

    One query lists every live game, each marked whether it awaits the player; their
    count is the header's badge too. The two tables are rendered once and kept in the
    cache under a digest of what their rows show (:func:`tables_key`): a page whose
    games did not move costs one cache read for its tables, not a row's work per game.
    """
    user = signed_in_user(request)
    stamps = selectors.games_of_stamps(user)
    awaiting = sum(stamp.awaiting for stamp in stamps)
    # Opponents on turn who are on vacation: the row says until when they are away.
    away = selectors.vacations_current(
        (stamp.on_turn_id for stamp in stamps if not stamp.awaiting), timezone.now()
    )
    key = tables_key(user, stamps, away)
    tables = cache.get(key)
    if tables is None:
        tables = _tables(user, list(selectors.games_of(user)), away)
        cache.set(key, tables, TABLE_SECONDS)
    return render(
        request,
        "matches/dashboard.html",
        {
            "awaiting": awaiting,
            "others": len(stamps) - awaiting,
            "awaiting_table": mark_safe(tables[0]),  # noqa: S308 - our own template's output
            "others_table": mark_safe(tables[1]),  # noqa: S308 - our own template's output
            "games_waiting_count": awaiting,  # the header's badge (game_tags)
        },
    )


def tables_key(user: User, stamps: list[selectors.GameStamp], away: dict[int, Vacation]) -> str:
    """The cache key of ``user``'s two games tables: a digest of each row's game (id,
    ply, last change, whether it awaits them), the vacation of the player on turn, the
    language and the time zone they are read in."""
    rows = [
        (stamp.pk, stamp.ply, stamp.updated_at.isoformat(), stamp.awaiting, _away_text(stamp, away))
        for stamp in stamps
    ]
    seen = (user.pk, get_language(), timezone.get_current_timezone_name(), rows)
    return "dashboard-tables:" + hashlib.sha256(repr(seen).encode()).hexdigest()


def _awaits(game: Game) -> bool:
    """The ``awaiting`` annotation of :func:`matches.selectors.games_of`."""
    return bool(game.awaiting)  # type: ignore[attr-defined]


def _away_text(stamp: selectors.GameStamp, away: dict[int, Vacation]) -> str:
    """What :func:`matches.game_banner.away_until` says of the stamp's game (never
    finished: the dashboard lists live games)."""
    vacation = away.get(stamp.on_turn_id)
    return vacation.ends_at.isoformat() if vacation else ""


def _tables(user: User, games: list[Game], away: dict[int, Vacation]) -> tuple[str, str]:
    """The two tables' HTML, of the games that await ``user`` and of the others (drawn
    only when the cache has not got them: a stamp changed, or a minute passed). What each
    game belongs to (a tournament's round, a chouette's game) is one question for the
    whole list, each app answering in one query."""
    awaiting = [game for game in games if _awaits(game)]
    others = [game for game in games if not _awaits(game)]
    belongings = questions.belongings([game.match for game in games])
    summaries: dict[tuple[int, str, bool], str] = {}
    tables = []
    for listed, labelledby, vacations in ((awaiting, "your-turn", None), (others, "waiting", away)):
        rows = [_game_row(game, user, vacations, belongings, summaries) for game in listed]
        context = {"rows": rows, "labelledby": labelledby}
        tables.append(render_to_string("matches/_game_table.html", context) if rows else "")
    return tables[0], tables[1]


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
    #: The match in a few words: "7-point match, unrated".
    summary: str = ""


def _game_row(
    game: Game,
    user: User,
    away: dict[int, Vacation] | None = None,
    belongings: dict[int, Belonging] | None = None,
    summaries: dict[tuple[int, str, bool], str] | None = None,
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
        summary=match_summary(match, summaries if summaries is not None else {}),
    )


def match_summary(match: Match, said: dict[tuple[int, str, bool], str]) -> str:
    """The match in a few words, as ``_match_summary.html`` says it: "7-point match",
    "Money session, Nackgammon, unrated". ``said`` keeps each wording made, so that a
    list of a hundred matches of three kinds translates three."""
    kind = (match.length, match.variant, match.rated)
    if kind not in said:
        if match.is_money:
            text = _("Money session")
        else:
            text = ngettext("%(length)s-point match", "%(length)s-point match", match.length) % {
                "length": match.length
            }
        if match.variant != VariantChoice.STANDARD:
            text += ", " + str(match.get_variant_display())
        if not match.rated:
            text += ", " + _("unrated")
        said[kind] = text
    return said[kind]


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
