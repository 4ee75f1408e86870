"""The notification outbox: rows written with the change, e-mails sent once, retried,
swept, batched into digests; the in-site list and the unsubscribe link."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User
from challenges import services as challenge_services
from matches import endings, turns
from notifications import delivery, outbox, unsubscribe
from notifications import tasks as notification_tasks
from notifications.delivery import notification_deliver
from notifications.models import Notification
from tests.matches.clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
Status = Notification.Status


def rows(user: User, kind: str | None = None) -> list[Notification]:
    query = Notification.objects.filter(recipient=user)
    if kind:
        query = query.filter(kind=kind)
    return list(query.order_by("pk"))


def test_a_move_emails_the_player_now_on_turn_once(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    game = start_game(monkeypatch, player, opponent)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        white_opens(monkeypatch, game, player, NOW)
    [row] = rows(opponent, Kind.YOUR_TURN)
    row.refresh_from_db()
    assert row.status == Status.SENT and row.sent_at is not None
    [message] = mail.outbox
    assert message.to == [opponent.email]
    assert f"/games/{game.pk}/" in message.body
    assert "Alice" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert "/notifications/unsubscribe/" in message.extra_headers["List-Unsubscribe"]
    html = message.alternatives[0][0]
    assert "cid:board" in html
    assert rows(player, Kind.YOUR_TURN) == []


def test_the_email_is_in_the_recipients_language(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    opponent.language = "es"
    opponent.save()
    game = start_game(monkeypatch, player, opponent)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        white_opens(monkeypatch, game, player, NOW)
    assert "Hola" in mail.outbox[0].body


def test_a_row_is_sent_only_by_whoever_claims_it(monkeypatch, player: User, opponent: User) -> None:
    game = start_game(monkeypatch, player, opponent)
    white_opens(monkeypatch, game, player, NOW)
    [row] = rows(opponent, Kind.YOUR_TURN)
    assert notification_deliver(notification_id=row.pk, now=NOW) == "sent"
    assert notification_deliver(notification_id=row.pk, now=NOW) == "not-pending"
    assert len([m for m in mail.outbox if m.to == [opponent.email]]) == 1


def test_a_failed_send_is_retried_with_backoff_then_recorded(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent)
    white_opens(monkeypatch, game, player, NOW)
    [row] = rows(opponent, Kind.YOUR_TURN)

    def refuse(*args: object, **kwargs: object) -> int:
        raise ConnectionRefusedError("smtp down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", refuse)
    assert notification_deliver(notification_id=row.pk, now=NOW) == "retry"
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Status.PENDING, 1)
    assert row.next_attempt_at == NOW + timedelta(seconds=30)  # the default retry base
    assert "smtp down" in row.last_error
    for attempt in range(2, delivery.MAX_ATTEMPTS):
        assert notification_deliver(notification_id=row.pk, now=NOW) == "retry"
        row.refresh_from_db()
        assert row.next_attempt_at == NOW + timedelta(seconds=30) * 2 ** (attempt - 1)
    assert notification_deliver(notification_id=row.pk, now=NOW) == "failed"
    row.refresh_from_db()
    assert row.status == Status.FAILED and "smtp down" in row.last_error


def test_the_sweeper_resends_rows_still_pending_and_rows_a_dead_worker_left(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent)
    white_opens(monkeypatch, game, player, NOW)
    [row] = rows(opponent, Kind.YOUR_TURN)
    Notification.objects.exclude(pk=row.pk).update(status=Status.SENT)
    queued: list[int] = []

    def send(pk: int) -> bool:
        queued.append(pk)
        return True

    def notifications_sweep(now: datetime) -> int:
        return delivery.notifications_sweep(now=now, send=send)

    assert notifications_sweep(now=NOW) == 0  # the on-commit enqueue may still be on its way
    assert notifications_sweep(now=NOW + outbox.SWEEP_GRACE) == 1
    assert queued == [row.pk]
    assert notifications_sweep(now=NOW + outbox.SWEEP_GRACE) == 0
    # A worker claimed it and died before sending.
    Notification.objects.filter(pk=row.pk).update(status=Status.SENDING, claimed_at=NOW)
    later = NOW + delivery.SENDING_TIMEOUT
    assert notifications_sweep(now=later) == 1
    row.refresh_from_db()
    assert row.status == Status.PENDING
    assert notification_deliver(notification_id=row.pk, now=later) == "sent"


def test_resending_gives_failed_emails_fresh_attempts_and_queues_them_after_the_commit(
    player: User, django_capture_on_commit_callbacks
) -> None:
    def row(delivery_: str, status: str) -> Notification:
        return Notification.objects.create(
            recipient=player, kind=Kind.YOUR_TURN, delivery=delivery_, status=status,
            attempts=6, next_attempt_at=NOW, created_at=NOW, last_error="refused",
        )  # fmt: skip

    failed, site, sent = row("email", "failed"), row("none", "failed"), row("email", "sent")
    queued: list[int] = []

    def send(pk: int) -> bool:
        queued.append(pk)
        return True

    later = NOW + timedelta(hours=1)
    with django_capture_on_commit_callbacks(execute=True):
        count = delivery.notifications_resend(
            notification_ids=[failed.pk, site.pk, sent.pk], now=later, send=send
        )
        assert queued == []  # not before the commit
    assert count == 1 and queued == [failed.pk]
    failed.refresh_from_db()
    assert (failed.status, failed.attempts, failed.next_attempt_at) == (Status.PENDING, 0, later)
    for other in (site, sent):
        before = other.status
        other.refresh_from_db()
        assert (other.status, other.attempts) == (before, 6)


def test_a_move_commits_while_the_broker_is_down(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    from notifications.tasks import email_deliver

    def broker_down(*args: object, **kwargs: object) -> None:
        raise ConnectionError("redis is down")

    game = start_game(monkeypatch, player, opponent)
    monkeypatch.setattr(email_deliver, "apply_async", broker_down)
    with django_capture_on_commit_callbacks(execute=True):
        game = white_opens(monkeypatch, game, player, NOW)
    assert game.turn == 1
    [row] = rows(opponent, Kind.YOUR_TURN)
    assert row.status == Status.PENDING


def test_digest_players_get_one_email_a_day_at_their_hour(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    opponent.notify = User.Notify.DIGEST
    opponent.digest_hour = 8
    opponent.time_zone = "Europe/Madrid"  # 08:00 there is 07:00 UTC in March
    opponent.save()
    game = start_game(monkeypatch, player, opponent)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        game = white_opens(monkeypatch, game, player, NOW)
        endings.match_offer_draw(game_id=game.pk, player=player, expected_ply=game.ply, now=NOW)
    assert mail.outbox == []
    assert [r.kind for r in rows(opponent)] == [
        Kind.CHALLENGE_RECEIVED,
        Kind.YOUR_TURN,
        Kind.DRAW_OFFERED,
    ]
    assert {r.delivery for r in rows(opponent)} == {"digest"}
    next_day = NOW.replace(hour=6, minute=59) + timedelta(days=1)
    assert delivery.digests_send(now=next_day) == 0
    assert delivery.digests_send(now=next_day + timedelta(minutes=1)) == 1
    assert delivery.digests_send(now=next_day + timedelta(minutes=2)) == 0
    [digest] = mail.outbox
    assert "Alice offers to end the match as a draw." in digest.body
    assert all(r.status == Status.SENT for r in rows(opponent))


def test_players_who_want_no_email_still_see_the_list(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    opponent.notify = User.Notify.NONE
    opponent.save()
    game = start_game(monkeypatch, player, opponent)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        white_opens(monkeypatch, game, player, NOW)
    assert mail.outbox == []
    [row] = rows(opponent, Kind.YOUR_TURN)
    assert row.status == Status.SKIPPED
    client = Client()
    client.force_login(opponent)
    page = client.get(reverse("notifications"))
    assert "It is your turn in your game against Alice." in page.content.decode()
    home = client.get("/")
    assert 'class="badge"' in home.content.decode()
    client.post(reverse("notifications_read"), {"id": row.pk})
    row.refresh_from_db()
    assert row.read_at is not None


def test_every_event_writes_the_rows_it_owes(monkeypatch, player: User, opponent: User) -> None:
    challenge = challenge_services.challenge_create(challenger=player, opponent=opponent, now=NOW)
    challenge_services.challenge_decline(challenge_id=challenge.pk, user=opponent, now=NOW)
    assert [r.kind for r in rows(opponent)] == [Kind.CHALLENGE_RECEIVED]
    assert [r.kind for r in rows(player)] == [Kind.CHALLENGE_DECLINED]
    game = start_game(monkeypatch, player, opponent, 3, 1, 4, 2, length=3)
    assert rows(player)[-1].kind == Kind.CHALLENGE_ACCEPTED
    game = white_opens(monkeypatch, game, player, NOW)
    game = turns.game_double(game_id=game.pk, player=opponent, expected_ply=game.ply, now=NOW)
    assert rows(player)[-1].kind == Kind.DOUBLE_OFFERED
    turns.game_drop(game_id=game.pk, player=player, expected_ply=game.ply, now=NOW)
    # Game 2 starts at once and Alice won its opening roll (4-2): her turn comes last.
    assert [r.kind for r in rows(player)][-2:] == [Kind.GAME_OVER, Kind.YOUR_TURN]
    assert rows(opponent)[-1].payload == {
        "opponent": "Alice",
        "won": True,
        "points": 1,
        "match_over": False,
    }
    game = game.match.current_game
    endings.game_resign(
        game_id=game.pk, player=player, expected_ply=game.ply, now=NOW, whole_match=True
    )
    assert rows(player)[-1].kind == Kind.MATCH_OVER
    assert rows(player)[-1].payload["won"] is False


def test_the_unsubscribe_link_turns_emails_off_and_dies_when_the_preference_changes(
    player: User,
) -> None:
    url = unsubscribe.unsubscribe_url(player)
    path = url.split("testserver")[-1].split("8000")[-1]
    client = Client()
    assert "Stop all e-mails" in client.get(path).content.decode()
    player.refresh_from_db()
    assert player.notify == User.Notify.EVERY
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.notify == User.Notify.NONE
    player.notify = User.Notify.DIGEST
    player.save()
    assert "no longer valid" in client.get(path).content.decode()
    client.post(path)
    player.refresh_from_db()
    assert player.notify == User.Notify.DIGEST


def test_each_email_row_gets_its_own_task_after_the_commit(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:

    sent: list[tuple[object, dict[str, object]]] = []
    monkeypatch.setattr(
        notification_tasks.email_deliver, "apply_async", lambda args, **kw: sent.append((args, kw))
    )
    opponent.notify = User.Notify.EVERY
    opponent.save()
    with django_capture_on_commit_callbacks(execute=True):
        rows = [
            outbox.notify(recipient=opponent, kind=Notification.Kind.YOUR_TURN, now=NOW)
            for _ in range(2)
        ]
        assert sent == []  # nothing before the commit
    assert [args for args, _ in sent] == [(rows[0].pk,), (rows[1].pk,)]
    assert all(kw["retry"] is False for _, kw in sent)  # one attempt, no retry loop


def test_a_publish_that_fails_never_fails_the_request_and_the_row_waits(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:

    def broker_down(*args: object, **kwargs: object) -> None:
        raise ConnectionRefusedError("the broker is down")

    monkeypatch.setattr(notification_tasks.email_deliver, "apply_async", broker_down)
    opponent.notify = User.Notify.EVERY
    opponent.save()
    with django_capture_on_commit_callbacks(execute=True):
        row = outbox.notify(recipient=opponent, kind=Notification.Kind.YOUR_TURN, now=NOW)
    row.refresh_from_db()  # committed, and left for the sweeper
    assert (row.delivery, row.status, row.attempts) == ("email", "pending", 0)
    sent: list[object] = []
    monkeypatch.setattr(
        notification_tasks.email_deliver, "apply_async", lambda args, **kw: sent.append(args)
    )
    delivery.notifications_sweep(now=NOW + timedelta(minutes=10), send=notification_tasks.enqueue)
    assert sent == [(row.pk,)]


def test_with_the_broker_unreachable_the_hand_off_gives_up_at_once() -> None:
    import time

    from backgammon.celery import app

    previous = app.conf.broker_url
    app.conf.broker_url = "redis://127.0.0.1:9/0"  # a closed port: nobody listens there
    app.conf.task_always_eager = False
    app._pool = None
    app.amqp._producer_pool = None
    try:
        started = time.monotonic()
        assert notification_tasks.enqueue(1) is False
        assert time.monotonic() - started < 3
    finally:
        app.conf.broker_url, app.conf.task_always_eager = previous, True
        app._pool = None
        app.amqp._producer_pool = None
