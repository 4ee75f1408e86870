"""Every change to challenges, matches and games: one atomic function each.

Each game action locks the game row, checks that the player may act and that
the ply they last saw is still the current one, appends the record rows, and
updates the game. A stale or repeated submission is refused with a conflict
and changes nothing. The engine (``gammon``) decides what is legal;
this module decides who may do what, when, and keeps the record.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from gammon import (
    Color,
    Cube,
    Dice,
    MatchLengthError,
    MatchState,
    Outcome,
    Position,
    RulesError,
    SystemDice,
    Termination,
    Variant,
    legal_plays,
    opening_roll,
    parse_play,
)

from . import timecontrol
from .errors import Conflict, Forbidden, InvalidAction, NotFound, from_rules_error
from .models import Challenge, Game, GameEvent, GameMessage, Match, Notification, Vacation
from .notifications import notify, notify_many
from .signals import (
    dice_rolled,
    game_finished,
    games_timed_out,
    match_cancelled,
    match_finished,
)

#: The dice every service uses; tests swap in ``FixedDice``.
dice: Dice = SystemDice()

CHALLENGE_VALIDITY = timedelta(days=14)
#: The highest cube limit: the largest power of two the column holds (a small integer,
#: at most 32767 on PostgreSQL).
MAX_CUBE_LIMIT = 1 << 14
_MAX_AUTOMATIC_TURNS = 200


# --------------------------------------------------------------------------- challenges


@transaction.atomic
def challenge_create(
    *,
    challenger: User,
    now: datetime,
    opponent: User | None = None,
    variant: str = Variant.STANDARD.value,
    length: int = 5,
    days_per_move: int = 3,
    time_bank_days: int = 0,
    cube_limit: int | None = 64,
    jacoby: bool = False,
    automatic_doubles: bool = False,
    rated: bool = True,
    message: str = "",
    validity: timedelta = CHALLENGE_VALIDITY,
) -> Challenge:
    """Offer a match to ``opponent``, or to anyone when ``opponent`` is None."""
    if opponent is not None and opponent.pk == challenger.pk:
        raise InvalidAction(_("You cannot challenge yourself."), code="self_challenge")
    if variant not in {v.value for v in Variant}:
        raise InvalidAction(_("Unknown variant."), code="variant")
    if length != 0 and not (1 <= length <= 25):
        raise InvalidAction(_("A match is 1 to 25 points long, or 0 for money."), code="length")
    if not 1 <= days_per_move <= 30:
        raise InvalidAction(_("Days per move must be from 1 to 30."), code="days_per_move")
    if not 0 <= time_bank_days <= 365:
        raise InvalidAction(_("The time bank must be from 0 to 365 days."), code="time_bank")
    if cube_limit is not None and (cube_limit < 1 or cube_limit & (cube_limit - 1)):
        raise InvalidAction(_("The cube limit must be a power of two."), code="cube_limit")
    if cube_limit is not None and cube_limit > MAX_CUBE_LIMIT:
        raise InvalidAction(
            _("The cube limit is at most %(max)s."), code="cube_limit", max=MAX_CUBE_LIMIT
        )
    if cube_limit is None and length != 0:
        raise InvalidAction(_("Only money sessions may play without a cube limit."), code="cube")
    if length != 0 and (jacoby or automatic_doubles):
        raise InvalidAction(
            _("Jacoby and automatic doubles are options of money sessions."), code="money_only"
        )
    if "\x00" in message:  # PostgreSQL cannot store it: refused here, not as a DataError
        raise InvalidAction(_("The message may not contain NUL characters."), code="message")
    challenge = Challenge(
        challenger=challenger,
        opponent=opponent,
        variant=variant,
        length=length,
        days_per_move=days_per_move,
        time_bank_days=time_bank_days,
        cube_limit=cube_limit,
        jacoby=jacoby,
        automatic_doubles=automatic_doubles,
        rated=rated,
        message=message[:200],
        created_at=now,
        expires_at=now + validity,
    )
    try:
        challenge.full_clean(exclude=["match"])
    except ValidationError as error:  # a model rule the checks above do not name yet
        raise InvalidAction(error.messages[0], code="invalid_challenge") from error
    challenge.save()
    if opponent is not None:
        notify(
            recipient=opponent,
            kind=Notification.Kind.CHALLENGE_RECEIVED,
            now=now,
            challenge=challenge,
            payload={"opponent": challenger.public_name},
        )
    return challenge


def _locked_open_challenge(challenge_id: int, now: datetime) -> Challenge:
    try:
        challenge = Challenge.objects.select_for_update().get(pk=challenge_id)
    except Challenge.DoesNotExist:
        raise NotFound(_("No such challenge.")) from None
    if challenge.status != Challenge.Status.OPEN or challenge.expires_at <= now:
        raise Conflict(_("This challenge is no longer open."), code="challenge_closed")
    return challenge


@transaction.atomic
def challenge_accept(*, challenge_id: int, user: User, now: datetime) -> Match:
    """Accept: the match starts with colours drawn at random and the first opening roll."""
    challenge = _locked_open_challenge(challenge_id, now)
    if user.pk == challenge.challenger_id:
        raise InvalidAction(_("You cannot accept your own challenge."), code="own_challenge")
    if challenge.opponent_id is not None and challenge.opponent_id != user.pk:
        raise Forbidden(_("This challenge was made to another player."))
    players = [challenge.challenger, user]
    if secrets.randbelow(2):
        players.reverse()
    match = Match.objects.create(
        white=players[0],
        black=players[1],
        variant=challenge.variant,
        length=challenge.length,
        days_per_move=challenge.days_per_move,
        time_bank_days=challenge.time_bank_days,
        cube_limit=challenge.cube_limit,
        jacoby=challenge.jacoby,
        automatic_doubles=challenge.automatic_doubles,
        rated=challenge.rated,
        bank_white=timedelta(days=challenge.time_bank_days),
        bank_black=timedelta(days=challenge.time_bank_days),
        created_at=now,
    )
    challenge.status = Challenge.Status.ACCEPTED
    challenge.opponent = user
    challenge.responded_at = now
    challenge.match = match
    challenge.save(update_fields=["status", "opponent", "responded_at", "match"])
    game = _start_game(match, number=1, state=_state_of(match), now=now)
    notify(
        recipient=challenge.challenger,
        kind=Notification.Kind.CHALLENGE_ACCEPTED,
        now=now,
        game=game,
        challenge=challenge,
        payload={
            "opponent": user.public_name,
            "your_turn": match.player(game.turn_color).pk == challenge.challenger_id,
        },
    )
    return match


@transaction.atomic
def challenge_decline(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    challenge = _locked_open_challenge(challenge_id, now)
    if challenge.opponent_id != user.pk:
        raise Forbidden(_("Only the challenged player can decline."))
    challenge.status = Challenge.Status.DECLINED
    challenge.responded_at = now
    challenge.save(update_fields=["status", "responded_at"])
    notify(
        recipient=challenge.challenger,
        kind=Notification.Kind.CHALLENGE_DECLINED,
        now=now,
        challenge=challenge,
        payload={"opponent": user.public_name},
    )
    return challenge


@transaction.atomic
def challenge_withdraw(*, challenge_id: int, user: User, now: datetime) -> Challenge:
    challenge = _locked_open_challenge(challenge_id, now)
    if challenge.challenger_id != user.pk:
        raise Forbidden(_("Only the challenger can withdraw a challenge."))
    challenge.status = Challenge.Status.WITHDRAWN
    challenge.responded_at = now
    challenge.save(update_fields=["status", "responded_at"])
    return challenge


# --------------------------------------------------------------------------- game state


def _state_of(match: Match, game: Game | None = None) -> MatchState:
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


def _deadline(match: Match, now: datetime, color: Color) -> datetime:
    """When ``color`` loses on time if their turn starts ``now``: move time, bank, vacations."""
    return timecontrol.deadline_for(
        days_per_move=match.days_per_move,
        bank=timecontrol.bank_of(match, color),
        now=now,
        away=timecontrol.away_intervals_of(match.player(color), now),
    )


def _charge_clock(game: Game, now: datetime, *, save: bool = True) -> None:
    """The player on turn acts at ``now``: an overrun of their move time comes off their bank.

    ``save=False`` only sets the bank on the match, for a caller that saves the match next.
    """
    match = game.match
    color = game.turn_color
    bank = timecontrol.bank_of(match, color)
    if game.deadline_at is None or not bank:
        return
    if game.deadline_at <= now:  # out of time: the bank is spent, whatever the vacations
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


def _notify_turn(game: Game, now: datetime, *, actor: Color | None = None) -> None:
    """Tell the player on turn they must act, unless they are ``actor`` (still on turn)."""
    if game.is_finished or (actor is not None and game.turn == int(actor)):
        return
    match = game.match
    color = game.turn_color
    doubled = game.state == Game.State.DOUBLED
    notify(
        recipient=match.player(color),
        kind=Notification.Kind.DOUBLE_OFFERED if doubled else Notification.Kind.YOUR_TURN,
        now=now,
        game=game,
        payload={"opponent": match.player(color.other).public_name, "cube": game.cube_value * 2},
    )


def _event(game: Game, kind: str, now: datetime, **fields: Any) -> GameEvent:
    """The game's next record row, not saved yet (the ply advances now)."""
    game.ply += 1
    return GameEvent(game=game, ply=game.ply, kind=kind, created_at=now, **fields)


def _append(game: Game, kind: str, now: datetime, **fields: Any) -> GameEvent:
    """The game's next record row, written by the game's next :func:`_write`."""
    event = _event(game, kind, now, **fields)
    game.record(event)
    return event


def _start_game(match: Match, *, number: int, state: MatchState, now: datetime) -> Game:
    """Create game ``number``, throw the opening roll, and let the winner move."""
    first, (white_die, black_die), ties = opening_roll(dice)
    state = replace(state, cube=Cube(1, None, match.cube_limit), automatic_doubles_this_game=0)
    state = state.with_opening_ties(ties)
    game = Game(
        match=match,
        number=number,
        state=Game.State.MOVING,
        turn=int(first),
        cube_value=state.cube.value,
        automatic_doubles=state.automatic_doubles_this_game,
        crawford=state.crawford,
        started_at=now,
        updated_at=now,
        deadline_at=_deadline(match, now, first),
        die1=white_die if first == Color.WHITE else black_die,
        die2=black_die if first == Color.WHITE else white_die,
    )
    game.set_position(Position.start(Variant(match.variant), first))
    game.save()  # the events and the dice counters refer to it
    _append(
        game,
        GameEvent.Kind.OPENING,
        now,
        color=int(first),
        die1=white_die,
        die2=black_die,
        value=state.cube.value if ties and state.cube.value > 1 else None,
    )
    dice_rolled.send(
        sender=Game,
        game=game,
        now=now,
        die1=white_die,
        die2=black_die,
        opening=True,
        color=int(first),
    )
    _after_roll(game, now)
    _write(game)
    return game


def _after_roll(game: Game, now: datetime, depth: int = 0) -> None:
    """With dice on the board: a turn with no legal play passes at once."""
    position = game.position()
    if legal_plays(position, game.dice or (0, 0)):
        return
    _append(
        game,
        GameEvent.Kind.PASS,
        now,
        color=game.turn,
        die1=game.die1,
        die2=game.die2,
        notation="pass",
    )
    game.set_position(position.mirror())
    _begin_turn(game, position.turn.other, now, depth)


def _begin_turn(game: Game, color: Color, now: datetime, depth: int = 0) -> None:
    """Hand the turn to ``color``; the server rolls at once when they may not double."""
    _charge_clock(game, now)
    game.turn = int(color)
    game.state = Game.State.ROLLING
    game.die1 = game.die2 = None
    game.deadline_at = _deadline(game.match, now, color)
    if _state_of(game.match, game).can_double(color) or depth > _MAX_AUTOMATIC_TURNS:
        return
    _roll(game, now, depth)


def _roll(game: Game, now: datetime, depth: int = 0) -> None:
    game.die1, game.die2 = dice.roll()
    game.state = Game.State.MOVING
    _append(game, GameEvent.Kind.ROLL, now, color=game.turn, die1=game.die1, die2=game.die2)
    dice_rolled.send(
        sender=Game,
        game=game,
        now=now,
        die1=game.die1,
        die2=game.die2,
        opening=False,
        color=game.turn,
    )
    _after_roll(game, now, depth + 1)


def _lock(game_id: int, user: User, expected_ply: int | None, now: datetime) -> tuple[Game, Color]:
    """Lock the game row; check the user plays in it, it is live, and the ply is current.

    The game and its match are locked; the players come in the same query, unlocked, for
    the checks, the notification rows and the API's response, with whether each has a
    vacation ending after ``now`` (an ``Exists`` on the index ``vacation_user_end``), so
    the clock reads a player's vacations only when there are some
    (:func:`timecontrol.away_intervals_of`).
    """
    ahead = Vacation.objects.filter(ends_at__gt=now)
    game = (
        Game.objects.select_for_update(of=("self", "match"))
        .select_related("match", "match__white", "match__black")
        .annotate(
            white_away=Exists(ahead.filter(user_id=OuterRef("match__white_id"))),
            black_away=Exists(ahead.filter(user_id=OuterRef("match__black_id"))),
        )
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        raise NotFound(_("No such game."))
    game.match.white.vacation_ahead = game.white_away
    game.match.black.vacation_ahead = game.black_away
    color = game.match.color_of(user)
    if color is None:
        raise Forbidden(_("You are not playing in this game."))
    if game.is_finished or game.match.status != Match.Status.PLAYING:
        raise Conflict(_("This game is over."), code="game_over")
    if expected_ply is not None and expected_ply != game.ply:
        raise Conflict(
            _("The game has changed since you loaded it. Look at the board again."),
            code="stale",
        )
    return game, color


def _require_turn(game: Game, color: Color, *states: str) -> None:
    if game.turn != int(color):
        raise Forbidden(_("It is not your turn."), code="not_your_turn")
    if game.state not in states:
        messages = {
            Game.State.ROLLING: _("You must roll (or double) first."),
            Game.State.MOVING: _("You have already rolled: make your move."),
            Game.State.DOUBLED: _("You must answer the double first."),
        }
        raise InvalidAction(messages.get(game.state, _("You cannot do that now.")), code="state")


def _write(game: Game) -> None:
    """Save the game row, then the record rows the action added, in one ``INSERT``."""
    game.save()
    GameEvent.objects.bulk_create(game.take_unwritten_events())


def _save(game: Game, now: datetime) -> Game:
    """The end of an action that leaves the game in play: the game and its new events."""
    game.updated_at = now
    _write(game)
    return game


# --------------------------------------------------------------------------- game actions


@transaction.atomic
def game_roll(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    """Roll the dice instead of doubling."""
    game, color = _lock(game_id, player, expected_ply, now)
    _require_turn(game, color, Game.State.ROLLING)
    _roll(game, now)
    _notify_turn(game, now, actor=color)
    return _save(game, now)


@transaction.atomic
def game_play_move(
    *, game_id: int, player: User, play_text: str, expected_ply: int | None, now: datetime
) -> Game:
    """Play ``play_text`` with the stored dice; the engine decides whether it is legal."""
    game, color = _lock(game_id, player, expected_ply, now)
    _require_turn(game, color, Game.State.MOVING)
    position = game.position()
    try:
        play = parse_play(position, game.dice or (0, 0), play_text)
    except RulesError as error:
        raise from_rules_error(error) from None
    kind = GameEvent.Kind.PASS if play.is_pass else GameEvent.Kind.MOVE
    _append(game, kind, now, color=int(color), die1=game.die1, die2=game.die2, notation=str(play))
    after = play.position
    if not after.bar[0] and all(n <= 0 for n in after.points):
        game.set_position(after)
        state = _state_of(game.match, game)
        _finish_game(game, state, state.outcome_for_win(after), now)
        return game
    game.set_position(after.mirror())
    _begin_turn(game, color.other, now)
    _notify_turn(game, now)
    return _save(game, now)


@transaction.atomic
def game_double(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = _lock(game_id, player, expected_ply, now)
    state = _state_of(game.match, game)
    if game.turn == int(color) and game.state != Game.State.DOUBLED:
        # The cube first: where it may not be turned the server already rolled, and
        # "no doubling in the Crawford game" says more than "you have already rolled".
        try:
            state.check_double(color)
        except RulesError as error:
            raise from_rules_error(error) from None
    _require_turn(game, color, Game.State.ROLLING)
    _append(game, GameEvent.Kind.DOUBLE, now, color=int(color), value=game.cube_value * 2)
    game.state = Game.State.DOUBLED
    _charge_clock(game, now)
    game.turn = int(color.other)
    game.deadline_at = _deadline(game.match, now, color.other)
    _notify_turn(game, now)
    return _save(game, now)


@transaction.atomic
def game_take(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = _lock(game_id, player, expected_ply, now)
    _require_turn(game, color, Game.State.DOUBLED)
    game.cube_value *= 2
    game.cube_owner = int(color)
    _append(game, GameEvent.Kind.TAKE, now, color=int(color), value=game.cube_value)
    _charge_clock(game, now)
    game.turn = int(color.other)
    game.deadline_at = _deadline(game.match, now, color.other)
    _roll(game, now)
    _notify_turn(game, now)
    return _save(game, now)


@transaction.atomic
def game_drop(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    game, color = _lock(game_id, player, expected_ply, now)
    _require_turn(game, color, Game.State.DOUBLED)
    _append(game, GameEvent.Kind.DROP, now, color=int(color), value=game.cube_value)
    state = _state_of(game.match, game)
    _finish_game(game, state, state.outcome_for_drop(color.other), now)
    return game


@transaction.atomic
def game_resign(
    *,
    game_id: int,
    player: User,
    expected_ply: int | None,
    now: datetime,
    whole_match: bool = False,
) -> Game:
    """Resign the game (gammon if none borne off, else single, times the cube) or the match."""
    game, color = _lock(game_id, player, expected_ply, now)
    state = _state_of(game.match, game)
    if whole_match and not game.match.is_money:
        outcome = Outcome(color.other, Termination.RESIGN, state.away(color.other))
        _append(
            game,
            GameEvent.Kind.RESIGN,
            now,
            color=int(color),
            value=outcome.points,
            notation="match",
        )
        _finish_game(game, state, outcome, now, ends_match=True)
    else:
        outcome = state.outcome_for_resignation(color, game.position())
        _append(
            game,
            GameEvent.Kind.RESIGN,
            now,
            color=int(color),
            value=outcome.points,
            notation="game",
        )
        _finish_game(game, state, outcome, now, ends_match=whole_match)
    return game


@transaction.atomic
def match_offer_draw(
    *, game_id: int, player: User, expected_ply: int | None, now: datetime
) -> Game:
    """Propose that the whole match end as a draw; the opponent may accept."""
    game, color = _lock(game_id, player, expected_ply, now)
    match = game.match
    if match.draw_offered_by is not None:
        raise Conflict(_("A draw has already been offered."), code="draw_pending")
    match.draw_offered_by = int(color)
    match.save(update_fields=["draw_offered_by"])
    _append(game, GameEvent.Kind.DRAW_OFFER, now, color=int(color))
    notify(
        recipient=match.player(color.other),
        kind=Notification.Kind.DRAW_OFFERED,
        now=now,
        game=game,
        payload={"opponent": match.player(color).public_name},
    )
    return _save(game, now)


@transaction.atomic
def match_answer_draw(
    *, game_id: int, player: User, expected_ply: int | None, now: datetime, accept: bool
) -> Game:
    game, color = _lock(game_id, player, expected_ply, now)
    match = game.match
    if match.draw_offered_by is None or match.draw_offered_by == int(color):
        raise InvalidAction(_("There is no draw offer for you to answer."), code="no_draw_offer")
    match.draw_offered_by = None
    match.save(update_fields=["draw_offered_by"])
    if not accept:
        _append(game, GameEvent.Kind.DRAW_DECLINE, now, color=int(color))
        return _save(game, now)
    _append(game, GameEvent.Kind.DRAW, now, color=int(color))
    state = _state_of(match, game)
    _finish_game(game, state, state.outcome_for_draw(), now)
    return game


# --------------------------------------------------------------------------- game end


def _finish_game(
    game: Game,
    state: MatchState,
    outcome: Outcome,
    now: datetime,
    *,
    ends_match: bool = False,
    events: list[GameEvent] | None = None,
) -> None:
    """Score the game, advance the match, and start the next game unless the match is over.

    ``events``: record rows of the game not recorded yet (from :func:`_event`); they are
    written with the win event and the game.
    """
    _store_ending(_end_game(game, state, outcome, now, ends_match=ends_match, events=events), now)


@dataclass
class Ending:
    """A game ended in memory (:func:`_end_game`): nothing is written yet.

    The game and its match carry their new values; ``events`` are the record rows to
    append (not saved), ``notes`` the notifications owed (keyword arguments of
    :func:`~matches.notifications.notify_many`). One game is written by
    :func:`_store_ending`, a batch of time-outs by :func:`games_time_out_batch`: both
    write what this holds, so the two paths cannot drift apart.
    """

    game: Game
    after: MatchState
    match_over: bool
    events: list[GameEvent]
    notes: list[dict[str, Any]]


def _end_game(
    game: Game,
    state: MatchState,
    outcome: Outcome,
    now: datetime,
    *,
    ends_match: bool = False,
    events: list[GameEvent] | None = None,
) -> Ending:
    """End ``game`` with ``outcome`` in memory: the game scored, the match advanced (and
    over, if the game ends it), the win event and the notifications made."""
    events = list(events or [])
    after = _score_game(game, state, outcome, now, events)
    match_over = after.is_over or ends_match
    if match_over:
        _end_match(game.match, outcome, now)
    notes = _end_notes(game, outcome, match_over=match_over)
    return Ending(game=game, after=after, match_over=match_over, events=events, notes=notes)


def _store_ending(ending: Ending, now: datetime) -> None:
    """Write one :class:`Ending`: the game with its events, the notifications, the match,
    the signals; then the next game starts unless the match is over."""
    game = ending.game
    match = game.match
    for event in ending.events:
        game.record(event)
    _write(game)
    game_finished.send(sender=Game, game=game, now=now)
    notify_many(ending.notes, now=now)
    match.save()
    if ending.match_over:
        match_finished.send(sender=Match, match=match, now=now)
        return
    new_game = _start_game(match, number=game.number + 1, state=ending.after, now=now)
    # The next game starts on its own: tell whoever must act first (as after every move).
    _notify_turn(new_game, now)


def _score_game(
    game: Game, state: MatchState, outcome: Outcome, now: datetime, events: list[GameEvent]
) -> MatchState:
    """End ``game`` with ``outcome`` in memory (game and match rows, the win event appended
    to ``events``); nothing is written. Returns the match state after the game."""
    match = game.match
    _charge_clock(game, now, save=False)  # the caller saves the match, whatever happens
    game.state = Game.State.FINISHED
    game.winner = None if outcome.winner is None else int(outcome.winner)
    game.termination = outcome.termination.value
    game.points = outcome.points
    game.finished_at = now
    game.deadline_at = None
    game.die1 = game.die2 = None
    if outcome.winner is not None:
        events.append(
            _event(game, GameEvent.Kind.WIN, now, color=int(outcome.winner), value=outcome.points)
        )
    after = state.after_game(outcome)
    match.score_white, match.score_black = after.score
    match.crawford_played = after.post_crawford or match.crawford_played
    match.draw_offered_by = None
    game.updated_at = now
    return after


def _end_match(match: Match, outcome: Outcome, now: datetime) -> None:
    """The match is over with the game that ended with ``outcome`` (in memory only)."""
    match.status = Match.Status.FINISHED
    match.finished_at = now
    match.termination = outcome.termination.value
    if outcome.winner is None:
        match.result = Match.Result.DRAW
    else:
        match.result = Match.Result.WHITE if outcome.winner == Color.WHITE else Match.Result.BLACK


def _end_notes(game: Game, outcome: Outcome, *, match_over: bool) -> list[dict[str, Any]]:
    """The two notifications (for :func:`notify_many`) of how the game (and maybe the
    match) ended."""
    match = game.match
    if outcome.termination == Termination.TIMEOUT:
        kind = Notification.Kind.TIME_OUT
    else:
        kind = Notification.Kind.MATCH_OVER if match_over else Notification.Kind.GAME_OVER
    return [
        {
            "recipient": match.player(color),
            "kind": kind,
            "game": game,
            "payload": {
                "opponent": match.player(color.other).public_name,
                "won": None if outcome.winner is None else outcome.winner == color,
                "points": outcome.points,
                "match_over": match_over,
            },
        }
        for color in (Color.WHITE, Color.BLACK)
    ]


@transaction.atomic
def game_time_out(*, game_id: int, now: datetime) -> Game | None:
    """The player on turn has run out of time (move time and bank): they lose.

    Match play: the opponent wins the match. Money: the game is lost as a gammon at
    the cube and the session goes on. Returns None, changing nothing, when the game
    is over or its deadline is not past (it moved since it was picked).
    """
    game = (
        Game.objects.select_for_update(of=("self", "match"))
        .select_related("match", "match__white", "match__black")
        .filter(pk=game_id)
        .first()
    )
    if game is None:
        return None
    return game_time_out_locked(game=game, now=now)


@transaction.atomic(savepoint=False)
def game_time_out_locked(*, game: Game, now: datetime) -> Game | None:
    """:func:`game_time_out` for a game the caller has read with its match (and the match's
    players) in this transaction, both rows locked: ``matches.clock`` claims them in batches.
    """
    ending = _time_out(game, now)
    if ending is None:
        return None
    _store_ending(ending, now)
    return game  # saved, updated_at = now


def _time_out(game: Game, now: datetime) -> Ending | None:
    """What a time-out changes, in memory: the one definition both :func:`game_time_out`
    and :func:`games_time_out_batch` write. None, changing nothing, when the game is over
    or not overdue."""
    match = game.match
    if (
        game.is_finished
        or match.status != Match.Status.PLAYING
        or game.deadline_at is None
        or game.deadline_at > now
    ):
        return None
    loser = game.turn_color
    state = _state_of(match, game)
    timeout = _event(game, GameEvent.Kind.TIMEOUT, now, color=int(loser))
    outcome = state.outcome_for_timeout(loser)
    return _end_game(game, state, outcome, now, ends_match=not match.is_money, events=[timeout])


def _values(row: Game | Match) -> dict[str, Any]:
    """The stored fields of ``row`` as they are in memory (to see what an ending changed)."""
    return {f.name: getattr(row, f.attname) for f in row._meta.concrete_fields}


def _changed(row: Game | Match, before: dict[str, Any]) -> set[str]:
    """The fields of ``row`` whose value differs from ``before`` (:func:`_values`)."""
    return {name for name, value in _values(row).items() if value != before[name]}


def games_time_out_batch(*, games: list[Game], now: datetime) -> list[Game]:
    """:func:`game_time_out_locked` for a batch of match-play games, in a few statements.

    The caller has read and locked the games with their matches (and the matches'
    players) in this transaction. Each game is ended in memory by :func:`_time_out`, as
    one game is; then the batch is written with the ORM: ``bulk_update`` of the games and
    of the matches (the fields the endings changed, found by comparing each row with its
    values before), ``bulk_create`` of the events and of the notifications, and the
    :data:`~matches.signals.games_timed_out` receivers (statistics, ratings) instead of
    each game's ``game_finished`` and ``match_finished``. A batch costs the same number
    of statements whatever its size. Games of money sessions (a time-out loses only the
    game and the session goes on: the next game starts) and games that are not overdue
    are left alone: returns the games ended, in the given order.
    """
    ended: list[Game] = []
    events: list[GameEvent] = []
    notes: list[dict[str, Any]] = []
    game_fields: set[str] = set()
    match_fields: set[str] = set()
    for game in games:
        if game.match.is_money:
            continue
        game_was, match_was = _values(game), _values(game.match)
        ending = _time_out(game, now)
        if ending is None:
            continue
        game_fields |= _changed(game, game_was)
        match_fields |= _changed(game.match, match_was)
        events += ending.events
        notes += ending.notes
        ended.append(game)
    if not ended:
        return ended
    matches = [game.match for game in ended]
    GameEvent.objects.bulk_create(events)
    Game.objects.bulk_update(ended, sorted(game_fields))
    Match.objects.bulk_update(matches, sorted(match_fields))
    notify_many(notes, now=now)
    games_timed_out.send(sender=Game, games=ended, matches=matches, now=now)
    return ended


# --------------------------------------------------------------------------- moderation
# The moderators' actions on matches and games (issue 6). ``moderation.services`` calls
# these, writes the audit entry and tells the players; here is only what changes the game.

#: The most a moderator may add to a deadline at once.
MAX_DEADLINE_EXTENSION = timedelta(days=60)


@transaction.atomic
def match_adjudicate(
    *, match_id: int, winner: Color | None, now: datetime, cancel: bool = False
) -> Match:
    """End a match in play by a moderator's decision.

    - ``winner`` given: the match is awarded to that colour. The current game ends
      through :func:`_finish_game` with :meth:`MatchState.outcome_for_adjudication`
      (the points still needed; a single game at the cube in a money session), so
      ``game_finished`` and ``match_finished`` reach the statistics and ratings as for
      a match played out.
    - ``winner`` None: the match ends as a draw, the same way an agreed draw does.
    - ``cancel``: as if never played. The current game and the match end as
      ``cancelled``, which the statistics do not count, and ``match_cancelled`` asks
      them to take back the games of this match they already counted.

    The record gets an ``adjudicate`` event (notation ``award``, ``draw`` or ``cancel``).
    """
    game = (
        Game.objects.select_for_update()
        .select_related("match")
        .filter(match_id=match_id)
        .order_by("-number")
        .first()
    )
    if game is None:
        raise NotFound(_("No such match."))
    match = game.match
    if match.status != Match.Status.PLAYING or game.is_finished:
        raise Conflict(_("This match is already over."), code="match_over")
    if cancel:
        _append(game, GameEvent.Kind.ADJUDICATE, now, notation="cancel")
        game.state = Game.State.FINISHED
        game.winner = None
        game.termination = Termination.CANCELLED
        game.points = 0
        game.finished_at = now
        game.deadline_at = None
        game.die1 = game.die2 = None
        _save(game, now)
        match.status = Match.Status.FINISHED
        match.result = Match.Result.CANCELLED
        match.termination = Termination.CANCELLED
        match.finished_at = now
        match.draw_offered_by = None
        match.save()
        match_cancelled.send(sender=Match, match=match, now=now)
        return match
    state = _state_of(match, game)
    if winner is None:
        _append(game, GameEvent.Kind.ADJUDICATE, now, notation="draw")
        outcome = state.outcome_for_draw()
    else:
        outcome = state.outcome_for_adjudication(winner)
        _append(
            game,
            GameEvent.Kind.ADJUDICATE,
            now,
            color=int(winner),
            value=outcome.points,
            notation="award",
        )
    _finish_game(game, state, outcome, now, ends_match=True)
    return match


@transaction.atomic
def game_extend_deadline(*, game_id: int, extra: timedelta, now: datetime) -> Game:
    """Give the player on turn ``extra`` time. The record is unchanged (no ply)."""
    if not timedelta(0) < extra <= MAX_DEADLINE_EXTENSION:
        raise InvalidAction(
            _("A deadline can be extended by up to %(days)s days."),
            code="extension",
            days=MAX_DEADLINE_EXTENSION.days,
        )
    game = Game.objects.select_for_update().select_related("match").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game."))
    if game.is_finished or game.match.status != Match.Status.PLAYING or game.deadline_at is None:
        raise Conflict(_("This game is over."), code="game_over")
    game.deadline_at = max(game.deadline_at, now) + extra
    return _save(game, now)


@transaction.atomic
def game_message_post(*, game_id: int, author: User, text: str, now: datetime) -> GameMessage:
    """One of the two players sends the other a short message in the game.

    The opponent is told with a ``message_received`` notification (see
    :func:`_notify_message`, which keeps ten messages in a row down to one notice).
    """
    game = Game.objects.select_related("match__white", "match__black").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game."))
    color = game.match.color_of(author)
    if color is None:
        raise Forbidden(_("You are not playing in this game."))
    text = text.strip()
    if not text:
        raise InvalidAction(_("Write a message first."), code="empty_message")
    if len(text) > GameMessage.MAX_LENGTH:
        raise InvalidAction(
            _("A message is at most %(max)s characters long."),
            code="message_length",
            max=GameMessage.MAX_LENGTH,
        )
    message = GameMessage.objects.create(game=game, author=author, text=text, created_at=now)
    _notify_message(game, author, game.match.player(color.other), now)
    return message


def _notify_message(game: Game, author: User, recipient: User, now: datetime) -> None:
    """Tell ``recipient`` that ``author`` wrote to them in ``game``, unless they already know.

    One notice per burst, not one per message: no new row while the recipient still has
    an unread ``message_received`` row for this game written after their own last message
    in it. Ten messages in a row give one e-mail (or one digest line); once the recipient
    marks it read, is shown the game's messages (the game page or the API's ``GET``:
    ``notifications.notifications_mark_messages_read``) or answers in the game, the next
    message notifies again. The notice does not quote the text: a message the moderators
    hide later must not live on in an e-mail. Two messages posted at the same instant may
    both notify (no lock is taken for chat); that is harmless.
    """
    last_reply = (
        GameMessage.objects.filter(game=game, author=recipient)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    unread = Notification.objects.filter(
        recipient=recipient, game=game, kind=Notification.Kind.MESSAGE_RECEIVED, read_at=None
    )
    if last_reply is not None:
        unread = unread.filter(created_at__gt=last_reply)
    if unread.exists():
        return
    notify(
        recipient=recipient,
        kind=Notification.Kind.MESSAGE_RECEIVED,
        now=now,
        game=game,
        payload={"opponent": author.public_name},
    )


@transaction.atomic
def game_message_hide(*, message_id: int, moderator: User, now: datetime) -> GameMessage:
    """Hide a message from the players (it stays stored, for the record)."""
    message = GameMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound(_("No such message."))
    if message.hidden:
        raise Conflict(_("This message is already hidden."), code="already_hidden")
    message.hidden = True
    message.hidden_by = moderator
    message.hidden_at = now
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    return message


def match_state(match: Match, game: Game | None = None) -> MatchState:
    """The engine's view of ``match`` (for selectors and the API)."""
    try:
        return _state_of(match, game)
    except MatchLengthError:  # pragma: no cover - guarded by the model validators
        raise InvalidAction(_("This match has an impossible length.")) from None


__all__ = [
    "challenge_accept",
    "challenge_create",
    "challenge_decline",
    "challenge_withdraw",
    "game_double",
    "game_drop",
    "game_extend_deadline",
    "game_message_hide",
    "game_message_post",
    "game_play_move",
    "game_resign",
    "game_roll",
    "game_take",
    "game_time_out",
    "match_adjudicate",
    "match_answer_draw",
    "match_offer_draw",
    "match_state",
]
