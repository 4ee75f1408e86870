"""The in-site notifications: one entry per game and kind, read once the game is opened,
and the nav's badge counting the games that wait for the player."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from gammon import SeededDice
from matches import record
from matches.bots import bot_act
from matches.models import Game
from notifications.inbox import notifications_unread_count
from notifications.models import Notification
from tests.matches.clock_helpers import NOW, start_game

pytestmark = pytest.mark.django_db
Kind = Notification.Kind


def play_turns(monkeypatch: pytest.MonkeyPatch, game: Game, turns: int) -> Game:
    """Bots play ``turns`` whole turns (a roll where one is needed, then the move)."""
    monkeypatch.setattr(record, "dice", SeededDice(4))
    rng = random.Random(4)
    for i in range(turns):
        game.refresh_from_db()
        mover = game.turn
        while game.turn == mover and not game.is_finished:
            game = bot_act(game, rng, NOW + timedelta(minutes=i))
    return game


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_many_turns_of_one_game_are_one_unread_entry(monkeypatch, player, opponent) -> None:
    game = start_game(monkeypatch, player, opponent)
    play_turns(monkeypatch, game, 5)  # odd: bob is on turn, his third
    your_turns = Notification.objects.filter(recipient=opponent, kind=Kind.YOUR_TURN)
    # Each turn he played is read (it is over), so only the one he is on is news.
    [unread] = your_turns.filter(read_at=None)
    assert unread.created_at == NOW + timedelta(minutes=4)
    assert your_turns.count() >= 3  # one row per turn: each may owe an e-mail
    # The challenge he answered is read too: the badge counts this game only.
    assert notifications_unread_count(opponent) == 1
    page = logged_in(opponent).get(reverse("notifications"))
    assert page.status_code == 200
    entries = [i for i in page.context["items"] if i["row"].kind == Kind.YOUR_TURN]
    assert [e["row"].pk for e in entries] == [unread.pk]


def test_rows_written_at_one_instant_are_one_entry(monkeypatch, player, opponent) -> None:
    """The demo plays its games at one ``now``: twenty rows of one game and kind, written
    at the same instant, are still one entry (the last written)."""
    game = start_game(monkeypatch, player, opponent)
    Notification.objects.all().delete()
    rows = Notification.objects.bulk_create(
        Notification(
            recipient=opponent,
            kind=Kind.TIMEOUT_WARNING,
            game=game,
            delivery="none",
            status="skipped",
            next_attempt_at=NOW,
            created_at=NOW,
        )  # fmt: skip
        for _ in range(20)
    )
    assert notifications_unread_count(opponent) == 1
    page = logged_in(opponent).get(reverse("notifications"))
    assert [i["row"].pk for i in page.context["items"]] == [rows[-1].pk]


def test_opening_the_game_marks_its_notices_read(monkeypatch, player, opponent) -> None:
    game = start_game(monkeypatch, player, opponent)
    game = play_turns(monkeypatch, game, 1)  # alice moved: bob is on turn
    other = start_game(monkeypatch, player, opponent)
    play_turns(monkeypatch, other, 1)
    unread_before = Notification.objects.filter(recipient=opponent, read_at=None)
    assert unread_before.filter(game=game).exists() and unread_before.filter(game=other).exists()
    assert logged_in(opponent).get(reverse("game_detail", args=[game.pk])).status_code == 200
    unread = Notification.objects.filter(recipient=opponent, read_at=None)
    assert not unread.filter(game=game).exists()
    assert unread.filter(game=other).exists()  # another game's notices stay new


def test_a_spectator_opening_the_game_reads_nothing(monkeypatch, player, opponent, outsider):
    game = start_game(monkeypatch, player, opponent)
    play_turns(monkeypatch, game, 1)
    unread = Notification.objects.filter(read_at=None).count()
    assert logged_in(outsider).get(reverse("game_detail", args=[game.pk])).status_code == 200
    assert Notification.objects.filter(read_at=None).count() == unread


def test_the_badge_counts_games_waiting_not_events(monkeypatch, player, opponent) -> None:
    first = start_game(monkeypatch, player, opponent)
    play_turns(monkeypatch, first, 5)  # odd: bob is on turn
    second = start_game(monkeypatch, player, opponent)
    play_turns(monkeypatch, second, 1)
    first.refresh_from_db()
    second.refresh_from_db()
    assert first.turn == second.turn == 1  # both wait for bob
    page = logged_in(opponent).get(reverse("challenge_list")).content.decode()
    assert 'aria-label="2 games waiting for you">2</span>' in page
    page = logged_in(player).get(reverse("challenge_list")).content.decode()
    assert "waiting for you" not in page


def test_a_refused_action_reads_nothing(monkeypatch, player, opponent) -> None:
    """A POST the game refuses shows the page again, and must change nothing: the
    player's notices stay unread."""
    game = start_game(monkeypatch, player, opponent)
    game = play_turns(monkeypatch, game, 1)  # bob is on turn
    unread = set(Notification.objects.filter(recipient=player, read_at=None).values_list("pk"))
    assert unread
    response = logged_in(player).post(
        reverse("game_detail", args=[game.pk]), {"action": "roll", "ply": game.ply}
    )
    assert response.status_code == 403  # not alice's turn
    after = set(Notification.objects.filter(recipient=player, read_at=None).values_list("pk"))
    assert after == unread
