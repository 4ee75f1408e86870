"""What the lobby of live play hears (issue 28): a seek posted, a seek accepted.

Connected in ``LiveConfig.ready()`` beside :mod:`live.receivers`; like them they only
name what changed, after the commit (:mod:`live.push`).
"""

from __future__ import annotations

from typing import Any

from challenges import signals as challenge_signals

from . import groups, push


def _challenge_created(sender: Any, challenge: Any, **kwargs: Any) -> None:
    """A seek of live play: the lobby's list changed."""
    if challenge.live_delay is not None and challenge.opponent_id is None:
        push.after_commit(groups.LOBBY, {"kind": "lobby"})


def _challenge_accepted(sender: Any, challenge: Any, game: Any, **kwargs: Any) -> None:
    """A live match begins: both players go to its board at once (the acceptor's own
    page is answered with it; the seeker waits in the lobby), and the lobby loses a seek."""
    if challenge.live_delay is None:
        return
    push.after_commit(groups.LOBBY, {"kind": "lobby"})
    event = {"kind": "match_started", "game": game.pk, "url": game.get_absolute_url()}
    for user_id in (challenge.challenger_id, challenge.opponent_id):
        push.after_commit(groups.user(user_id), event)


def connect() -> None:
    challenge_signals.challenge_created.connect(_challenge_created, dispatch_uid="live.seek")
    challenge_signals.challenge_accepted.connect(
        _challenge_accepted, dispatch_uid="live.seek_accepted"
    )
