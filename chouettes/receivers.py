"""Receivers for ``matches.signals``; connected in ``ChouettesConfig.ready()``.

Thin: a chouette's board ending settles its game and starts the next one, inside
the transaction that ended the board, so the settlement commits with it; a player's
vacations move their deadlines off the board as they move the board's. The two
questions (``matches.questions``) are answered from the selectors: which matches are a
chouette's boards, and what a board waits for off it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from accounts.models import User
from matches.models import Game, Match
from matches.questions import Belonging
from matches.selectors import Awaiting
from matches.signals import (
    board_awaiting_asked,
    match_belongings_asked,
    match_cancelled,
    match_finished,
    vacations_changed,
)
from matches.timecontrol import Interval

from . import deadlines, endings, selectors


def on_match_finished(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    if match.chouette:
        endings.game_settle(match, now)


def on_match_cancelled(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    if match.chouette:
        endings.game_void(match, now)


def on_vacations_changed(
    sender: type, *, user: User, before: list[Interval], now: datetime, **kwargs: Any
) -> None:
    deadlines.deadlines_reschedule(user, before, now)


def on_match_belongings_asked(
    sender: type, *, matches: list[Match], **kwargs: Any
) -> dict[int, Belonging]:
    return selectors.board_belongings(matches)


def on_board_awaiting_asked(sender: type, *, game: Game, **kwargs: Any) -> list[Awaiting] | None:
    return selectors.board_awaiting(game)


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="chouettes.match_finished")
    match_cancelled.connect(on_match_cancelled, dispatch_uid="chouettes.match_cancelled")
    vacations_changed.connect(on_vacations_changed, dispatch_uid="chouettes.vacations_changed")
    match_belongings_asked.connect(
        on_match_belongings_asked, dispatch_uid="chouettes.match_belongings_asked"
    )
    board_awaiting_asked.connect(on_board_awaiting_asked, dispatch_uid="chouettes.board_awaiting")
