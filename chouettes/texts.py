"""What the chouette pages say of a game: each role, what a player is awaited for,
each decision of the cube side's record and who captained (the session page and the
game page's panel say it the same way)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.translation import gettext as _

from matches.models import Game

from . import selectors
from .models import ChouetteGame, Decision
from .selectors import Action, Panel, Role

ROLE_NAMES: dict[Role, Callable[[], str]] = {
    Role.BOX: lambda: _("In the box"),
    Role.CAPTAIN: lambda: _("Captain"),
    Role.MEMBER: lambda: _("Team member"),
    Role.WAITING: lambda: _("Seated"),
}


def action_text(action: Action, panel: Panel) -> str:
    """What a player is awaited for, in a few words."""
    if action is Action.MOVE:
        board = panel.board
        if board is not None and board.state == Game.State.ROLLING:
            return _("to roll")
        return _("to move")
    return {
        Action.BOX_ANSWER: lambda: _("to take or drop the team's double"),
        Action.VOTE: lambda: _("to vote on the team's double"),
        Action.ANSWER: lambda: _("to take or drop the box's double"),
        Action.PROPOSE: lambda: _("may propose the team's double"),
        Action.BOX_DOUBLE: lambda: _("may double the team"),
        Action.SUGGEST: lambda: _("may suggest a play"),
    }[action]()


def awaited_texts(panel: Panel) -> list[str]:
    """ "ann to roll", "cy to vote on the team's double": whose decision the game waits for."""
    return [
        _("%(name)s %(what)s")
        % {"name": line.seat.player.public_name, "what": action_text(action, panel)}
        for line in panel.awaited
        for action in line.awaited
    ]


def decision_text(decision: Decision, names: dict[int, str]) -> str:
    """One line of the cube side's record: "bob proposed the double", "di dropped (time)"."""
    name = names.get(decision.player_id) or decision.player.public_name
    kind = decision.kind
    if kind == Decision.Kind.PROPOSE:
        text = _("%(name)s proposed the team's double")
    elif kind == Decision.Kind.VOTE:
        text = _("%(name)s agreed") if decision.yes else _("%(name)s refused")
    elif kind == Decision.Kind.BOX_DOUBLE:
        text = _("%(name)s (the box) doubled")
    elif kind == Decision.Kind.BOX_ANSWER:
        text = _("%(name)s (the box) took") if decision.yes else _("%(name)s (the box) dropped")
    else:
        text = _("%(name)s took") if decision.yes else _("%(name)s dropped")
    text = text % {"name": name}
    if decision.timed_out:
        text = _("%(decision)s (time)") % {"decision": text}
    return text


def captain_texts(game: ChouetteGame, names: dict[int, str]) -> list[str]:
    """Who captained the team: the first captain, then each who took over from one who
    dropped the box's double."""
    texts = []
    for captaincy in selectors.captains_of(game):
        name = names.get(captaincy.player_id, "")
        if captaincy.after is None:
            texts.append(_("%(name)s captained from the start.") % {"name": name})
        else:
            texts.append(
                _("%(name)s captained from ply %(ply)s, when %(before)s dropped.")
                % {
                    "name": name,
                    "ply": captaincy.from_ply,
                    "before": names.get(captaincy.after, ""),
                }
            )
    return texts
