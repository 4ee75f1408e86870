"""What the pages and the API read of tournaments: the lists, the standings of each format,
the bracket by rounds, the pairings by round, and a player's tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from . import services
from .models import Entry, Format, Pairing, Tournament

if TYPE_CHECKING:
    from accounts.models import User


def tournaments_listed(
    *, status: str | None = None, format: str | None = None, length: int | None = None
) -> QuerySet[Tournament]:
    """Tournaments, filtered by status (``upcoming`` means open for registration), format
    and match length; soonest first for those to come, latest first for the rest."""
    rows = Tournament.objects.annotate(players=Count("entries")).select_related("winner")
    if status == "upcoming":
        rows = rows.filter(status=Tournament.Status.REGISTERING).order_by("starts_at", "pk")
    elif status:
        rows = rows.filter(status=status)
    if format:
        rows = rows.filter(format=format)
    if length:
        rows = rows.filter(length=length)
    return rows


def entries_of(tournament: Tournament) -> QuerySet[Entry]:
    return tournament.entries.select_related("player").order_by("seed", "registered_at", "pk")


def pairings_of(tournament: Tournament) -> QuerySet[Pairing]:
    return tournament.pairings.select_related(
        "white__player", "black__player", "winner__player", "match"
    ).order_by("stage", "round", "index")


@dataclass(frozen=True)
class Progress:
    round: int
    rounds: int


def progress(tournament: Tournament) -> Progress:
    """ "Round 3 of 5": the highest round paired, of the rounds the format has."""
    paired = tournament.pairings.exclude(stage=Pairing.Stage.GROUP).order_by("-round").first()
    if tournament.format == Format.ROUND_ROBIN and paired is None:
        return Progress(1 if tournament.pairings.exists() else 0, 1)
    return Progress(0 if paired is None else paired.round, tournament.rounds)


@dataclass(frozen=True)
class Standing:
    entry: Entry
    rank: int
    score: int
    detail: dict[str, int]


def standings(tournament: Tournament) -> list[Standing]:
    """The table of the format: the Swiss standings, each round-robin group's table (in
    group order), or a knock-out's places so far."""
    entries = {e.pk: e for e in entries_of(tournament)}
    if tournament.format == Format.SWISS:
        return [
            Standing(
                entries[row.player],
                row.rank,
                row.score,
                {"buchholz": row.buchholz, "sonneborn_berger": row.sonneborn_berger},
            )
            for row in services.swiss_table(tournament)
        ]
    if tournament.format == Format.ROUND_ROBIN:
        return [
            Standing(
                entries[row.player],
                row.rank,
                row.wins,
                {"group": group, "head_to_head": row.head_to_head, "points": row.points_difference},
            )
            for group, table in services.group_tables(tournament).items()
            for row in table
        ]
    ordered = sorted(entries.values(), key=lambda e: (e.rank or 10**6, e.seed or 0))
    return [Standing(e, e.rank or 0, 0, {}) for e in ordered]


def tournaments_of(user: User) -> QuerySet[Entry]:
    """A player's tournaments, with their place, newest first."""
    return (
        Entry.objects.filter(player=user)
        .select_related("tournament")
        .order_by("-tournament__starts_at", "-pk")
    )


def may_register(tournament: Tournament, user: object) -> bool:
    if not getattr(user, "is_authenticated", False):
        return False
    if tournament.status != Tournament.Status.REGISTERING:
        return False
    return not tournament.entries.filter(player_id=getattr(user, "pk", None)).exists()


def entered(tournament: Tournament, user: object) -> Entry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return tournament.entries.filter(
        Q(player_id=getattr(user, "pk", None)), ~Q(status=Entry.Status.WITHDRAWN)
    ).first()
