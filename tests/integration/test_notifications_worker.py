"""E-mail delivery end to end: a real ``celery worker`` subprocess, a real Redis broker and a
real SMTP server on loopback, with the test database on PostgreSQL.

Each test runs its own redis-server on a free port (so it can be stopped and started
without touching the shared Redis, and no other test's worker takes our tasks) and its
own aiosmtpd server. The worker gets the test database through DATABASE_URL.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator
from datetime import timedelta
from email import message_from_bytes
from email.message import Message
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from matches import turns
from notifications import delivery, outbox
from notifications import tasks as notification_tasks
from notifications.models import Notification
from tests.factories import UserFactory
from tests.worker import Redis, Worker, free_port, use_broker, wait_for

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.celery_worker,
    pytest.mark.django_db(transaction=True),
]


class Inbox:
    """An aiosmtpd handler that keeps what it receives, or refuses it while ``refuse``."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self.refuse = False

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802
        if self.refuse:
            return "451 4.3.0 Try again later"
        self.messages.append(message_from_bytes(envelope.content))
        return "250 OK"

    def for_row(self, row_id: int) -> list[Message]:
        return [m for m in self.messages if m.get("X-Notification") == str(row_id)]


@pytest.fixture
def smtp() -> Iterator[tuple[Inbox, int]]:
    from aiosmtpd.controller import Controller

    inbox = Inbox()
    port = free_port()
    controller = Controller(inbox, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield inbox, port
    finally:
        controller.stop()


# --------------------------------------------------------------------------- Redis


@pytest.fixture
def worker(
    redis: Redis, smtp: tuple[Inbox, int], tmp_path: Path, live_db_url: str
) -> Iterator[Worker]:
    env = {
        **os.environ,
        "DATABASE_URL": live_db_url,
        "REDIS_URL": redis.url,
        "EMAIL_URL": f"smtp://127.0.0.1:{smtp[1]}",
        "SITE_URL": "http://testserver.example",
        "PYTHONUNBUFFERED": "1",
        # A refused e-mail's own retry runs after 3 s, not 30: the refusal test then
        # does not wait half a minute for it to drain (it finds the row already sent).
        "NOTIFICATION_RETRY_BASE_SECONDS": "3",
    }
    env.pop("BACKGAMMON_TEST_DELIVERY_DELAY", None)
    w = Worker(env, tmp_path / "worker.log")
    try:
        yield w
    finally:
        w.stop()
        connection.close()


# --------------------------------------------------------------------------- game


@pytest.fixture
def players(db: None) -> tuple[User, User]:
    alice = UserFactory(username="alice", notify=User.Notify.NONE)
    bob = UserFactory(username="bob", notify=User.Notify.NONE)
    return alice, bob


def a_game(players: tuple[User, User]) -> Any:
    """A match in which it is someone's turn to move; e-mails are on for both from here."""
    alice, bob = players
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=alice, opponent=bob, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    User.objects.filter(pk__in=[alice.pk, bob.pk]).update(notify=User.Notify.EVERY)
    game = match.current_game
    assert game is not None and game.state == "moving"
    return game


def play_one_move(game: Any) -> Notification:
    """The player on turn plays their first legal move; returns the row owed to the other."""
    from matches.selectors import game_plays

    game.refresh_from_db()
    mover = game.match.player(game.turn_color)
    other = game.match.player(game.turn_color.other)
    before = Notification.objects.filter(recipient=other).count()
    if game.state == "rolling":
        turns.game_roll(game_id=game.pk, player=mover, expected_ply=game.ply, now=timezone.now())
        game.refresh_from_db()
    play = game_plays(game)[0]
    turns.game_play_move(
        game_id=game.pk,
        player=mover,
        play_text=str(play),
        expected_ply=game.ply,
        now=timezone.now(),
    )
    rows = Notification.objects.filter(recipient=other).order_by("pk")
    assert rows.count() == before + 1
    return rows.last()


def row_status(row: Notification) -> str:
    row.refresh_from_db()
    return row.status


# --------------------------------------------------------------------------- tests


def test_a_move_sends_exactly_one_email(
    worker: Worker, smtp: tuple[Inbox, int], players: tuple[User, User]
) -> None:
    inbox, _ = smtp
    worker.start()
    game = a_game(players)
    row = play_one_move(game)
    wait_for(lambda: inbox.for_row(row.pk), 30, "the e-mail")
    worker.wait_idle()
    [message] = inbox.for_row(row.pk)
    assert message["To"] == row.recipient.email
    assert (
        message["List-Unsubscribe"].strip().startswith("<http://testserver.example/notifications/")
    )
    assert row_status(row) == Notification.Status.SENT


def test_a_worker_killed_mid_delivery_still_delivers_once(
    worker: Worker, smtp: tuple[Inbox, int], players: tuple[User, User]
) -> None:
    inbox, _ = smtp
    worker.start(BACKGAMMON_TEST_DELIVERY_DELAY="30")
    game = a_game(players)
    row = play_one_move(game)
    wait_for(lambda: row_status(row) == Notification.Status.SENDING, 30, "the claim")
    worker.kill()
    assert inbox.for_row(row.pk) == []
    worker.start()
    # Time passes (through ``now``): the sweeper frees the row the dead worker held.
    later = timezone.now() + delivery.SENDING_TIMEOUT + timedelta(seconds=1)
    assert delivery.notifications_sweep(now=later, send=notification_tasks.enqueue) >= 1
    wait_for(lambda: inbox.for_row(row.pk), 30, "the e-mail after the restart")
    worker.wait_idle()
    assert len(inbox.for_row(row.pk)) == 1
    assert row_status(row) == Notification.Status.SENT


def test_emails_owed_while_redis_was_down_arrive_when_it_is_back(
    worker: Worker, redis: Redis, smtp: tuple[Inbox, int], players: tuple[User, User]
) -> None:
    inbox, _ = smtp
    worker.start()
    games = [a_game(players), a_game(players)]
    redis.stop()
    started = time.monotonic()
    # A move in each game: each turn is still its player's when the e-mail goes out (a
    # turn they have played is no longer owed, see test_away.py).
    owed = [play_one_move(game) for game in games]
    assert time.monotonic() - started < 10, "a move must not wait for the broker"
    assert [row_status(r) for r in owed] == ["pending", "pending"]
    redis.start()
    use_broker(redis.url)
    later = timezone.now() + outbox.SWEEP_GRACE
    assert delivery.notifications_sweep(now=later, send=notification_tasks.enqueue) >= 2
    for row in owed:
        wait_for(lambda row=row: inbox.for_row(row.pk), 60, "an owed e-mail")
    worker.wait_idle()
    assert [len(inbox.for_row(r.pk)) for r in owed] == [1, 1]


def test_an_email_refused_for_a_while_arrives_after_the_server_recovers(
    worker: Worker, smtp: tuple[Inbox, int], players: tuple[User, User]
) -> None:
    inbox, _ = smtp
    inbox.refuse = True
    worker.start()
    game = a_game(players)
    row = play_one_move(game)

    def retried() -> bool:
        row.refresh_from_db()
        return row.status == Notification.Status.PENDING and row.attempts >= 1

    wait_for(retried, 30, "a refused attempt")
    assert "451" in row.last_error
    inbox.refuse = False
    later = timezone.now() + timedelta(hours=1)
    assert delivery.notifications_sweep(now=later, send=notification_tasks.enqueue) >= 1
    wait_for(lambda: inbox.for_row(row.pk), 30, "the e-mail after recovery")
    worker.wait_idle()
    assert len(inbox.for_row(row.pk)) == 1
    assert row_status(row) == Notification.Status.SENT


def test_a_turn_owed_to_a_player_on_the_site_waits_for_them_to_leave_then_arrives_once(
    worker: Worker, smtp: tuple[Inbox, int], players: tuple[User, User]
) -> None:
    """Held in the outbox, not in the broker: a task that comes early leaves it held, and
    the sweeper hands it to the worker once the player has been away long enough."""
    inbox, _ = smtp
    worker.start()
    game = a_game(players)
    now = timezone.now()
    User.objects.filter(pk__in=[p.pk for p in players]).update(seen_at=now)
    row = play_one_move(game)
    away = timedelta(seconds=300)  # NOTIFY_AWAY_AFTER_SECONDS, here and in the worker
    assert (row.status, row.next_attempt_at) == (Notification.Status.PENDING, now + away)
    assert delivery.notifications_sweep(now=now + away / 2, send=notification_tasks.enqueue) == 0
    assert notification_tasks.enqueue(row.pk)  # a task for it all the same: it holds it
    worker.wait_idle()
    row.refresh_from_db()
    assert (row.status, row.attempts, row.next_attempt_at) == ("pending", 0, now + away)
    assert inbox.for_row(row.pk) == []
    # The player left ten minutes ago: the sweeper hands it on, the worker sends it.
    User.objects.filter(pk=row.recipient_id).update(seen_at=now - 2 * away)
    assert delivery.notifications_sweep(now=now + away, send=notification_tasks.enqueue) == 1
    wait_for(lambda: inbox.for_row(row.pk), 30, "the e-mail once away")
    worker.wait_idle()
    assert len(inbox.for_row(row.pk)) == 1
    assert row_status(row) == Notification.Status.SENT
