"""Receivers for ``matches.signals``; connected in ``ChouettesConfig.ready()``.

Thin: a chouette's board ending settles its game and starts the next one, inside
the transaction that ended the board, so the settlement commits with it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from matches.models import Match
from matches.signals import match_cancelled, match_finished

from . import services


def on_match_finished(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    if match.chouette:
        services.game_settle(match, now)


def on_match_cancelled(sender: type, *, match: Match, now: datetime, **kwargs: Any) -> None:
    if match.chouette:
        services.game_void(match, now)


def connect() -> None:
    match_finished.connect(on_match_finished, dispatch_uid="chouettes.match_finished")
    match_cancelled.connect(on_match_cancelled, dispatch_uid="chouettes.match_cancelled")
