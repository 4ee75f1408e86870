"""The bots take the live seeks nobody takes (issue 28): after ``BOT_SEEK_WAIT`` seconds, if
the seeker allowed it, the variant is gnubg's, the seeker is under the limit of bot
matches and a bot is rated within the seek's range; a person who takes it first keeps it.

Time passes by the ``now`` given to the service, never by a sleep. gnubg is "installed"
as an empty file where no gnubg runs (the bot's turns are queued after a commit that
these tests' transactions never make); the test that watches the bot play uses gnubg.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import datetime, timedelta
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection, connections, transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon.errors import Conflict
from bots import services, tasks
from bots.models import Bot
from challenges import services as challenge_services
from challenges.models import Challenge
from gammon import FixedDice
from matches import record
from matches.models import Game, GameEvent, Match
from stats.models import PlayerStats
from tests import records
from tests.factories import UserFactory
from tests.matches.api_helpers import token_client
from tests.worker import wait_for

pytestmark = pytest.mark.django_db

Capture = Callable[..., Any]
WAIT = timedelta(seconds=20)


@pytest.fixture
def fake_gnubg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """gnubg "installed" (an empty file): the bots accept; nothing here runs it."""
    program = tmp_path / "gnubg"
    program.touch()
    monkeypatch.setenv("GNUBG", str(program))


@pytest.fixture
def bots(db: None, settings: Settings) -> dict[str, Bot]:
    settings.BOT_SEEK_WAIT = 20
    return {bot.level: bot for bot in services.bots_create()}


def seek(user: User, now: datetime, **options: Any) -> Challenge:
    options = {"length": 1, "live_delay": 11, "live_reserve": 90, **options}
    return challenge_services.challenge_create(challenger=user, now=now, **options)


def rate(user: User, rating: float) -> None:
    PlayerStats.objects.update_or_create(player=user, defaults={"rating": rating})
    records.rating_set_by_hand(user.pk)


def seeker_opens(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seeker is White (colours not drawn) and opens 3-1."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice([(3, 1)]))


def opponent_of(match: Match, person: User) -> User:
    return match.black if match.white_id == person.pk else match.white


@pytest.mark.usefixtures("fake_gnubg")
def test_a_seek_younger_than_the_wait_is_left_to_people(bots: dict[str, Bot], player: User) -> None:
    now = timezone.now()
    made = seek(player, now)
    assert (
        services.bot_take_seek(challenge_id=made.pk, now=now + WAIT - timedelta(seconds=1)) is None
    )
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN and not Match.objects.exists()

    match = services.bot_take_seek(challenge_id=made.pk, now=now + WAIT)
    assert match is not None and match.is_live
    bot = opponent_of(match, player)
    assert bot.is_bot
    made.refresh_from_db()
    assert made.status == Challenge.Status.ACCEPTED and made.opponent == bot
    assert not match.rated, "a bot's match is unrated unless BOT_MATCHES_RATED"


@pytest.mark.usefixtures("fake_gnubg")
def test_a_seek_whose_seeker_said_no_is_never_taken(bots: dict[str, Bot], player: User) -> None:
    now = timezone.now()
    made = seek(player, now, bots_may_accept=False)
    assert services.bot_take_seek(challenge_id=made.pk, now=now + 10 * WAIT) is None
    assert services.bot_seeks_waiting(now + 10 * WAIT) == []
    made.refresh_from_db()
    assert made.status == Challenge.Status.OPEN


@pytest.mark.usefixtures("fake_gnubg")
def test_a_variant_gnubg_does_not_play_is_left_to_people(
    bots: dict[str, Bot], player: User
) -> None:
    now = timezone.now()
    made = seek(player, now, variant="hypergammon")
    assert services.bot_take_seek(challenge_id=made.pk, now=now + WAIT) is None
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.OPEN


def test_without_gnubg_no_bot_takes_a_seek(
    bots: dict[str, Bot], player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GNUBG", str(tmp_path / "missing"))
    now = timezone.now()
    made = seek(player, now)
    assert services.bot_take_seek(challenge_id=made.pk, now=now + WAIT) is None
    assert services.bot_seeks_waiting(now + WAIT) == []


@pytest.mark.usefixtures("fake_gnubg")
def test_a_rating_range_that_leaves_out_every_bot_is_left_to_people(
    bots: dict[str, Bot], player: User
) -> None:
    now = timezone.now()
    made = seek(player, now, rating_min=1600, rating_max=2000)  # the bots: 1500
    assert services.bot_take_seek(challenge_id=made.pk, now=now + WAIT) is None
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.OPEN


@pytest.mark.usefixtures("fake_gnubg")
def test_the_bot_rated_nearest_the_seeker_within_the_range_takes_it(
    bots: dict[str, Bot], player: User
) -> None:
    rate(player, 1790.0)
    rate(bots["beginner"].user, 1300.0)
    rate(bots["advanced"].user, 1700.0)
    rate(bots["expert"].user, 1800.0)  # the nearest, but outside the range
    rate(bots["world_class"].user, 2000.0)
    now = timezone.now()
    made = seek(player, now, rating_min=1600, rating_max=1750)
    match = services.bot_take_seek(challenge_id=made.pk, now=now + WAIT)
    assert match is not None and opponent_of(match, player) == bots["advanced"].user


@pytest.mark.usefixtures("fake_gnubg")
def test_among_bots_rated_alike_the_middle_level_takes_it(
    bots: dict[str, Bot], player: User
) -> None:
    """Unrated, every bot keeps the starting rating: the seek goes to the intermediate."""
    now = timezone.now()
    match = services.bot_take_seek(challenge_id=seek(player, now).pk, now=now + WAIT)
    assert match is not None
    assert opponent_of(match, player) == bots[services.SEEK_LEVEL].user


@pytest.mark.usefixtures("fake_gnubg")
def test_a_seeker_at_the_limit_of_bot_matches_keeps_the_seek_for_people(
    bots: dict[str, Bot], player: User, settings: Settings
) -> None:
    settings.LIMIT_BOT_MATCHES = 1
    now = timezone.now()
    challenge_services.challenge_create(
        challenger=player, opponent=bots["expert"].user, now=now, length=1
    )
    made = seek(player, now)
    assert services.bot_take_seek(challenge_id=made.pk, now=now + WAIT) is None  # no error
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.OPEN
    assert Match.objects.count() == 1


@pytest.mark.usefixtures("fake_gnubg")
def test_a_person_who_accepts_first_keeps_the_match(
    bots: dict[str, Bot], player: User, opponent: User
) -> None:
    now = timezone.now()
    made = seek(player, now)
    match = challenge_services.challenge_accept(challenge_id=made.pk, user=opponent, now=now + WAIT)
    assert services.bot_take_seek(challenge_id=made.pk, now=now + WAIT) is None
    assert list(Match.objects.all()) == [match]
    assert opponent_of(match, player) == opponent


@pytest.mark.usefixtures("fake_gnubg")
def test_a_withdrawn_or_lapsed_seek_is_not_taken(bots: dict[str, Bot], player: User) -> None:
    now = timezone.now()
    withdrawn = seek(player, now)
    challenge_services.challenge_withdraw(challenge_id=withdrawn.pk, user=player, now=now)
    assert services.bot_take_seek(challenge_id=withdrawn.pk, now=now + WAIT) is None
    lapsed = seek(player, now)
    late = now + challenge_services.LIVE_SEEK_VALIDITY
    assert services.bot_take_seek(challenge_id=lapsed.pk, now=late) is None
    assert services.bot_take_seek(challenge_id=10**9, now=now) is None  # no such seek
    assert not Match.objects.exists()


@pytest.mark.usefixtures("fake_gnubg")
def test_a_challenge_to_a_person_or_by_days_is_no_seek(
    bots: dict[str, Bot], player: User, opponent: User
) -> None:
    now = timezone.now()
    to_bob = seek(player, now, opponent=opponent)
    by_days = challenge_services.challenge_create(challenger=player, now=now)
    for challenge in (to_bob, by_days):
        assert services.bot_take_seek(challenge_id=challenge.pk, now=now + WAIT) is None
    assert not Match.objects.exists()


@pytest.mark.usefixtures("fake_gnubg")
def test_posting_a_seek_queues_a_bot_for_when_the_wait_is_over(
    bots: dict[str, Bot],
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    queued: list[tuple[tuple[int, ...], float]] = []

    def apply_async(args: tuple[int, ...], *, countdown: float, **kwargs: Any) -> None:
        queued.append((args, countdown))

    monkeypatch.setattr(tasks.bot_take_seek, "apply_async", apply_async)
    now = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        made = seek(player, now)
        seek(player, now, bots_may_accept=False)
    assert queued == [((made.pk,), 20 + services.MARGIN)]


@pytest.mark.usefixtures("fake_gnubg")
def test_the_task_run_at_once_without_a_broker_takes_nothing_early(
    bots: dict[str, Bot], player: User, django_capture_on_commit_callbacks: Capture
) -> None:
    """Eager (no Redis), the countdown is ignored: the task runs at the commit, and the
    service, seeing the seek younger than the wait, leaves it."""
    with django_capture_on_commit_callbacks(execute=True):
        made = seek(player, timezone.now())
    assert Challenge.objects.get(pk=made.pk).status == Challenge.Status.OPEN


@pytest.mark.usefixtures("fake_gnubg")
def test_the_sweeper_takes_the_seeks_whose_wait_is_over(
    bots: dict[str, Bot], player: User, opponent: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    seeker_opens(monkeypatch)  # the bot is not on turn: the second sweep has nothing
    now = timezone.now()
    old = seek(player, now - WAIT - timedelta(seconds=5))  # its task was lost
    young = seek(opponent, now)
    assert services.bot_seeks_waiting(timezone.now()) == [old.pk]
    assert tasks.bot_sweep.run() == 1  # eager: the seek's task runs now
    old.refresh_from_db()
    assert old.status == Challenge.Status.ACCEPTED and old.opponent is not None
    assert old.opponent.is_bot and old.match is not None
    assert Challenge.objects.get(pk=young.pk).status == Challenge.Status.OPEN
    assert tasks.bot_sweep.run() == 0


@pytest.mark.usefixtures("fake_gnubg")
def test_the_lobby_form_offers_the_computer_and_respects_a_no(
    bots: dict[str, Bot], player: User
) -> None:
    client = Client()
    client.force_login(player)
    page = client.get(reverse("lobby")).content.decode()
    assert "If no one takes it within 20 seconds, the computer may" in page
    (box,) = re.findall(r"<input[^>]*name=\"bots_may_accept\"[^>]*>", page)
    assert "checked" in box  # ticked unless the seeker unticks it
    fields = {"length": 1, "clock": "11+90", "variant": "standard", "rated": "on"}
    refused = client.post(reverse("lobby"), fields)  # the box left unticked
    allowed = client.post(reverse("lobby"), {**fields, "bots_may_accept": "on"})
    assert refused.status_code == allowed.status_code == 302
    no, yes = Challenge.objects.filter(challenger=player).order_by("pk")
    assert (no.bots_may_accept, yes.bots_may_accept) == (False, True)
    later = timezone.now() + WAIT
    assert services.bot_take_seek(challenge_id=no.pk, now=later) is None
    assert services.bot_take_seek(challenge_id=yes.pk, now=later) is not None


def test_the_lobby_form_offers_no_computer_without_gnubg(
    bots: dict[str, Bot], player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("GNUBG", str(tmp_path / "missing"))
    client = Client()
    client.force_login(player)
    assert 'name="bots_may_accept"' not in client.get(reverse("lobby")).content.decode()


def test_the_api_takes_and_shows_whether_a_bot_may_accept(player: User) -> None:
    body = {"length": 1, "live_delay": 11, "live_reserve": 90, "bots_may_accept": False}
    response = token_client(player).post("/api/challenges/", body, format="json")
    assert response.status_code == 201, response.content
    assert response.json()["bots_may_accept"] is False
    assert Challenge.objects.get(pk=response.json()["id"]).bots_may_accept is False
    default = token_client(player).post("/api/challenges/", {"live_delay": 11}, format="json")
    assert default.json()["bots_may_accept"] is True


@pytest.mark.gnubg
def test_the_bot_that_takes_a_seek_plays_its_first_turn_at_once(
    bots: dict[str, Bot],
    player: User,
    monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Capture,
) -> None:
    """The seeker is White (colours not drawn), the bot (Black) opens with 3-1: taking
    the seek, it moves at once, and its move queues its claim on the seeker's clock."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice([(1, 3), (6, 5), (6, 4), (5, 2)]))
    claims: list[tuple[tuple[int, ...], float]] = []

    def claim_later(args: tuple[int, ...], *, countdown: float, **kwargs: Any) -> None:
        claims.append((args, countdown))

    monkeypatch.setattr(tasks.bot_claim_time, "apply_async", claim_later)
    made = seek(player, timezone.now() - WAIT)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.bot_take_seek.delay(made.pk).get() is True
    game = Game.objects.select_related("match").get(match__challenge=made)
    assert game.match.black.is_bot and game.match.white == player
    bot_moves = GameEvent.objects.filter(game=game, color=1, kind=GameEvent.Kind.MOVE)
    assert bot_moves.count() == 1 and bot_moves.get().took is not None
    assert game.turn_color == 0 and game.state == Game.State.MOVING  # the seeker's turn
    ((args, countdown),) = claims
    assert args == (game.pk, game.ply)
    assert 11 + 90 <= countdown <= 11 + 90 + services.MARGIN + 1


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_person_and_a_bot_taking_a_seek_at_once_one_wins_cleanly(
    fake_gnubg: None, settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """bob's accept holds the seek's row when the bot comes: the bot waits for it, then
    finds the seek taken and does nothing; one match, bob's. The other way round, the
    person who comes second is told the seek is taken."""
    settings.BOT_SEEK_WAIT = 20
    monkeypatch.setattr(tasks, "enqueue", lambda game: True)  # no gnubg plays here
    services.bots_create()
    alice, bob = UserFactory(username="alice"), UserFactory(username="bob")
    now = timezone.now()
    made = seek(alice, now)  # its task, run at the commit (eager), finds it too young
    holding = threading.Event()
    taken: list[Match | None] = []

    def bot_takes() -> None:
        try:
            holding.wait(10)
            taken.append(services.bot_take_seek(challenge_id=made.pk, now=now + WAIT))
        finally:
            connections.close_all()

    thread = threading.Thread(target=bot_takes)
    thread.start()
    with transaction.atomic():
        match = challenge_services.challenge_accept(challenge_id=made.pk, user=bob, now=now)
        holding.set()
        wait_for(lambda: _waiting_on_a_lock(), timeout=10, what="the bot to wait for the seek")
    thread.join(10)
    assert taken == [None]
    assert list(Match.objects.all()) == [match]

    later = seek(bob, now)
    assert services.bot_take_seek(challenge_id=later.pk, now=now + WAIT) is not None
    with pytest.raises(Conflict):
        challenge_services.challenge_accept(challenge_id=later.pk, user=alice, now=now + WAIT)
    assert Match.objects.count() == 2


def _waiting_on_a_lock() -> bool:
    """Whether another connection waits on a row lock (the bot's, on the seek)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")  # read afresh in a transaction
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
            " AND datname = current_database()"
        )
        row = cursor.fetchone()
    return bool(row and row[0])
