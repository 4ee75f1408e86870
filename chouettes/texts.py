"""What the chouette pages say of a game: each role, what a player is awaited for,
each decision of the cube side's record and who captained (the session page and the
game page's panel say it the same way)."""

from __future__ import annotations

from collections.abc import Callable

from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import chouette as rules
from matches.models import Game

from . import selectors
from .models import ChouetteGame, Decision
from .selectors import Action, Line, Panel, Role, Stake

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


def awaited_texts(panel: Panel, viewer_id: int | None = None) -> list[str]:
    """ "ann to roll", "cy to vote on the team's double": whose decision the game waits
    for, but the viewer's own (:func:`your_decision_text` tells them in the second person)."""
    return [
        _("%(name)s %(what)s")
        % {"name": line.seat.player.public_name, "what": action_text(action, panel)}
        for line in panel.awaited
        if viewer_id is None or line.seat.player_id != viewer_id
        for action in line.awaited
    ]


def _viewer_line(panel: Panel, viewer_id: int | None) -> Line | None:
    if viewer_id is None:
        return None
    return next((line for line in panel.lines if line.seat.player_id == viewer_id), None)


def your_decision_text(panel: Panel, viewer_id: int | None, *, board_deadline: bool = True) -> str:
    """ "Your vote on the team's double is awaited: 2 days left.": the viewer's own decision
    off the board, with its deadline ("" when none is theirs). The board's roll and move
    are the game page's banner's, and so is the box's deadline to answer the team's double
    there (the board's own: ``board_deadline=False`` leaves it out)."""
    line = _viewer_line(panel, viewer_id)
    if line is None:
        return ""
    if Action.VOTE in line.awaited:
        what, deadline = _("Your vote on the team's double is awaited"), line.seat.deadline_at
    elif Action.ANSWER in line.awaited:
        what, deadline = _("Your answer to the box's double is awaited"), line.seat.deadline_at
    elif Action.BOX_ANSWER in line.awaited:
        board = panel.board
        what = _("Your answer to the team's double is awaited")
        deadline = None if board is None or not board_deadline else board.deadline_at
    else:
        return ""
    if deadline is None:
        return _("%(what)s.") % {"what": what}
    return _("%(what)s: %(left)s left.") % {"what": what, "left": timeuntil(deadline)}


def banner_text(panel: Panel, viewer_id: int | None) -> str:
    """What the game page's banner says to a player of the chouette, in the second person:
    their vote or answer, and what the board waits for while it is someone else's. ""
    for a spectator, and where the board's own banner says it (the box or the captain on
    turn, or waiting for the other on the board)."""
    side, board = panel.side, panel.board
    line = _viewer_line(panel, viewer_id)
    if side is None or board is None or line is None or line.role is Role.WAITING:
        return ""
    if panel.game is None or panel.game.settled_at is not None or board.is_finished:
        return ""
    stakes = {s.player_id: s for s in selectors.stakes_at_issue(panel) if not s.dropped}
    own = stakes.get(line.seat.player_id)
    if Action.VOTE in line.awaited and own is not None:
        return _(
            "Your vote: the team proposes to double the box, your cube to %(value)s. "
            "Agree or refuse?"
        ) % {"value": own.doubled}
    if Action.ANSWER in line.awaited and own is not None:
        return _("The box doubled, your cube to %(value)s: take or drop?") % {"value": own.doubled}
    if Action.BOX_ANSWER in line.awaited:
        values = {stake.doubled for stake in stakes.values()}
        if len(values) == 1:
            return _("The team doubled to %(value)s: take or drop?") % {"value": values.pop()}
        return _("The team doubled: take or drop?")
    if Action.MOVE in line.awaited:
        if Action.PROPOSE in panel.actions:
            return _("Your turn: roll, or propose the team's double")
        if Action.BOX_DOUBLE in panel.actions:
            return _("Your turn: roll, or double the team")
        return ""
    if line.dropped:
        return _("You dropped the box's double: you are out of this game.")
    others = ", ".join(
        other.seat.player.public_name
        for other in panel.awaited
        if other.seat.player_id != line.seat.player_id
    )
    box = line.role is Role.BOX
    if side.stage is rules.Stage.TEAM_VOTE:
        if box:
            return _("The team votes on doubling you: waiting for %(names)s.") % {"names": others}
        return _("Your team votes on doubling the box: waiting for %(names)s.") % {"names": others}
    if side.stage is rules.Stage.TEAM_ANSWER:
        if box:
            return _("You doubled the team: waiting for %(names)s to answer.") % {"names": others}
        return _("Waiting for %(names)s to answer the box's double.") % {"names": others}
    if side.stage is rules.Stage.BOX_ANSWER:
        return _("Waiting for %(name)s, in the box, to answer the team's double.") % {
            "name": others
        }
    if line.role is Role.MEMBER:
        on_turn = next((other for other in panel.awaited if Action.MOVE in other.awaited), None)
        if on_turn is not None and on_turn.role is Role.CAPTAIN:
            return _("Your captain, %(name)s, is to play.") % {
                "name": on_turn.seat.player.public_name
            }
        if on_turn is not None:
            return _("Waiting for %(name)s, in the box, to play.") % {
                "name": on_turn.seat.player.public_name
            }
    return ""


def _points(points: int) -> str:
    return ngettext("%(points)s point", "%(points)s points", points) % {"points": points}


def confirm_texts(panel: Panel, viewer_id: int | None) -> dict[str, str]:
    """The question each cube decision of the viewer's asks before it is sent, with what
    it costs (the panel's forms, by their ``action``): a vote, the box's answer to the
    team's double, a member's answer to the box's. The box's drop says what it pays each
    member, and what a member who dropped earlier still pays it. Empty when the viewer
    has no such decision."""
    line = _viewer_line(panel, viewer_id)
    if line is None:
        return {}
    stakes = selectors.stakes_at_issue(panel)
    active = [stake for stake in stakes if not stake.dropped]
    own = next((s for s in active if s.player_id == line.seat.player_id), None)
    texts: dict[str, str] = {}
    if Action.VOTE in panel.actions and own is not None:
        texts["vote_yes"] = _(
            "Agree to double the box? If the box takes, your cube goes to %(value)s; "
            "if it drops, you win %(points)s."
        ) % {"value": own.doubled, "points": _points(own.now)}
        texts["vote_no"] = _("Refuse the double? The team does not double the box this turn.")
    if Action.ANSWER in panel.actions and own is not None:
        texts["take"] = _("Take the box's double? Your cube goes to %(value)s.") % {
            "value": own.doubled
        }
        texts["drop"] = _("Drop the box's double? You lose this game and %(points)s.") % {
            "points": _points(own.now)
        }
    if Action.BOX_ANSWER in panel.actions and active:
        names = _names(panel)
        texts["box_take"] = _box_take_text(active, names)
        texts["box_drop"] = _box_drop_text(stakes, names)
    return texts


def _names(panel: Panel) -> dict[int, str]:
    return {line.seat.player_id: line.seat.player.public_name for line in panel.lines}


def _box_take_text(active: list[Stake], names: dict[int, str]) -> str:
    values = {stake.doubled for stake in active}
    if len(active) == 1:
        return _("Take the team's double? The cube goes to %(value)s.") % {
            "value": active[0].doubled
        }
    if len(values) == 1:
        return _("Take the team's double? The cube goes to %(value)s against each member.") % {
            "value": active[0].doubled
        }
    each = ", ".join(
        _("%(value)s against %(name)s") % {"value": s.doubled, "name": names.get(s.player_id)}
        for s in active
    )
    return _("Take the team's double? The cubes go to %(each)s.") % {"each": each}


def _box_drop_text(stakes: tuple[Stake, ...], names: dict[int, str]) -> str:
    """The box's drop pays each member still in the game their stake now; a member who
    dropped the box's double earlier pays the box theirs all the same."""
    active = [stake for stake in stakes if not stake.dropped]
    paid = _points(sum(stake.now for stake in active))
    if len(active) == 1:
        text = _("Drop the team's double? You lose this game and %(points)s.") % {"points": paid}
    else:
        each = ", ".join(
            _("%(points)s to %(name)s") % {"points": s.now, "name": names.get(s.player_id)}
            for s in active
        )
        text = _("Drop the team's double? You lose this game and %(points)s (%(each)s).") % {
            "points": paid,
            "each": each,
        }
    for stake in stakes:
        if stake.dropped:
            text += " " + _("%(name)s, who dropped, still pays you %(points)s.") % {
                "name": names.get(stake.player_id),
                "points": _points(stake.now),
            }
    return text


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
