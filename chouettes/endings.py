"""The end of a chouette's game.

The board's own end (borne off, resigned, timed out, adjudicated, or ended on the cube)
sends ``match_finished``, and a moderator's cancelling ``match_cancelled``; the receivers
call here inside that transaction. :func:`game_settle` settles every member with the
box, rotates the places, lets the leavers go and starts the next game, or ends the
chouette; :func:`game_void` settles nothing and starts the next game from the same
places. :func:`settlement_of` is also the rule the replay check applies
(:mod:`chouettes.replay`).
"""

from __future__ import annotations

from datetime import datetime

from django.db.models import F

from gammon import Color, Termination
from gammon import chouette as rules
from matches.models import Game, Match

from . import deadlines
from . import state as cube
from .locks import locked_chouette
from .models import Chouette, ChouetteGame, Result, Seat
from .seating import start_game
from .signals import (
    chouette_changed,
    chouette_finished,
    chouette_game_settled,
)


def game_settle(match: Match, now: datetime) -> ChouetteGame | None:
    """A chouette's board has ended (inside its transaction): settle every member with
    the box, rotate the places, let the leavers go, and start the next game."""
    game = ChouetteGame.objects.filter(match=match).first()
    if game is None or game.settled_at is not None:
        return None
    chouette = locked_chouette(game.chouette_id)
    game.chouette = chouette
    board = match.games.get()
    state = cube.cube_side(game)
    settlement = settlement_of(state, board)
    _write_results(chouette, game, state, settlement, match)
    game.settled_at = now
    game.save(update_fields=["settled_at"])
    deadlines.clear(chouette)
    places = rules.rotate(
        chouette.rules_places(),
        team_won=None if settlement is None else settlement.team_won,
        captain=state.captain,
    )
    chouette_game_settled.send(sender=ChouetteGame, game=game, now=now)
    _next_game(chouette, places, game.number + 1, now)
    return game


def game_void(match: Match, now: datetime) -> ChouetteGame | None:
    """A moderator cancelled a chouette's board: the game settles nothing, the places
    stay, and the next game starts."""
    game = ChouetteGame.objects.filter(match=match).first()
    if game is None or game.settled_at is not None:
        return None
    chouette = locked_chouette(game.chouette_id)
    game.settled_at = now
    game.save(update_fields=["settled_at"])
    deadlines.clear(chouette)
    _next_game(chouette, chouette.rules_places(), game.number + 1, now)
    return game


def settlement_of(state: rules.ChouetteGame[int], board: Game) -> rules.GameSettlement[int] | None:
    """How the board's end settles each member (None: a cancelled board settles nothing)."""
    if state.stage is rules.Stage.OVER:
        return rules.settle_game(state)
    termination = Termination(board.termination)
    if termination is Termination.CANCELLED:
        return None
    winner = None if board.winner is None else Color(board.winner)
    return rules.settle_game(state, winner, termination, position=board.position())


def _write_results(
    chouette: Chouette,
    game: ChouetteGame,
    state: rules.ChouetteGame[int],
    settlement: rules.GameSettlement[int] | None,
    match: Match,
) -> None:
    points = {} if settlement is None else settlement.points
    members = {m.player: m for m in state.members}
    rows = [
        Result(
            game=game,
            player_id=player,
            role=Result.Role.BOX
            if player == state.box
            else Result.Role.CAPTAIN
            if player == state.captain
            else Result.Role.MEMBER,
            stake=members[player].stake if player in members else 0,
            dropped=members[player].dropped if player in members else False,
            points=points.get(player, 0),
        )
        for player in (state.box, *(m.player for m in state.members))
    ]
    Result.objects.bulk_create(rows)
    for row in rows:
        Seat.objects.filter(chouette=chouette, player_id=row.player_id).update(
            points=F("points") + row.points, games=F("games") + 1
        )
    Seat.objects.filter(chouette=chouette, player_id=match.white_id).update(bank=match.bank_white)
    Seat.objects.filter(chouette=chouette, player_id=match.black_id).update(bank=match.bank_black)


def _next_game(chouette: Chouette, places: rules.Places[int], number: int, now: datetime) -> None:
    """Let the players who asked go, then start the next game, or end the chouette."""
    leavers = chouette.seats.filter(status=Seat.Status.SEATED).exclude(leaving="")
    over = False
    for player_id in leavers.values_list("player_id", flat=True):
        try:
            places = rules.leave(places, player_id)
        except rules.ChouetteTooFewError:
            over = True
    leavers.update(status=F("leaving"), left_at=now, leaving="")
    if over:
        chouette.status, chouette.finished_at = Chouette.Status.FINISHED, now
        chouette.save(update_fields=["status", "finished_at"])
        chouette_finished.send(sender=Chouette, chouette=chouette, now=now)
        chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
        return
    chouette.set_places(places)
    chouette.save(update_fields=["places"])
    start_game(chouette, number, now)
