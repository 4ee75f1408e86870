"""Reads for moderation: a player's suspension (on every request), the admin overview."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.models import User
from backgammon.errors import Forbidden, NotFound
from gammon import Termination
from matches.models import Game, GameMessage, Match

from .models import Report, Suspension

#: The overview lists players with at least this many time-outs in ``TIMEOUT_WINDOW``.
TIMEOUT_THRESHOLD = 3
TIMEOUT_WINDOW = timedelta(days=30)


@dataclass(frozen=True)
class SuspensionInfo:
    """What a suspended player is told: why, and until when (None: permanently)."""

    reason: str
    ends_at: datetime | None

    def message(self) -> str:
        if self.ends_at is None:
            return _("Your account has been suspended permanently. Reason: %(reason)s") % {
                "reason": self.reason
            }
        when = formats.date_format(timezone.localtime(self.ends_at), "DATETIME_FORMAT")
        return _("Your account is suspended until %(until)s. Reason: %(reason)s") % {
            "until": when,
            "reason": self.reason,
        }


def suspensions_in_force(now: datetime) -> QuerySet[Suspension]:
    """What "a suspension in force" means, the one definition: not lifted, begun, not
    ended (or permanent)."""
    return Suspension.objects.filter(lifted_at=None, starts_at__lte=now).filter(
        Q(ends_at=None) | Q(ends_at__gt=now)
    )


def suspension_of(user: User | int, now: datetime | None = None) -> SuspensionInfo | None:
    """The suspension in force for ``user``, if any: the one check of the middleware, the
    log-in and the API's authentication, read from the database on every request (one
    indexed query; no cache, whose stale or missing answer could let a suspended player
    in). When several are in force the one that ends last wins (permanent first).
    """
    now = now or timezone.now()
    user_id = user if isinstance(user, int) else user.pk
    row = (
        suspensions_in_force(now)
        .filter(user_id=user_id)
        .order_by(F("ends_at").desc(nulls_first=True))
        .values_list("reason", "ends_at")
        .first()
    )
    if row is None:
        return None
    return SuspensionInfo(reason=row[0], ends_at=row[1])


# --------------------------------------------------------------------------- reports

#: The permission that lets a moderator read any game's messages (``moderators`` group).
READ_MESSAGES_PERMISSION = "matches.view_gamemessage"


def may_read_messages(user: object, game: Game) -> bool:
    """Whether ``user`` may read the messages of ``game`` by id: its two players and
    moderators (staff with :data:`READ_MESSAGES_PERMISSION`), nobody else.

    Chat is private to the two players; games are public, so knowing a game or a
    message id must never be enough.
    """
    if not getattr(user, "is_authenticated", False):
        return False
    if game.match.color_of(user) is not None:
        return True
    return bool(getattr(user, "is_staff", False)) and user.has_perm(READ_MESSAGES_PERMISSION)  # type: ignore[attr-defined]


@dataclass(frozen=True)
class ReportSubject:
    """What a report is about besides the player: one of their messages, and its game."""

    message: GameMessage | None = None
    game: Game | None = None


def report_subject(
    user: User, *, message_id: int | None = None, game_id: int | None = None
) -> ReportSubject:
    """The message (``?message=``) or game (``?game=``) ``user`` is about to report.

    A message is resolved only for a reader of its game (:func:`may_read_messages`):
    the report form shows its text. Anyone signed in may name a game (games are
    public); what they may file about it is :func:`moderation.reports.report_create`'s
    business. Raises :class:`~backgammon.errors.NotFound` (no such row) or
    :class:`~backgammon.errors.Forbidden`.
    """
    if message_id is not None:
        message = GameMessage.objects.select_related("game__match").filter(pk=message_id).first()
        if message is None:
            raise NotFound(gettext_lazy("No such message."))
        if not may_read_messages(user, message.game):
            raise Forbidden(gettext_lazy("You can only report messages of your own games."))
        return ReportSubject(message=message, game=message.game)
    if game_id is not None:
        game = Game.objects.select_related("match").filter(pk=game_id).first()
        if game is None:
            raise NotFound(gettext_lazy("No such game."))
        return ReportSubject(game=game)
    return ReportSubject()


# --------------------------------------------------------------------------- admin overview


def reports_open() -> QuerySet[Report]:
    return Report.objects.filter(status=Report.Status.OPEN)


def matches_awaiting_adjudication() -> QuerySet[Match]:
    """Matches in play with an open report of category "dispute" about one of their games."""
    disputed = (
        reports_open()
        .filter(category=Report.Category.DISPUTE, game__isnull=False)
        .values("game__match_id")
    )
    return Match.objects.filter(status=Match.Status.PLAYING, pk__in=disputed)


def timeout_loser() -> Case:
    """The player who lost a timed-out game: the one on turn when the clock ran out."""
    return Case(When(turn=0, then=F("match__white_id")), default=F("match__black_id"))


def players_with_recent_timeouts(
    now: datetime, *, threshold: int = TIMEOUT_THRESHOLD, limit: int = 20
) -> list[tuple[User, int]]:
    """Players who lost at least ``threshold`` games on time in the last 30 days, most first.

    Reads only the time-outs of the window (partial index ``game_timeout_finished``).
    """
    rows = list(
        Game.objects.filter(termination=Termination.TIMEOUT, finished_at__gte=now - TIMEOUT_WINDOW)
        .annotate(loser=timeout_loser())
        .values("loser")
        .annotate(n=Count("id"))
        .filter(n__gte=threshold)
        .order_by("-n", "loser")[:limit]
    )
    users = User.objects.in_bulk([row["loser"] for row in rows])
    return [(users[row["loser"]], row["n"]) for row in rows if row["loser"] in users]


@dataclass(frozen=True)
class PlayerRecord:
    """What the player page of the admin shows about a player's play."""

    open_matches: list[Match]
    finished_matches: list[Match]
    finished_games: int
    timeouts: int

    @property
    def timeout_rate(self) -> float | None:
        return None if not self.finished_games else self.timeouts / self.finished_games


def player_record(user: User, *, limit: int = 20) -> PlayerRecord:
    mine = Match.objects.filter(Q(white=user) | Q(black=user)).select_related("white", "black")
    games = Game.objects.filter(
        Q(match__white=user) | Q(match__black=user), state=Game.State.FINISHED
    )
    timeouts = games.filter(termination=Termination.TIMEOUT).filter(
        Q(turn=0, match__white=user) | Q(turn=1, match__black=user)
    )
    return PlayerRecord(
        open_matches=list(mine.filter(status=Match.Status.PLAYING).order_by("-created_at")[:limit]),
        finished_matches=list(
            mine.filter(status=Match.Status.FINISHED).order_by("-finished_at")[:limit]
        ),
        finished_games=games.count(),
        timeouts=timeouts.count(),
    )
