"""A bot claims the win when a person lets their live clock fall against it (issue 28):
its claim is queued for the moment the flag falls, made through the person's own service
(a gammon, or the match by ``timeout_loses_match``), and nothing happens if the person
moved in time. The sweeper claims what a lost task left.

alice (White) opens 3-1 against the bot on a tiny clock (1 s a turn, 2 s of reserve).
Time passes by the ``now`` given to the services, never by a sleep.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import User
from bots import services, tasks
from bots.models import Bot
from challenges import services as challenge_services
from gammon import FixedDice, Termination
from matches import record, turns
from matches.models import Game, GameEvent, Match

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
S = timedelta(seconds=1)
#: The clock: 1 s a turn, then 2 s of reserve; her flag falls 3 s into her turn.
FLAG = 3 * S


@pytest.fixture
def bot(db: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Bot:
    """The expert bot; gnubg "installed" (an empty file) for it to accept a challenge.
    Nothing here runs gnubg: alice is on turn whenever the bot might claim."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))
    return {b.level: b for b in services.bots_create()}["expert"]


def live_game(
    monkeypatch: pytest.MonkeyPatch, person: User, bot: Bot, now: datetime, **options: Any
) -> Game:
    """A live match ``person`` (White, to move after her 3-1) against ``bot``."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1), (6, 5), (6, 4), (5, 2)]))
    options = {"length": 1, "live_delay": 1, "live_reserve": 2, **options}
    challenge = challenge_services.challenge_create(
        challenger=person, opponent=bot.user, now=now, **options
    )
    game = Game.objects.select_related("match").get(match__challenge=challenge)
    assert game.match.white == person and game.turn_color == 0
    return game


def test_the_bot_claims_only_once_her_clock_has_fallen(
    bot: Bot, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    game = live_game(monkeypatch, player, bot, now)
    assert services.bot_claim_time(game_id=game.pk, ply=game.ply, now=now + FLAG - S) is None
    game.refresh_from_db()
    assert not game.is_finished

    claimed = services.bot_claim_time(game_id=game.pk, ply=game.ply, now=now + FLAG)
    assert claimed is not None and claimed.termination == Termination.TIME_CLAIM
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.BLACK
    kinds = list(game.events.order_by("ply").values_list("kind", "color"))
    assert kinds[-2:] == [(GameEvent.Kind.TIMEOUT_CLAIM, 1), (GameEvent.Kind.WIN, 1)]
    # Again (a duplicate task): nothing more.
    assert services.bot_claim_time(game_id=game.pk, ply=game.ply, now=now + 10 * FLAG) is None


def test_a_claimed_time_out_is_a_gammon_and_the_match_goes_on(
    bot: Bot, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    game = live_game(monkeypatch, player, bot, now, length=5)
    assert services.bot_claim_time(game_id=game.pk, ply=game.ply, now=now + FLAG) is not None
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.PLAYING
    assert match.score == (0, 2)  # a gammon at a cube of 1, to the bot (Black)
    assert match.games.count() == 2


def test_a_claimed_time_out_loses_the_match_when_the_seeker_chose_so(
    bot: Bot, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    game = live_game(monkeypatch, player, bot, now, length=5, timeout_loses_match=True)
    claimed = services.bot_claim_time(game_id=game.pk, ply=game.ply, now=now + FLAG)
    assert claimed is not None
    match = Match.objects.get(pk=game.match_id)
    assert match.status == Match.Status.FINISHED and match.result == Match.Result.BLACK
    assert match.score == (0, 5)
    claim = claimed.events.get(kind=GameEvent.Kind.TIMEOUT_CLAIM)
    assert claim.notation == "match"


def test_a_person_who_moved_in_time_is_not_claimed_against(
    bot: Bot, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    game = live_game(monkeypatch, player, bot, now)
    ply = game.ply
    turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=ply, now=now + S
    )
    # The bot is on turn now (its task not run: no commit here); the claim's task comes.
    assert services.bot_claim_time(game_id=game.pk, ply=ply, now=now + 10 * FLAG) is None
    game.refresh_from_db()
    assert not game.is_finished
    assert not game.events.filter(kind=GameEvent.Kind.TIMEOUT_CLAIM).exists()


def test_a_correspondence_game_against_a_bot_is_never_claimed(
    bot: Bot, player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    now = timezone.now()
    game = live_game(monkeypatch, player, bot, now, live_delay=None, live_reserve=None)
    later = now + timedelta(days=30)
    assert services.bot_claim_due_in(game, now) is None
    assert services.bot_claim_time(game_id=game.pk, ply=game.ply, now=later) is None
    assert services.bot_claims_due(later) == []


def test_her_turn_queues_the_claim_for_when_her_flag_falls(
    bot: Bot,
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    queued: list[tuple[tuple[int, ...], float]] = []

    def apply_async(args: tuple[int, ...], *, countdown: float, **kwargs: Any) -> None:
        queued.append((args, countdown))

    monkeypatch.setattr(tasks.bot_claim_time, "apply_async", apply_async)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        game = live_game(monkeypatch, player, bot, now)
    assert queued == [((game.pk, game.ply), FLAG.total_seconds() + services.MARGIN)]


def test_the_claim_run_at_once_without_a_broker_claims_nothing_early(
    bot: Bot,
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    """Eager (no Redis), the countdown is ignored: the task runs at the commit, and the
    service, seeing time on her clock, claims nothing."""
    with django_capture_on_commit_callbacks(execute=True):
        game = live_game(monkeypatch, player, bot, timezone.now())
    game.refresh_from_db()
    assert not game.is_finished


def test_the_sweeper_claims_every_fallen_clock_against_a_bot(
    bot: Bot, player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Her game began a minute ago (its claim's task was lost); bob's is still on time."""
    now = timezone.now()
    fallen = live_game(monkeypatch, player, bot, now - timedelta(minutes=1))
    on_time = live_game(monkeypatch, opponent, bot, now, live_delay=600)
    assert services.bot_claims_due(timezone.now()) == [(fallen.pk, fallen.ply)]
    assert tasks.bot_sweep.run() == 1  # eager: the claim's task runs now
    fallen.refresh_from_db()
    on_time.refresh_from_db()
    assert fallen.termination == Termination.TIME_CLAIM
    assert not on_time.is_finished
    assert tasks.bot_sweep.run() == 0
