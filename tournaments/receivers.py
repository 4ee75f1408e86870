"""Receivers for ``matches.signals``; connected in ``TournamentsConfig.ready()``.

Thin: a tournament match's end advances its tournament inside the transaction that
ended it, so the next pairing commits with the result, or neither does.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches.models import Match
from matches.signals import games_timed_out, match_cancelled, match_finished

from . import advance


def on_match_finished(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    advance.pairing_finished(match, now)


def on_games_timed_out(sender: type, *, matches: list[Match], now: datetime, **kwargs: Any) -> None:
    advance.pairings_finished(matches, now)


def on_match_cancelled(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    advance.pairing_finished(match, now)  # a cancelled tournament match is played again


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="tournaments.match_finished")
    games_timed_out.connect(on_games_timed_out, dispatch_uid="tournaments.games_timed_out")
    match_cancelled.connect(on_match_cancelled, dispatch_uid="tournaments.match_cancelled")
