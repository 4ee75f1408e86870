"""The player's moves in a game: roll, play, double, take, drop.

Each is one transaction: :func:`record.lock` the game, check the player may act now,
let the engine judge the move, append the record rows (each moves the game on by
:func:`matches.state.advance`) and save. A stale or repeated
submission is refused with a conflict and changes nothing. A play that bears off the
last checker, and a drop, end the game through :mod:`matches.endings`.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction

from accounts.models import User
from gammon import Color, RulesError, parse_play

from . import endings, record
from .errors import from_rules_error
from .models import Game, GameEvent
from .state import bears_off_last


@transaction.atomic
def game_roll(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    """Roll the dice instead of doubling."""
    game, color = record.lock(game_id, player, expected_ply, now)
    record.require_turn(game, color, Game.State.ROLLING)
    record.roll(game, now)
    record.announce_turn(game, now, actor=color)
    return record.save(game, now)


@transaction.atomic
def game_play_move(
    *, game_id: int, player: User, play_text: str, expected_ply: int | None, now: datetime
) -> Game:
    """Play ``play_text`` with the stored dice; the engine decides whether it is legal.

    The text is parsed once, here: the record row carries the play to the state machine.
    """
    game, color = record.lock(game_id, player, expected_ply, now)
    record.require_turn(game, color, Game.State.MOVING)
    try:
        play = parse_play(game.position(), game.dice or (0, 0), play_text)
    except RulesError as error:
        raise from_rules_error(error) from None
    kind = GameEvent.Kind.PASS if play.is_pass else GameEvent.Kind.MOVE
    record.append(
        game,
        kind,
        now,
        color=int(color),
        die1=game.die1,
        die2=game.die2,
        notation=str(play),
        play=play,
    )
    if bears_off_last(play):
        state = record.state_of(game.match, game)
        endings.finish_game(game, state, state.outcome_for_win(play.position), now)
        return game
    record.begin_turn(game, now)
    record.announce_turn(game, now)
    return record.save(game, now)


@transaction.atomic
def game_double(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = record.lock(game_id, player, expected_ply, now)
    record.refuse_chouette(game)
    double(game, color, now)
    record.announce_turn(game, now)
    return record.save(game, now)


def double(game: Game, color: Color, now: datetime) -> None:
    """``color`` turns the cube of the locked ``game`` (in memory; the caller saves).

    The public :func:`game_double` and a chouette's team or box double both come here."""
    state = record.state_of(game.match, game)
    if game.turn == int(color) and game.state != Game.State.DOUBLED:
        # The cube first: where it may not be turned the server already rolled, and
        # "no doubling in the Crawford game" says more than "you have already rolled".
        try:
            state.check_double(color)
        except RulesError as error:
            raise from_rules_error(error) from None
    record.require_turn(game, color, Game.State.ROLLING)
    record.charge_clock(game, now)
    record.append(game, GameEvent.Kind.DOUBLE, now, color=int(color), value=game.cube_value * 2)
    record.start_clock(game, now, color.other)


@transaction.atomic
def game_take(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = record.lock(game_id, player, expected_ply, now)
    record.refuse_chouette(game)
    take(game, color, now)
    record.announce_turn(game, now)
    return record.save(game, now)


def take(game: Game, color: Color, now: datetime) -> None:
    """``color`` takes the double on the locked ``game``, and the doubler's dice are
    thrown (in memory; the caller saves)."""
    record.require_turn(game, color, Game.State.DOUBLED)
    record.charge_clock(game, now)
    record.append(game, GameEvent.Kind.TAKE, now, color=int(color), value=game.cube_value * 2)
    record.start_clock(game, now, color.other)
    record.roll(game, now)


@transaction.atomic
def game_drop(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = record.lock(game_id, player, expected_ply, now)
    record.refuse_chouette(game)
    drop(game, color, now)
    return game


def drop(game: Game, color: Color, now: datetime) -> None:
    """``color`` drops the double on the locked ``game``: the game ends (written)."""
    record.require_turn(game, color, Game.State.DOUBLED)
    record.append(game, GameEvent.Kind.DROP, now, color=int(color), value=game.cube_value)
    state = record.state_of(game.match, game)
    endings.finish_game(game, state, state.outcome_for_drop(color.other), now)
