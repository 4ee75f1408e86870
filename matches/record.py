r"""A game's record and how it moves on: the steps every game action is made of.

An action (``matches.turns``, ``matches.endings``, ``matches.moderator_actions``)
:func:`lock`\ s the game (and reads its match), checks who may act, then :func:`append`\ s
record rows; :func:`save` writes the game row and its new events (one ``UPDATE``, one
``INSERT``). Each row appended moves the game on by :func:`matches.state.advance`, the
state machine the replay check folds over the record too: the turn, the stage, the dice,
the cube, the board, the ply and the winner are never set by hand. The services set only
what the record does not say: deadlines, clocks and banks, the ending's time and kind,
the match. The steps the server takes on its own are
here too: the roll for a player who may not double (:func:`begin_turn`), the pass of a
turn with no legal play (:func:`after_roll`), and the opening of a new game
(:func:`start_game`). Who must act next is announced with the ``turn_started`` signal.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import TYPE_CHECKING, Any

from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from gammon import (
    Color,
    Cube,
    Dice,
    MatchLengthError,
    MatchState,
    Play,
    SystemDice,
    legal_plays,
    opening_roll,
)

from . import timecontrol
from .models import Game, GameEvent, Match, Vacation
from .signals import game_changed, turn_started
from .state import advance

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: The dice every service uses; tests swap in ``FixedDice``.
dice: Dice = SystemDice()


_MAX_AUTOMATIC_TURNS = 200


def state_of(match: Match, game: Game | None = None) -> MatchState:
    """The engine's view of the match, for the game being played."""
    cube = Cube(
        game.cube_value if game else 1,
        Color(game.cube_owner) if game and game.cube_owner is not None else None,
        match.cube_limit,
    )
    crawford = bool(game and game.crawford)
    return MatchState(
        length=match.length,
        score=match.score,
        crawford=crawford,
        post_crawford=match.crawford_played and not crawford and not match.is_money,
        cube=cube,
        jacoby=match.jacoby,
        automatic_doubles=match.automatic_doubles,
        automatic_doubles_this_game=game.automatic_doubles if game else 0,
        game_number=game.number if game else 1,
    )


def match_state(match: Match, game: Game | None = None) -> MatchState:
    """The engine's view of ``match`` (for selectors and the API)."""
    try:
        return state_of(match, game)
    except MatchLengthError:  # pragma: no cover - guarded by the model validators
        raise InvalidAction(_("This match has an impossible length.")) from None


def deadline(match: Match, now: datetime, color: Color) -> datetime | None:
    """When ``color`` loses on time if their turn starts ``now``: move time, bank, vacations.

    None on a live clock: the sweep never ends a live game; its time-out is claimed
    (:func:`matches.endings.game_claim_time`)."""
    if match.is_live:
        return None
    return timecontrol.deadline_for(
        days_per_move=match.days_per_move,
        bank=timecontrol.bank_of(match, color),
        now=now,
        away=timecontrol.away_intervals_of(match.player(color), now),
    )


def start_clock(game: Game, now: datetime, color: Color) -> None:
    """``color``'s turn (or answer) starts ``now``: their deadline, and the start a live
    clock runs from. In memory; the caller saves the game."""
    game.deadline_at = deadline(game.match, now, color)
    game.turn_started_at = now


def charge_clock(
    game: Game, now: datetime, *, color: Color | None = None, save: bool = True
) -> None:
    """The player on turn (or ``color``, whose turn the record has just ended) acts at
    ``now``: an overrun of their move time, the game's ``deadline_at``, comes off their bank.

    ``save=False`` only sets the bank on the match, for a caller that saves the match next.
    """
    match = game.match
    if color is None:
        color = game.turn_color
    bank = timecontrol.bank_of(match, color)
    if match.live_delay is not None:  # a live clock: the delay first, then the reserve
        if game.turn_started_at is None or not bank:
            return
        left = timecontrol.live_reserve_after(
            turn_started_at=game.turn_started_at, delay=match.live_delay, reserve=bank, now=now
        )
    elif game.deadline_at is None or not bank:
        return
    elif game.deadline_at <= now:  # out of time: the bank is spent, whatever the vacations
        left = timecontrol.ZERO
    else:
        left = timecontrol.bank_after_turn(
            bank=bank,
            deadline_at=game.deadline_at,
            now=now,
            away=timecontrol.away_intervals_of(match.player(color), now),
        )
    if left != bank:
        field = timecontrol.set_bank(match, color, left)
        if save:
            match.save(update_fields=[field])


def announce_turn(
    game: Game, now: datetime, *, actor: Color | None = None, told: bool = False
) -> None:
    """Send ``turn_started``: the player on turn must act (roll, move or answer a double),
    unless they are ``actor``, who was on turn already. ``told``: the caller writes the
    player's notice of the turn itself (see the signal)."""
    if game.is_finished or (actor is not None and game.turn == int(actor)):
        return
    turn_started.send(sender=Game, game=game, now=now, told=told)


#: The actions that end a player's turn or answer: on a live clock each records ``took``.
_TIMED = frozenset(
    {
        GameEvent.Kind.MOVE,
        GameEvent.Kind.PASS,
        GameEvent.Kind.DOUBLE,
        GameEvent.Kind.TAKE,
        GameEvent.Kind.DROP,
        GameEvent.Kind.RESIGN_OFFER,
        GameEvent.Kind.RESIGN_ACCEPT,
        GameEvent.Kind.RESIGN_DECLINE,
    }
)


def new_event(
    game: Game, kind: str, now: datetime, *, play: Play | None = None, **fields: Any
) -> GameEvent:
    """The game's next record row, not saved yet; the game (in memory) takes the state the
    row leads to, by :func:`matches.state.advance`.

    ``play``: a move's or a pass's play, already parsed against the game's position and
    dice (it is not parsed again). A row the state machine refuses raises
    :class:`matches.state.IllegalEventError`: the service's own checks let through an
    action the record cannot hold, a bug, not the player's error.
    """
    if (
        kind in _TIMED
        and game.turn_started_at is not None
        and game.match.is_live
        and fields.get("color") == game.turn
    ):
        fields["took"] = now - game.turn_started_at  # the live record keeps the clock
    event = GameEvent(game=game, ply=game.ply + 1, kind=kind, created_at=now, **fields)
    game.set_game_state(advance(game.game_state(), event, variant=game.match.variant, play=play))
    return event


def append(
    game: Game, kind: str, now: datetime, *, play: Play | None = None, **fields: Any
) -> GameEvent:
    """:func:`new_event`, written by the game's next :func:`write`."""
    event = new_event(game, kind, now, play=play, **fields)
    game.record(event)
    return event


def start_game(match: Match, *, number: int, state: MatchState, now: datetime) -> Game:
    """Create game ``number``, throw the opening roll, and let the winner move.

    The opening roll is the record's first row: the start position, the first mover,
    the dice and the cube (after automatic doubles for tied throws) follow from it.
    """
    first, (white_die, black_die), ties = opening_roll(dice)
    state = replace(state, cube=Cube(1, None, match.cube_limit), automatic_doubles_this_game=0)
    state = state.with_opening_ties(ties)
    game = Game(
        match=match,
        number=number,
        automatic_doubles=state.automatic_doubles_this_game,
        crawford=state.crawford,
        started_at=now,
        updated_at=now,
        deadline_at=deadline(match, now, first),
        turn_started_at=now,
    )
    append(
        game,
        GameEvent.Kind.OPENING,
        now,
        color=int(first),
        die1=white_die,
        die2=black_die,
        value=state.cube.value if ties and state.cube.value > 1 else None,
    )
    after_roll(game, now)  # (the start position has a play for every opening roll)
    write(game)  # one INSERT for the game, one for its record
    return game


def after_roll(game: Game, now: datetime, depth: int = 0) -> None:
    """With dice on the board: a turn with no legal play passes at once."""
    position = game.position()
    if legal_plays(position, game.dice or (0, 0)):
        return
    append(
        game,
        GameEvent.Kind.PASS,
        now,
        color=game.turn,
        die1=game.die1,
        die2=game.die2,
        notation="pass",
        play=Play.passing(position),
    )
    begin_turn(game, now, depth)


def begin_turn(game: Game, now: datetime, depth: int = 0) -> None:
    """The record has handed the turn on (a move or a pass): the clock of the player who
    moved is charged, the player now on turn gets their deadline and may offer a draw
    again, and the server rolls for them at once when they may not double."""
    color = game.turn_color
    charge_clock(game, now, color=color.other)
    start_clock(game, now, color)
    game.note_draw_offer(color, offered=False)  # a new turn: they may offer a draw again
    if state_of(game.match, game).can_double(color) or depth > _MAX_AUTOMATIC_TURNS:
        return
    roll(game, now, depth)


def roll(game: Game, now: datetime, depth: int = 0) -> None:
    """Throw the dice for the player on turn (the record's ``roll``), and pass for them
    when the throw has no legal play."""
    die1, die2 = dice.roll()
    append(game, GameEvent.Kind.ROLL, now, color=game.turn, die1=die1, die2=die2)
    after_roll(game, now, depth + 1)


def lock_game(game_id: int, now: datetime) -> Game:
    """Lock the game row, read by its key; its match and players come in the same query,
    unlocked, for the checks, the notification rows and the API's response, with whether
    each player has a vacation ending after ``now`` (an ``Exists`` on the index
    ``vacation_user_end``), so the clock reads a player's vacations only when there are
    some (:func:`timecontrol.away_intervals_of`). A game that does not exist is a 404.

    Only the game row is locked, the one row every action writes. Whoever writes the
    match (its clock's bank, its score, its end) locks its game in play first (the moves,
    the endings, the expiry sweep, the moderators, a chouette's board, a tournament's
    boards), so the game's lock orders them, and a move leaves the match row alone.
    """
    ahead = Vacation.objects.filter(ends_at__gt=now)
    try:
        game = (
            Game.objects.select_for_update(of=("self",))
            .select_related("match__white", "match__black")
            .annotate(
                white_away=Exists(ahead.filter(user_id=OuterRef("match__white_id"))),
                black_away=Exists(ahead.filter(user_id=OuterRef("match__black_id"))),
            )
            .get(pk=game_id)
        )
    except Game.DoesNotExist:
        raise NotFound(_("No such game.")) from None
    timecontrol.note_vacation_ahead(game.match.white, game.white_away)
    timecontrol.note_vacation_ahead(game.match.black, game.black_away)
    return game


def lock(game_id: int, user: User, expected_ply: int | None, now: datetime) -> tuple[Game, Color]:
    """Lock the game (:func:`lock_game`); check the user plays in it, it is live, its board
    is not held, and the ply is current."""
    game = lock_game(game_id, now)
    color = game.match.color_of(user)
    if color is None:
        raise Forbidden(_("You are not playing in this game."))
    require_live(game, expected_ply)
    if game.held:
        raise Conflict(
            _("The board waits for the team's decision: nothing can be played on it now."),
            code="held",
        )
    return game, color


def require_live(game: Game, expected_ply: int | None) -> None:
    """Refuse a finished game, and a ply other than the current one (a stale page)."""
    if game.is_finished or game.match.status != Match.Status.PLAYING:
        raise Conflict(_("This game is over."), code="game_over")
    if expected_ply is not None and expected_ply != game.ply:
        raise Conflict(
            _("The game has changed since you loaded it. Look at the board again."),
            code="stale",
        )


def refuse_chouette(game: Game) -> None:
    """The board of a chouette takes its cube actions, draws and chat through the
    chouette (the team votes, each member answers), never directly."""
    if game.match.chouette:
        raise Conflict(
            _("In a chouette, doubles and their answers go through the chouette's buttons."),
            code="chouette",
        )


def hold(game: Game) -> None:
    """Stop the board for a decision taken off it (:attr:`Game.held`): its clock stops,
    so the expiry sweep passes it by. In memory; the caller saves the game."""
    game.held = True
    game.deadline_at = None


def release(game: Game, now: datetime) -> None:
    """The decision off the board is taken: the player on turn gets a fresh deadline from
    ``now``, as at the start of a turn. In memory; the caller saves the game."""
    game.held = False
    start_clock(game, now, game.turn_color)


def seat(match: Match, color: Color, user: User, bank: timedelta | None) -> None:
    """Put ``user`` (with their time bank) in ``color``'s seat of a match in play: a
    chouette's next captain when the one in the seat dropped. In memory; the caller saves
    the match."""
    if color == Color.WHITE:
        match.white, match.bank_white = user, bank
    else:
        match.black, match.bank_black = user, bank


def require_turn(game: Game, color: Color, *states: str) -> None:
    if game.turn != int(color):
        raise Forbidden(_("It is not your turn."), code="not_your_turn")
    if game.state not in states:
        messages: dict[str, StrOrPromise] = {
            Game.State.ROLLING: _("You must roll (or double) first."),
            Game.State.MOVING: _("You have already rolled: make your move."),
            Game.State.DOUBLED: _("You must answer the double first."),
            Game.State.RESIGNING: _("You must answer the offer to resign first."),
        }
        raise InvalidAction(messages.get(game.state, _("You cannot do that now.")), code="state")


def write(game: Game) -> None:
    """Save the game row, then the record rows the action added, in one ``INSERT``; say
    that the game changed (``game_changed``: the live pages' push, after the commit)."""
    game.save()
    GameEvent.objects.bulk_create(game.take_unwritten_events())
    game_changed.send(sender=Game, game=game)


def save(game: Game, now: datetime) -> Game:
    """The end of an action that leaves the game in play: the game and its new events."""
    game.updated_at = now
    write(game)
    return game
