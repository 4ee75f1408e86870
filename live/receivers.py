"""What each app's signals push to the live connections (after the commit, live/push.py).

Every receiver here only names what changed and where (see :mod:`live.groups`); none
writes anything. They are connected in ``LiveConfig.ready()``.
"""

from __future__ import annotations

from typing import Any

from chouettes import signals as chouette_signals
from matches import signals as match_signals
from notifications.signals import notifications_written
from tournaments.signals import tournament_changed

from . import groups, push


def _game_changed(sender: Any, game: Any, **kwargs: Any) -> None:
    """Anything a viewer of the game would see: its page fetches the new state."""
    push.after_commit(
        groups.game(game.pk), {"kind": "game", "id": game.pk, "ply": game.ply, "state": game.state}
    )


def _turn_started(sender: Any, game: Any, now: Any, **kwargs: Any) -> None:
    """A game that became someone's: their dashboard and badge."""
    player_id = game.match.white_id if game.turn == 0 else game.match.black_id
    push.after_commit(groups.user(player_id), {"kind": "turn", "game": game.pk})


def _notifications_written(sender: Any, rows: Any, **kwargs: Any) -> None:
    for recipient_id in {row.recipient_id for row in rows}:
        push.after_commit(groups.user(recipient_id), {"kind": "notification"})


def _message_posted(sender: Any, message: Any, recipient: Any, now: Any, **kwargs: Any) -> None:
    """A message in a game's chat: its two players only (no text: they fetch it)."""
    for user_id in (message.author_id, recipient.pk):
        push.after_commit(groups.user(user_id), {"kind": "chat", "game": message.game_id})


def _chouette_changed(sender: Any, chouette_id: int, **kwargs: Any) -> None:
    """A seat, a decision, a game settled: its page and its board's panel fetch again."""
    push.after_commit(groups.chouette(chouette_id), {"kind": "chouette", "id": chouette_id})


def _chouette_told(sender: Any, chouette_id: int, readers: Any, **kwargs: Any) -> None:
    """Talk that only its readers may see (the table's members, or the team without the
    box): to their own groups, never to the chouette's public one."""
    for user_id in set(readers):
        push.after_commit(groups.user(user_id), {"kind": "chouette_chat", "chouette": chouette_id})


def _tournament_changed(sender: Any, tournament_id: int, **kwargs: Any) -> None:
    """An entry, a pairing, a result: the tournament's page fetches again."""
    push.after_commit(groups.tournament(tournament_id), {"kind": "tournament", "id": tournament_id})


def connect() -> None:
    match_signals.game_changed.connect(_game_changed, dispatch_uid="live.game_changed")
    match_signals.turn_started.connect(_turn_started, dispatch_uid="live.turn_started")
    match_signals.message_posted.connect(_message_posted, dispatch_uid="live.message_posted")
    notifications_written.connect(_notifications_written, dispatch_uid="live.notifications")
    chouette_signals.chouette_changed.connect(_chouette_changed, dispatch_uid="live.chouette")
    chouette_signals.chouette_told.connect(_chouette_told, dispatch_uid="live.chouette_told")
    tournament_changed.connect(_tournament_changed, dispatch_uid="live.tournament")
