"""A match as a Jellyfish ``.mat`` file: the stored events turned into the engine's record.

Each game's events are replayed with the engine from the starting position, so
that every play's checker steps (and which of them hit) come from
``parse_play``, exactly as when the move was made. The text itself is written
by :mod:`gammon.mat`, which knows nothing of Django.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings

from gammon import Color, Cube, MatchState, Position, Variant, parse_play
from gammon.mat import (
    MatDouble,
    MatDrop,
    MatGame,
    MatMatch,
    MatPlay,
    MatRecord,
    MatResign,
    MatRoll,
    MatTake,
    MatWin,
    write_mat,
)

from .models import Game, GameEvent, Match

__all__ = [
    "ReplayedGame",
    "export_mat",
    "mat_filename",
    "match_record",
    "replay_game",
    "replay_match",
]

#: Events that end the game; a roll not played by then is written as rolled only. An
#: accepted offer to resign is written as gnubg writes it, the ``Wins`` line alone.
_ENDINGS = {
    GameEvent.Kind.RESIGN,
    GameEvent.Kind.RESIGN_ACCEPT,
    GameEvent.Kind.TIMEOUT,
    GameEvent.Kind.TIMEOUT_CLAIM,
    GameEvent.Kind.ADJUDICATE,
    GameEvent.Kind.DRAW,
}
#: Talk between the players: no part of a turn, and no place in the format. gnubg's own
#: export leaves a declined offer to resign out too: the file has no line for one.
_ASIDES = {
    GameEvent.Kind.DRAW_OFFER,
    GameEvent.Kind.DRAW_DECLINE,
    GameEvent.Kind.RESIGN_OFFER,
    GameEvent.Kind.RESIGN_DECLINE,
}


@dataclass(frozen=True)
class ReplayedGame:
    """A game's ``.mat`` records and, per play, the position it reached.

    ``positions`` holds the board after each play, seen from the side of the
    player to roll next (``play.next_position()``), in the order of the plays.
    """

    game: MatGame
    positions: tuple[Position, ...]


def replay_game(game: Game, variant: Variant, score: tuple[int, int]) -> ReplayedGame:
    """Replay ``game``'s events with the engine into ``.mat`` records.

    A turn is a roll and the play of it. The roll is held until its play, which
    records both (``MatPlay``); a draw offered or declined in between is no part of
    the turn, nor is an offer to resign that is declined. A roll still unplayed when
    the game ends (or when the record stops) is recorded as a roll alone
    (``MatRoll``). Doubles, takes and drops come before a roll, so they never meet one.
    """
    records: list[MatRecord] = []
    positions: list[Position] = []
    position: Position | None = None
    rolled: MatRoll | None = None  # the turn in progress: rolled, not played yet
    cube = start = 1
    final = position  # the board after the last play, from its player's side
    events = sorted(game.events.all(), key=lambda event: event.ply)
    for index, event in enumerate(events):
        kind = event.kind
        color = Color(event.color) if event.color is not None else None
        if kind in _ASIDES:
            continue
        if kind == GameEvent.Kind.OPENING:
            assert color is not None and event.dice is not None
            position = Position.start(variant, color)
            rolled = MatRoll(color, event.dice)
            cube = event.value or 1  # automatic doubles for opening ties
            start = cube
        elif kind == GameEvent.Kind.ROLL:
            assert color is not None and event.dice is not None and rolled is None
            rolled = MatRoll(color, event.dice)
        elif kind in (GameEvent.Kind.MOVE, GameEvent.Kind.PASS):
            assert color is not None and event.dice is not None and position is not None
            assert rolled is not None and rolled.player == color
            play = parse_play(position, event.dice, event.notation or "pass")
            records.append(MatPlay(color, event.dice, play.steps))
            final = play.position
            position = play.next_position()
            positions.append(position)
            rolled = None
        elif kind in _ENDINGS:
            if rolled is not None:
                records.append(rolled)
                rolled = None
            # Written with the win that follows (none for a draw: the format has none).
        elif kind == GameEvent.Kind.DOUBLE:
            assert color is not None and event.value is not None and rolled is None
            records.append(MatDouble(color, event.value))
        elif kind == GameEvent.Kind.TAKE:
            assert color is not None and event.value is not None and rolled is None
            records.append(MatTake(color))
            cube = event.value
        elif kind == GameEvent.Kind.WIN:
            assert color is not None and event.value is not None
            before = events[index - 1].kind if index else None
            if before == GameEvent.Kind.DROP:
                records.append(MatDrop(color.other, event.value))
            elif before in _ENDINGS:
                records.append(MatResign(color.other, event.value))
            elif before in (GameEvent.Kind.MOVE, GameEvent.Kind.PASS):
                # What the game is worth at the cube, Jacoby or not, as gnubg writes it.
                assert final is not None
                worth = MatchState(cube=Cube(cube, limit=None)).outcome_for_win(final).points
                records.append(MatWin(color, worth))
        # DROP is written with the win that follows it.
    if rolled is not None:
        records.append(rolled)
    game_record = MatGame(score=score, records=tuple(records), cube=start)
    return ReplayedGame(game_record, tuple(positions))


def replay_match(match: Match) -> list[ReplayedGame]:
    """Every game of ``match`` replayed, with the score before each."""
    variant = Variant(match.variant)
    score = [0, 0]
    games = []
    for game in match.games.order_by("number").prefetch_related("events"):
        games.append(replay_game(game, variant, (score[0], score[1])))
        if game.is_finished and game.winner is not None:
            score[game.winner] += game.points
    return games


def match_record(
    match: Match, *, event: str | None = None, comments: Sequence[str] = ()
) -> MatMatch:
    """Everything the ``.mat`` file says about ``match``.

    ``event`` and ``comments`` are for an app above this one to describe the match
    in the header (a chouette's board: which chouette, each member's stake), as
    this app knows nothing of it."""
    site = urlsplit(settings.SITE_URL).hostname
    return MatMatch(
        players=(match.white.username, match.black.username),
        length=match.length,
        games=tuple(replayed.game for replayed in replay_match(match)),
        variant=Variant(match.variant),
        site=site or None,
        event_date=match.created_at.date(),
        crawford=not match.is_money,
        cube_limit=match.cube_limit,
        finished=bool(match.length) and match.result in (Match.Result.WHITE, Match.Result.BLACK),
        event=event,
        comments=tuple(comments),
    )


def export_mat(
    match: Match,
    *,
    xg_header: bool = True,
    event: str | None = None,
    comments: Sequence[str] = (),
) -> str:
    """The ``.mat`` text of ``match``, finished or still being played (``event`` and
    ``comments`` as :func:`match_record` takes them)."""
    return write_mat(match_record(match, event=event, comments=comments), xg_header=xg_header)


def mat_filename(match: Match) -> str:
    return f"match-{match.pk}-{match.white.username}-{match.black.username}.mat"
