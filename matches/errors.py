"""The engine's refusals in the player's words: :func:`from_rules_error` turns a
``gammon.RulesError`` into the service error (:mod:`backgammon.errors`) a page or the
API shows.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

from backgammon.errors import InvalidAction
from gammon import RulesError

# What each engine error says to a player. The engine's own English text is a
# developer's message; these are the player's, and they are translated.
RULE_MESSAGES: dict[str, Promise] = {
    "invalid_notation": _("That is not a move. Write it like 24/18 13/11, or pass."),
    "blocked_point": _("Point %(point)s is blocked: your opponent holds it."),
    "must_enter": _("You must enter your checkers from the bar first."),
    "must_use_both_dice": _("You must use both dice (or as many moves as the roll allows)."),
    "must_play_larger_die": _("Only one die can be played, so you must play the larger one."),
    "not_all_home": _("You can bear off only when all your checkers are in your home board."),
    "no_such_checker": _("You have no checker on point %(point)s to move."),
    "wrong_dice": _("That move does not match your dice."),
    "bear_off_higher": _("A larger die bears off only from your highest point."),
    "must_move": _("You have a legal move, so you cannot pass."),
    "must_pass": _("No move is possible with these dice: this turn is a pass."),
    "ambiguous_play": _("That move fits more than one play: write the point where you hit."),
    "illegal_play": _("That is not a legal move with these dice."),
    "crawford": _("No doubling in the Crawford game."),
    "cube_dead": _("The cube is dead: winning this game already wins you the match."),
    "not_cube_owner": _("Your opponent owns the cube."),
    "cube_limit": _("The cube has reached its limit."),
    "chouette": _("The chouette cannot do that."),
    "chouette_players": _("A chouette has 3 to 8 players, each seated once."),
    "chouette_too_few": _("A chouette cannot go on with fewer than 3 players."),
    "chouette_not_member": _("You are not on the team in this game."),
    "chouette_dropped": _("You dropped the box's double: you are out of this game."),
    "chouette_out_of_turn": _("That decision is not yours to make."),
    "chouette_stage": _("The chouette is not waiting for that decision now."),
    "chouette_answered": _("You have already answered."),
    "chouette_game_over": _("This game is over."),
}


def from_rules_error(error: RulesError) -> InvalidAction:
    """The service error for an engine refusal, with the player's message."""
    message = RULE_MESSAGES.get(error.code, RULE_MESSAGES["illegal_play"])
    params = getattr(error, "params", {}) or {}
    if "%(point)s" in str(message) and "point" not in params:
        message = RULE_MESSAGES["illegal_play"]
    return InvalidAction(
        message, code=error.code, **{k: params[k] for k in ("point",) if k in params}
    )
