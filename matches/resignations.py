"""Offers to resign a game, and their answers: the standard way a game is resigned.

As in GNU Backgammon, FIBS and DailyGammon, a player offers a single game, a gammon or a
backgammon (``level`` 1, 2 or 3, times the cube), and the opponent accepts or declines;
a declined offer costs nothing. The choices the site made where those differ:

- **Who, and when.** The player on turn, before or after rolling, as in gnubg (FIBS lets
  either player resign at any time). In correspondence play the opponent of the player
  on turn waits anyway, and an offer at any time would cut into the other's move.
  Not while a double waits: dropping it is the single game's resignation, and the
  doubler does not act then.
- **The turn.** An offer passes the turn to the opponent, who answers (the game's stage
  is ``resigning``, gnubg's ``fResigned``): their clock runs, and, as with a double, one
  who lets it run out loses on time. A decline gives the turn back where it was, dice and
  all, with a fresh deadline (as a take gives the doubler one).
- **Floods.** After a decline the offerer may offer only more in the same turn (gnubg's
  ``fResignationDeclined``): at most three offers a turn, and the same one again only next
  turn.
- **The price.** An accepted offer scores its level times the cube, as gnubg does, and in
  match play ends the match when that reaches the points the opponent needs. Only the
  offers that make sense are open (``MatchState.resignation_offers``): no gammon once a
  checker is borne off or where the Jacoby rule makes it a single game, no backgammon that
  can no longer be lost, nothing beyond the first offer that already ends the match.

A match made with the option ``resignation: immediate`` (the site's first rule) resigns
at once instead (:func:`matches.endings.game_resign`), and so does a chouette's board; any
match may be resigned outright, whole (``whole_match``), in either.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction
from gammon import RESIGNATION_LEVELS

from . import endings, record, selectors
from .models import Game, GameEvent

#: What the API and the pages call each offer (gnubg's levels 1, 2, 3), and back.
LEVEL_NAMES: dict[int, str] = {level: kind.value for level, kind in RESIGNATION_LEVELS.items()}
LEVELS_BY_NAME: dict[str, int] = {name: level for level, name in LEVEL_NAMES.items()}


@transaction.atomic
def game_offer_resignation(
    *, game_id: int, player: User, level: int, expected_ply: int | None, now: datetime
) -> Game:
    """Offer to resign ``level`` (1 a single game, 2 a gammon, 3 a backgammon) times the
    cube; the opponent is on turn to answer (``turn_started``)."""
    game, color = record.lock(game_id, player, expected_ply, now)
    if not selectors.resigns_by_offer(game.match):
        raise Conflict(
            _("In this match a game is resigned at once, without an offer."),
            code="resign_outright",
        )
    if game.turn != int(color):
        raise Forbidden(_("You may offer to resign only on your turn."), code="not_your_turn")
    record.require_turn(game, color, Game.State.ROLLING, Game.State.MOVING)
    if 1 <= level <= game.resign_declined:
        raise Conflict(
            _(
                "Your opponent has declined that offer this turn: you may offer more now, "
                "or the same again next turn."
            ),
            code="resign_declined",
        )
    if level not in {offer.level for offer in selectors.game_resignation_offers(game, color)}:
        raise InvalidAction(
            _("You cannot offer that resignation here."),
            code="resign_level",
        )
    record.charge_clock(game, now)
    record.append(game, GameEvent.Kind.RESIGN_OFFER, now, color=int(color), value=level)
    record.start_clock(game, now, color.other)
    record.announce_turn(game, now)
    return record.save(game, now)


@transaction.atomic
def game_answer_resignation(
    *, game_id: int, player: User, expected_ply: int | None, now: datetime, accept: bool
) -> Game:
    """Accept the opponent's offer to resign (the game ends, for the points offered) or
    decline it (the game goes on where it was, the offerer on turn)."""
    game, color = record.lock(game_id, player, expected_ply, now)
    if game.state != Game.State.RESIGNING or game.turn != int(color):
        raise InvalidAction(
            _("There is no offer to resign for you to answer."), code="no_resign_offer"
        )
    if accept:
        level = game.resign_offer
        record.append(game, GameEvent.Kind.RESIGN_ACCEPT, now, color=int(color), value=level)
        state = record.state_of(game.match, game)
        endings.finish_game(game, state, state.outcome_for_offer(color.other, level), now)
        return game
    record.charge_clock(game, now)
    record.append(game, GameEvent.Kind.RESIGN_DECLINE, now, color=int(color))
    record.start_clock(game, now, color.other)
    record.announce_turn(game, now)
    return record.save(game, now)
