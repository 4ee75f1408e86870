"""What the game page says above the board, to the one who reads it: the banner (what
the viewer must do, or who is to do what), the status line, each player's points to go,
and, when a game or a match is over, its result.

While a game is played a player reads the banner in the second person ("Your move: you
rolled 5-2"), a spectator with names and colours. When it is over a player reads the end
in the second person, with the match's score from their side ("You lost the match
0–3"); a spectator reads it in the third person, with names and
the winner's score first ("Alice won the match 3–1"), as a chess site's game page does.
The line under a match's result tells how its last game ended. A chouette's board is
not a match of its own: its games end as games (the chouette's page keeps the score).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from gammon import Color

from . import resign_page
from .models import Game, Match, Vacation


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


def away_until(game: Game, away: dict[int, Vacation]) -> datetime | None:
    """When the player on turn comes back from vacation (their clock runs again), if away."""
    if game.is_finished:
        return None
    vacation = away.get(game.match.player(game.turn_color).pk)
    return vacation.ends_at if vacation else None


def status_line(game: Game) -> str:
    match = game.match
    on_turn = match.player(game.turn_color)
    name = getattr(on_turn, "public_name", str(on_turn))
    if game.is_finished:
        return game_result_text(game, None)
    if match.status != Match.Status.PLAYING:
        return _("The match is over.")
    if game.state == Game.State.RESIGNING:
        return resign_page.status_line(game)
    if game.held:  # a chouette's board, while its team decides off the board
        return _("The board waits for the team's decision: nothing can be played on it now.")
    if game.state == Game.State.DOUBLED:
        return _("%(name)s must take or drop a double to %(value)s.") % {
            "name": name,
            "value": game.cube_value * 2,
        }
    if game.state == Game.State.ROLLING:
        return _("%(name)s to roll or double.") % {"name": name}
    return _("%(name)s to move.") % {"name": name}


def _dice_shown(dice: tuple[int, int] | None) -> str:
    """The roll as players say it, the higher die first: ``5-2``."""
    if not dice:
        return ""
    return "-".join(str(d) for d in sorted(dice, reverse=True))


def _banner(game: Game, color: Color | None, actions: list[str]) -> str:
    """The line above the board: what the viewer must do, in the second person.

    Spectators (``color`` None) read who is to do what, with names and colours.
    """
    match = game.match
    if game.is_finished or match.status != Match.Status.PLAYING or game.held:
        return status_line(game)
    on_turn = match.player(game.turn_color)
    name = getattr(on_turn, "public_name", str(on_turn))
    state = game.state
    pending = resign_page.pending_offer(game, color)
    if pending is not None:
        return str(pending["banner"])
    if color is None:
        values = {"name": name, "color": _color_label(game.turn_color)}
        if state == Game.State.DOUBLED:
            values["value"] = game.cube_value * 2
            return _("%(name)s (%(color)s) to take or drop a double to %(value)s") % values
        if state == Game.State.ROLLING:
            return _("%(name)s (%(color)s) to roll or double") % values
        values["dice"] = _dice_shown(game.dice)
        return _("%(name)s (%(color)s) to move, with %(dice)s") % values
    if game.turn == int(color):
        if state == Game.State.DOUBLED:
            offerer = match.player(color.other)
            return _("%(name)s doubled to %(value)s: take or drop?") % {
                "name": getattr(offerer, "public_name", str(offerer)),
                "value": game.cube_value * 2,
            }
        if state == Game.State.ROLLING:
            if "double" in actions:
                return _("Your turn: roll or double")
            return _("Your turn: roll")
        return _("Your move: you rolled %(dice)s") % {"dice": _dice_shown(game.dice)}
    # The deadline is the banner's own next line (the template), said once.
    values = {"name": name}
    if state == Game.State.DOUBLED:
        values["value"] = game.cube_value * 2
        return _("Waiting for %(name)s to answer your double to %(value)s") % values
    if state == Game.State.ROLLING:
        return _("Waiting for %(name)s to roll") % values
    return _("Waiting for %(name)s to move") % values


def banner_context(game: Game, color: Color | None, actions: list[str]) -> dict[str, Any]:
    """The banner, the line under it and whether the match is over (its end's actions)."""
    finished = finished_banner(game, color)
    banner, result = finished if finished else (_banner(game, color, actions), "")
    return {"banner": banner, "game_result": result, "match_over": match_over(game)}


def _color_label(color: Color) -> str:
    return _("White") if color == Color.WHITE else _("Black")


def away_texts(game: Game) -> list[str]:
    """Each player's points to go, as "3-away" (nothing in money play, nor once the
    match is over: a 1-point match won by a backgammon is not "-2-away")."""
    match = game.match
    if match.is_money or match.status != Match.Status.PLAYING:
        return []
    texts = []
    for color in Color:
        player = match.player(color)
        texts.append(
            _("%(name)s %(away)s-away")
            % {
                "name": getattr(player, "public_name", str(player)),
                "away": match.length - match.score[color],
            }
        )
    return texts
