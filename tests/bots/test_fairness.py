"""One bot turn per person at a time (bots/tasks.py), task by task; the worker test
(tests/integration/test_bots_fairness.py) shows what it does for another player's reply.

A bot task whose person has another turn being played (their claim in the cache) plays
nothing and queues itself again a moment later; the claim is given back when a turn is
played, whatever happens to it; without a broker (tasks eager) no claim is asked for.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache

from accounts.models import User
from bots import services, tasks
from bots.models import Bot
from gnubg_bridge import process
from matches.models import GameEvent

from .test_bot_tasks import bots_turn

pytestmark = pytest.mark.django_db


@pytest.fixture
def expert(db: None) -> Bot:
    return {bot.level: bot for bot in services.bots_create()}["expert"]


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The tasks queued again (args and countdown), instead of the broker."""
    seen: list[tuple[Any, ...]] = []

    def apply_async(args: tuple[Any, ...], *, countdown: float, retry: bool) -> None:
        seen.append((*args, countdown))

    monkeypatch.setattr(tasks.bot_play, "apply_async", apply_async)
    monkeypatch.setattr(tasks.bot_answer_draw, "apply_async", apply_async)
    return seen


def claim_of(person: User) -> str:
    return f"bots:person:{person.pk}"


def test_the_bot_opponent_of_a_game_is_its_person(
    expert: Bot, player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    assert services.bot_opponent_id(game.pk) == player.pk
    assert services.bot_opponent_id(10**9) is None


def test_a_turn_whose_person_has_another_being_played_waits_its_turn(
    expert: Bot,
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    queued: list[tuple[Any, ...]],
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    tasks.bot_play.app.conf.task_always_eager = False  # the autouse fixture restores it
    cache.add(claim_of(player), "another task", 60)
    played = GameEvent.objects.filter(game=game).count()
    assert tasks.bot_play.run(game.pk, game.ply) == 0
    assert tasks.bot_answer_draw.run(game.pk) is False
    assert queued == [(game.pk, game.ply, tasks.BUSY_DELAY), (game.pk, tasks.BUSY_DELAY)]
    assert GameEvent.objects.filter(game=game).count() == played
    assert cache.get(claim_of(player)) == "another task"  # not ours to give back


def test_the_claim_is_given_back_after_the_turn_whatever_happens(
    expert: Bot,
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    queued: list[tuple[Any, ...]],
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    tasks.bot_play.app.conf.task_always_eager = False
    held: list[object] = []

    def broken(*args: object, **kwargs: object) -> None:
        held.append(cache.get(claim_of(player)))
        raise process.GnubgError("gnubg crashed")

    class Retry(Exception):
        pass

    monkeypatch.setattr(process, "run_script", broken)
    monkeypatch.setattr(tasks.bot_play, "retry", lambda **kwargs: Retry())
    with pytest.raises(Retry):
        tasks.bot_play.run(game.pk, game.ply)
    assert held and held[0] is not None  # held while gnubg was asked
    assert cache.get(claim_of(player)) is None
    assert queued == []


def test_without_a_broker_no_claim_is_asked_for(
    expert: Bot, player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    game = bots_turn(player, expert, monkeypatch, tmp_path)
    cache.add(claim_of(player), "another task", 60)
    monkeypatch.setattr(services, "bot_play_turn", lambda **kwargs: 1)
    assert tasks.bot_play.run(game.pk, game.ply) == 1  # eager: played as it comes
