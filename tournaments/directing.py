"""What a tournament's director does to their own tournaments, and a moderator to any:
stop a repeating one, cancel one, replace a player.

A tournament's director is whoever created it (a repeating tournament's, whoever set up
its schedule). The moderators are the staff who run tournaments
(:data:`~tournaments.creation.MANAGE_PERMISSION`); holding that permission without being
staff makes a director of one's own tournaments, not of others'. Nobody acts on a
tournament they play in (an entry of any status), nor puts themselves in a player's
place: a refusal with code ``stake`` (403), as the moderators' other actions refuse a
case they have a stake in. The moderation app audits what its moderators do here.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, NotFound
from matches import moderator_actions
from matches.models import Game, Match

from .creation import MANAGE_PERMISSION
from .models import Entry, Schedule, Tournament
from .steps import Kind, Step, live_matches_of, lock_boards, locked

#: The refusal of a tournament's director's action to anyone else.
NOT_DIRECTOR = _("Only the tournament's director or a moderator may do this.")
#: The refusal to act on a tournament one plays in (the same words as moderation's).
PLAYS_IN_IT = _("You play in this tournament: another moderator must deal with it.")


def is_moderator(user: object) -> bool:
    """Whether ``user`` runs every tournament: staff with the permission to."""
    return bool(getattr(user, "is_staff", False)) and user.has_perm(MANAGE_PERMISSION)  # type: ignore[attr-defined]


def may_direct(user: object, tournament: Tournament) -> bool:
    """Whether ``user`` acts as ``tournament``'s director: it is theirs, or they are a
    moderator (the pages offer the director's buttons by this)."""
    if not getattr(user, "is_authenticated", False):
        return False
    return tournament.created_by_id == getattr(user, "pk", None) or is_moderator(user)


def _refuse_stake(user: User, tournament: Tournament) -> None:
    if tournament.entries.filter(player=user).exists():
        raise Forbidden(PLAYS_IN_IT, code="stake")


@transaction.atomic
def schedule_stop(*, tournament_id: int, user: User) -> Schedule:
    """Stop the repeating tournament that ``tournament_id`` is an edition of: no edition
    opens any more (those opened already go on). Its director's, or a moderator's."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise NotFound(_("No such tournament."))
    schedule = (
        Schedule.objects.select_for_update().filter(pk=tournament.schedule_id).first()
        if tournament.schedule_id
        else None
    )
    mine = schedule is not None and schedule.created_by_id == user.pk
    if not (mine or is_moderator(user)):
        raise Forbidden(_("Only its director or a moderator stops a repeating tournament."))
    if schedule is None or not schedule.active:
        raise Conflict(_("This tournament does not repeat."), code="not_repeating")
    schedule.active = False
    schedule.save(update_fields=["active"])
    return schedule


def _locked_directed(tournament_id: int, user: User) -> Tournament:
    tournament = locked(tournament_id)
    if not may_direct(user, tournament):
        raise Forbidden(NOT_DIRECTOR)
    _refuse_stake(user, tournament)
    return tournament


@transaction.atomic
def tournament_cancel(*, tournament_id: int, actor: User, reason: str, now: datetime) -> Tournament:
    """Cancel a tournament: its matches in play are cancelled as if never played. The
    caller (the moderation app) audits it."""
    live = list(
        Match.objects.filter(tournament_pairing__tournament_id=tournament_id, status="playing")
    )
    lock_boards(live)
    tournament = _locked_directed(tournament_id, actor)
    if tournament.status in (Tournament.Status.FINISHED, Tournament.Status.CANCELLED):
        raise Conflict(_("This tournament is over."), code="over")
    tournament.status, tournament.finished_at = Tournament.Status.CANCELLED, now
    tournament.cancel_reason = reason[:200]
    tournament.save(update_fields=["status", "finished_at", "cancel_reason"])
    for match in live:
        moderator_actions.match_adjudicate(match_id=match.pk, winner=None, cancel=True, now=now)
    players = [e.player for e in tournament.entries.select_related("player")]
    Step(tournament, now).tell(players, Kind.TOURNEY_CANCELLED).send()
    return tournament


@transaction.atomic
def entry_replace(
    *, tournament_id: int, actor: User, player: User, by: User, now: datetime
) -> Entry:
    """Put ``by`` in ``player``'s place, before ``player`` has played a move of their
    first match: it is cancelled, and :func:`~tournaments.advance.pairing_finished` (from
    ``match_cancelled``) starts it again with ``by``. The caller audits it."""
    entry = Entry.objects.filter(tournament_id=tournament_id, player=player).first()
    if entry is None:
        raise NotFound(_("That player is not in this tournament."))
    matches = live_matches_of(entry)
    lock_boards(matches)
    tournament = _locked_directed(tournament_id, actor)
    if by.pk == actor.pk:
        raise Forbidden(
            _("You cannot put yourself in a player's place: another moderator must do it."),
            code="stake",
        )
    if tournament.entries.filter(player=by).exists():
        raise Conflict(_("The new player is in this tournament already."), code="registered")
    finished = tournament.pairings.filter(Q(white=entry) | Q(black=entry), winner__isnull=False)
    played = any(
        Game.objects.filter(match=m, ply__gt=1).exists() or m.games.count() > 1 for m in matches
    )
    if finished.exclude(forfeit=True, black__isnull=True).exists() or played:
        raise Conflict(
            _("A player is replaced only before their first match is under way."),
            code="played",
        )
    entry.player = by
    entry.save(update_fields=["player"])
    for match in matches:
        moderator_actions.match_adjudicate(match_id=match.pk, winner=None, cancel=True, now=now)
    return entry
