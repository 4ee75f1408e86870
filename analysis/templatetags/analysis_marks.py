"""The game page's analysis (issue 15): gnubg's marks in the record, and the detail of a
marked ply, ``{% load analysis_marks %}`` in ``templates/matches/game_detail.html``
(matches imports no analysis: its template loads these tags).

A game whose match is in play gets nothing here: the selectors give no decision of it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.requests import context_user
from gammon import Color, Step
from matches.board_svg import LastMove, board_svg_at, board_viewer
from matches.models import Game, GameEvent
from matches.record_rows import RecordLine, record_steps
from matches.replay import ReplayError

from .. import selectors
from ..models import Decision

register = template.Library()

#: gnubg's marks as annotators write them, worst last.
SYMBOLS = {"doubtful": "?!", "bad": "?", "very bad": "??"}
_SEVERITY = {"": 0, "doubtful": 1, "bad": 2, "very bad": 3}
#: gnubg's words for a roll's luck, in the player's language.
LUCK = {
    "very lucky": gettext_lazy("Very lucky roll"),
    "lucky": gettext_lazy("Lucky roll"),
    "unlucky": gettext_lazy("Unlucky roll"),
    "very unlucky": gettext_lazy("Very unlucky roll"),
}

#: gnubg's cube actions as a decision names them (``made``, ``best``), in the reader's
#: language; a play is its notation.
CUBE_ACTIONS = {
    "Double": gettext_lazy("Double"),
    "No double": gettext_lazy("No double"),
    "Take": gettext_lazy("Take"),
    "Drop": gettext_lazy("Drop"),
}


def _worst(decisions: list[Decision]) -> Decision:
    return max(decisions, key=lambda d: (_SEVERITY.get(d.mark, 0), d.equity_lost))


@register.simple_tag
def game_marks(game: Game) -> dict[int, list[Decision]]:
    """``{ply: its decisions}`` of a finished, analysed game; else empty. Read once a
    page: the record's marks and the shown ply's detail both come from it.

    A ply holds one play, or one cube action, and a roll may hold a missed double."""
    return selectors.game_decisions_by_ply(game) or {}


@register.inclusion_tag("analysis/_mark.html")
def decision_mark(marks: dict[int, list[Decision]], plies: Iterable[int]) -> dict[str, Any]:
    """The mark after a record line, for the worst decision of its ``plies`` (a turn's
    roll, where a missed double is judged, and its move): ``?!``, ``?`` or ``??``, its
    word for screen readers and a title with the equity lost, linking to that
    decision's analysis."""
    decisions = [d for ply in plies for d in marks.get(ply, ())] if marks else []
    decision = _worst(decisions) if decisions else None
    if decision is None or decision.mark not in SYMBOLS:
        return {"decision": None}
    return {
        "decision": decision,
        "ply": decision.ply,
        "symbol": SYMBOLS[decision.mark],
        "slug": decision.mark.replace(" ", "-"),
        "label": decision.get_mark_display(),
        "kind": decision.get_kind_display(),
    }


@register.simple_tag
def analysed_steps(
    steps: dict[str, int | None],
    lines: list[RecordLine],
    game: Game,
    shown_ply: int | None,
    marks: dict[int, list[Decision]],
) -> dict[str, int | None]:
    """The ◀ ▶ steps of the record (``steps``), stopping at every ply gnubg judged too:
    a missed double is judged at the roll, which the turn's line leads past."""
    if not marks:
        return steps
    return record_steps(lines, game, shown_ply, stops=marks)


def _steps(raw: list[list[int]]) -> tuple[Step, ...]:
    return tuple(Step(int(source), int(dest)) for source, dest in raw)


def _board(
    context: template.Context, game: Game, events: list[GameEvent], decision: Decision
) -> str:
    """The position the decision was made in (the record up to the event before it), with
    the play made (amber) and gnubg's best (blue, dashed) drawn on it; for a cube action,
    the position alone."""
    color = Color(decision.color)
    dice = (decision.dice[0], decision.dice[1]) if decision.dice else None
    made = best = None
    if decision.kind == Decision.Kind.PLAY and dice is not None and decision.made_steps:
        made = LastMove(color, dice, decision.made, _steps(decision.made_steps))
        if decision.best != decision.made:
            best = LastMove(color, dice, decision.best, _steps(decision.best_steps))
    return board_svg_at(
        game,
        events,
        (decision.ply or 0) - 1,
        **board_viewer(game.match, context_user(context)),
        dice=dice,
        last_move=made,
        best_move=best,
    )


@register.inclusion_tag("analysis/_ply.html", takes_context=True)
def ply_analysis(
    context: template.Context,
    game: Game,
    marks: dict[int, list[Decision]],
    ply: int | None,
) -> dict[str, Any]:
    """gnubg's view of the decisions at ``ply`` (of ``game_marks``): the play made and the
    best, their equities, the mark and the luck, the top plays, and the board."""
    decisions = marks.get(ply, []) if marks and ply is not None else []
    if not decisions:
        return {"decisions": []}
    events = list(game.events.all())
    shown = []
    for decision in decisions:
        try:
            board = _board(context, game, events, decision)
        except ReplayError:
            board = ""
        shown.append(
            {
                "decision": decision,
                "made": CUBE_ACTIONS.get(decision.made, decision.made),
                "best": CUBE_ACTIONS.get(decision.best, decision.best),
                "symbol": SYMBOLS.get(decision.mark, ""),
                "luck": LUCK.get(decision.luck_mark, ""),
                "player": game.match.player(Color(decision.color)),
                "board": board,
                "candidates": [
                    {**c, "loss": c["equity"] - decision.best_equity} for c in decision.candidates
                ],
            }
        )
    return {"decisions": shown, "title": _("gnubg's analysis")}
