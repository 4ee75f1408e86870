"""The groups a live connection may follow, and the one each user is in.

A group is named by what changes in it: ``game.12`` (a game's board, cube, offers and
end), ``chouette.3`` (a chouette's decisions and games), ``tournament.7`` (its pairings
and results), ``lobby`` (the open seeks of live play), ``user.5`` (what concerns one
player alone: a game that became theirs, a notification, a message they may read).

Games, chouettes, tournaments and the lobby are public: their pages are. What a push
says is only *that* something changed there (``{"kind": "game", "id": 12, "ply": 31}``),
never what a player may keep private (a message's text, a team's talk, an analysis);
the page then fetches what changed through its own view, which applies the page's own
authorization. Private changes go to the ``user.N`` groups of those who may read them.
"""

from __future__ import annotations

import re

#: The public groups a connection may ask to follow, by name.
PUBLIC = re.compile(r"^(?:game|chouette|tournament)\.[1-9][0-9]{0,17}$|^lobby$")
#: The most groups one connection follows (a page follows one or two).
MAX_FOLLOWED = 8


def game(game_id: int) -> str:
    return f"game.{game_id}"


def chouette(chouette_id: int) -> str:
    return f"chouette.{chouette_id}"


def tournament(tournament_id: int) -> str:
    return f"tournament.{tournament_id}"


def user(user_id: int) -> str:
    return f"user.{user_id}"


LOBBY = "lobby"


def followable(name: object) -> bool:
    """Whether a connection may follow ``name``: a public group, well formed."""
    return isinstance(name, str) and PUBLIC.match(name) is not None
