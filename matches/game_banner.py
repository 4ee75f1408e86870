"""What the game page says when a game or a match is over, to the one who reads it.

A player reads the end in the second person, with the match's score from their side
("You lost the match 0–3"); a spectator reads it in the third person, with names and
the winner's score first ("Alice won the match 3–1"), as a chess site's game page does.
The line under a match's result tells how its last game ended. A chouette's board is
not a match of its own: its games end as games (the chouette's page keeps the score).
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import Color

from .models import Game, Match


def _name(user: object) -> str:
    return str(getattr(user, "public_name", user))


def match_over(game: Game) -> bool:
    """Whether ``game`` is the last game of a match that is over (a chouette's board aside)."""
    match = game.match
    if match.chouette or match.status != Match.Status.FINISHED or not game.is_finished:
        return False
    last = match.current_game
    return last is not None and last.pk == game.pk


def match_result_text(match: Match, color: Color | None) -> str:
    """``"You won the match 3–1"`` for a player (``color``), ``"Alice won the match 3–1"``
    for a spectator; a money session is a session, and a draw or a cancellation says so."""
    if match.result == Match.Result.CANCELLED:
        return _("The match was cancelled")
    session = match.length == 0
    if color is None:
        first, second = match.score
        if match.result == Match.Result.DRAW:
            return _("The match ended in a draw, %(first)s–%(second)s") % {
                "first": first,
                "second": second,
            }
        winner = Color.WHITE if match.result == Match.Result.WHITE else Color.BLACK
        values = {
            "name": _name(match.player(winner)),
            "first": match.score[winner],
            "second": match.score[winner.other],
        }
        if session:
            return _("%(name)s won the session %(first)s–%(second)s") % values
        return _("%(name)s won the match %(first)s–%(second)s") % values
    values = {"mine": match.score[color], "theirs": match.score[color.other]}
    if match.result == Match.Result.DRAW:
        return _("The match ended in a draw, %(mine)s–%(theirs)s") % values
    won = match.result == (Match.Result.WHITE if color == Color.WHITE else Match.Result.BLACK)
    if session:
        if won:
            return _("You won the session %(mine)s–%(theirs)s") % values
        return _("You lost the session %(mine)s–%(theirs)s") % values
    if won:
        return _("You won the match %(mine)s–%(theirs)s") % values
    return _("You lost the match %(mine)s–%(theirs)s") % values


def game_result_text(game: Game, color: Color | None) -> str:
    """How a finished game ended: ``"You lost 3 points (Backgammon)."`` for a player,
    ``"Alice won 3 points (Backgammon)."`` for a spectator."""
    how = game.get_termination_display()
    if game.winner is None:
        return _("Game over: %(how)s.") % {"how": how}
    winner = Color(game.winner)
    values = {"points": game.points, "how": how}
    if color is None:
        return ngettext(
            "%(name)s won %(points)s point (%(how)s).",
            "%(name)s won %(points)s points (%(how)s).",
            game.points,
        ) % {**values, "name": _name(game.match.player(winner))}
    if winner == color:
        return (
            ngettext(
                "You won %(points)s point (%(how)s).",
                "You won %(points)s points (%(how)s).",
                game.points,
            )
            % values
        )
    return (
        ngettext(
            "You lost %(points)s point (%(how)s).",
            "You lost %(points)s points (%(how)s).",
            game.points,
        )
        % values
    )


def finished_banner(game: Game, color: Color | None) -> tuple[str, str] | None:
    """The banner of a finished game and the line under it: the match's result and its
    last game when this game ended the match, else the game's result alone. None while
    the game is played."""
    if not game.is_finished:
        return None
    if match_over(game):
        return match_result_text(game.match, color), game_result_text(game, color)
    return game_result_text(game, color), ""
