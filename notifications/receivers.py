"""Receivers for the signals of ``matches`` and ``challenges``; connected by
:func:`connect` in ``NotificationsConfig.ready()``.

Thin: each passes the signal's arguments to :mod:`notifications.notices` (or the
inbox). They run inside the transaction that sent the signal, so the rows commit or
roll back with the change that owes them.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.dispatch import Signal

from accounts.models import User
from challenges import signals as challenge_signals
from challenges.models import Challenge
from chouettes import signals as chouette_signals
from chouettes.models import Chouette, ChouetteGame
from gammon import Color
from matches import signals as match_signals
from matches.models import Game, GameMessage, Match

from . import inbox, notices


def on_turn_started(
    sender: type, *, game: Game, now: datetime, told: bool = False, **kwargs: Any
) -> None:
    if not told:  # else the sender writes the notice with its own (notices.turn_notice)
        notices.notice_turn(game, now)


def on_draw_offered(
    sender: type, *, game: Game, color: Color, now: datetime, **kwargs: Any
) -> None:
    notices.notice_draw_offer(game, color, now)


def on_game_finished(sender: type, *, game: Game, now: datetime, **kwargs: Any) -> None:
    notices.notices_game_ended([game], now)


def on_games_timed_out(
    sender: type, *, games: list[Game], matches: list[Match], now: datetime, **kwargs: Any
) -> None:
    notices.notices_game_ended(games, now)


def on_message_posted(
    sender: type, *, message: GameMessage, recipient: User, now: datetime, **kwargs: Any
) -> None:
    notices.notice_message(message, recipient, now)


def on_messages_shown(
    sender: type, *, game: Game, user: User, now: datetime, **kwargs: Any
) -> None:
    inbox.notifications_mark_messages_read(user=user, game=game, now=now)


def on_game_shown(sender: type, *, game: Game, user: User, now: datetime, **kwargs: Any) -> None:
    inbox.mark_game_read_once(user=user, game=game, now=now)


def on_challenge_created(
    sender: type, *, challenge: Challenge, now: datetime, **kwargs: Any
) -> None:
    notices.notice_challenge_received(challenge, now)


def on_challenge_accepted(
    sender: type, *, challenge: Challenge, game: Game, now: datetime, **kwargs: Any
) -> None:
    notices.notice_challenge_accepted(challenge, game, now)


def on_challenge_declined(
    sender: type, *, challenge: Challenge, now: datetime, **kwargs: Any
) -> None:
    notices.notice_challenge_declined(challenge, now)


def on_chouette_invited(
    sender: type, *, chouette: Chouette, players: list[User], now: datetime, **kwargs: Any
) -> None:
    notices.notices_chouette_invited(chouette, players, now)


def on_decision_awaited(
    sender: type,
    *,
    game: ChouetteGame,
    kind: str,
    players: list[User],
    now: datetime,
    **kwargs: Any,
) -> None:
    notices.notices_decision_awaited(game, kind, players, now)


def on_chouette_game_settled(
    sender: type, *, game: ChouetteGame, now: datetime, **kwargs: Any
) -> None:
    notices.notices_chouette_settled(game, now)


def on_chouette_finished(sender: type, *, chouette: Chouette, now: datetime, **kwargs: Any) -> None:
    notices.notices_chouette_over(chouette, now)


def connect() -> None:
    pairs: list[tuple[Signal, Callable[..., None]]] = [
        (match_signals.turn_started, on_turn_started),
        (match_signals.draw_offered, on_draw_offered),
        (match_signals.game_finished, on_game_finished),
        (match_signals.games_timed_out, on_games_timed_out),
        (match_signals.message_posted, on_message_posted),
        (match_signals.messages_shown, on_messages_shown),
        (match_signals.game_shown, on_game_shown),
        (challenge_signals.challenge_created, on_challenge_created),
        (challenge_signals.challenge_accepted, on_challenge_accepted),
        (challenge_signals.challenge_declined, on_challenge_declined),
        (chouette_signals.chouette_invited, on_chouette_invited),
        (chouette_signals.decision_awaited, on_decision_awaited),
        (chouette_signals.chouette_game_settled, on_chouette_game_settled),
        (chouette_signals.chouette_finished, on_chouette_finished),
    ]
    for signal, receiver in pairs:
        signal.connect(receiver, dispatch_uid=f"notifications.{receiver.__name__}")
