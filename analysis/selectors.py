"""Reads of the analysis: what a page or the API may show, and to whom.

A finished match's analysis is as public as the match page (anyone may read a match's
record); nothing at all is given of a match still in play, to anyone: no figure, no
decision, no hint (correspondence play would make it cheating).
"""

from __future__ import annotations

from typing import Any

from matches.models import Game, Match

from . import services
from .models import Decision, MatchAnalysis


def match_analysis(match: Match) -> MatchAnalysis | None:
    """The analysis of a finished match, with its players' figures; None in play or
    when none was requested."""
    if not services.is_analysable(match):
        return None
    return MatchAnalysis.objects.prefetch_related("players").filter(match=match).first()


def game_decisions(game: Game) -> list[Decision] | None:
    """The analysed decisions of ``game`` by ply (the game page's marks), or None while
    its match is in play or is not analysed."""
    if not services.is_analysable(game.match):
        return None
    return list(Decision.objects.filter(game=game, analysis__status=MatchAnalysis.Status.DONE))


def game_decisions_by_ply(game: Game) -> dict[int, list[Decision]] | None:
    """``game_decisions`` keyed by ply, for marking the record: a play's MOVE, a cube
    action's event, a missed double's ROLL. None while the match is in play."""
    decisions = game_decisions(game)
    if decisions is None:
        return None
    by_ply: dict[int, list[Decision]] = {}
    for decision in decisions:
        if decision.ply is not None:
            by_ply.setdefault(decision.ply, []).append(decision)
    return by_ply


def progress(analysis: MatchAnalysis | None) -> dict[str, Any]:
    """The state a page polls: status and games done of total."""
    if analysis is None:
        return {"status": "none", "games_done": 0, "games_total": 0}
    return {
        "status": analysis.status,
        "games_done": analysis.games_done,
        "games_total": analysis.games_total,
    }


def summary_context(match: Match, user: object) -> dict[str, Any]:
    """What the match page's analysis section needs.

    Whether ``user`` may ask for the analysis is read only where the section can offer
    the button (an analysable match, neither analysed nor under way, gnubg at hand): for a
    spectator it loads their permissions (two statements), which most pages never need.
    """
    analysable = services.is_analysable(match)
    analysis = match_analysis(match) if analysable else None
    players = []
    available = services.analysis_available()
    button = analysable and available
    if analysis is not None:
        if analysis.is_done:
            players = list(analysis.players.all())
        button = button and not analysis.is_done and not analysis.is_pending
    return {
        "match": match,
        "analysable": analysable,
        "available": available,
        "analysis": analysis,
        "players": players,
        "may_request": button and services.may_request(match, user),
    }
