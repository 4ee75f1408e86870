"""A game message tells the opponent: one ``message_received`` row per burst, written with
the message, e-mailed in their language, or kept for the digest, or only listed.

Alice (White) writes to Bob unless a test says otherwise.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.db import transaction
from django.test import Client
from django.urls import reverse

from accounts.models import User
from backgammon.errors import Forbidden, InvalidAction
from matches import chat
from matches.models import Game, GameMessage
from notifications import delivery, inbox
from notifications.models import Notification
from tests.matches.api_helpers import token_client
from tests.matches.clock_helpers import NOW, start_game

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
Status = Notification.Status


@pytest.fixture
def game(monkeypatch: pytest.MonkeyPatch, player: User, opponent: User) -> Game:
    game = start_game(monkeypatch, player, opponent)
    mail.outbox.clear()
    return game


def write(game: Game, author: User, text: str = "hello", *, minutes: int = 0) -> GameMessage:
    now = NOW + timedelta(minutes=minutes)
    return chat.game_message_post(game_id=game.pk, author=author, text=text, now=now)


def message_rows(user: User) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user, kind=Kind.MESSAGE_RECEIVED))


def test_a_message_emails_the_opponent_once_without_quoting_it(
    game: Game, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        write(game, player, "Meet me at the bar")
    [row] = message_rows(opponent)
    row.refresh_from_db()
    assert row.status == Status.SENT and row.delivery == Notification.Delivery.EMAIL
    assert row.payload == {"opponent": "Alice"} and row.game_id == game.pk
    [email] = mail.outbox
    assert email.to == [opponent.email]
    assert email.subject == "Backgammon: New message"
    assert "Alice sent you a message in your game." in email.body
    assert f"/games/{game.pk}/#messages" in email.body
    assert "Meet me at the bar" not in email.body + email.alternatives[0][0]
    assert message_rows(player) == []


@pytest.mark.parametrize(
    ("language", "subject", "text"),
    [
        ("es", "Backgammon: Nuevo mensaje", "Alice te ha enviado un mensaje en tu partida."),
        ("ca", "Backgammon: Missatge nou", "Alice t'ha enviat un missatge a la teva partida."),
    ],
)
def test_the_email_is_in_the_recipients_language(
    game: Game,
    player: User,
    opponent: User,
    django_capture_on_commit_callbacks,
    language: str,
    subject: str,
    text: str,
) -> None:
    opponent.language = language
    opponent.save(update_fields=["language"])
    with django_capture_on_commit_callbacks(execute=True):
        write(game, player)
    [email] = mail.outbox
    assert email.subject == subject
    assert email.body.startswith("Hola, Bob:")
    assert text in email.body and text in email.alternatives[0][0].replace("&#x27;", "'")


def test_ten_messages_in_a_row_give_one_notice(
    game: Game, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(10):
            write(game, player, f"message {i}", minutes=i)
    assert len(message_rows(opponent)) == 1
    assert len(mail.outbox) == 1
    assert GameMessage.objects.count() == 10


def test_reading_the_notice_lets_the_next_message_notify(
    game: Game, player: User, opponent: User
) -> None:
    write(game, player)
    write(game, player, minutes=1)
    inbox.notifications_mark_read(user=opponent, now=NOW + timedelta(minutes=2))
    write(game, player, minutes=3)
    write(game, player, minutes=4)
    rows = sorted(message_rows(opponent), key=lambda r: r.created_at)
    assert [r.read_at is None for r in rows] == [False, True]


def test_an_answer_rearms_the_notice_for_both_players(
    game: Game, player: User, opponent: User
) -> None:
    write(game, player)  # Bob is told
    write(game, opponent, minutes=1)  # Alice is told; Bob answered, unread or not
    write(game, player, minutes=2)  # so Bob is told again
    write(game, player, minutes=3)  # but not a third time
    assert len(message_rows(opponent)) == 2
    assert len(message_rows(player)) == 1


def test_each_game_has_its_own_notice(
    monkeypatch: pytest.MonkeyPatch, game: Game, player: User, opponent: User
) -> None:
    other = start_game(monkeypatch, player, opponent)
    write(game, player)
    write(other, player)
    write(game, player, minutes=1)
    assert sorted(r.game_id for r in message_rows(opponent)) == sorted([game.pk, other.pk])


def test_a_refused_message_notifies_nobody(game: Game, player: User, outsider: User) -> None:
    with pytest.raises(Forbidden):
        write(game, outsider)
    with pytest.raises(InvalidAction):
        write(game, player, "   ")
    assert not Notification.objects.filter(kind=Kind.MESSAGE_RECEIVED).exists()


def test_the_notice_is_written_in_the_messages_transaction(
    game: Game, player: User, opponent: User
) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        write(game, player)
        assert len(message_rows(opponent)) == 1
        raise RuntimeError("the request failed later")
    assert message_rows(opponent) == [] and not GameMessage.objects.exists()


def test_a_player_who_wants_no_email_gets_none_but_sees_the_list(
    game: Game, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    opponent.notify = User.Notify.NONE
    opponent.save(update_fields=["notify"])
    with django_capture_on_commit_callbacks(execute=True):
        write(game, player)
    assert mail.outbox == []
    [row] = message_rows(opponent)
    assert (row.delivery, row.status) == (Notification.Delivery.NONE, Status.SKIPPED)
    client = Client()
    client.force_login(opponent)
    page = client.get(reverse("notifications")).content.decode()
    assert "Alice sent you a message in your game." in page
    assert f'href="/games/{game.pk}/#messages"' in page


def test_digest_players_get_one_line_for_a_burst(
    game: Game, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    opponent.notify = User.Notify.DIGEST
    opponent.digest_hour = 8
    opponent.time_zone = "Europe/Madrid"  # 08:00 there is 07:00 UTC in March
    opponent.language = "es"
    opponent.save()
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(5):
            write(game, player, minutes=i)
    assert mail.outbox == []
    [row] = message_rows(opponent)
    assert (row.delivery, row.status) == (Notification.Delivery.DIGEST, Status.PENDING)
    assert delivery.digests_send(now=NOW.replace(hour=7) + timedelta(days=1)) == 1
    [digest] = mail.outbox
    assert digest.body.count("Alice te ha enviado un mensaje en tu partida.") == 1
    row.refresh_from_db()
    assert row.status == Status.SENT


# --------------------------------------------------------------------------- reading the chat


def page_client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_viewing_the_game_page_reads_the_notice_and_the_next_message_notifies(
    game: Game, player: User, opponent: User
) -> None:
    write(game, player)
    write(game, player, minutes=1)  # same burst: still one notice
    assert page_client(opponent).get(reverse("game_detail", args=[game.pk])).status_code == 200
    [row] = message_rows(opponent)
    assert row.read_at is not None
    write(game, player, minutes=2)  # Bob has read the chat without answering: told again
    write(game, player, minutes=3)  # but once per burst
    rows = sorted(message_rows(opponent), key=lambda r: r.created_at)
    assert [r.read_at is None for r in rows] == [False, True]


def test_reading_the_chat_through_the_api_reads_the_notice(
    game: Game, player: User, opponent: User
) -> None:
    write(game, player)
    response = token_client(opponent).get(f"/api/games/{game.pk}/messages")
    assert response.status_code == 200 and len(response.json()) == 1
    [row] = message_rows(opponent)
    assert row.read_at is not None
    write(game, player, minutes=1)
    assert [r.read_at is None for r in message_rows(opponent)].count(True) == 1


def test_a_spectator_viewing_the_game_changes_nothing(
    game: Game, player: User, opponent: User, outsider: User
) -> None:
    write(game, player)
    write(game, opponent, minutes=1)
    assert page_client(outsider).get(reverse("game_detail", args=[game.pk])).status_code == 200
    assert Client().get(reverse("game_detail", args=[game.pk])).status_code == 200
    assert token_client(outsider).get(f"/api/games/{game.pk}/messages").status_code == 403
    # (Only the challenge is read: bob answered it.)
    read = Notification.objects.exclude(read_at=None)
    assert not read.exclude(kind=Kind.CHALLENGE_RECEIVED).exists()
    assert len(message_rows(player)) == len(message_rows(opponent)) == 1


def test_a_player_reading_the_chat_leaves_the_opponents_notices_and_other_games_alone(
    monkeypatch: pytest.MonkeyPatch, game: Game, player: User, opponent: User
) -> None:
    other = start_game(monkeypatch, player, opponent)
    write(game, player)  # Bob is told
    write(game, opponent, minutes=1)  # Alice is told
    write(other, player, minutes=2)  # Bob is told about the other game
    page_client(opponent).get(reverse("game_detail", args=[game.pk]))
    token_client(opponent).get(f"/api/games/{game.pk}/messages")
    read_rows = Notification.objects.exclude(read_at=None).exclude(kind=Kind.CHALLENGE_RECEIVED)
    read = {(r.recipient_id, r.game_id) for r in read_rows}
    assert read == {(opponent.pk, game.pk)}
    [alices] = message_rows(player)
    assert alices.read_at is None and alices.game_id == game.pk
    # Bob's other notices (the challenge accepted, his turn) are not the chat's to read
    # (the challenge he received was read as he accepted it).
    assert (
        not Notification.objects.filter(recipient=opponent, read_at__isnull=False)
        .exclude(kind__in=[Kind.MESSAGE_RECEIVED, Kind.CHALLENGE_RECEIVED])
        .exists()
    )
