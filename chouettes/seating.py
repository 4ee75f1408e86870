"""Who sits at a chouette: its creation with the invitations, joining, the start (the
first places and board), leaving and a moderator's removal; and the board of each game,
which :mod:`chouettes.endings` starts after the first.

Before the start a seat changes at once; in play, a player who leaves or is removed goes
when the game in play ends (the points stand; the line closes up).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from gammon import RulesError
from gammon import chouette as rules
from matches import record
from matches.models import Match, Resignation

from . import limits
from .locks import locked_chouette
from .models import Chouette, ChouetteGame, Seat
from .signals import chouette_changed, chouette_invited


@transaction.atomic
def chouette_create(
    *,
    creator: User,
    now: datetime,
    invite: Sequence[User] = (),
    open_to_all: bool = True,
    max_players: int = rules.MAX_PLAYERS,
    days_per_move: int = 3,
    time_bank_days: int = 0,
    cube_limit: int | None = 64,
    jacoby: bool = False,
    automatic_doubles: bool = False,
    places_from_dice: bool = True,
) -> Chouette:
    """A new chouette, with its creator seated and the invited players asked to join."""
    try:
        rules.ChouetteOptions(
            max_players=max_players,
            cube_limit=cube_limit,
            automatic_doubles=automatic_doubles,
            jacoby=jacoby,
            places_from_dice=places_from_dice,
        )
    except RulesError:
        raise InvalidAction(
            _("A chouette has 3 to 8 players, and a cube limit that is a power of two."),
            code="chouette_options",
        ) from None
    if not 1 <= days_per_move <= 30 or not 0 <= time_bank_days <= 365:
        raise InvalidAction(
            _("Choose 1 to 30 days per move and a time bank of at most 365 days."),
            code="chouette_options",
        )
    invitees = _distinct(invite, creator)
    if len(invitees) + 1 > max_players:
        raise InvalidAction(
            _("You invited more players than this chouette seats."), code="chouette_full"
        )
    chouette = Chouette.objects.create(
        creator=creator,
        open_to_all=open_to_all,
        max_players=max_players,
        days_per_move=days_per_move,
        time_bank_days=time_bank_days,
        cube_limit=cube_limit,
        jacoby=jacoby,
        automatic_doubles=automatic_doubles,
        places_from_dice=places_from_dice,
        created_at=now,
    )
    Seat.objects.create(chouette=chouette, player=creator, joined_at=now)
    _invite(chouette, invitees, now)
    chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
    return chouette


def _distinct(players: Sequence[User], creator: User) -> list[User]:
    seen: dict[int, User] = {}
    for player in players:
        if player.pk == creator.pk:
            raise InvalidAction(_("You are in your own chouette already."), code="chouette_self")
        if player.is_bot or not player.is_active:
            raise InvalidAction(
                _("%(name)s cannot be invited to a chouette."),
                code="chouette_invitee",
                name=player.username,
            )
        seen[player.pk] = player
    return list(seen.values())


def _invite(chouette: Chouette, players: Sequence[User], now: datetime) -> None:
    """Invite ``players`` who have no seat in ``chouette`` yet (each invitation e-mails
    its player once: asking again a player already asked sends nothing), within the
    creator's limits (:func:`chouettes.limits.invitations_check`)."""
    asked = set(chouette.seats.filter(player__in=players).values_list("player_id", flat=True))
    players = [p for p in players if p.pk not in asked]
    if not players:
        return
    limits.invitations_check(chouette, players)
    Seat.objects.bulk_create(
        [Seat(chouette=chouette, player=p, status=Seat.Status.INVITED) for p in players],
        ignore_conflicts=True,
    )
    chouette_invited.send(sender=Chouette, chouette=chouette, players=list(players), now=now)


def _locked_open(chouette_id: int) -> Chouette:
    chouette = locked_chouette(chouette_id)
    if chouette.status != Chouette.Status.OPEN:
        raise Conflict(_("This chouette has already started."), code="chouette_started")
    return chouette


@transaction.atomic
def chouette_invite(
    *, chouette_id: int, user: User, players: Sequence[User], now: datetime
) -> Chouette:
    """The creator invites more players before the start."""
    chouette = _locked_open(chouette_id)
    if chouette.creator_id != user.pk:
        raise Forbidden(_("Only the chouette's creator invites players."))
    invitees = _distinct(players, user)
    taken = chouette.seats.exclude(status=Seat.Status.LEFT).count()
    if taken + len(invitees) > chouette.max_players:
        raise InvalidAction(
            _("You invited more players than this chouette seats."), code="chouette_full"
        )
    _invite(chouette, invitees, now)
    return chouette


@transaction.atomic
def chouette_join(*, chouette_id: int, user: User, now: datetime) -> Seat:
    """Take a seat: an invited player accepts, anyone joins an open chouette."""
    chouette = _locked_open(chouette_id)
    seat = chouette.seats.filter(player=user).first()
    if seat is not None and seat.status == Seat.Status.SEATED:
        raise Conflict(_("You are already seated in this chouette."), code="chouette_seated")
    if seat is None or seat.status != Seat.Status.INVITED:
        if not chouette.open_to_all:
            raise Forbidden(_("This chouette is for invited players only."))
        if user.is_bot:
            raise Forbidden(_("The computer does not play chouettes."))
    if chouette.seats.filter(status=Seat.Status.SEATED).count() >= chouette.max_players:
        raise Conflict(_("This chouette is full."), code="chouette_full")
    if seat is None:
        seat = Seat(chouette=chouette, player=user)
    seat.status, seat.joined_at, seat.left_at = Seat.Status.SEATED, now, None
    seat.save()
    chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
    return seat


@transaction.atomic
def chouette_start(*, chouette_id: int, user: User, now: datetime) -> ChouetteGame:
    """The creator starts the chouette: the first places, and the first game's board."""
    chouette = _locked_open(chouette_id)
    if chouette.creator_id != user.pk:
        raise Forbidden(_("Only the chouette's creator starts it."))
    seated = list(chouette.seats.filter(status=Seat.Status.SEATED).order_by("joined_at", "pk"))
    if len(seated) < rules.MIN_PLAYERS:
        raise InvalidAction(
            _("A chouette starts with at least 3 players seated."), code="chouette_too_few"
        )
    placing = chouette.rules_options().first_places([s.player_id for s in seated], record.dice)
    chouette.status, chouette.started_at = Chouette.Status.PLAYING, now
    chouette.set_places(placing.places)
    chouette.opening_rounds = [[list(t) for t in round_] for round_ in placing.rounds]
    chouette.save()
    bank = timedelta(days=chouette.time_bank_days)
    chouette.seats.filter(status=Seat.Status.SEATED).update(bank=bank)
    chouette.seats.filter(status=Seat.Status.INVITED).delete()  # the invitation lapses
    return start_game(chouette, 1, now)


def start_game(chouette: Chouette, number: int, now: datetime) -> ChouetteGame:
    """The board of game ``number``: the box White, the captain Black, their banks."""
    places = chouette.rules_places()
    banks = dict(
        chouette.seats.filter(player__in=(places.box, places.captain)).values_list(
            "player_id", "bank"
        )
    )
    match = Match.objects.create(
        white_id=places.box,
        black_id=places.captain,
        chouette=True,
        length=0,
        rated=False,
        variant=chouette.variant,
        days_per_move=chouette.days_per_move,
        time_bank_days=chouette.time_bank_days,
        cube_limit=chouette.cube_limit,
        jacoby=chouette.jacoby,
        automatic_doubles=chouette.automatic_doubles,
        # Resigned at once, each member settled at their own stake: an offer would need
        # each member's answer, as the box's double does (matches.resignations).
        resignation=Resignation.IMMEDIATE,
        bank_white=banks.get(places.box),
        bank_black=banks.get(places.captain),
        created_at=now,
    )
    board = record.start_game(match, number=1, state=record.state_of(match), now=now)
    game = ChouetteGame.objects.create(
        chouette=chouette,
        number=number,
        match=match,
        places=dict(chouette.places),
        opening_ties=board.automatic_doubles,
    )
    record.announce_turn(board, now)
    chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
    return game


@transaction.atomic
def chouette_leave(*, chouette_id: int, user: User, now: datetime) -> Seat:
    """Leave: before the start at once (the creator's leaving cancels it), during
    play when the game in play ends (points stand; the line closes up)."""
    chouette = locked_chouette(chouette_id)
    chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
    seat = chouette.seats.filter(player=user).exclude(status=Seat.Status.LEFT).first()
    if seat is None or seat.status == Seat.Status.REMOVED:
        raise Forbidden(_("You are not playing in this chouette."))
    if chouette.status == Chouette.Status.OPEN:
        if user.pk == chouette.creator_id:
            chouette.status, chouette.finished_at = Chouette.Status.CANCELLED, now
            chouette.save(update_fields=["status", "finished_at"])
        seat.status, seat.left_at = Seat.Status.LEFT, now
        seat.save(update_fields=["status", "left_at"])
        return seat
    if chouette.status != Chouette.Status.PLAYING:
        raise Conflict(_("This chouette is over."), code="chouette_over")
    seat.leaving = Seat.Status.LEFT
    seat.save(update_fields=["leaving"])
    return seat


@transaction.atomic
def player_remove(*, chouette_id: int, player: User, now: datetime) -> Seat:
    """A moderator removes ``player``: at once before the start, else when the game in
    play ends (a moderator adjudicates the board to remove them now). The caller audits."""
    chouette = locked_chouette(chouette_id)
    chouette_changed.send(sender=Chouette, chouette_id=chouette.pk)
    seat = chouette.seats.filter(player=player, status=Seat.Status.SEATED).first()
    if seat is None:
        raise NotFound(_("That player is not seated in this chouette."))
    if chouette.status == Chouette.Status.OPEN:
        seat.status, seat.left_at = Seat.Status.REMOVED, now
        seat.save(update_fields=["status", "left_at"])
    else:
        seat.leaving = Seat.Status.REMOVED
        seat.save(update_fields=["leaving"])
    return seat
