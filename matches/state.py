"""One definition of a game's state, and of how each entry of its record moves it on.

A game is its record: the opening roll, then every roll, play, cube action and ending,
one ``GameEvent`` per ply. :func:`advance` is the one function from a state and the
next event to the state after it, refusing (:class:`IllegalEventError`) an event that
is out of turn, out of order or against the rules. Both sides of the house use it:

- the services (``matches.record`` and the actions built on it) call it for every event
  they append, and store on the ``Game`` row the state it returns
  (:meth:`matches.models.Game.set_game_state`): the row is a cache of its record;
- :func:`replay` folds it over a stored record, which is how ``matches.replay`` checks
  that a row is that cache, and how the game page shows the board at any ply.

What the record does not say stays with the services: deadlines, clocks and banks,
when and how a game finished (``finished_at``, ``termination``), the match's score and
status, who is told, and when the server rolls or passes on its own (it then appends
the roll or the pass as a player would).

Pure Python: the rules engine and the standard library only, no Django, so the state
machine can be read, tested and reused without a database.

>>> from types import SimpleNamespace as Event
>>> def event(ply, kind, color=None, dice=(None, None), notation="", value=None):
...     return Event(ply=ply, kind=kind, color=color, die1=dice[0], die2=dice[1],
...                  notation=notation, value=value)
>>> state = opening(event(1, "opening", 0, (3, 1)), Variant.STANDARD)
>>> state.stage, state.turn, state.dice
(<Stage.MOVING: 'moving'>, <Color.WHITE: 0>, (3, 1))
>>> state = advance(state, event(2, "move", 0, (3, 1), "8/5 6/5"))
>>> state.stage, state.turn, state.dice, state.ply
(<Stage.ROLLING: 'rolling'>, <Color.BLACK: 1>, None, 2)
>>> advance(state, event(3, "roll", 0, (6, 6)))
Traceback (most recent call last):
...
matches.state.IllegalEventError: ply 3: WHITE acts (roll) on the other side's turn
"""

from __future__ import annotations

import enum
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Protocol

from gammon import BoardView, Color, Play, Position, RulesError, Variant, parse_play

__all__ = [
    "Event",
    "EventKind",
    "GameState",
    "IllegalEventError",
    "Replay",
    "Stage",
    "advance",
    "bears_off_last",
    "opening",
    "replay",
]


class Stage(enum.StrEnum):
    """What the game waits for; the values are those ``Game.state`` stores."""

    ROLLING = "rolling"  # the player on turn rolls (or doubles first)
    MOVING = "moving"  # the player on turn plays the dice
    DOUBLED = "doubled"  # the player on turn answers a double
    RESIGNING = "resigning"  # the player on turn answers the opponent's offer to resign
    FINISHED = "finished"


class EventKind(enum.StrEnum):
    """The kinds of record entry; the values are those ``GameEvent.kind`` stores."""

    OPENING = "opening"
    ROLL = "roll"
    MOVE = "move"
    PASS = "pass"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    RESIGN = "resign"
    RESIGN_OFFER = "resign_offer"
    RESIGN_DECLINE = "resign_decline"
    RESIGN_ACCEPT = "resign_accept"
    TIMEOUT = "timeout"
    TIMEOUT_CLAIM = "timeout_claim"
    DRAW_OFFER = "draw_offer"
    DRAW_DECLINE = "draw_decline"
    DRAW = "draw"
    WIN = "win"
    ADJUDICATE = "adjudicate"


class IllegalEventError(ValueError):
    """The event cannot follow this state: an illegal move, or an event out of turn or
    out of order. ``matches.replay`` calls it ``ReplayError``."""

    def __init__(self, ply: int, message: str) -> None:
        super().__init__(f"ply {ply}: {message}")
        self.ply = ply


class Event(Protocol):
    """What the state machine reads of a record entry (a ``GameEvent`` row, or a stand-in)."""

    @property
    def ply(self) -> int: ...
    @property
    def kind(self) -> str: ...
    @property
    def color(self) -> int | None: ...
    @property
    def die1(self) -> int | None: ...
    @property
    def die2(self) -> int | None: ...
    @property
    def notation(self) -> str: ...
    @property
    def value(self) -> int | None: ...


@dataclass(frozen=True, slots=True)
class GameState:
    """A game's state as its record says it is, after ply ``ply``.

    ``board`` is seen from White's side, whoever is on turn, as ``Game.board`` stores it
    (:meth:`position` gives the engine's, the mover's view). ``turn`` is whose action it
    is. After the last checker is borne off the turn stays with the winner, with no dice,
    until the ``win`` entry finishes the game; ``winner`` and ``points`` are the win's.

    ``resign_offer`` is the resignation on offer while the game is ``resigning`` (1, 2
    or 3: a single game, a gammon or a backgammon), the opponent of the offerer on turn
    to answer, and after an accepted one the level accepted; ``resign_declined`` is the
    highest offer declined since the turn of the player on roll began: they may offer
    only more until their turn ends.
    """

    board: BoardView
    turn: Color
    stage: Stage
    cube_value: int = 1
    cube_owner: Color | None = None
    dice: tuple[int, int] | None = None
    ply: int = 0
    winner: Color | None = None
    points: int = 0
    resign_offer: int = 0
    resign_declined: int = 0

    def position(self) -> Position:
        """The engine's position: the mover's view, from the side of the colour on turn."""
        return Position.from_white_view(self.board, turn=self.turn)

    @property
    def is_finished(self) -> bool:
        return self.stage is Stage.FINISHED


@dataclass(frozen=True, slots=True)
class Replay:
    """A record played again (:func:`replay`): where it ends, and the board after each ply.

    ``positions`` holds ``(ply, board from White's side)`` for every ply, in order: what
    the game page's clickable record shows.
    """

    state: GameState
    positions: tuple[tuple[int, BoardView], ...]

    @property
    def board(self) -> dict[str, list[int]]:
        """The final board as ``Game.board`` stores it."""
        return self.state.board.to_dict()

    def position(self) -> Position:
        """The final position, in the mover's view."""
        return self.state.position()


def bears_off_last(play: Play) -> bool:
    """Whether ``play`` bears off the mover's last checker (the game is won)."""
    after = play.position
    return not after.bar[0] and all(n <= 0 for n in after.points)


def _dice(event: Event) -> tuple[int, int]:
    if event.die1 is None or event.die2 is None:
        raise IllegalEventError(event.ply, f"a {event.kind} without dice")
    return (event.die1, event.die2)


def _color(event: Event) -> Color:
    if event.color not in (0, 1):
        raise IllegalEventError(event.ply, f"a {event.kind} without a colour")
    return Color(event.color)


def _on_turn(state: GameState, event: Event, *stages: Stage) -> Color:
    """The event's colour, which must be on turn, in one of ``stages`` (any if none)."""
    color = _color(event)
    if color != state.turn:
        raise IllegalEventError(
            event.ply, f"{color.name} acts ({event.kind}) on the other side's turn"
        )
    if stages and state.stage not in stages:
        raise IllegalEventError(event.ply, f"a {event.kind} while the game is {state.stage}")
    return color


def opening(event: Event, variant: Variant | str) -> GameState:
    """The state after the opening roll ``event``: its winner moves first, with both dice.

    ``event.die1`` is White's die and ``die2`` Black's; ``value`` is the cube after
    automatic doubles for tied opening throws (none: 1).
    """
    if event.ply != 1:
        raise IllegalEventError(event.ply, "expected ply 1")
    if event.kind != EventKind.OPENING:
        raise IllegalEventError(event.ply, "the record does not start with the opening roll")
    first = _color(event)
    white_die, black_die = _dice(event)
    if white_die == black_die or (white_die > black_die) != (first == Color.WHITE):
        raise IllegalEventError(
            event.ply, "the opening roll does not give the first move to its winner"
        )
    dice = (white_die, black_die) if first == Color.WHITE else (black_die, white_die)
    return GameState(
        board=Position.start(Variant(variant), first).to_white_view(),
        turn=first,
        stage=Stage.MOVING,
        cube_value=event.value or 1,
        dice=dice,
        ply=1,
    )


def advance(
    state: GameState | None,
    event: Event,
    *,
    variant: Variant | str = Variant.STANDARD,
    play: Play | None = None,
) -> GameState:
    """The state after ``event``, the entry of ply ``state.ply + 1``.

    ``state`` None is a game not started: ``event`` must be its opening roll, in
    ``variant`` (:func:`opening`); ``variant`` is read for nothing else. ``play`` is a
    move's or a pass's play when the caller has parsed it already, against this state's
    position and dice (the services did, to judge the move: the play is parsed once);
    it must start from this state's position and have the event's notation. Without it
    the notation is parsed here.

    Raises :class:`IllegalEventError` for an event out of order, out of turn, in the
    wrong stage, with other dice, against the rules, or after the game ended.
    """
    if state is None:
        return opening(event, variant)
    if event.ply != state.ply + 1:
        raise IllegalEventError(event.ply, f"expected ply {state.ply + 1}")
    try:
        kind = EventKind(event.kind)
    except ValueError:
        raise IllegalEventError(event.ply, f"unknown event kind {event.kind!r}") from None
    if kind is EventKind.OPENING:
        raise IllegalEventError(event.ply, "the opening roll comes first, and once")
    if state.is_finished:
        raise IllegalEventError(event.ply, f"a {kind} after the game ended")
    return replace(_next(state, kind, event, play), ply=event.ply)


def _next(state: GameState, kind: EventKind, event: Event, play: Play | None) -> GameState:
    """:func:`advance` for an event in order, of a live game (the ply is set by the caller)."""
    if kind is EventKind.ROLL:
        _on_turn(state, event, Stage.ROLLING)
        return replace(state, dice=_dice(event), stage=Stage.MOVING)
    if kind in (EventKind.MOVE, EventKind.PASS):
        return _move(state, kind, event, play)
    if kind is EventKind.DOUBLE:
        color = _on_turn(state, event, Stage.ROLLING)
        _check_cube(state, event)
        return replace(state, stage=Stage.DOUBLED, turn=color.other)
    if kind is EventKind.TAKE:
        color = _on_turn(state, event, Stage.DOUBLED)
        _check_cube(state, event)
        return replace(
            state,
            cube_value=state.cube_value * 2,
            cube_owner=color,
            turn=color.other,
            stage=Stage.ROLLING,
        )
    if kind is EventKind.DROP:
        _on_turn(state, event, Stage.DOUBLED)  # the win that follows ends the game
        return state
    if kind is EventKind.TIMEOUT:
        _on_turn(state, event)  # the player on turn ran out of time; the win follows
        return state
    if kind is EventKind.TIMEOUT_CLAIM:
        claimer = _color(event)  # the opponent of the player on turn, whose clock ran out
        if claimer == state.turn:
            raise IllegalEventError(event.ply, f"{claimer.name} claims a time-out on its own turn")
        return state  # the win that follows ends the game
    if kind in (EventKind.RESIGN_OFFER, EventKind.RESIGN_DECLINE, EventKind.RESIGN_ACCEPT):
        return _resignation(state, kind, event)
    if kind in (EventKind.RESIGN, EventKind.DRAW_OFFER, EventKind.DRAW_DECLINE):
        _color(event)  # either side, at any time; after a resignation the win follows
        return state
    if kind is EventKind.ADJUDICATE and event.color is not None:
        _color(event)  # awarded to that colour: the win that follows scores it
        return state
    if kind in (EventKind.DRAW, EventKind.ADJUDICATE):  # a draw, or a moderator's draw or cancel
        if kind is EventKind.DRAW:
            _color(event)
        return replace(state, stage=Stage.FINISHED, dice=None, winner=None, points=0)
    # EventKind.WIN
    winner = _color(event)
    return replace(state, stage=Stage.FINISHED, dice=None, winner=winner, points=event.value or 0)


def _resignation(state: GameState, kind: EventKind, event: Event) -> GameState:
    """An offer to resign and its answer, as in gnubg: the player on turn (before or
    after rolling, not while a double waits) offers a single game, a gammon or a
    backgammon (``value`` 1, 2, 3), and the turn passes to the opponent to answer. A
    decline gives the turn back where it was, dice and all, and the offerer may offer only
    more this turn; an accept is followed by the win, for the points offered."""
    if kind is EventKind.RESIGN_OFFER:
        color = _on_turn(state, event, Stage.ROLLING, Stage.MOVING)
        level = event.value or 0
        if not 1 <= level <= 3:
            raise IllegalEventError(event.ply, f"a resignation offer of {level}")
        if level <= state.resign_declined:
            raise IllegalEventError(
                event.ply, f"an offer of {level} after one of {state.resign_declined} declined"
            )
        return replace(state, stage=Stage.RESIGNING, turn=color.other, resign_offer=level)
    color = _on_turn(state, event, Stage.RESIGNING)
    if kind is EventKind.RESIGN_ACCEPT:
        if event.value != state.resign_offer:
            raise IllegalEventError(
                event.ply, f"accepts {event.value} where {state.resign_offer} was offered"
            )
        return state  # the win that follows ends the game
    return replace(
        state,
        stage=Stage.MOVING if state.dice else Stage.ROLLING,
        turn=color.other,
        resign_declined=state.resign_offer,
        resign_offer=0,
    )


def _check_cube(state: GameState, event: Event) -> None:
    """A double or a take names the cube's new value, twice the old one (or none)."""
    if event.value is not None and event.value != state.cube_value * 2:
        raise IllegalEventError(
            event.ply, f"a {event.kind} to {event.value} of a {state.cube_value}"
        )


def _move(state: GameState, kind: EventKind, event: Event, play: Play | None) -> GameState:
    color = _on_turn(state, event, Stage.MOVING)
    dice = _dice(event)
    if dice != state.dice:
        raise IllegalEventError(event.ply, f"played with {dice}, but the dice were {state.dice}")
    position = state.position()
    text = event.notation or "pass"
    if play is None:
        try:
            play = parse_play(position, dice, text)
        except RulesError as error:
            raise IllegalEventError(event.ply, f"{text!r} is not legal: {error}") from None
    elif play.origin != position or str(play) != text:
        raise IllegalEventError(event.ply, f"the play given is not {text!r} from this position")
    if play.is_pass != (kind is EventKind.PASS):
        raise IllegalEventError(event.ply, f"a {kind} recorded as {text!r}")
    if bears_off_last(play):
        # The turn stays with the winner, and the stage too; the win that follows ends it.
        return replace(state, board=play.position.to_white_view(), dice=None)
    return replace(
        state,
        board=play.next_position().to_white_view(),
        turn=color.other,
        stage=Stage.ROLLING,
        dice=None,
        resign_declined=0,  # a new turn: its player offers what they like
    )


def replay(events: Iterable[Event], variant: Variant | str) -> Replay:
    """Play a whole record, in ply order from the opening roll: :func:`advance` folded
    over ``events``. Raises :class:`IllegalEventError` for a record that the rules or the
    order of play do not allow, or an empty one."""
    state: GameState | None = None
    positions: list[tuple[int, BoardView]] = []
    for event in events:
        state = advance(state, event, variant=variant)
        positions.append((state.ply, state.board))
    if state is None:
        raise IllegalEventError(0, "the record is empty")
    return Replay(state, tuple(positions))
