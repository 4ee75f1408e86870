"""Reads for the statistics pages and the API.

Everything here reads the counter tables (a few dozen rows for the site, a few
dozen per player), never the games or events tables. The live counts ("games in
progress") use the partial index on unfinished games, whose size follows the
games being played now, not the history.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from decimal import Decimal

from django.db.models import Case, F, IntegerField, Q, QuerySet, Value, When
from django.db.models.functions import Lower
from django.urls import NoReverseMatch
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from bots.services import bot_matches_rated
from chouettes import selectors as chouettes
from chouettes.models import Chouette, Seat
from matches.models import Game, Match, VariantChoice

from .dice import dice_counted_until
from .maths import INITIAL_RATING, ChiSquare, chi_square_test, percentage
from .models import LEADERBOARD_MIN_MATCHES, Counter, PlayerStats, RatingHistory
from .services import GAME_TERMINATIONS

#: "Players active": dice were thrown for them, or a game of theirs ended, this recently.
ACTIVE_WINDOW = timedelta(days=30)
ALL = "all"
VARIANTS: tuple[str, ...] = tuple(VariantChoice.values)
#: The 21 rolls, high die first, in the order the dice page lists them.
ROLLS: tuple[tuple[int, int], ...] = tuple((h, lo) for h in range(1, 7) for lo in range(1, h + 1))
FACES = (1, 2, 3, 4, 5, 6)


@dataclass(frozen=True)
class ResultLine:
    """Finished games (or matches): white wins, black wins, draws, and their shares."""

    white: int = 0
    black: int = 0
    draw: int = 0

    @property
    def total(self) -> int:
        return self.white + self.black + self.draw

    @property
    def white_pct(self) -> Decimal:
        return percentage(self.white, self.total)

    @property
    def black_pct(self) -> Decimal:
        return percentage(self.black, self.total)

    @property
    def draw_pct(self) -> Decimal:
        return percentage(self.draw, self.total)

    def __add__(self, other: ResultLine) -> ResultLine:
        return ResultLine(
            self.white + other.white, self.black + other.black, self.draw + other.draw
        )


@dataclass(frozen=True)
class SiteStats:
    games: dict[str, ResultLine]
    matches: dict[str, ResultLine]
    #: How finished games ended, all variants together, in ``GAME_TERMINATIONS`` order.
    terminations: dict[str, int]
    games_in_progress: int
    matches_in_progress: int
    active_players: int


def _site_counts() -> dict[str, int]:
    return dict(Counter.objects.filter(player__isnull=True).values_list("key", "count"))


def _result_lines(counts: dict[str, int], scope: str) -> dict[str, ResultLine]:
    lines = {
        variant: ResultLine(
            counts.get(f"{scope}:{variant}:white", 0),
            counts.get(f"{scope}:{variant}:black", 0),
            counts.get(f"{scope}:{variant}:draw", 0),
        )
        for variant in VARIANTS
    }
    total = ResultLine()
    for line in lines.values():
        total = total + line
    return {ALL: total, **lines}


def site_stats(*, now: datetime | None = None) -> SiteStats:
    """The /stats/ page: a handful of small indexed queries, whatever the history's size."""
    now = now or timezone.now()
    counts = _site_counts()
    terminations = {
        end: sum(counts.get(f"game:{v}:end:{end}", 0) for v in VARIANTS)
        for end in GAME_TERMINATIONS
    }
    return SiteStats(
        games=_result_lines(counts, "game"),
        matches=_result_lines(counts, "match"),
        terminations=terminations,
        games_in_progress=Game.objects.exclude(state=Game.State.FINISHED).count(),
        matches_in_progress=Match.objects.filter(status=Match.Status.PLAYING).count(),
        active_players=PlayerStats.objects.filter(last_active_at__gte=now - ACTIVE_WINDOW).count(),
    )


# --------------------------------------------------------------------------- players


@dataclass(frozen=True)
class RecordLine:
    """Played, won, lost and drawn, for one slice of a player's games or matches."""

    won: int = 0
    lost: int = 0
    drawn: int = 0

    @property
    def played(self) -> int:
        return self.won + self.lost + self.drawn

    def __add__(self, other: RecordLine) -> RecordLine:
        return RecordLine(self.won + other.won, self.lost + other.lost, self.drawn + other.drawn)


@dataclass(frozen=True)
class Record:
    """A player's record for games or matches: in total, by variant and by colour."""

    total: RecordLine
    by_variant: dict[str, RecordLine]
    by_color: dict[str, RecordLine]


@dataclass(frozen=True)
class RatingPoint:
    at: datetime
    rating: float
    experience: int
    match_id: int
    change: float


@dataclass(frozen=True)
class PlayerRecord:
    player: User
    games: Record
    matches: Record
    gammons_won: int
    gammons_lost: int
    backgammons_won: int
    backgammons_lost: int
    rating: float
    best_rating: float
    experience: int
    rated_matches: int
    history: list[RatingPoint] = field(default_factory=list)


def _record(counts: dict[str, int], scope: str) -> Record:
    def line(variant: str, color: str) -> RecordLine:
        prefix = f"{scope}:{variant}:{color}"
        return RecordLine(
            counts.get(f"{prefix}:won", 0),
            counts.get(f"{prefix}:lost", 0),
            counts.get(f"{prefix}:drawn", 0),
        )

    by_variant = {v: line(v, "white") + line(v, "black") for v in VARIANTS}
    by_color = {c: RecordLine() for c in ("white", "black")}
    for color in by_color:
        for variant in VARIANTS:
            by_color[color] = by_color[color] + line(variant, color)
    total = by_color["white"] + by_color["black"]
    return Record(total=total, by_variant=by_variant, by_color=by_color)


def player_record(player: User, *, history_limit: int = 500) -> PlayerRecord:
    """Everything the player page shows about ``player``, from their counter rows."""
    counts = dict(player.stat_counters.values_list("key", "count"))
    stats = PlayerStats.objects.filter(player=player).first()
    history_rows = list(
        RatingHistory.objects.filter(player=player)
        .order_by("-pk")
        .values_list("at", "rating", "experience", "match_id", "change")[:history_limit]
    )
    history = [RatingPoint(*row) for row in reversed(history_rows)]
    return PlayerRecord(
        player=player,
        games=_record(counts, "game"),
        matches=_record(counts, "match"),
        gammons_won=counts.get("gammon:won", 0),
        gammons_lost=counts.get("gammon:lost", 0),
        backgammons_won=counts.get("backgammon:won", 0),
        backgammons_lost=counts.get("backgammon:lost", 0),
        rating=stats.rating if stats else INITIAL_RATING,
        best_rating=stats.best_rating if stats else INITIAL_RATING,
        experience=stats.experience if stats else 0,
        rated_matches=stats.rated_matches if stats else 0,
        history=history,
    )


def player_page_context(player: User) -> dict[str, object]:
    """Context for the ``player_stats`` block of the public player page (accounts)."""
    from .charts import rating_chart

    record = player_record(player)
    sections = []
    for title, part in ((_("Match record"), record.matches), (_("Game record"), record.games)):
        rows: list[tuple[str, RecordLine]] = [(_("Total"), part.total)]
        rows += [(_("As White"), part.by_color["white"]), (_("As Black"), part.by_color["black"])]
        rows += [(str(label), part.by_variant[v]) for v, label in VariantChoice.choices]
        sections.append((title, rows))
    return {
        "player_record": record,
        "record_sections": sections,
        "rating_chart": rating_chart(record.history),
    }


#: How many of a player's chouettes their page lists (the newest).
PLAYER_CHOUETTES_SHOWN = 20


@dataclass(frozen=True)
class ChouetteLine:
    """One chouette of the player page's list: the player's seat, and the page's link."""

    seat: Seat
    url: str | None


def _chouette_url(chouette: Chouette) -> str | None:
    """The chouette's page, or None while the site has no chouette pages (the
    ``chouette_detail`` URL of ``chouettes.urls``): the list then names it unlinked."""
    try:
        return chouette.get_absolute_url()
    except NoReverseMatch:
        return None


def player_chouettes_context(player: User) -> dict[str, object]:
    """Context for the chouettes part of the player page: their chouettes, games and
    points over every chouette they sat in, and their newest chouettes."""
    seats = chouettes.seats_of(player)[:PLAYER_CHOUETTES_SHOWN]
    return {
        "chouette_record": chouettes.player_record(player),
        "chouette_lines": [ChouetteLine(seat, _chouette_url(seat.chouette)) for seat in seats],
    }


#: How many of a player's matches their page lists (those in play, then the newest).
PLAYER_MATCHES_SHOWN = 50


@dataclass(frozen=True)
class MatchLine:
    """One match of the player page's list, from the page's player's side: whom they
    played, the score, and how it ended for them (``won``, ``lost``, ``draw``,
    ``cancelled``, or ``playing``)."""

    match: Match
    opponent: User
    score: int
    opponent_score: int
    outcome: str


def _outcome(match: Match, white: bool) -> str:
    if match.status == Match.Status.PLAYING:
        return "playing"
    if match.result in (Match.Result.WHITE, Match.Result.BLACK):
        return "won" if (match.result == Match.Result.WHITE) == white else "lost"
    return "draw" if match.result == Match.Result.DRAW else "cancelled"


def player_matches_context(player: User) -> dict[str, object]:
    """Context for the matches part of the player page: their matches (not a chouette's
    boards, which the chouettes part lists by chouette), those in play first, then the
    newest, each from their side."""
    matches = Match.objects.filter(Q(white=player) | Q(black=player), chouette=False)
    shown = list(
        matches.select_related("white", "black").order_by(
            Case(When(status=Match.Status.PLAYING, then=Value(0)), default=Value(1)),
            "-created_at",
            "-pk",
        )[:PLAYER_MATCHES_SHOWN]
    )
    lines = []
    for match in shown:
        white = match.white_id == player.pk
        lines.append(
            MatchLine(
                match=match,
                opponent=match.black if white else match.white,
                score=match.score_white if white else match.score_black,
                opponent_score=match.score_black if white else match.score_white,
                outcome=_outcome(match, white),
            )
        )
    total = len(lines) if len(lines) < PLAYER_MATCHES_SHOWN else matches.count()
    return {"match_lines": lines, "matches_total": total}


def ratings_of(player_ids: Iterable[int]) -> dict[int, float]:
    """Each player's rating now (the starting rating for one who has played no rated match)."""
    ids = list(player_ids)
    found = dict(PlayerStats.objects.filter(player_id__in=ids).values_list("player_id", "rating"))
    return {player_id: found.get(player_id, INITIAL_RATING) for player_id in ids}


def leaderboard() -> QuerySet[PlayerStats]:
    """Players with enough finished rated matches, best rating first. The bots are there
    only while the site rates their matches (``BOT_MATCHES_RATED``)."""
    rows = PlayerStats.objects.filter(
        rated_matches__gte=LEADERBOARD_MIN_MATCHES, player__is_active=True
    )
    if not bot_matches_rated():
        rows = rows.exclude(player__is_bot=True)
    return rows.select_related("player").order_by("-rating", "player_id")


#: The longest search text the player directory reads (a username is at most 150).
DIRECTORY_QUERY_MAX = 150


def directory_query(text: str | None) -> str:
    """The search text as the directory uses it: trimmed, capped, and without NULs (which
    PostgreSQL cannot compare), so any text a visitor types is a plain search."""
    return (text or "").replace("\x00", "").strip()[:DIRECTORY_QUERY_MAX]


def player_directory(query: str = "") -> QuerySet[User]:
    """Active players for the directory, with their stats row (rating, last activity).

    ``query`` matches the username or the display name anywhere, case-insensitively;
    names that start with it come first. Without a query the most recently active lead.
    """
    players = User.objects.filter(is_active=True).select_related("stats")
    query = directory_query(query)
    if not query:
        return players.order_by(F("stats__last_active_at").desc(nulls_last=True), "username")
    players = players.filter(Q(username__icontains=query) | Q(display_name__icontains=query))
    prefix = Q(username__istartswith=query) | Q(display_name__istartswith=query)
    return players.annotate(
        prefix=Case(When(prefix, then=Value(0)), default=Value(1), output_field=IntegerField())
    ).order_by("prefix", Lower("username"))


# --------------------------------------------------------------------------- dice


@dataclass(frozen=True)
class RollCount:
    high: int
    low: int
    count: int
    expected: float

    @property
    def label(self) -> str:
        return f"{self.high}-{self.low}"

    @property
    def is_double(self) -> bool:
        return self.high == self.low


@dataclass(frozen=True)
class DiceStats:
    """Every roll thrown (site-wide or for one player), and how fair they look.

    ``faces`` counts each die of every roll (a double shows its face twice) plus each
    single die of the opening rolls. The two chi-square tests are Pearson's: the 21
    rolls against 1/36 for a double and 2/36 otherwise (20 degrees of freedom), and the
    six faces against 1/6 each (5 degrees of freedom). A p-value far below 0.01 again
    and again would be a reason to look at the dice; on its own, one small p-value is
    expected about once in a hundred looks.
    """

    rolls: list[RollCount]
    faces: dict[int, int]
    total_rolls: int
    doubles: int
    rolls_test: ChiSquare
    faces_test: ChiSquare
    #: The rolls thrown until then are counted (the beat counts them every minute:
    #: :mod:`stats.dice`); None before the first count.
    counted_until: datetime | None = None

    @property
    def total_faces(self) -> int:
        return sum(self.faces.values())

    @property
    def doubles_pct(self) -> Decimal:
        return percentage(self.doubles, self.total_rolls)

    @property
    def expected_doubles_pct(self) -> Decimal:
        return percentage(1, 6)

    def face_pct(self, face: int) -> Decimal:
        return percentage(self.faces[face], self.total_faces)

    @property
    def face_rows(self) -> list[tuple[int, int, Decimal]]:
        return [(face, self.faces[face], self.face_pct(face)) for face in FACES]


def _roll_probability(high: int, low: int) -> float:
    return (1 if high == low else 2) / 36


def dice_stats(player: User | None = None) -> DiceStats:
    """The dice page for the whole site (``player`` None) or for one player's dice, as
    far as the beat has counted them."""
    rows = Counter.objects.filter(Q(key__startswith="roll:") | Q(key__startswith="opening:"))
    rows = rows.filter(player__isnull=True) if player is None else rows.filter(player=player)
    counts = dict(rows.values_list("key", "count"))
    roll_counts = [counts.get(f"roll:{high}{low}", 0) for high, low in ROLLS]
    total = sum(roll_counts)
    rolls = [
        RollCount(high, low, count, total * _roll_probability(high, low))
        for (high, low), count in zip(ROLLS, roll_counts, strict=True)
    ]
    faces = {face: counts.get(f"opening:{face}", 0) for face in FACES}
    for roll in rolls:
        faces[roll.high] += roll.count
        faces[roll.low] += roll.count
    return DiceStats(
        rolls=rolls,
        faces=faces,
        total_rolls=total,
        doubles=sum(roll.count for roll in rolls if roll.is_double),
        rolls_test=chi_square_test(roll_counts, [_roll_probability(h, lo) for h, lo in ROLLS]),
        faces_test=chi_square_test([faces[f] for f in FACES], [1 / 6] * 6),
        counted_until=dice_counted_until(),
    )
