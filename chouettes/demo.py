"""The demo's chouette: ``demo_data`` calls :func:`create_demo_data`.

Alice, Bob and Carol sit at one chouette in play, thrown with seeded dice: the first
game's box opened, and the team (its captain on roll) is voting on doubling the box,
so the demo shows a vote awaited and a held board. Idempotent: an existing demo
chouette is left as it is.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from gammon import SeededDice, legal_plays
from matches import record, turns

from . import decisions, seating
from .models import Chouette, Seat
from .selectors import Action, panel


def create_demo_data(*, users: Sequence[User], stdout: Any) -> None:
    players = [u for u in users if u.username in ("alice", "bob", "carol")]
    if len(players) < 3:
        return
    creator = players[0]
    existing = Chouette.objects.filter(creator=creator, status=Chouette.Status.PLAYING).first()
    if existing is not None:
        stdout.write(f"Demo chouette #{existing.pk} already exists\n")
        return
    previous = record.dice
    record.dice = SeededDice(16)
    try:
        with transaction.atomic():
            chouette = _create(players)
    finally:
        record.dice = previous
    seated = Seat.objects.filter(chouette=chouette).count()
    stdout.write(f"Created demo chouette #{chouette.pk} with {seated} players\n")


def _create(players: Sequence[User]) -> Chouette:
    now = timezone.now()
    chouette = seating.chouette_create(
        creator=players[0], invite=players[1:], places_from_dice=False, now=now
    )
    for player in players[1:]:
        seating.chouette_join(chouette_id=chouette.pk, user=player, now=now)
    seating.chouette_start(chouette_id=chouette.pk, user=players[0], now=now)
    # Play the board until the team may double, then the captain proposes it.
    for _ in range(20):
        view = panel(chouette, None)
        assert view.board is not None and view.side is not None
        if Action.PROPOSE in view.actions_for(view.side.captain):
            captain = next(p for p in players if p.pk == view.side.captain)
            decisions.team_propose_double(
                chouette_id=chouette.pk, user=captain, expected_ply=view.board.ply, now=now
            )
            break
        board = view.board
        mover = board.match.white if board.turn == 0 else board.match.black
        if board.state == "rolling":
            turns.game_roll(game_id=board.pk, player=mover, expected_ply=board.ply, now=now)
        else:
            play = legal_plays(board.position(), board.dice or (0, 0))[0]
            turns.game_play_move(
                game_id=board.pk,
                player=mover,
                play_text=str(play),
                expected_ply=board.ply,
                now=now,
            )
    return chouette
