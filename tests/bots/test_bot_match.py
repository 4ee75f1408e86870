"""A person plays whole matches against the GNU Backgammon bots, through the services.

The person is scripted (random legal actions, as ``matches.bots`` plays); the bot answers
each of its turns through the receiver, the task (eager) and the same services a person's
request calls. Every action runs its commit callbacks, as a request's commit would.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import datetime
from typing import Any

import pytest
from django.core import mail
from django.utils import timezone

from accounts.models import User
from bots import services
from bots.models import Bot
from challenges import services as challenge_services
from gnubg_bridge import process
from matches.bots import bot_act
from matches.models import Game, GameEvent, Match
from tests.matches.api_helpers import SeededDice, scripted_dice

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]


@pytest.fixture
def bots(db: None) -> dict[str, Bot]:
    return {bot.level: bot for bot in services.bots_create()}


def play_against(
    person: User,
    bot: Bot,
    capture: Capture,
    *,
    seed: int,
    now: datetime,
    **options: Any,
) -> Match:
    """Challenge ``bot``, then play the person's turns until the match ends."""
    rng = random.Random(seed)
    with scripted_dice(SeededDice(seed)), capture(execute=True):
        challenge = challenge_services.challenge_create(
            challenger=person, opponent=bot.user, now=now, **options
        )
    match = Match.objects.get(challenge=challenge)
    for _ in range(2000):
        match.refresh_from_db()
        if match.status != Match.Status.PLAYING:
            return match
        game = match.current_game
        assert game is not None
        assert match.player(game.turn_color) == person, "the bot left its turn unplayed"
        with scripted_dice(SeededDice(rng.randrange(10**9))), capture(execute=True):
            bot_act(game, rng, now, double_rate=0.1)
    raise AssertionError("the match did not end")


@pytest.mark.gnubg
def test_a_person_plays_a_whole_match_against_the_bot(
    bots: dict[str, Bot], player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    now = timezone.now()
    bot = bots["expert"]
    match = play_against(player, bot, django_capture_on_commit_callbacks, seed=3, now=now, length=1)
    assert match.status == Match.Status.FINISHED
    assert not match.rated, "bot matches are unrated unless BOT_MATCHES_RATED"
    events = GameEvent.objects.filter(game__match=match)
    bot_color = int(match.color_of(bot.user))  # type: ignore[arg-type]
    bot_kinds = set(events.filter(color=bot_color).values_list("kind", flat=True))
    assert {GameEvent.Kind.MOVE} <= bot_kinds
    # The person was told of the bot's moves as of any opponent's; the bot got nothing.
    assert any(player.email in message.to for message in mail.outbox)
    assert all(message.to != [""] for message in mail.outbox)
    assert not User.objects.get(pk=bot.user.pk).has_usable_password()


@pytest.mark.gnubg
def test_a_duplicate_or_stale_bot_task_changes_nothing(
    bots: dict[str, Bot], player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    now = timezone.now()
    bot = bots["expert"]
    with scripted_dice(SeededDice(5)), django_capture_on_commit_callbacks(execute=True):
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=bot.user, now=now, length=1
        )
    game = Game.objects.get(match__challenge=challenge)
    assert game.match.player(game.turn_color) == player  # the bot has played, if it opened
    events = GameEvent.objects.filter(game=game).count()
    assert services.bot_play_turn(game_id=game.pk, ply=game.ply, now=now) == 0
    assert services.bot_play_turn(game_id=game.pk, ply=max(game.ply - 1, 0), now=now) == 0
    assert GameEvent.objects.filter(game=game).count() == events


def test_a_failing_gnubg_leaves_the_turn_to_the_retry(
    bots: dict[str, Bot], player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """gnubg fails: the bot's action is not made, and the error reaches the task."""

    def broken(*args: object, **kwargs: object) -> None:
        raise process.GnubgError("gnubg crashed")

    monkeypatch.setattr(process, "run_script", broken)
    monkeypatch.setattr(process, "available", lambda: True)
    now = timezone.now()
    with scripted_dice(SeededDice(1)):
        challenge = challenge_services.challenge_create(
            challenger=player, opponent=bots["expert"].user, now=now, length=1
        )
    game = Game.objects.get(match__challenge=challenge)
    if game.match.player(game.turn_color) == player:
        bot_act(game, random.Random(1), now)
        game.refresh_from_db()
    events = GameEvent.objects.filter(game=game).count()
    with pytest.raises(process.GnubgError):
        services.bot_play_turn(game_id=game.pk, ply=game.ply, now=now)
    assert GameEvent.objects.filter(game=game).count() == events


@pytest.mark.gnubg
def test_a_live_match_against_the_bot_is_played_at_once_on_its_clock(
    bots: dict[str, Bot], player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    """Issue 28: the bot accepts a live seek and answers each turn at once (in the
    transaction's commit callbacks), so its clock never reaches its reserve; the record
    keeps the time each of its moves took."""
    now = timezone.now()
    bot = bots["expert"]
    match = play_against(
        player,
        bot,
        django_capture_on_commit_callbacks,
        seed=3,
        now=now,
        length=1,
        live_delay=11,
        live_reserve=90,
    )
    assert match.status == Match.Status.FINISHED and match.is_live
    bot_color = int(match.color_of(bot.user))  # type: ignore[arg-type]
    bot_moves = GameEvent.objects.filter(game__match=match, color=bot_color, kind="move")
    assert bot_moves.exists() and all(
        took is not None for took in bot_moves.values_list("took", flat=True)
    )
    reserve = match.bank_white if bot_color == 0 else match.bank_black
    assert reserve is not None and reserve.total_seconds() > 0  # it never ran out
