"""Check a stored game against its record: the record, played again, must give the row.

The ``Game`` row is a cache of its ``GameEvent`` rows: every state a game can be in
follows from the start position and the record, by :func:`matches.state.advance`, the
one function the services also apply to each event they append. Replaying is that
function folded over the stored record (:func:`matches.state.replay`): each move is
parsed again against the position and dice the record gives, so an illegal or
impossible record fails loudly. :func:`game_differences` compares the result with the
stored row; ``manage.py replay_games`` runs that check over every game.

The functions here only read: they never change a row.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gammon import Variant

from .models import Game
from .state import Event, GameState, IllegalEventError, Replay, replay

__all__ = [
    "COMPARED_FIELDS",
    "EventLike",
    "Replay",
    "ReplayError",
    "game_differences",
    "replay_events",
    "replay_game",
    "stored_state",
]

#: What the replay check compares between the stored game and its replay.
COMPARED_FIELDS = ("board", "turn", "state", "cube_value", "cube_owner", "dice", "ply")

#: The record cannot be played again (the state machine's refusal, by its older name).
ReplayError = IllegalEventError
#: What the replay reads of a record entry (:class:`matches.state.Event`).
EventLike = Event


def replay_events(events: Iterable[Event], *, variant: Variant | str) -> Replay:
    """Play a game's whole record (in ply order, from the opening roll):
    :func:`matches.state.replay`. Raises :class:`ReplayError` for a record that the rules
    or the order of play do not allow."""
    return replay(events, variant)


def replay_game(game: Game) -> Replay:
    """Replay ``game`` from its stored record (one query for the events)."""
    events = list(game.events.order_by("ply"))
    return replay(events, game.match.variant)


def stored_state(game: Game) -> dict[str, Any]:
    """The compared fields of the stored row, as plain values."""
    return {
        "board": {
            "points": list(game.board.get("points", [])),
            "bar": list(game.board.get("bar", [])),
            "off": list(game.board.get("off", [])),
        },
        "turn": game.turn,
        "state": game.state,
        "cube_value": game.cube_value,
        "cube_owner": game.cube_owner,
        "dice": game.dice,
        "ply": game.ply,
    }


def _replayed_state(state: GameState) -> dict[str, Any]:
    """The compared fields of a replayed state, as :func:`stored_state` gives the row's."""
    return {
        "board": state.board.to_dict(),
        "turn": int(state.turn),
        "state": state.stage.value,
        "cube_value": state.cube_value,
        "cube_owner": None if state.cube_owner is None else int(state.cube_owner),
        "dice": state.dice,
        "ply": state.ply,
    }


def game_differences(game: Game, events: Iterable[Event] | None = None) -> list[str]:
    """How the stored ``game`` differs from its replay; empty when they agree.

    ``events`` may be passed when already loaded (in ply order).
    """
    try:
        if events is None:
            replayed = replay_game(game)
        else:
            replayed = replay(events, game.match.variant)
    except IllegalEventError as error:
        return [f"the record cannot be replayed: {error}"]
    stored = stored_state(game)
    again = _replayed_state(replayed.state)
    return [
        f"{name}: stored {stored[name]!r}, replayed {again[name]!r}"
        for name in COMPARED_FIELDS
        if stored[name] != again[name]
    ]
