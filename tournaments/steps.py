"""What every change to a tournament shares: the tournament row's lock, the boards locked
before it, and the notices the change owes, written together at its end.

Lock order: the board (game and match) first, then the tournament, as a move that ends a
match takes them: :func:`lock_boards`, then :func:`locked`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import NotFound
from matches.models import Game, Match
from notifications.models import Notification
from notifications.notices import turn_notice
from notifications.outbox import notify_many

from .models import Entry, Tournament
from .signals import tournament_changed

Kind = Notification.Kind


def locked(tournament_id: int) -> Tournament:
    """The tournament, its row locked until the transaction ends (404 if there is none)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    return tournament


def live_matches_of(entry: Entry) -> list[Match]:
    """The entry's tournament matches in play."""
    return list(
        Match.objects.filter(
            tournament_pairing__tournament_id=entry.tournament_id,
            status=Match.Status.PLAYING,
        ).filter(Q(white_id=entry.player_id) | Q(black_id=entry.player_id))
    )


def lock_boards(matches: Iterable[Match]) -> None:
    """Lock the games in play of ``matches`` before the tournament (the lock order)."""
    ids = [m.pk for m in matches]
    if ids:
        list(
            Game.objects.select_for_update(of=("self", "match"))
            .select_related("match")
            .filter(match_id__in=ids)
            .exclude(state=Game.State.FINISHED)
        )


@dataclass
class Step:
    """One change to a tournament, made at ``now`` under its lock. The notices it owes
    are gathered and written together when it is done (:meth:`send`): one ``INSERT``
    for a match's end, however much it pairs (a Swiss round is a hundred matches), the
    first movers' turns of the matches it starts included."""

    tournament: Tournament
    now: datetime
    notices: list[dict[str, Any]] = field(default_factory=list)

    def tell_turn(self, game: Game) -> Step:
        """The first mover of ``game``, just started, is told it is their turn, with the
        step's other notices (``turn_started`` is sent with ``told``)."""
        self.notices.append(turn_notice(game))
        return self

    def tell(self, players: Iterable[User], kind: str, **payload: object) -> Step:
        """One notice per player, in their language when it is e-mailed."""
        about = {"tournament": self.tournament.pk, "name": self.tournament.name}
        self.notices.extend(
            {"recipient": player, "kind": kind, "payload": {**about, **payload}}
            for player in players
        )
        return self

    def send(self) -> None:
        """The change is done: its notices written, and the tournament's page told."""
        if self.notices:
            notify_many(self.notices, now=self.now)
            self.notices = []
        tournament_changed.send(sender=Tournament, tournament_id=self.tournament.pk)
