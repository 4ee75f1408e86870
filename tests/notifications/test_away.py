"""A player on the site is not e-mailed what the site is showing them.

The notices of a game they play wait in the outbox while they are on the site (a request
in the last ``NOTIFY_AWAY_AFTER_SECONDS``), and go out once they have been away that
long, if still unread and, for a turn, still theirs. A game that waits for them is one
entry, refreshed by each turn, and e-mailed at most once while they stay away.
"""

from __future__ import annotations

import random
from collections import Counter
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from accounts.services import SEEN_EVERY, user_mark_seen
from bots import services as bot_services
from challenges import services as challenge_services
from gammon import SeededDice
from matches import record, turns
from matches.bots import bot_act
from matches.models import Game, Match
from matches.selectors import game_plays
from notifications import delivery, outbox
from notifications import tasks as notification_tasks
from notifications.delivery import notification_deliver
from notifications.inbox import (
    notifications_mark_game_read,
    notifications_turn_over,
    notifications_unread_count,
)
from notifications.models import Notification
from tests.matches.api_helpers import scripted_dice
from tests.matches.clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db
Kind = Notification.Kind
Status = Notification.Status
AWAY = timedelta(minutes=5)


@pytest.fixture(autouse=True)
def away_after(settings: Any) -> None:
    settings.NOTIFY_AWAY_AFTER_SECONDS = int(AWAY.total_seconds())


def seen(user: User, at: datetime) -> None:
    """``user`` made a request at ``at`` (what the activity middleware records)."""
    User.objects.filter(pk=user.pk).update(seen_at=at)
    user.seen_at = at


def sweep(now: datetime) -> list[str]:
    """Run the sweeper at ``now``, delivering each row it hands on at once: the outcomes."""
    outcomes: list[str] = []

    def send(pk: int) -> bool:
        outcomes.append(notification_deliver(notification_id=pk, now=now))
        return True

    delivery.notifications_sweep(now=now, send=send)
    return outcomes


def emails(user: User, kind: str | None = None) -> list[Any]:
    """The e-mails ``user`` received (of one kind of notice)."""
    rows = Notification.objects.filter(recipient=user)
    if kind is not None:
        rows = rows.filter(kind=kind)
    ids = {str(pk) for pk in rows.values_list("pk", flat=True)}
    return [
        m
        for m in mail.outbox
        if m.to == [user.email] and m.extra_headers.get("X-Notification") in ids
    ]


def test_a_turn_for_a_player_on_the_site_waits_until_they_are_away(
    monkeypatch, player: User, opponent: User, django_capture_on_commit_callbacks
) -> None:
    game = start_game(monkeypatch, player, opponent)
    Notification.objects.update(status=Status.SENT)  # the challenge: told already
    seen(opponent, NOW - timedelta(minutes=1))
    mail.outbox.clear()
    queued: list[object] = []
    monkeypatch.setattr(
        notification_tasks.email_deliver, "apply_async", lambda args, **kw: queued.append(args)
    )
    with django_capture_on_commit_callbacks(execute=True):
        white_opens(monkeypatch, game, player, NOW)
    assert queued == []  # no delivery task: the row waits for the sweeper
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert (row.status, row.delivery) == (Status.PENDING, "email")
    assert row.next_attempt_at == NOW - timedelta(minutes=1) + AWAY
    assert mail.outbox == []
    assert sweep(NOW + timedelta(minutes=3)) == []  # not due
    assert sweep(NOW + timedelta(minutes=4)) == ["sent"]
    assert len(emails(opponent, Kind.YOUR_TURN)) == 1
    assert sweep(NOW + timedelta(hours=1)) == []


def test_a_player_still_on_the_site_when_it_is_due_is_held_again(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent)
    Notification.objects.update(status=Status.SENT)
    seen(opponent, NOW)
    white_opens(monkeypatch, game, player, NOW)
    seen(opponent, NOW + timedelta(minutes=4))  # still browsing the site
    assert sweep(NOW + AWAY) == ["held"]
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert (row.status, row.attempts) == (Status.PENDING, 0)
    assert row.next_attempt_at == NOW + timedelta(minutes=4) + AWAY
    assert sweep(NOW + timedelta(minutes=8)) == []
    assert sweep(NOW + timedelta(minutes=9)) == ["sent"]
    assert len(emails(opponent)) == 1


def test_a_held_notice_read_or_played_meanwhile_is_not_emailed(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent)
    other = start_game(monkeypatch, player, opponent)
    Notification.objects.update(status=Status.SENT)  # the challenges: told already
    seen(opponent, NOW)
    seen(player, NOW)
    white_opens(monkeypatch, game, player, NOW)
    notifications_mark_game_read(user=opponent, game=game, now=NOW)  # he opened its page
    white_opens(monkeypatch, other, player, NOW)
    other.refresh_from_db()
    monkeypatch.setattr(record, "dice", SeededDice(1))
    turns.game_roll(game_id=other.pk, player=opponent, expected_ply=other.ply, now=NOW)
    other.refresh_from_db()
    play = game_plays(other)[0]  # he played his turn: the notice of it is out of date
    turns.game_play_move(
        game_id=other.pk, player=opponent, play_text=str(play), expected_ply=other.ply, now=NOW
    )
    assert Counter(sweep(NOW + timedelta(hours=1))) == {"not-owed": 2, "sent": 1}
    assert emails(opponent) == []
    [email] = emails(player)  # alice's turn in the other game, still hers and unread
    row = Notification.objects.get(recipient=player, game=other, kind=Kind.YOUR_TURN)
    assert email.extra_headers["X-Notification"] == str(row.pk)


def test_turns_of_one_game_refresh_one_row_and_email_once_while_away(
    monkeypatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent)
    Notification.objects.update(status=Status.SENT)
    white_opens(monkeypatch, game, player, NOW)  # bob is away: e-mailed at once
    game.refresh_from_db()
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert notification_deliver(notification_id=row.pk, now=NOW) == "sent"
    # His turn comes again, and he has not been back: the entry is refreshed, not e-mailed.
    later = NOW + timedelta(hours=2)
    outbox.notify(
        recipient=opponent, kind=Kind.YOUR_TURN, now=later, game=game, payload={"opponent": "X"}
    )
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert (row.created_at, row.status, row.payload) == (later, Status.SENT, {"opponent": "X"})
    assert notifications_unread_count(opponent) == 1  # this game
    # He came back, looked at other pages, and left: the next turn owes an e-mail again.
    seen(opponent, later + timedelta(minutes=1))
    again = later + timedelta(hours=1)
    outbox.notify(recipient=opponent, kind=Kind.YOUR_TURN, now=again, game=game)
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert (row.status, row.attempts, row.next_attempt_at) == (
        Status.PENDING, 0, again + outbox.SWEEP_GRACE,
    )  # fmt: skip
    assert notification_deliver(notification_id=row.pk, now=again) == "sent"
    assert len(emails(opponent, Kind.YOUR_TURN)) == 2
    # Away again, his turns pass by themselves (no legal play) and come back: each is a
    # new entry (the last one's turn is over), and none is e-mailed.
    for hours in (2, 3):
        notifications_turn_over(games=[game], user=opponent, now=again + timedelta(hours=hours))
        outbox.notify(
            recipient=opponent, kind=Kind.YOUR_TURN, now=again + timedelta(hours=hours), game=game
        )
    rows = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN).order_by("pk")
    assert [(r.status, r.read_at is None) for r in rows] == [
        (Status.SENT, False), (Status.SKIPPED, False), (Status.SKIPPED, True),
    ]  # fmt: skip
    assert sweep(again + timedelta(days=1)) == []
    assert len(emails(opponent, Kind.YOUR_TURN)) == 2


def test_away_after_zero_emails_at_once(
    monkeypatch, settings: Any, player: User, opponent: User
) -> None:
    settings.NOTIFY_AWAY_AFTER_SECONDS = 0
    game = start_game(monkeypatch, player, opponent)
    seen(opponent, NOW)
    white_opens(monkeypatch, game, player, NOW)
    [row] = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    assert row.next_attempt_at == NOW + outbox.SWEEP_GRACE
    assert notification_deliver(notification_id=row.pk, now=NOW) == "sent"


def test_a_request_records_the_player_once_a_minute(player: User) -> None:
    client = Client()
    client.force_login(player)
    assert player.seen_at is None
    before = timezone.now()
    assert client.get(reverse("dashboard")).status_code == 200
    player.refresh_from_db()
    assert player.seen_at is not None and player.seen_at >= before
    first = player.seen_at
    assert not user_mark_seen(user=player, now=first + SEEN_EVERY - timedelta(seconds=1))
    assert user_mark_seen(user=player, now=first + SEEN_EVERY)
    player.refresh_from_db()
    assert player.seen_at == first + SEEN_EVERY
    # The API's token is authenticated by the view: its requests count as much.
    from rest_framework.authtoken.models import Token

    User.objects.filter(pk=player.pk).update(seen_at=None)
    token = Token.objects.create(user=player)
    assert Client().get("/api/matches/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200
    player.refresh_from_db()
    assert player.seen_at is not None and player.seen_at >= before


# --------------------------------------------------------------------------- a match


def play_match_against_the_bot(
    person: User,
    bot_user: User,
    capture: Any,
    *,
    seed: int,
    leave_after: int | None = None,
) -> Match:
    """``person`` challenges the bot and plays as on the game page: each of their turns
    is a request (they are seen) that shows the game (its notices read), then an action.
    With ``leave_after``, they stop after that many actions, on their turn."""
    rng = random.Random(seed)
    now = timezone.now()
    user_mark_seen(user=person, now=now)
    with scripted_dice(SeededDice(seed)), capture(execute=True):
        challenge = challenge_services.challenge_create(
            challenger=person, opponent=bot_user, now=now, length=1
        )
    match = Match.objects.get(challenge=challenge)
    for action in range(2000):
        match.refresh_from_db()
        game = match.current_game
        if match.status != Match.Status.PLAYING or game is None:
            break
        assert match.player(game.turn_color) == person, "the bot left its turn unplayed"
        if action == leave_after:
            return match
        now = timezone.now()
        person.refresh_from_db()
        user_mark_seen(user=person, now=now)
        notifications_mark_game_read(user=person, game=game, now=now)
        with scripted_dice(SeededDice(rng.randrange(10**9))), capture(execute=True):
            bot_act(game, rng, now)
    # The page shows how it ended.
    for game in Game.objects.filter(match=match):
        notifications_mark_game_read(user=person, game=game, now=timezone.now())
    return match


@pytest.mark.gnubg
def test_a_match_against_the_bot_while_on_the_site_emails_nothing_and_away_once(
    player: User, django_capture_on_commit_callbacks: Any
) -> None:
    """The issue's afternoon: 52 "Your turn" e-mails in two 1-point matches, 45 in one
    minute, while the player was on the page. Now: none while they play, and one for
    the game they left on their turn."""
    bot = bot_services.bots_create()[0].user
    mail.outbox.clear()
    played = play_match_against_the_bot(player, bot, django_capture_on_commit_callbacks, seed=3)
    assert played.status == Match.Status.FINISHED
    assert emails(player) == []
    assert "sent" not in sweep(timezone.now() + timedelta(hours=1))  # nothing owed either
    assert emails(player) == []

    left = play_match_against_the_bot(
        player, bot, django_capture_on_commit_callbacks, seed=4, leave_after=3
    )
    assert left.status == Match.Status.PLAYING
    assert emails(player) == []
    now = timezone.now()
    assert "sent" not in sweep(now + timedelta(minutes=2))  # not away yet
    for minutes in (6, 30, 120, 600):
        sweep(now + timedelta(minutes=minutes))
    [email] = emails(player)
    assert email.subject == "Backgammon: Your turn"
    assert f"/games/{left.current_game.pk}/" in email.body


def chouette_box_may_double(monkeypatch: Any) -> Any:
    """ann (the box), bob (the captain) and cy: ann's turn to roll, and she may double."""
    from tests.chouettes.helpers import seat_table, start

    table = seat_table(monkeypatch, 3)
    start(table, 3, 1)
    table.move("ann", "8/5 6/5")
    table.roll((6, 5))
    table.roll_board("bob")
    table.move("bob", "24/13")
    return table


def test_a_chouette_answer_for_members_on_the_site_waits_and_is_owed_until_given(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """The box doubles while bob and cy are on the site: neither is e-mailed then. cy
    answers on the page; once both are away, bob, whose answer is still awaited, is
    e-mailed once, and cy nothing (a member is not one of the board's two players, so
    the page does not mark the notice read: the answer given does)."""
    from chouettes import decisions

    table = chouette_box_may_double(monkeypatch)
    bob, cy = table.users["bob"], table.users["cy"]
    now = table.tick()
    seen(bob, now)
    seen(cy, now)
    Notification.objects.update(status=Status.SENT)  # the turns before: told already
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        decisions.box_double(
            chouette_id=table.chouette.pk,
            user=table.users["ann"],
            expected_ply=table.board.ply,
            now=now,
        )
    rows = Notification.objects.filter(kind=Kind.CHOUETTE_ANSWER)
    assert {(r.recipient, r.status, r.next_attempt_at) for r in rows} == {
        (bob, Status.PENDING, now + AWAY),
        (cy, Status.PENDING, now + AWAY),
    }
    assert mail.outbox == []
    decisions.team_answer(
        chouette_id=table.chouette.pk,
        user=cy,
        take=True,
        expected_ply=table.board.ply,
        now=now + timedelta(minutes=1),
    )
    assert Counter(sweep(now + timedelta(hours=1))) == {"sent": 1, "not-owed": 1}
    assert emails(cy) == []
    assert len(emails(bob, Kind.CHOUETTE_ANSWER)) == 1


def test_a_chouette_game_settled_while_its_players_are_on_the_site_waits(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    """Both members drop the box's double while everyone is on the site: the game is
    settled, and nobody is e-mailed so until they have been away a while."""
    from chouettes import decisions

    table = chouette_box_may_double(monkeypatch)
    now = table.tick()
    for user in table.users.values():
        seen(user, now)
    decisions.box_double(
        chouette_id=table.chouette.pk,
        user=table.users["ann"],
        expected_ply=table.board.ply,
        now=now,
    )
    mail.outbox.clear()
    table.roll(4, 2)  # the next game's opening
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("bob", "cy"):
            decisions.team_answer(
                chouette_id=table.chouette.pk,
                user=table.users[name],
                take=False,
                expected_ply=table.board.ply,
                now=now,
            )
    settled = Notification.objects.filter(kind=Kind.CHOUETTE_SETTLED)
    assert settled.count() == 3
    assert {(r.status, r.next_attempt_at) for r in settled} == {(Status.PENDING, now + AWAY)}
    assert mail.outbox == []
    sweep(now + timedelta(hours=1))
    assert {m.to[0] for m in mail.outbox if "X-Notification" in m.extra_headers} >= {
        u.email for u in table.users.values()
    }
