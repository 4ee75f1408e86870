"""Check a chouette against its record: its decisions, played again, must give its rows.

A chouette's boards are ordinary games, checked by ``manage.py replay_games``. What a
chouette stores beside them follows from its record too: each game's cube side is the
fold of its decisions (:func:`chouettes.state.cube_side`), which must replay under the
rules; a live board's cube must be its captain's stake and its Black seat the captain;
a settled game's results must be :func:`gammon.chouette.settle_game` of that fold and
the board's end, summing to zero; each seat's points and games must be the sum of its
results; and each game must begin where the one before left the places (rotated, and
closed up behind the players who left). ``manage.py replay_chouettes`` runs this over
every chouette. Nothing here writes.
"""

from __future__ import annotations

from collections import Counter

from gammon import chouette as rules
from gammon.errors import RulesError
from matches.models import Game

from . import endings
from .models import Chouette, ChouetteGame, Result, Seat
from .state import cube_side


def game_differences(game: ChouetteGame) -> list[str]:
    """How a chouette game's stored rows differ from its record; empty when they agree."""
    try:
        side = cube_side(game)
    except RulesError as error:
        return [f"the decisions cannot be replayed: {error}"]
    board = Game.objects.select_related("match").get(match_id=game.match_id)
    problems = []
    if board.match.white_id != side.box:
        problems.append(f"the board's White is {board.match.white_id}, the box {side.box}")
    if not board.is_finished:
        if board.match.black_id != side.captain:
            problems.append(
                f"the board's Black is {board.match.black_id}, the captain {side.captain}"
            )
        if side.stage is rules.Stage.PLAYING and board.cube_value != side.board_cube.value:
            problems.append(
                f"the board's cube is {board.cube_value}, the captain's stake "
                f"{side.board_cube.value}"
            )
        held = side.stage in (rules.Stage.TEAM_VOTE, rules.Stage.TEAM_ANSWER)
        if board.held != held:
            problems.append(f"the board is {'' if board.held else 'not '}held at {side.stage}")
        return problems
    if game.settled_at is None:
        return [*problems, "the board is over but the game is not settled"]
    stored = dict(game.results.values_list("player_id", "points"))
    settlement = endings.settlement_of(side, board)
    expected = {} if settlement is None else settlement.points
    if stored != expected:
        problems.append(f"results {stored}, replayed {expected}")
    if sum(stored.values()) != 0:
        problems.append(f"the results sum to {sum(stored.values())}, not 0")
    return problems


def chouette_differences(chouette: Chouette) -> list[str]:
    """How ``chouette`` differs from its record: each game's, its seats', its places'."""
    problems: list[str] = []
    games = list(chouette.games.order_by("number"))
    for game in games:
        problems += [f"game {game.number}: {p}" for p in game_differences(game)]
    for before, after in zip(games, games[1:], strict=False):
        expected = _next_places(before, after)
        if expected is not None and expected != after.rules_places():
            problems.append(f"game {after.number} began at {after.rules_places()}, not {expected}")
    totals: Counter[int] = Counter()
    played: Counter[int] = Counter()
    for player_id, points in Result.objects.filter(game__chouette=chouette).values_list(
        "player_id", "points"
    ):
        totals[player_id] += points
        played[player_id] += 1
    for seat in chouette.seats.exclude(status=Seat.Status.INVITED):
        if (seat.points, seat.games) != (totals[seat.player_id], played[seat.player_id]):
            problems.append(
                f"player {seat.player_id}: {seat.points} points in {seat.games} games stored, "
                f"{totals[seat.player_id]} in {played[seat.player_id]} from the results"
            )
    return problems


def _next_places(before: ChouetteGame, after: ChouetteGame) -> rules.Places[int] | None:
    """Where ``after`` must begin: ``before``'s places rotated by its result, closed up
    behind whoever is not in ``after`` (they left between the games)."""
    if before.settled_at is None:
        return None
    board = Game.objects.get(match_id=before.match_id)
    side = cube_side(before)
    settlement = endings.settlement_of(side, board)
    team_won = None if settlement is None else settlement.team_won
    places = rules.rotate(before.rules_places(), team_won=team_won, captain=side.captain)
    staying = set(after.rules_places().players)
    for player in places.players:
        if player not in staying:
            places = rules.leave(places, player)
    return places
