"""Registration: entering a tournament within its window, its limits and its
invitations, and withdrawing from it (before the start, or while it runs)."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, NotFound
from gammon import Color
from matches import moderator_actions
from stats.selectors import ratings_of

from .models import Entry, Tournament
from .signals import tournament_changed
from .steps import Kind, Step, live_matches_of, lock_boards, locked


def check_registration(*, tournament: Tournament, user: User, now: datetime) -> float:
    """Refuse ``user``'s registration for ``tournament`` as it stands: outside its window,
    entered already, not invited to an invitation-only one, a full field, a rating
    outside its limits. Their rating if they may enter. The tournament page asks it too,
    to say why it offers no Register button."""
    if tournament.status != Tournament.Status.REGISTERING:
        raise Conflict(_("Registration for this tournament is closed."), code="closed")
    if now < tournament.registration_opens_at:
        raise Conflict(_("Registration for this tournament has not opened yet."), code="not_open")
    if tournament.entries.filter(player=user).exists():
        raise Conflict(_("You are already registered."), code="registered")
    if tournament.invitation_only and not tournament.invitations.filter(player=user).exists():
        raise Forbidden(_("This tournament is by invitation only."), code="invitation_only")
    if tournament.entries.count() >= tournament.max_players:
        raise Conflict(_("This tournament is full."), code="full")
    rating = ratings_of([user.pk])[user.pk]
    low, high = tournament.rating_min, tournament.rating_max
    if (low is not None and rating < low) or (high is not None and rating > high):
        raise Forbidden(
            _("Your rating (%(rating)s) is outside this tournament's limits."),
            code="rating_limits",
            rating=round(rating),
        )
    return rating


@transaction.atomic
def tournament_register(*, tournament_id: int, user: User, now: datetime) -> Entry:
    """Enter the tournament (within its window, its rating limits and its invitations)."""
    tournament = locked(tournament_id)
    rating = check_registration(tournament=tournament, user=user, now=now)
    entry = Entry.objects.create(
        tournament=tournament, player=user, rating=rating, registered_at=now
    )
    Step(tournament, now).tell([user], Kind.TOURNEY_REGISTERED).send()
    return entry


@transaction.atomic
def tournament_withdraw(*, tournament_id: int, user: User, now: datetime) -> Entry:
    """Withdraw: before the start the entry goes; after it, the player's matches in play
    are forfeited to their opponents and they are paired no more (results stand)."""
    entry = Entry.objects.filter(tournament_id=tournament_id, player=user).first()
    if entry is None or entry.status == Entry.Status.WITHDRAWN:
        raise NotFound(_("You are not in this tournament."))
    live = live_matches_of(entry)
    lock_boards(live)
    tournament = locked(tournament_id)
    tournament_changed.send(sender=Tournament, tournament_id=tournament.pk)
    if tournament.status == Tournament.Status.REGISTERING:
        entry.delete()
        return entry
    if tournament.status != Tournament.Status.RUNNING:
        raise Conflict(_("This tournament is over."), code="over")
    if entry.status != Entry.Status.PLAYING:
        raise Conflict(_("You are out of this tournament already."), code="out")
    entry.status, entry.withdrawn_at = Entry.Status.WITHDRAWN, now
    entry.save(update_fields=["status", "withdrawn_at"])
    for match in live:
        color = Color.WHITE if match.white_id == user.pk else Color.BLACK
        moderator_actions.match_adjudicate(match_id=match.pk, winner=color.other, now=now)
    # A withdrawn player still waiting for their next opponent is walked over when it is known.
    return entry
