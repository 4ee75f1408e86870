"""The replay check: every game the services store follows from its record."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from pytest_django.fixtures import Settings

from accounts.models import User
from challenges import services as challenge_services
from gammon import Color, Position, SeededDice, Variant
from matches import endings, record
from matches.bots import bot_act
from matches.models import Game, GameEvent, Match
from matches.replay import ReplayError, game_differences, replay_events, replay_game
from tests.bot_games import BotGames

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def seeded_dice(monkeypatch: pytest.MonkeyPatch, settings: Settings) -> None:
    monkeypatch.setattr(record, "dice", SeededDice(7))


def new_match(challenger: User, opponent: User, **options: object) -> Match:
    challenge = challenge_services.challenge_create(
        challenger=challenger, opponent=opponent, now=NOW, **options
    )
    return challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)


def play_actions(match: Match, rng: random.Random, actions: int, **options: float) -> Game:
    for _ in range(actions):
        match.refresh_from_db()
        game = match.current_game
        assert game is not None
        if match.status != Match.Status.PLAYING:
            break
        bot_act(game, rng, NOW, **options)
    game = match.current_game
    assert game is not None
    return game


def replay_games() -> str:
    out = StringIO()
    call_command("replay_games", stdout=out)
    return out.getvalue()


def test_bot_matches_with_doubles_resignations_and_draws_replay_exactly(
    bot_games: BotGames, player: User, opponent: User, outsider: User
) -> None:
    # The session's whole bot matches (every variant, with cube actions), then more played here.
    played = bot_games.load("site", alice=player, bob=opponent, charlie=outsider)
    assert {m.variant for m in played} == {"standard", "nackgammon", "hypergammon"}
    assert all(m.status == Match.Status.FINISHED for m in played)
    rng = random.Random(11)

    resigned = new_match(player, outsider, length=5, resignation="immediate")
    game = play_actions(resigned, rng, 30)
    endings.game_resign(game_id=game.pk, player=player, expected_ply=game.ply, now=NOW)
    offered = new_match(outsider, player, length=3)  # resigned by offers, answered at random
    play_actions(offered, random.Random(5), 300, resign_rate=0.05)
    game = play_actions(resigned, rng, 25)
    endings.game_resign(
        game_id=game.pk, player=outsider, expected_ply=game.ply, now=NOW, whole_match=True
    )

    drawn = new_match(opponent, player, length=0, jacoby=True, automatic_doubles=True)
    game = play_actions(drawn, rng, 40, double_rate=0.3)
    game = endings.match_offer_draw(
        game_id=game.pk, player=opponent, expected_ply=game.ply, now=NOW
    )
    game = endings.match_answer_draw(
        game_id=game.pk, player=player, expected_ply=game.ply, now=NOW, accept=False
    )
    game = play_actions(drawn, rng, 20)
    game = endings.match_offer_draw(game_id=game.pk, player=player, expected_ply=game.ply, now=NOW)
    endings.match_answer_draw(
        game_id=game.pk, player=opponent, expected_ply=game.ply, now=NOW, accept=True
    )

    in_progress = new_match(outsider, opponent, length=7)
    play_actions(in_progress, rng, 57, double_rate=0.4)

    kinds = set(GameEvent.objects.values_list("kind", flat=True))
    assert {"double", "take", "drop", "resign", "draw_offer", "draw_decline", "draw"} <= kinds
    assert {"resign_offer", "resign_decline", "resign_accept"} <= kinds
    assert Game.objects.exclude(state=Game.State.FINISHED).exists()
    output = replay_games()
    assert output.endswith(f"{Game.objects.count()} games checked, 0 differ\n")


def test_a_tampered_board_is_reported_and_the_command_fails(
    player: User, opponent: User, drifted: None
) -> None:
    match = new_match(player, opponent, length=3)
    game = play_actions(match, random.Random(2), 12)
    points = list(game.board["points"])
    points[5] -= 1
    points[6] += 1
    Game.objects.filter(pk=game.pk).update(board={**game.board, "points": points})
    out = StringIO()
    with pytest.raises(CommandError, match="1 of 1 games differ"):
        call_command("replay_games", stdout=out)
    assert f"Game {game.pk} " in out.getvalue()
    assert "board: stored" in out.getvalue()
    assert out.getvalue().endswith("1 games checked, 1 differ\n")


@pytest.mark.parametrize(
    ("field", "value", "reported"),
    [("turn", 1, "turn"), ("cube_value", 2, "cube_value"), ("ply", 99, "ply")],
)
def test_each_compared_field_is_checked(
    player: User, opponent: User, field: str, value: int, reported: str, drifted: None
) -> None:
    game = new_match(player, opponent).current_game
    assert game is not None
    if field == "turn":
        value = 1 - game.turn
    Game.objects.filter(pk=game.pk).update(**{field: value})
    game.refresh_from_db()
    assert [line.split(":")[0] for line in game_differences(game)] == [reported]


def test_an_illegal_move_in_the_record_is_reported(
    player: User, opponent: User, drifted: None
) -> None:
    game = new_match(player, opponent).current_game
    assert game is not None
    GameEvent.objects.create(
        game=game,
        ply=game.ply + 1,
        kind=GameEvent.Kind.MOVE,
        color=game.turn,
        die1=game.die1,
        die2=game.die2,
        notation="24/1",
        created_at=NOW,
    )
    (problem,) = game_differences(game)
    assert problem.startswith("the record cannot be replayed: ply 2:")


def test_the_record_gives_the_position_after_every_ply(player: User, opponent: User) -> None:
    match = new_match(player, opponent, length=3)
    game = play_actions(match, random.Random(5), 15)
    replay = replay_game(game)
    assert [ply for ply, _ in replay.positions] == list(range(1, game.ply + 1))
    assert replay.positions[-1][1] == game.white_view()
    assert replay.position() == game.position()
    first = replay.positions[0][1]
    assert first.points == Position.start(Variant.STANDARD).points
    assert replay.board == game.board


def test_an_empty_or_disordered_record_is_refused() -> None:
    with pytest.raises(ReplayError):
        replay_events([], variant="standard")
    roll = GameEvent(ply=1, kind=GameEvent.Kind.ROLL, color=int(Color.WHITE), die1=3, die2=1)
    with pytest.raises(ReplayError, match="opening roll"):
        replay_events([roll], variant="standard")
