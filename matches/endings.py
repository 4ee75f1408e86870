"""How games and matches end: resignations, draws, the last checker borne off, a drop,
time-outs (one game, or a batch from the expiry sweep), a live clock's time-out claimed
by the opponent, and what an ending writes.

An ending is made in memory first (:func:`end_game` returns an :class:`Ending`), then
written: one game by :func:`store_ending`, a batch of time-outs by
:func:`games_time_out_batch`. Both write the same :class:`Ending`, so the batch and the
single path cannot drift apart. ``game_finished``, ``match_finished`` and
``games_timed_out`` tell the statistics, ratings and notices.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db import models, transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from accounts.models import User
from backgammon.errors import Conflict, InvalidAction
from gammon import Color, MatchState, Outcome, Termination

from . import record, selectors, timecontrol
from .models import Game, GameEvent, Match
from .signals import draw_offered, game_finished, games_timed_out, match_finished


@transaction.atomic
def game_resign(
    *,
    game_id: int,
    player: User,
    expected_ply: int | None,
    now: datetime,
    whole_match: bool = False,
) -> Game:
    """Resign the match, or the game at once (gammon if none borne off, else single, times
    the cube) where the match resigns games that way (``Match.resignation``; a chouette's
    board too). Elsewhere a game is resigned by an offer the opponent answers
    (:mod:`matches.resignations`): ``resign_by_offer``, 409."""
    game, color = record.lock(game_id, player, expected_ply, now)
    match = game.match
    if not whole_match and selectors.resigns_by_offer(match):
        raise Conflict(
            _(
                "In this match you offer to resign a single game, a gammon or a backgammon, "
                "and your opponent accepts or declines."
            ),
            code="resign_by_offer",
        )
    state = record.state_of(match, game)
    if whole_match and not game.match.is_money:
        outcome = Outcome(color.other, Termination.RESIGN, state.away(color.other))
        record.append(
            game,
            GameEvent.Kind.RESIGN,
            now,
            color=int(color),
            value=outcome.points,
            notation="match",
        )
        finish_game(game, state, outcome, now, ends_match=True)
    else:
        outcome = state.outcome_for_resignation(color, game.position())
        record.append(
            game,
            GameEvent.Kind.RESIGN,
            now,
            color=int(color),
            value=outcome.points,
            notation="game",
        )
        finish_game(game, state, outcome, now, ends_match=whole_match)
    return game


@transaction.atomic
def match_offer_draw(
    *, game_id: int, player: User, expected_ply: int | None, now: datetime
) -> Game:
    """Propose that the whole match end as a draw; the opponent may accept.

    Once a turn: a player whose offer was declined offers again in their next turn
    (409 ``draw_offered``). Offers repeated to a bot, each declined at once, had grown
    one game to 801 plies, and its page five times slower.
    """
    game, color = record.lock(game_id, player, expected_ply, now)
    record.refuse_chouette(game)
    match = game.match
    if match.draw_offered_by is not None:
        raise Conflict(_("A draw has already been offered."), code="draw_pending")
    if game.has_offered_draw(color):
        raise Conflict(
            _("You have offered a draw this turn already: you may offer one again next turn."),
            code="draw_offered",
        )
    match.draw_offered_by = int(color)
    match.save(update_fields=["draw_offered_by"])
    game.note_draw_offer(color)
    record.append(game, GameEvent.Kind.DRAW_OFFER, now, color=int(color))
    draw_offered.send(sender=Game, game=game, color=color, now=now)
    return record.save(game, now)


@transaction.atomic
def match_answer_draw(
    *, game_id: int, player: User, expected_ply: int | None, now: datetime, accept: bool
) -> Game:
    game, color = record.lock(game_id, player, expected_ply, now)
    match = game.match
    if match.draw_offered_by is None or match.draw_offered_by == int(color):
        raise InvalidAction(_("There is no draw offer for you to answer."), code="no_draw_offer")
    match.draw_offered_by = None
    match.save(update_fields=["draw_offered_by"])
    if not accept:
        record.append(game, GameEvent.Kind.DRAW_DECLINE, now, color=int(color))
        return record.save(game, now)
    record.append(game, GameEvent.Kind.DRAW, now, color=int(color))
    state = record.state_of(match, game)
    finish_game(game, state, state.outcome_for_draw(), now)
    return game


def finish_game(
    game: Game,
    state: MatchState,
    outcome: Outcome,
    now: datetime,
    *,
    ends_match: bool = False,
    events: list[GameEvent] | None = None,
) -> None:
    """Score the game, advance the match, and start the next game unless the match is over.

    ``events``: record rows of the game not recorded yet (from :func:`record.new_event`); they are
    written with the win event and the game.
    """
    store_ending(end_game(game, state, outcome, now, ends_match=ends_match, events=events), now)


@dataclass
class Ending:
    """A game ended in memory (:func:`end_game`): nothing is written yet.

    The game and its match carry their new values; ``events`` are the record rows to
    append (not saved). One game is written by :func:`store_ending`, a batch of
    time-outs by :func:`games_time_out_batch`: both write what this holds, so the two
    paths cannot drift apart.
    """

    game: Game
    after: MatchState
    match_over: bool
    events: list[GameEvent]


def end_game(
    game: Game,
    state: MatchState,
    outcome: Outcome,
    now: datetime,
    *,
    ends_match: bool = False,
    events: list[GameEvent] | None = None,
) -> Ending:
    """End ``game`` with ``outcome`` in memory: the game scored, the match advanced (and
    over, if the game ends it), the win event made."""
    events = list(events or [])
    after = _score_game(game, state, outcome, now, events)
    match_over = after.is_over or ends_match or game.match.chouette
    if match_over:
        _end_match(game.match, outcome, now)
    return Ending(game=game, after=after, match_over=match_over, events=events)


def store_ending(ending: Ending, now: datetime) -> None:
    """Write one :class:`Ending`: the game with its events, the match, the signals (the
    statistics and the players' notices listen); then the next game starts unless the
    match is over."""
    game = ending.game
    match = game.match
    for event in ending.events:
        game.record(event)
    record.write(game)
    game_finished.send(sender=Game, game=game, now=now)
    match.save()
    if ending.match_over:
        match_finished.send(sender=Match, match=match, now=now)
        return
    new_game = record.start_game(match, number=game.number + 1, state=ending.after, now=now)
    # The next game starts on its own: tell whoever must act first (as after every move).
    record.announce_turn(new_game, now)


def _score_game(
    game: Game, state: MatchState, outcome: Outcome, now: datetime, events: list[GameEvent]
) -> MatchState:
    """End ``game`` with ``outcome`` in memory (game and match rows, the win event appended
    to ``events``); nothing is written. Returns the match state after the game.

    The record finishes the game: the win event (its winner and points), or for an
    outcome with no winner the draw or the moderator's ruling already appended. Set here
    is only what the record does not say: the clock, the ending's kind and time, the match.
    """
    match = game.match
    record.charge_clock(game, now, save=False)  # the caller saves the match, whatever happens
    game.termination = outcome.termination.value
    game.finished_at = now
    game.deadline_at = None
    if outcome.winner is not None:
        events.append(
            record.new_event(
                game, GameEvent.Kind.WIN, now, color=int(outcome.winner), value=outcome.points
            )
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
    store_ending(ending, now)
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
    state = record.state_of(match, game)
    timeout = record.new_event(game, GameEvent.Kind.TIMEOUT, now, color=int(loser))
    outcome = state.outcome_for_timeout(loser)
    return end_game(game, state, outcome, now, ends_match=not match.is_money, events=[timeout])


def live_time_left(game: Game, now: datetime) -> timedelta | None:
    """What is left of the live clock of the player on turn (zero once it has fallen);
    None for a correspondence game, a finished one, or a board held off the clock."""
    match = game.match
    if match.live_delay is None or game.is_finished or game.turn_started_at is None:
        return None
    flag = timecontrol.live_flag_at(
        turn_started_at=game.turn_started_at,
        delay=match.live_delay,
        reserve=timecontrol.bank_of(match, game.turn_color),
    )
    return max(timecontrol.ZERO, flag - now)


@transaction.atomic
def game_claim_time(*, game_id: int, player: User, expected_ply: int | None, now: datetime) -> Game:
    """Claim the win when the opponent's live clock has run out (seed 004: "the win must
    be claimed"). It counts as a gammon at the cube and the match goes on, or, by the
    match option ``timeout_loses_match`` in a match longer than one point, loses the
    match. Until someone claims, play goes on and the fallen clock stays at zero.

    Refused, changing nothing: a correspondence match (409 ``not_live``), the claimer's
    own turn (409 ``your_turn``), a clock with time left (409 ``time_left``).
    """
    game, color = record.lock(game_id, player, expected_ply, now)
    match = game.match
    left = live_time_left(game, now)
    if left is None:
        raise Conflict(
            _("This match is not played on a live clock: there is no time-out to claim."),
            code="not_live",
        )
    if game.turn == int(color):
        raise Conflict(
            _("It is your turn: you can claim the win only when your opponent's time runs out."),
            code="your_turn",
        )
    if left > timecontrol.ZERO:
        seconds = math.ceil(left.total_seconds())
        raise Conflict(
            ngettext_lazy(
                "Your opponent still has %(seconds)s second on their clock.",
                "Your opponent still has %(seconds)s seconds on their clock.",
                seconds,
            ),
            code="time_left",
            seconds=seconds,
        )
    state = record.state_of(match, game)
    whole_match = match.timeout_loses_match and match.length > 1
    outcome = state.outcome_for_time_claim(game.turn_color, whole_match=whole_match)
    claim = record.new_event(
        game,
        GameEvent.Kind.TIMEOUT_CLAIM,
        now,
        color=int(color),
        value=outcome.points,
        notation="match" if whole_match else "gammon",
    )
    finish_game(game, state, outcome, now, ends_match=whole_match, events=[claim])
    return game


def _values(row: Game | Match) -> dict[str, Any]:
    """The stored fields of ``row`` as they are in memory (to see what an ending changed)."""
    return {f.name: getattr(row, f.attname) for f in row._meta.concrete_fields}


def _changed(row: Game | Match, before: dict[str, Any]) -> set[str]:
    """The fields of ``row`` whose value differs from ``before`` (:func:`_values`)."""
    return {name for name, value in _values(row).items() if value != before[name]}


def _update_rows(rows: Sequence[models.Model], fields: Iterable[str]) -> None:
    """Write ``fields`` of ``rows`` (all of one model) with the ORM, in at most two statements.

    A field that every row holds at the same value (a time-out's state, end time, cleared
    deadline and dice) is set for all of them by one ``filter(pk__in=…).update(…)``; only
    the others go through ``bulk_update``. Why: ``bulk_update`` writes a ``CASE WHEN pk = …``
    for every row and field, and compiling it costs about a millisecond of Python per row
    and field (``bench/README.md``, expiry sweep), so it should only carry what differs.
    """
    model = type(rows[0])
    shared: dict[str, Any] = {}
    differing: list[str] = []
    for name in sorted(fields):
        field = model._meta.get_field(name)
        assert isinstance(field, models.Field)  # a column of the row, not a reverse relation
        attname = field.attname
        first = getattr(rows[0], attname)
        if all(getattr(row, attname) == first for row in rows):
            shared[attname] = first
        else:
            differing.append(name)
    if shared:
        model._default_manager.filter(pk__in=[row.pk for row in rows]).update(**shared)
    if differing:
        model._default_manager.bulk_update(rows, differing)


def games_time_out_batch(*, games: list[Game], now: datetime) -> list[Game]:
    """:func:`game_time_out_locked` for a batch of match-play games, in a few statements.

    The caller has read and locked the games with their matches (and the matches'
    players) in this transaction. Each game is ended in memory by :func:`_time_out`, as
    one game is; then the batch is written with the ORM: the games and the matches by
    :func:`_update_rows` (the fields the endings changed, found by comparing each row with
    its values before), ``bulk_create`` of the events, and the
    :data:`~matches.signals.games_timed_out` receivers (statistics, ratings, notices) instead of
    each game's ``game_finished`` and ``match_finished``. A batch costs the same number
    of statements whatever its size. Games of money sessions (a time-out loses only the
    game and the session goes on: the next game starts) and games that are not overdue
    are left alone: returns the games ended, in the given order.
    """
    ended: list[Game] = []
    events: list[GameEvent] = []
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
        ended.append(game)
    if not ended:
        return ended
    matches = [game.match for game in ended]
    GameEvent.objects.bulk_create(events)
    _update_rows(ended, game_fields)
    _update_rows(matches, match_fields)
    games_timed_out.send(sender=Game, games=ended, matches=matches, now=now)
    return ended
