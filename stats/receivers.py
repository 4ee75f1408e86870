"""Receivers for the signals of ``matches``; connected in ``StatsConfig.ready()``.

Thin: each passes the signal's arguments to a service. They run inside the
transaction that sent the signal, so an error here rolls the game action back
rather than leaving the counters out of step.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches.models import Game, Match

from . import selectors, services


def on_game_finished(sender: type, *, game: Game, now: datetime, **kwargs: Any) -> None:
    services.stats_game_finished(game=game, now=now)


def on_match_finished(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    services.stats_match_finished(match=match, now=now)


def on_games_timed_out(
    sender: type, *, games: list[Game], matches: list[Match], now: datetime, **kwargs: Any
) -> None:
    services.stats_games_timed_out(games=games, matches=matches, now=now)


def on_match_cancelled(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    services.stats_match_cancelled(match=match, now=now)


def on_rating_asked(sender: type, *, user: Any, **kwargs: Any) -> float:
    """A seek's rating range asks for ``user``'s rating (``challenges.signals``)."""
    return selectors.ratings_of([user.pk])[user.pk]
