"""Rebuild a game from its record alone, with the rules engine.

The ``Game`` row is a cache of its ``GameEvent`` rows: every state a game can
be in must follow from the start position and the record. :func:`replay_events`
proves it by playing the record again (each move is parsed against the
position and the dice the record gives, so an illegal or impossible record
fails loudly), and :func:`game_differences` compares the result with the
stored row. ``manage.py replay_games`` runs that check over every game; the
list of positions after each ply is what a clickable game record shows.

The functions here only read: they never change a row.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from gammon import BoardView, Color, Position, RulesError, Variant, parse_play

from .models import Game, GameEvent

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

_ENDINGS = {
    GameEvent.Kind.WIN,
    GameEvent.Kind.DRAW,
    GameEvent.Kind.TIMEOUT,
    GameEvent.Kind.ADJUDICATE,
}
#: Endings that may be followed by the WIN that scores them.
_SCORED_LATER = {GameEvent.Kind.TIMEOUT, GameEvent.Kind.ADJUDICATE}


class ReplayError(Exception):
    """The record cannot be played again: an illegal move, or events out of order."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(f"ply {ply}: {message}")
        self.ply = ply


class EventLike(Protocol):
    """What the replay reads of a record entry (a ``GameEvent`` row, or a stand-in)."""

    ply: int
    kind: str
    color: int | None
    die1: int | None
    die2: int | None
    notation: str
    value: int | None


@dataclass
class Replay:
    """A game's state as its record says it is.

    ``white_view`` is the board from White's side, as ``Game.board`` stores it
    (:meth:`position` is the engine's, the mover's view); ``positions`` holds
    ``(ply, white view)`` after every ply, for a clickable record.
    """

    white_view: BoardView
    turn: int
    state: str = Game.State.ROLLING
    cube_value: int = 1
    cube_owner: int | None = None
    dice: tuple[int, int] | None = None
    ply: int = 0
    winner: int | None = None
    points: int = 0
    positions: list[tuple[int, BoardView]] = field(default_factory=list)

    @property
    def board(self) -> dict[str, list[int]]:
        """The board as ``Game.board`` stores it."""
        return self.white_view.to_dict()

    def position(self) -> Position:
        """The engine's position: the mover's view, from the side of the colour on turn."""
        return Position.from_white_view(self.white_view, turn=Color(self.turn))

    def set_position(self, position: Position) -> None:
        """Store ``position`` (the mover's view, whoever is on roll) from White's side."""
        self.white_view = position.to_white_view()


def _dice(event: EventLike) -> tuple[int, int]:
    if event.die1 is None or event.die2 is None:
        raise ReplayError(event.ply, f"a {event.kind} without dice")
    return (event.die1, event.die2)


def _color(event: EventLike) -> Color:
    if event.color not in (0, 1):
        raise ReplayError(event.ply, f"a {event.kind} without a colour")
    return Color(event.color)


def _on_turn(replay: Replay, event: EventLike, *states: str) -> Color:
    color = _color(event)
    if color != replay.turn:
        raise ReplayError(event.ply, f"{color.name} acts ({event.kind}) on the other side's turn")
    if replay.state not in states:
        raise ReplayError(event.ply, f"a {event.kind} while the game is {replay.state}")
    return color


def replay_events(events: Iterable[EventLike], *, variant: Variant | str) -> Replay:
    """Play a game's record from the start position and return where it ends.

    ``events`` must be the whole record in ply order, starting with the
    opening roll. Raises :class:`ReplayError` for a record that the rules or
    the order of play do not allow.
    """
    variant = Variant(variant)
    replay: Replay | None = None
    expected_ply = 1
    last_kind = ""
    for event in events:
        if event.ply != expected_ply:
            raise ReplayError(event.ply, f"expected ply {expected_ply}")
        expected_ply += 1
        if replay is None:
            if event.kind != GameEvent.Kind.OPENING:
                raise ReplayError(event.ply, "the record does not start with the opening roll")
            replay = _opening(event, variant)
        else:
            if replay.state == Game.State.FINISHED and not (
                event.kind == GameEvent.Kind.WIN and last_kind in _SCORED_LATER
            ):
                raise ReplayError(event.ply, f"a {event.kind} after the game ended")
            _apply(replay, event)
        last_kind = event.kind
        replay.ply = event.ply
        replay.positions.append((event.ply, replay.white_view))
    if replay is None:
        raise ReplayError(0, "the record is empty")
    return replay


def _opening(event: EventLike, variant: Variant) -> Replay:
    first = _color(event)
    white_die, black_die = _dice(event)
    if white_die == black_die or (white_die > black_die) != (first == Color.WHITE):
        raise ReplayError(event.ply, "the opening roll does not give the first move to its winner")
    dice = (white_die, black_die) if first == Color.WHITE else (black_die, white_die)
    start = Position.start(variant, first)
    return Replay(
        white_view=start.to_white_view(),
        turn=int(first),
        state=Game.State.MOVING,
        cube_value=event.value or 1,
        dice=dice,
    )


def _apply(replay: Replay, event: EventLike) -> None:
    kind = event.kind
    if kind == GameEvent.Kind.ROLL:
        _on_turn(replay, event, Game.State.ROLLING)
        replay.dice = _dice(event)
        replay.state = Game.State.MOVING
    elif kind in (GameEvent.Kind.MOVE, GameEvent.Kind.PASS):
        _move(replay, event)
    elif kind == GameEvent.Kind.DOUBLE:
        color = _on_turn(replay, event, Game.State.ROLLING)
        if event.value is not None and event.value != replay.cube_value * 2:
            raise ReplayError(event.ply, f"a double to {event.value} of a {replay.cube_value}")
        replay.state = Game.State.DOUBLED
        replay.turn = int(color.other)
    elif kind == GameEvent.Kind.TAKE:
        color = _on_turn(replay, event, Game.State.DOUBLED)
        replay.cube_value *= 2
        replay.cube_owner = int(color)
        replay.turn = int(color.other)
        replay.state = Game.State.ROLLING
    elif kind == GameEvent.Kind.DROP:
        _on_turn(replay, event, Game.State.DOUBLED)  # the WIN that follows ends the game
    elif kind == GameEvent.Kind.RESIGN:
        _color(event)  # either side may resign at any time; the WIN that follows ends it
    elif kind in (GameEvent.Kind.DRAW_OFFER, GameEvent.Kind.DRAW_DECLINE):
        _color(event)
    elif kind in _ENDINGS:
        if kind == GameEvent.Kind.WIN:
            replay.winner = int(_color(event))
            replay.points = event.value or 0
        replay.state = Game.State.FINISHED
        replay.dice = None
    else:
        raise ReplayError(event.ply, f"unknown event kind {kind!r}")


def _move(replay: Replay, event: EventLike) -> None:
    color = _on_turn(replay, event, Game.State.MOVING)
    dice = _dice(event)
    if dice != replay.dice:
        raise ReplayError(event.ply, f"played with {dice}, but the dice were {replay.dice}")
    position = replay.position()
    text = event.notation or "pass"
    try:
        play = parse_play(position, dice, text)
    except RulesError as error:
        raise ReplayError(event.ply, f"{text!r} is not legal: {error}") from None
    if play.is_pass != (event.kind == GameEvent.Kind.PASS):
        raise ReplayError(event.ply, f"a {event.kind} recorded as {text!r}")
    after = play.position
    if not after.bar[0] and all(n <= 0 for n in after.points):
        # Borne off the last checker: the turn stays with the winner; WIN follows.
        replay.set_position(after)
        replay.dice = None
        return
    replay.turn = int(color.other)
    replay.set_position(after.mirror())
    replay.state = Game.State.ROLLING
    replay.dice = None


def replay_game(game: Game) -> Replay:
    """Replay ``game`` from its stored record (one query for the events)."""
    events = list(game.events.order_by("ply"))
    return replay_events(events, variant=game.match.variant)


def stored_state(game: Game) -> dict[str, Any]:
    """The compared fields of the stored row, in the replay's terms."""
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


def game_differences(game: Game, events: Iterable[EventLike] | None = None) -> list[str]:
    """How the stored ``game`` differs from its replay; empty when they agree.

    ``events`` may be passed when already loaded (in ply order).
    """
    try:
        if events is None:
            replay = replay_game(game)
        else:
            replay = replay_events(events, variant=game.match.variant)
    except ReplayError as error:
        return [f"the record cannot be replayed: {error}"]
    stored = stored_state(game)
    replayed = {name: getattr(replay, name) for name in COMPARED_FIELDS}
    return [
        f"{name}: stored {stored[name]!r}, replayed {replayed[name]!r}"
        for name in COMPARED_FIELDS
        if stored[name] != replayed[name]
    ]
