"""Reads for moderation: a player's suspension (on every request), the admin overview."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.core.cache import cache
from django.db.models import Case, Count, F, Q, QuerySet, When
from django.utils import formats, timezone
from django.utils.translation import gettext as _

from accounts.models import User
from matches.models import Game, Match

from .models import Report, Suspension

#: How long the answer "is this user suspended?" is cached (a suspension or a lift
#: clears it at once; this only bounds a stale cache after a restore or a shell edit).
SUSPENSION_CACHE_SECONDS = 300
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


def _cache_key(user_id: int) -> str:
    return f"moderation:suspension:{user_id}"


def suspension_cache_clear(user_id: int) -> None:
    cache.delete(_cache_key(user_id))


def suspensions_in_force(now: datetime) -> QuerySet[Suspension]:
    return Suspension.objects.filter(lifted_at=None, starts_at__lte=now).filter(
        Q(ends_at=None) | Q(ends_at__gt=now)
    )


def suspension_of(user: User | int, now: datetime | None = None) -> SuspensionInfo | None:
    """The suspension in force for ``user``, if any (cached: read on every request).

    When several are in force the one that ends last wins (permanent first).
    """
    now = now or timezone.now()
    user_id = user if isinstance(user, int) else user.pk
    key = _cache_key(user_id)
    cached = cache.get(key)
    if cached is None:
        rows = list(
            suspensions_in_force(now)
            .filter(user_id=user_id)
            .order_by(F("ends_at").desc(nulls_first=True))
            .values_list("reason", "ends_at")[:1]
        )
        cached = {"reason": rows[0][0], "ends_at": rows[0][1]} if rows else {}
        cache.set(key, cached, SUSPENSION_CACHE_SECONDS)
    if not cached:
        return None
    ends_at = cached["ends_at"]
    if ends_at is not None and ends_at <= now:
        return None
    return SuspensionInfo(reason=cached["reason"], ends_at=ends_at)


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
        Game.objects.filter(
            termination=Game.Termination.TIMEOUT, finished_at__gte=now - TIMEOUT_WINDOW
        )
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
    timeouts = games.filter(termination=Game.Termination.TIMEOUT).filter(
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
