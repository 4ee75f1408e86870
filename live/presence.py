"""A player's sockets on their game's page, counted and told (issue 28's "away" mark).

The consumer calls these (from its database thread) when a socket of a signed-in player
follows ``game.N``, every ``matches.presence.REFRESH_EVERY`` while it stays open, and when
it closes. Only a player of a game in play on a live clock counts (the mark is shown on
its clock panel alone), decided here by ``matches.selectors.live_game_played_by``, never
by the page's script: a spectator's socket never makes anyone "at the board". When a
player's first socket arrives or their last one leaves, the game's public group hears
``{"kind": "presence", "game": N, "player": id, "here": bool}``: that a player is at the
board is public (their name is on the page), nothing else is said. The push leaves after
the commit, as every other (``live.push``).
"""

from __future__ import annotations

from matches.presence import presence_arrive, presence_leave, presence_refresh
from matches.selectors import live_game_played_by

from . import groups, push


def game_of(group: str) -> int | None:
    """The game id of a ``game.N`` group name, None for any other group."""
    kind, _, number = group.partition(".")
    return int(number) if kind == "game" and number.isdigit() else None


def _tell(game_id: int, user_id: int, here: bool) -> None:
    event = {"kind": "presence", "game": game_id, "player": user_id, "here": here}
    push.after_commit(groups.game(game_id), event)


def player_arrive(game_id: int, user_id: int) -> bool:
    """A socket of ``user_id`` follows the game's group: counted if they play the game
    (told to the game's group when it is their first). Returns whether it counts, so the
    socket refreshes it and takes it back when it closes."""
    if not live_game_played_by(game_id, user_id):
        return False
    if presence_arrive(game_id=game_id, user_id=user_id):
        _tell(game_id, user_id, here=True)
    return True


def player_refresh(game_id: int, user_id: int) -> None:
    """An open socket's count kept alive (and made again, told, if it was lost)."""
    if presence_refresh(game_id=game_id, user_id=user_id):
        _tell(game_id, user_id, here=True)


def player_leave(game_id: int, user_id: int) -> None:
    """A counted socket closed: told to the game's group when it was the player's last."""
    if presence_leave(game_id=game_id, user_id=user_id):
        _tell(game_id, user_id, here=False)
