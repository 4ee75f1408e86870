"""What the pages and the API read of tournaments: the lists, the standings of each format,
the bracket by rounds, the pairings by round, and a player's tournaments."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING

from django.db.models import Count, Q, QuerySet

from backgammon.errors import ServiceError
from gammon import tournament as pairings

from . import advance, registration
from .models import Entry, Format, Pairing, Schedule, Tournament

if TYPE_CHECKING:
    from accounts.models import User
    from matches.models import Match


def tournaments_listed(
    *,
    status: str | None = None,
    format: str | None = None,
    length: int | None = None,
    entered: User | None = None,
) -> QuerySet[Tournament]:
    """Tournaments, filtered by status (``upcoming`` means open for registration), format,
    match length and a player ``entered`` in them (not withdrawn); soonest first for those
    to come, latest first for the rest."""
    rows = Tournament.objects.annotate(players=Count("entries")).select_related(
        "winner", "schedule"
    )
    if entered is not None:
        rows = rows.filter(
            pk__in=Entry.objects.filter(player=entered)
            .exclude(status=Entry.Status.WITHDRAWN)
            .values("tournament_id")
        )
    if status == "upcoming":
        rows = rows.filter(status=Tournament.Status.REGISTERING).order_by("starts_at", "pk")
    elif status:
        rows = rows.filter(status=status)
    if format:
        rows = rows.filter(format=format)
    if length:
        rows = rows.filter(length=length)
    return rows


def schedules_repeating(
    *, format: str | None = None, length: int | None = None
) -> QuerySet[Schedule]:
    """The repeating tournaments still repeating, the next to open first, filtered as
    the list is: players see what comes back, and when it next opens."""
    rows = Schedule.objects.filter(active=True).order_by("next_start_at", "pk")
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
    group order), or a knock-out's places so far. Before the start (and for a tournament
    cancelled before it) there are no groups, seeds or results yet: the players entered,
    in registration order, with no place (0)."""
    entries = {e.pk: e for e in entries_of(tournament)}
    if tournament.started_at is None:
        return [Standing(e, 0, 0, {}) for e in entries.values()]
    if tournament.format == Format.SWISS:
        return [
            Standing(
                entries[row.player],
                row.rank,
                row.score,
                {"buchholz": row.buchholz, "sonneborn_berger": row.sonneborn_berger},
            )
            for row in advance.swiss_table(tournament)
        ]
    if tournament.format == Format.ROUND_ROBIN:
        return [
            Standing(
                entries[row.player],
                row.rank,
                row.wins,
                {"group": group, "head_to_head": row.head_to_head, "points": row.points_difference},
            )
            for group, table in advance.group_tables(tournament).items()
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


@dataclass(frozen=True)
class Registration:
    """What the tournament page offers a signed-in player about registering: the button
    (``open``), or why not (``refusal``: the service's own words), or nothing (already
    in, or registration over)."""

    open: bool
    refusal: str = ""


def registration_for(tournament: Tournament, user: object, now: datetime) -> Registration:
    """Whether ``user`` may register now, by the service's own check
    (:func:`tournaments.registration.check_registration`): the page offers the button
    only to those it would accept, and tells the rest why (by invitation only, full,
    their rating, not open yet). Entered already, or registration over: nothing to say."""
    if not getattr(user, "is_authenticated", False):
        return Registration(False)
    if tournament.status != Tournament.Status.REGISTERING:
        return Registration(False)
    try:
        registration.check_registration(tournament=tournament, user=user, now=now)  # type: ignore[arg-type]
    except ServiceError as refused:
        if refused.code == "registered":
            return Registration(False)
        return Registration(False, str(refused))
    return Registration(True)


def entered(tournament: Tournament, user: object) -> Entry | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return tournament.entries.filter(
        Q(player_id=getattr(user, "pk", None)), ~Q(status=Entry.Status.WITHDRAWN)
    ).first()


# The tournament page's drawings --------------------------------------------------------


@dataclass(frozen=True)
class BracketCell:
    """One match of a knock-out bracket as far as known: the top and bottom players
    (``None`` while not known), the winner, whether it is a bye, and its match."""

    round: int
    index: int
    top: Entry | None
    bottom: Entry | None
    winner: Entry | None
    bye: bool
    pairing: Pairing | None

    @property
    def match(self) -> Match | None:
        return None if self.pairing is None else self.pairing.match


def _top_bottom(pairing: Pairing) -> tuple[Entry, Entry | None]:
    """The pairing's players in bracket order: the services give white to the top player
    when ``round + index`` is even (byes and walkovers keep the top player white)."""
    if pairing.black is None or pairing.forfeit or (pairing.round + pairing.index) % 2 == 0:
        return pairing.white, pairing.black
    return pairing.black, pairing.white


def bracket(tournament: Tournament, rows: list[Pairing] | None = None) -> list[list[BracketCell]]:
    """The knock-out's bracket, round by round, top to bottom: every match of every round
    (``tournament.rounds`` of them, set when the knock-out begins), those not paired yet
    with whichever player is known from the round before."""
    rows = list(pairings_of(tournament)) if rows is None else rows
    placed = {(p.round, p.index): p for p in rows if p.stage == Pairing.Stage.KNOCKOUT}
    if not placed:
        return []
    rounds = max(tournament.rounds, max(r for r, _ in placed))
    size = 1 << rounds
    drawn: list[list[BracketCell]] = []
    for round_ in range(1, rounds + 1):
        cells = []
        for index in range(size >> round_):
            pairing = placed.get((round_, index))
            if pairing is not None:
                top, bottom = _top_bottom(pairing)
                bye = pairing.black is None
                cells.append(BracketCell(round_, index, top, bottom, pairing.winner, bye, pairing))
                continue
            before = drawn[-1] if drawn else []
            feeders = before[2 * index : 2 * index + 2]
            known = [f.winner for f in feeders] + [None, None]
            cells.append(BracketCell(round_, index, known[0], known[1], None, False, None))
        drawn.append(cells)
    return drawn


@dataclass(frozen=True)
class CrossCell:
    """A crosstable cell: the row player's result against the column player."""

    pairing: Pairing | None
    won: bool | None  # None: not played yet (or the diagonal)
    points_for: int
    points_against: int


@dataclass(frozen=True)
class CrossRow:
    """A player's row of a crosstable: their line of the group's table and their result
    against each player of the group in the table's order (``None`` against themself)."""

    entry: Entry
    line: pairings.GroupStanding[int]
    cells: list[CrossCell | None]


@dataclass(frozen=True)
class Crosstable:
    group: int
    #: The group's players, best first.
    rows: list[CrossRow]


def crosstables(tournament: Tournament, rows: list[Pairing] | None = None) -> list[Crosstable]:
    """Each round-robin group's crosstable, players by their place in the group's table
    (:func:`advance.group_tables`)."""
    entries = {e.pk: e for e in entries_of(tournament)}
    rows = list(pairings_of(tournament)) if rows is None else rows
    by_players: dict[frozenset[int], Pairing] = {}
    for p in rows:
        if p.stage == Pairing.Stage.GROUP and p.black_id is not None:
            by_players[frozenset((p.white_id, p.black_id))] = p
    tables = []
    for group, table in advance.group_tables(tournament).items():
        order = [entries[line.player] for line in table]
        lines = []
        for row, line in zip(order, table, strict=True):
            cells: list[CrossCell | None] = []
            for column in order:
                if row.pk == column.pk:
                    cells.append(None)
                    continue
                pairing = by_players.get(frozenset((row.pk, column.pk)))
                if pairing is None or pairing.winner_id is None:
                    cells.append(CrossCell(pairing, None, 0, 0))
                    continue
                white = pairing.white_id == row.pk
                mine = pairing.white_points if white else pairing.black_points
                theirs = pairing.black_points if white else pairing.white_points
                cells.append(CrossCell(pairing, pairing.winner_id == row.pk, mine, theirs))
            lines.append(CrossRow(row, line, cells))
        tables.append(Crosstable(group, lines))
    return tables


def rounds_of(rows: list[Pairing], stage: str) -> list[tuple[int, list[Pairing]]]:
    """The pairings of ``stage`` by round: [(round, its pairings in order)]."""
    grouped: dict[int, list[Pairing]] = {}
    for p in rows:
        if p.stage == stage:
            grouped.setdefault(p.round, []).append(p)
    return sorted(grouped.items())


def tournament_of_match(match_id: int) -> Pairing | None:
    """The pairing placing a match in its tournament (none for an ordinary match)."""
    return Pairing.objects.select_related("tournament").filter(match_id=match_id).first()
