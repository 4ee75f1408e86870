"""The lobby of live play (issue 28): the open seeks, posting one, accepting one (the
match starts for both at once: a push to each), the computer's seeks, and the online
marks on the directory and player pages."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from bots import services as bot_services
from challenges import services as challenge_services
from challenges.models import Challenge
from live import groups, push
from matches.models import Match
from tests import records

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def pushed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, dict[str, Any]]]:
    """The pushes sent (after the commit), instead of a channel layer."""
    sent: list[tuple[str, dict[str, Any]]] = []

    def record(group: str, event: dict[str, Any]) -> bool:
        sent.append((group, event))
        return True

    monkeypatch.setattr(push, "send", record)
    return sent


def seek(user: User, **options: Any) -> Challenge:
    options = {"length": 1, "live_delay": 11, "live_reserve": 90, **options}
    return challenge_services.challenge_create(challenger=user, now=timezone.now(), **options)


def test_the_lobby_lists_the_open_live_seeks_only(player: User, opponent: User) -> None:
    live = seek(player, length=3)
    seek(opponent, validity=timedelta(seconds=-1))  # lapsed
    challenge_services.challenge_create(challenger=opponent, now=timezone.now())  # by days
    page = Client().get(reverse("lobby")).content.decode()
    assert f'id="seek-{live.pk}"' in page and page.count('id="seek-') == 1
    assert "3 points" in page and "11 s + 90 s" in page and "Standard" in page
    assert "1500" in page  # the seeker's rating
    assert "Sign in to play" in page


def test_posting_a_seek_lists_it_and_tells_the_lobby(
    player: User, pushed: list[tuple[str, dict[str, Any]]], django_capture_on_commit_callbacks: Any
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(player).post(
            reverse("lobby"), {"length": 1, "clock": "11+90", "variant": "standard", "rated": "on"}
        )
    assert response.status_code == 302
    made = Challenge.objects.get(challenger=player)
    assert (made.live_delay, made.live_reserve, made.opponent) == (11, 90, None)
    assert made.expires_at - made.created_at == challenge_services.LIVE_SEEK_VALIDITY
    assert (groups.LOBBY, {"kind": "lobby"}) in pushed
    mine = client_for(player).get(reverse("lobby")).content.decode()
    assert f'data-mine="{made.pk}"' in mine and "Withdraw" in mine


def test_a_seek_without_a_clock_is_refused_on_the_form(player: User) -> None:
    response = client_for(player).post(reverse("lobby"), {"length": 1, "variant": "standard"})
    assert response.status_code == 400
    assert not Challenge.objects.exists()


def test_accepting_a_seek_starts_the_match_for_both_at_once(
    player: User,
    opponent: User,
    pushed: list[tuple[str, dict[str, Any]]],
    django_capture_on_commit_callbacks: Any,
) -> None:
    made = seek(player, length=3, timeout_loses_match=True)
    with django_capture_on_commit_callbacks(execute=True):
        response = client_for(opponent).post(reverse("challenge_accept", args=[made.pk]))
    match = Match.objects.get()
    game = match.current_game
    assert game is not None
    assert response.status_code == 302 and response["Location"] == game.get_absolute_url()
    assert match.is_live and match.live_delay == 11 and match.timeout_loses_match
    assert (match.bank_white, match.bank_black) == (timedelta(seconds=90),) * 2
    started = {"kind": "match_started", "game": game.pk, "url": game.get_absolute_url()}
    assert (groups.user(player.pk), started) in pushed
    assert (groups.user(opponent.pk), started) in pushed
    assert (groups.LOBBY, {"kind": "lobby"}) in pushed
    # Without a socket, the seeker's page learns it from its poll.
    state = client_for(player).get(reverse("lobby_state"), {"seeks": str(made.pk)}).json()
    assert state["started"] == game.get_absolute_url() and state["stamp"] == ""
    other = client_for(opponent).get(reverse("lobby_state"), {"seeks": str(made.pk)}).json()
    assert other["started"] is None  # not theirs to be told of here


def test_the_computer_accepts_a_live_seek_at_once(
    player: User, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    program = tmp_path / "gnubg"
    program.touch()  # gnubg "installed": the bot's turns are queued after the commit
    monkeypatch.setenv("GNUBG", str(program))
    bot = bot_services.bots_create()[0]
    response = client_for(player).post(
        reverse("lobby"),
        {"length": 1, "clock": "11+90", "variant": "standard", "computer": bot.user.username},
    )
    match = Match.objects.get()
    assert match.is_live and bot.user.pk in (match.white_id, match.black_id)
    game = match.current_game
    assert game is not None and response["Location"] == game.get_absolute_url()


def test_players_on_the_site_are_marked_online(player: User, opponent: User) -> None:
    now = timezone.now()
    User.objects.filter(pk=player.pk).update(seen_at=now - timedelta(minutes=1))
    User.objects.filter(pk=opponent.pk).update(seen_at=now - timedelta(hours=1))
    directory = Client().get(reverse("player_list")).content.decode()
    assert directory.count('class="online-dot"') == 1
    page = Client().get(reverse("player_detail", args=[player.username])).content.decode()
    assert 'class="online-dot"' in page
    away = Client().get(reverse("player_detail", args=[opponent.username])).content.decode()
    assert 'class="online-dot"' not in away


def test_a_seek_with_a_rating_range_is_refused_to_a_player_outside_it(
    player: User, opponent: User, outsider: User
) -> None:
    from stats.models import PlayerStats

    PlayerStats.objects.update_or_create(player=outsider, defaults={"rating": 1720.0})
    records.rating_set_by_hand(outsider.pk)
    response = client_for(player).post(
        reverse("lobby"),
        {
            "length": 1,
            "clock": "11+90",
            "variant": "standard",
            "rating_min": 1400,
            "rating_max": 1600,
        },
    )
    assert response.status_code == 302
    made = Challenge.objects.get(challenger=player)
    assert (made.rating_min, made.rating_max) == (1400, 1600)
    assert "1400–1600" in Client().get(reverse("lobby")).content.decode()
    outsider.language = "es"
    outsider.save(update_fields=["language"])
    refused = client_for(outsider).post(reverse("challenge_accept", args=[made.pk]))
    assert refused.status_code == 403
    assert "1720" in refused.content.decode() and "puntuación" in refused.content.decode()
    accepted = client_for(opponent).post(reverse("challenge_accept", args=[made.pk]))
    assert accepted.status_code == 302  # 1500, the starting rating: within


def test_a_rating_range_upside_down_is_refused(player: User) -> None:
    response = client_for(player).post(
        reverse("lobby"),
        {
            "length": 1,
            "clock": "11+90",
            "variant": "standard",
            "rating_min": 1600,
            "rating_max": 1400,
        },
    )
    assert response.status_code == 400
    assert "lowest rating" in response.content.decode()
