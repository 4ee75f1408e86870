"""What ``matches`` asks the apps above it: what a match belongs to, and what a chouette's
board waits for off the board.

``matches`` imports no app but ``accounts``, yet its API shows a tournament match's
pairing and a chouette board's decisions. It asks through the two question signals of
:mod:`matches.signals`, whose receivers (``tournaments``, ``chouettes``, connected in
their ``AppConfig.ready()``) answer with their return values; this module says what an
answer holds and merges them. An ordinary match costs one indexed lookup (is it a
tournament's?) and a game of it none: the board question is sent only for a chouette's
board (``Match.chouette``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, cast

from .models import Game, Match
from .selectors import Awaiting
from .selectors import game_awaiting as board_awaiting
from .signals import board_awaiting_asked, match_belongings_asked


@dataclass(frozen=True)
class Pairing:
    """A tournament match's place: its stage, round and index in the round."""

    stage: str
    round: int
    index: int


@dataclass(frozen=True)
class Belonging:
    """What a match belongs to, as the API shows it (``belongs_to``)."""

    #: ``tournament`` or ``chouette``.
    kind: str
    #: The tournament's or the chouette's id.
    id: int
    #: Its API path (``/api/tournaments/{id}/``, ``/api/chouettes/{id}/``).
    url: str
    #: The tournament's name; None for a chouette.
    name: str | None = None
    #: A tournament match's place.
    pairing: Pairing | None = None
    #: A chouette board's game number.
    game: int | None = None
    #: The page of the tournament or the chouette (the dashboard's link).
    page: str = ""
    #: A chouette board held for its team: the first deadline of the votes or answers it
    #: waits for (the board's own clock stops meanwhile).
    deadline: datetime | None = None


def belongings(matches: Sequence[Match]) -> dict[int, Belonging]:
    """What each of ``matches`` belongs to, by match id (a match of no one's is left out).
    One question for the whole list: each app answers it in one query at most."""
    found: dict[int, Belonging] = {}
    if not matches:
        return found
    for _receiver, answer in match_belongings_asked.send(sender=Match, matches=list(matches)):
        found.update(cast("dict[int, Belonging] | None", answer) or {})
    return found


def belonging(match: Match) -> Belonging | None:
    return belongings([match]).get(match.pk)


def belonging_data(belonging: Belonging | None) -> dict[str, Any] | None:
    """The API's ``belongs_to`` (``matches.serializers.BelongsToSerializer``)."""
    if belonging is None:
        return None
    pairing = belonging.pairing
    return {
        "kind": belonging.kind,
        "id": belonging.id,
        "url": belonging.url,
        "name": belonging.name,
        "pairing": None
        if pairing is None
        else {"stage": pairing.stage, "round": pairing.round, "index": pairing.index},
        "game": belonging.game,
    }


def game_awaiting(game: Game) -> list[Awaiting]:
    """Every answer ``game`` waits for, and where each is sent: the board's own
    (:func:`matches.selectors.game_awaiting`), or, for a chouette's board, what the
    chouette says (its members' votes and answers while the board is held, the box's
    answer to the team's double, the board's roll or move). A held board no app claims
    waits for nothing that is sent to it."""
    if game.match.chouette:
        for _receiver, answer in board_awaiting_asked.send(sender=Game, game=game):
            if answer is not None:
                return list(cast("list[Awaiting]", answer))
    if game.held:
        return []
    return board_awaiting(game)
