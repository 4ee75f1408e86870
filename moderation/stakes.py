"""A moderator's stake: the cases in which a moderator may not act as one.

No one moderates a game they play. A moderator (a superuser too) has a stake in:

- a match they play, or whose board belongs to a chouette they sit at, or that belongs to
  a tournament they entered (its result moves their own standing);
- a chouette in which they hold a seat, of any status: its games settled their points;
- a tournament they entered, whatever became of the entry (``tournaments.directing``
  refuses that one, for its directors too);
- a player they are playing now: a match in play between them, a chouette in play where
  both sit, a tournament in play that both entered. Warning or suspending an opponent
  would stop or weaken the other side of the moderator's own game.

Each check is one indexed query at most. :func:`refuse` turns a stake into the 403 the
moderation services raise, with its reason, before they change anything.
"""

from __future__ import annotations

from django.db.models import Q
from django.utils.functional import Promise
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Forbidden
from chouettes import selectors as chouette_selectors
from chouettes.models import Chouette, Seat
from matches.models import Match
from tournaments.models import Entry, Tournament

#: A chouette or a tournament "in play": the moderator's stake against a fellow player.
_CHOUETTE_IN_PLAY = (Chouette.Status.OPEN, Chouette.Status.PLAYING)
_TOURNAMENT_IN_PLAY = (Tournament.Status.REGISTERING, Tournament.Status.RUNNING)
#: An entry still in the running (its tournament's results still move it).
_STILL_IN = (Entry.Status.REGISTERED, Entry.Status.PLAYING)


def in_match(user: User, match: Match) -> bool:
    """Whether ``user`` plays ``match``, sits at its chouette or entered its tournament."""
    if user.pk in (match.white_id, match.black_id):
        return True
    if match.chouette:
        return Seat.objects.filter(
            player=user, status__in=chouette_selectors.TAKEN, chouette__games__match=match
        ).exists()
    return Entry.objects.filter(player=user, tournament__pairings__match=match).exists()


def in_chouette(user: User, chouette: Chouette) -> bool:
    """Whether ``user`` holds, or held, a seat at ``chouette`` (the seat by which the
    chouettes app itself reads them as a player, not a moderator)."""
    return chouette_selectors.seat_of(chouette, user) is not None


def against(user: User, other: User) -> bool:
    """Whether ``user`` is playing ``other`` now: a match, a chouette or a tournament in play."""
    if user.pk == other.pk:
        return True
    pair = Q(white=user, black=other) | Q(white=other, black=user)
    if Match.objects.filter(pair, status=Match.Status.PLAYING).exists():
        return True
    if Seat.objects.filter(
        player=user,
        status=Seat.Status.SEATED,
        chouette__status__in=_CHOUETTE_IN_PLAY,
        chouette__seats__player=other,
        chouette__seats__status=Seat.Status.SEATED,
    ).exists():
        return True
    return Entry.objects.filter(
        player=user,
        status__in=_STILL_IN,
        tournament__status__in=_TOURNAMENT_IN_PLAY,
        tournament__entries__player=other,
        tournament__entries__status__in=_STILL_IN,
    ).exists()


def refuse(stake: bool, reason: str | Promise) -> None:
    """Raise the stake's refusal (403, code ``stake``) when there is one."""
    if stake:
        raise Forbidden(reason, code="stake")


PLAYS_MATCH = gettext_lazy(
    "You have a stake in this match (you play it, or its chouette or tournament): "
    "another moderator must deal with it."
)
SITS_AT_CHOUETTE = gettext_lazy("You sit at this chouette: another moderator must deal with it.")
PLAYS_AGAINST = gettext_lazy(
    "You are playing this player now: another moderator must deal with it."
)
OWN_CASE = gettext_lazy("This concerns you: another moderator must deal with it.")
