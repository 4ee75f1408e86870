"""A chouette creator's limits on invitations (``settings.LIMIT_*``, :mod:`backgammon.limits`).

Each invitation e-mails its player: one player could be sent fifty in a minute. The
services (:func:`chouettes.seating.chouette_create` and ``chouette_invite``) ask here
before they invite anyone.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.conf import settings
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import LimitReached
from backgammon.limits import rate_check

from .models import Chouette, Seat


def invitations_check(chouette: Chouette, players: Sequence[User]) -> None:
    """Refuse invitations past the creator's limits (429, nothing invited): those waiting
    for an answer in their open chouettes (``LIMIT_CHOUETTE_INVITATIONS``), those to one
    player (``LIMIT_TO_ONE_PLAYER``), and the invitations and challenges sent this hour
    (``LIMIT_INVITATIONS_PER_HOUR``, each invitee one).

    The counts are exact, read with the creator's row locked (two invitations sent at
    once are counted one after the other). An invitation waits until its player answers
    or the chouette starts, so no time to retry is given.
    """
    creator = chouette.creator_id
    list(User.objects.select_for_update().filter(pk=creator).values_list("pk"))
    waiting = Seat.objects.filter(
        status=Seat.Status.INVITED,
        chouette__creator_id=creator,
        chouette__status=Chouette.Status.OPEN,
    )
    limit = settings.LIMIT_CHOUETTE_INVITATIONS
    if waiting.count() + len(players) > limit:
        raise LimitReached(
            _(
                "Your open chouettes have %(limit)s invitations waiting for an answer at "
                "most: invite more players once some have answered."
            ),
            code="too_many_chouette_invitations",
            limit=limit,
        )
    per_player = dict(
        waiting.filter(player__in=players)
        .values_list("player_id")
        .annotate(count=Count("pk"))
        .values_list("player_id", "count")
    )
    for player in players:
        if per_player.get(player.pk, 0) >= settings.LIMIT_TO_ONE_PLAYER:
            raise LimitReached(
                _(
                    "%(name)s already has %(limit)s of your chouette invitations waiting for "
                    "an answer, the most to one player."
                ),
                code="too_many_invitations_to_player",
                name=player.public_name,
                limit=settings.LIMIT_TO_ONE_PLAYER,
            )
    rate_check("invitations", creator, count=len(players))
