"""What moderators may do to a match or a game: award, draw or cancel it, or give
the player on turn more time.

``moderation.rulings`` calls these, writes the audit entry and tells the players;
here is only what changes the game.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from backgammon.errors import Conflict, InvalidAction, NotFound
from gammon import Color, Termination

from . import endings, record
from .models import Game, GameEvent, Match
from .signals import match_cancelled

#: The most a moderator may add to a deadline at once.
MAX_DEADLINE_EXTENSION = timedelta(days=60)


@transaction.atomic
def match_adjudicate(
    *, match_id: int, winner: Color | None, now: datetime, cancel: bool = False
) -> Match:
    """End a match in play by a moderator's decision.

    - ``winner`` given: the match is awarded to that colour. The current game ends
      through :func:`endings.finish_game` with :meth:`MatchState.outcome_for_adjudication`
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
        # The record's ruling with no colour finishes the game with no winner.
        record.append(game, GameEvent.Kind.ADJUDICATE, now, notation="cancel")
        game.termination = Termination.CANCELLED
        game.finished_at = now
        game.deadline_at = None
        record.save(game, now)
        match.status = Match.Status.FINISHED
        match.result = Match.Result.CANCELLED
        match.termination = Termination.CANCELLED
        match.finished_at = now
        match.draw_offered_by = None
        match.save()
        match_cancelled.send(sender=Match, match=match, now=now)
        return match
    state = record.state_of(match, game)
    if winner is None:
        record.append(game, GameEvent.Kind.ADJUDICATE, now, notation="draw")
        outcome = state.outcome_for_draw()
    else:
        outcome = state.outcome_for_adjudication(winner)
        record.append(
            game,
            GameEvent.Kind.ADJUDICATE,
            now,
            color=int(winner),
            value=outcome.points,
            notation="award",
        )
    endings.finish_game(game, state, outcome, now, ends_match=True)
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
    return record.save(game, now)
