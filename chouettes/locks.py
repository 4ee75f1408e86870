"""The rows a change to a chouette locks, always in one order.

A change that touches a game in play locks the board first
(:func:`matches.record.lock_game`), then the chouette row: the order in which a board's
ending (a move, a time-out, a moderator) reaches :func:`chouettes.endings.game_settle`,
so the two never wait on each other.
"""

from __future__ import annotations

from datetime import datetime

from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, NotFound
from matches import record
from matches.models import Game

from .models import Chouette, ChouetteGame, Seat


def locked_chouette(chouette_id: int) -> Chouette:
    """The chouette, its row locked until the transaction ends (404 if there is none)."""
    chouette = Chouette.objects.select_for_update().filter(pk=chouette_id).first()
    if chouette is None:
        raise NotFound(_("No such chouette."))
    return chouette


def locked_game(
    chouette_id: int, expected_ply: int | None, now: datetime
) -> tuple[Chouette, ChouetteGame, Game]:
    """The chouette's game in play, its board locked first, then the chouette row."""
    current = (
        ChouetteGame.objects.filter(chouette_id=chouette_id, settled_at__isnull=True)
        .order_by("-number")
        .values_list("match_id", flat=True)
        .first()
    )
    if current is None:
        if not Chouette.objects.filter(pk=chouette_id).exists():
            raise NotFound(_("No such chouette."))
        raise Conflict(_("No game of this chouette is in play."), code="game_over")
    board_id = Game.objects.filter(match_id=current).values_list("pk", flat=True).get()
    board = record.lock_game(board_id, now)
    record.require_live(board, expected_ply)
    chouette = locked_chouette(chouette_id)
    game = ChouetteGame.objects.get(match_id=current)
    game.chouette = chouette
    return chouette, game, board


def member_seat(chouette: Chouette, user: User) -> Seat:
    """``user``'s seat at ``chouette``, refused (403) to anyone not seated there."""
    seat = chouette.seats.filter(player=user, status=Seat.Status.SEATED).first()
    if seat is None:
        raise Forbidden(_("You are not playing in this chouette."))
    return seat
