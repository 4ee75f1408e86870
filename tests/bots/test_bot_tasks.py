"""The bots' tasks: a double or an offer to resign made to a bot is answered, gnubg's
failures retry, a missing gnubg leaves the turn waiting without breaking anything, and
the sweeper finds every turn a bot owes."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from bots import services, tasks
from bots.models import Bot
from challenges import services as challenge_services
from gammon import Position
from gnubg_bridge import process
from matches import endings, resignations, turns
from matches.bots import bot_act
from matches.models import Game, GameEvent
from tests import records
from tests.matches.api_helpers import SeededDice, scripted_dice

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture
def expert(db: None) -> Bot:
    return {bot.level: bot for bot in services.bots_create()}["expert"]


def bots_game(person: User, bot: Bot, seed: int) -> Game:
    """A 3-point match against ``bot``; the bot's turns are not played (no commit)."""
    with scripted_dice(SeededDice(seed)):
        challenge = challenge_services.challenge_create(
            challenger=person, opponent=bot.user, now=timezone.now(), length=3
        )
    return Game.objects.get(match__challenge=challenge)


def bots_turn(person: User, bot: Bot, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Game:
    """A game where ``bot`` is on turn, its task not run; gnubg is "installed" (an empty
    file) for the bot to accept the challenge."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))
    game = bots_game(person, bot, seed=1)
    if game.match.player(game.turn_color) == person:
        bot_act(game, random.Random(1), timezone.now())
        game.refresh_from_db()
    return game


@pytest.mark.gnubg
def test_a_double_offered_to_the_bot_is_answered_by_gnubg(
    expert: Bot, player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    rng = random.Random(2)
    now = timezone.now()
    with scripted_dice(SeededDice(2)), django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=expert.user, now=now, length=3
        )
    game = Game.objects.get(match__challenge=challenge)
    for _ in range(10):  # the person plays until they may double
        game.refresh_from_db()
        assert game.match.player(game.turn_color) == player
        if game.state == Game.State.ROLLING:
            break
        with (
            scripted_dice(SeededDice(rng.randrange(1000))),
            django_capture_on_commit_callbacks(execute=True),
        ):
            bot_act(game, rng, now)
    assert game.state == Game.State.ROLLING
    with django_capture_on_commit_callbacks(execute=True):
        turns.game_double(game_id=game.pk, player=player, expected_ply=game.ply, now=now)
    game.refresh_from_db()
    assert game.state != Game.State.DOUBLED
    record_kinds = list(GameEvent.objects.filter(game=game).values_list("kind", flat=True))
    bot_color = int(game.match.color_of(expert.user))  # type: ignore[arg-type]
    answered = GameEvent.objects.filter(
        game=game, color=bot_color, kind__in=[GameEvent.Kind.TAKE, GameEvent.Kind.DROP]
    )
    assert answered.count() == 1, record_kinds


def test_a_gnubg_failure_retries_the_task(
    expert: Bot, player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)

    def broken(*args: object, **kwargs: object) -> None:
        raise process.GnubgError("gnubg crashed")

    retried: list[float] = []

    class Retry(Exception):
        pass

    def retry(*, exc: Exception, countdown: float) -> Exception:
        retried.append(countdown)
        return Retry()

    monkeypatch.setattr(process, "run_script", broken)
    tasks.bot_play.app.conf.task_always_eager = False  # the autouse fixture restores it
    monkeypatch.setattr(tasks.bot_play, "retry", retry)
    events = GameEvent.objects.filter(game=game).count()
    with pytest.raises(Retry):
        tasks.bot_play.run(game.pk, game.ply)
    assert retried == [tasks.RETRY_DELAY]
    assert GameEvent.objects.filter(game=game).count() == events


def test_without_gnubg_a_bots_turn_waits_and_the_sweeper_finds_it(
    expert: Bot, player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    monkeypatch.setenv("GNUBG", str(tmp_path / "removed"))  # gnubg goes away
    assert services.bot_games_waiting() == [(game.pk, game.ply)]
    events = GameEvent.objects.filter(game=game).count()
    assert tasks.bot_sweep.run() == 1  # eager: the bot's task runs, finds no gnubg, logs
    assert GameEvent.objects.filter(game=game).count() == events


def test_a_bot_declines_a_draw(
    expert: Bot,
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    monkeypatch.setattr(services, "bot_play_turn", lambda **kwargs: 0)  # no gnubg here
    with django_capture_on_commit_callbacks(execute=True):
        endings.match_offer_draw(
            game_id=game.pk, player=player, expected_ply=None, now=timezone.now()
        )
    game.refresh_from_db()
    assert game.match.draw_offered_by is None
    bot_color = int(game.match.color_of(expert.user))  # type: ignore[arg-type]
    declined = GameEvent.objects.filter(game=game, kind=GameEvent.Kind.DRAW_DECLINE)
    assert list(declined.values_list("color", flat=True)) == [bot_color]
    assert game.state != Game.State.FINISHED


@pytest.mark.gnubg
def test_a_bot_answers_an_offer_to_resign_by_gnubgs_evaluation(
    expert: Bot, player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    """Offered a single game where gnubg sees a gammon likely, the bot declines; offered
    the gammon, it accepts (gnubg's computer player's rule: accept when the offer gives at
    least what the resigner expects to lose)."""
    rng = random.Random(3)
    now = timezone.now()
    with scripted_dice(SeededDice(3)), django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=expert.user, now=now, length=7
        )
    game = Game.objects.get(match__challenge=challenge)
    for _ in range(10):  # the person plays on until their turn comes round
        game.refresh_from_db()
        if game.match.player(game.turn_color) == player and game.state != Game.State.DOUBLED:
            break
        with (
            scripted_dice(SeededDice(rng.randrange(1000))),
            django_capture_on_commit_callbacks(execute=True),
        ):
            bot_act(game, rng, now)
    person = game.turn_color
    assert game.match.player(person) == player
    # The person is far behind: every checker on their 9-point, the bot's about to bear off.
    behind = Position.from_sides({9: 15}, {1: 3, 2: 3, 3: 3, 4: 3, 5: 3}, turn=person)
    records.game_made_by_hand(game.pk)
    Game.objects.filter(pk=game.pk).update(board=behind.to_white_view().to_dict())
    game.refresh_from_db()
    bot_color = int(person.other)

    with django_capture_on_commit_callbacks(execute=True):
        resignations.game_offer_resignation(
            game_id=game.pk, player=player, level=1, expected_ply=game.ply, now=now
        )
    game.refresh_from_db()
    last = game.events.order_by("-ply").first()
    assert last is not None and (last.kind, last.color) == ("resign_decline", bot_color)
    assert game.turn == int(person) and game.state in (Game.State.ROLLING, Game.State.MOVING)

    with django_capture_on_commit_callbacks(execute=True):
        resignations.game_offer_resignation(
            game_id=game.pk, player=player, level=2, expected_ply=game.ply, now=now
        )
    game.refresh_from_db()
    accepted = game.events.filter(kind=GameEvent.Kind.RESIGN_ACCEPT).get()
    assert (accepted.color, accepted.value) == (bot_color, 2)
    assert (game.winner, game.termination, game.points) == (
        bot_color,
        "resign",
        2 * game.cube_value,
    )
