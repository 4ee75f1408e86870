"""Writes: counter increments and rating updates.

Every function here runs inside the caller's transaction (the one that ended the
game or threw the dice), so the counters commit or roll back with the game.
Increments are ``UPDATE … SET count = count + 1``: the database serialises
concurrent increments of one row, so none is lost. A missing row is created with
``get_or_create``, which on a unique-constraint race waits for the other
transaction and then finds its row.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import F, Q

from matches.models import Game, Match

from .maths import fibs_rating_change
from .models import Counter, PlayerStats, RatingHistory

#: Writing ``last_active_at`` at most this often keeps a roll to a cheap no-op update.
ACTIVITY_RESOLUTION = timedelta(hours=1)

COLORS = ("white", "black")
GAME_RESULTS = ("white", "black", "draw")
#: Game ends counted in the statistics; ``cancelled`` games are not.
GAME_TERMINATIONS = (
    "single",
    "gammon",
    "backgammon",
    "drop",
    "resign",
    "timeout",
    "draw",
    "adjudicated",
)


def counter_add(*, key: str, player_id: int | None = None, amount: int = 1) -> None:
    """Add ``amount`` to one counter, creating it at zero on first use."""
    rows = Counter.objects.filter(key=key, player_id=player_id)
    if rows.update(count=F("count") + amount):
        return
    Counter.objects.get_or_create(key=key, player_id=player_id, defaults={"count": 0})
    rows.update(count=F("count") + amount)


def counters_add(keys: Iterable[tuple[int | None, str]], *, amount: int = 1) -> None:
    """Add ``amount`` (one) to each ``(player_id, key)``, in a fixed order to avoid deadlocks."""
    for player_id, key in sorted(keys, key=lambda item: (item[0] or 0, item[1])):
        counter_add(key=key, player_id=player_id, amount=amount)


def player_stats_row(player_id: int, *, lock: bool = False) -> PlayerStats:
    """The player's stats row, created with the starting rating on first use."""
    PlayerStats.objects.get_or_create(player_id=player_id)
    rows = PlayerStats.objects.filter(player_id=player_id)
    return (rows.select_for_update() if lock else rows).get()


def player_mark_active(*, player_id: int, now: datetime) -> None:
    """Record that ``player`` took part in play at ``now`` (for "active players")."""
    recent = now - ACTIVITY_RESOLUTION
    if PlayerStats.objects.filter(
        Q(last_active_at__isnull=True) | Q(last_active_at__lt=recent), player_id=player_id
    ).update(last_active_at=now):
        return
    if not PlayerStats.objects.filter(player_id=player_id).exists():
        PlayerStats.objects.get_or_create(player_id=player_id, defaults={"last_active_at": now})


# --------------------------------------------------------------------------- results


def game_result(game: Game) -> str | None:
    """``white``, ``black`` or ``draw``; None for a game that does not count (cancelled)."""
    if game.termination not in GAME_TERMINATIONS:
        return None
    if game.winner is None:
        return "draw"
    return COLORS[game.winner]


def game_counter_keys(
    *, variant: str, white_id: int, black_id: int, result: str, termination: str
) -> list[tuple[int | None, str]]:
    """Every counter one finished game adds to: the site's and both players'."""
    keys: list[tuple[int | None, str]] = [
        (None, f"game:{variant}:{result}"),
        (None, f"game:{variant}:end:{termination}"),
    ]
    for player_id, color in ((white_id, "white"), (black_id, "black")):
        keys.append((player_id, f"game:{variant}:{color}:{_outcome(color, result)}"))
    if result != "draw" and termination in ("gammon", "backgammon"):
        winner, loser = (white_id, black_id) if result == "white" else (black_id, white_id)
        keys += [(winner, f"{termination}:won"), (loser, f"{termination}:lost")]
    return keys


def match_counter_keys(
    *, variant: str, white_id: int, black_id: int, result: str
) -> list[tuple[int | None, str]]:
    """Every counter one finished match adds to."""
    keys: list[tuple[int | None, str]] = [(None, f"match:{variant}:{result}")]
    for player_id, color in ((white_id, "white"), (black_id, "black")):
        keys.append((player_id, f"match:{variant}:{color}:{_outcome(color, result)}"))
    return keys


def _outcome(color: str, result: str) -> str:
    if result == "draw":
        return "drawn"
    return "won" if result == color else "lost"


def stats_game_finished(*, game: Game, now: datetime) -> None:
    """Count a finished game: its result and end for the site, and each player's record."""
    result = game_result(game)
    if result is None:
        return
    match = game.match
    counters_add(
        game_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=result,
            termination=game.termination,
        )
    )
    for player_id in (match.white_id, match.black_id):
        player_mark_active(player_id=player_id, now=now)


def stats_match_cancelled(*, match: Match, now: datetime) -> None:
    """A moderator cancelled ``match`` as if never played: take back its counted games.

    Its games that had finished before were counted as they ended; the game that was
    in play ends ``cancelled`` and was never counted, nor is the match. The dice thrown
    stay counted: they were thrown. Ratings never saw the match.
    """
    games = Game.objects.filter(match=match, state=Game.State.FINISHED).order_by("number")
    for game in games:
        result = game_result(game)
        if result is None:
            continue
        counters_add(
            game_counter_keys(
                variant=match.variant,
                white_id=match.white_id,
                black_id=match.black_id,
                result=result,
                termination=game.termination,
            ),
            amount=-1,
        )


def stats_match_finished(*, match: Match, now: datetime) -> None:
    """Count a finished match and, when it is rated, update both ratings."""
    if match.result not in GAME_RESULTS:
        return
    counters_add(
        match_counter_keys(
            variant=match.variant,
            white_id=match.white_id,
            black_id=match.black_id,
            result=match.result,
        )
    )
    ratings_apply(match=match, now=now)


# --------------------------------------------------------------------------- ratings


def is_rated(match: Match) -> bool:
    """Rated matches: the challenge said so, and it is a match, not a money session.

    Money sessions (length 0) have no length for the FIBS formula (its changes scale
    with the square root of the length) and can be left at any time; as on FIBS
    ("unlimited matches do not affect ratings"), they never count.
    """
    return match.rated and not match.is_money


@transaction.atomic
def ratings_apply(*, match: Match, now: datetime) -> None:
    """Apply the FIBS rating change of a finished, rated match to both players.

    A rated draw counts towards each player's number of rated matches (the
    leaderboard's threshold) but changes neither rating nor experience. Both rows
    are locked in id order, so two matches finishing at once between overlapping
    players cannot deadlock and each sees the other's result.
    """
    if not is_rated(match) or match.result not in GAME_RESULTS:
        return
    first, second = sorted((match.white_id, match.black_id))
    rows = {first: player_stats_row(first, lock=True), second: player_stats_row(second, lock=True)}
    if match.result == "draw":
        for row in rows.values():
            row.rated_matches += 1
            row.save(update_fields=["rated_matches"])
        return
    winner_id, loser_id = (
        (match.white_id, match.black_id)
        if match.result == "white"
        else (match.black_id, match.white_id)
    )
    winner, loser = rows[winner_id], rows[loser_id]
    change = fibs_rating_change(
        winner_rating=winner.rating,
        loser_rating=loser.rating,
        winner_experience=winner.experience,
        loser_experience=loser.experience,
        length=match.length,
    )
    for row, delta in ((winner, change.gain), (loser, -change.loss)):
        row.rating += delta
        row.best_rating = max(row.best_rating, row.rating)
        row.experience += match.length
        row.rated_matches += 1
        row.save(update_fields=["rating", "best_rating", "experience", "rated_matches"])
        RatingHistory.objects.create(
            player_id=row.player_id,
            match=match,
            rating=row.rating,
            experience=row.experience,
            change=delta,
            at=now,
        )


# --------------------------------------------------------------------------- dice


def roll_key(die1: int, die2: int) -> str:
    """``roll:31`` for 3-1 and 1-3 alike: the 21 distinct rolls."""
    high, low = max(die1, die2), min(die1, die2)
    return f"roll:{high}{low}"


def stats_dice_rolled(
    *, game: Game, die1: int, die2: int, opening: bool, color: int, now: datetime
) -> None:
    """Count a throw of the dice for the site and for the player it was thrown for.

    A turn's roll counts as one of the 21 rolls. The opening roll is two single dice,
    one per side, rerolled on a tie: counted as a roll it would show no doubles, so
    each of its dice counts only as a die face, for the site and for its thrower.
    """
    match = game.match
    if opening:
        counters_add(
            [
                (None, f"opening:{die1}"),
                (None, f"opening:{die2}"),
                (match.white_id, f"opening:{die1}"),
                (match.black_id, f"opening:{die2}"),
            ]
        )
        for player_id in (match.white_id, match.black_id):
            player_mark_active(player_id=player_id, now=now)
        return
    player_id = match.white_id if color == 0 else match.black_id
    key = roll_key(die1, die2)
    counters_add([(None, key), (player_id, key)])
    player_mark_active(player_id=player_id, now=now)
