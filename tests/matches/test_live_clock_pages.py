"""The live clock through the API and the game page (issue 28): the clock shown, the
claim action offered once the clock has fallen, and refusals in the player's language."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from challenges import services as challenge_services
from matches.models import Game, Match
from tests.matches.api_helpers import token_client
from tests.matches.clock_helpers import NOW, start_game, white_opens

pytestmark = pytest.mark.django_db


def client_for(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def bob_on_turn(
    monkeypatch: pytest.MonkeyPatch, alice: User, bob: User, *, long_ago: bool, **options: Any
) -> Game:
    """A live 1-point match where alice has opened and bob is on turn: his clock started
    ``NOW`` (fallen long ago) or just now (11 s + 90 s left)."""
    now = NOW if long_ago else timezone.now()
    options = {"length": 1, "live_delay": 11, "live_reserve": 90, **options}
    game = start_game(monkeypatch, alice, bob, (3, 1), (6, 5), now=now, **options)
    return white_opens(monkeypatch, game, alice, now)


def test_a_live_challenge_is_made_and_shown_through_the_api(player: User) -> None:
    response = token_client(player).post(
        "/api/challenges/", {"length": 3, "live_delay": 11, "timeout_loses_match": True}, "json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert (body["live_delay"], body["live_reserve"], body["timeout_loses_match"]) == (11, 90, True)
    refused = token_client(player).post("/api/challenges/", {"live_delay": 0}, "json")
    assert refused.status_code == 400


def test_the_api_shows_the_live_clock_and_offers_the_claim_once_it_has_fallen(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=True)
    body = token_client(player).get(f"/api/games/{game.pk}/").json()
    live = body["clock"]["live"]
    assert live["delay_seconds"] == 11 and live["reserve_seconds"] == {"white": 90, "black": 90}
    assert live["fallen"] and live["time_left_seconds"] == 0
    assert "claim_time" in body["actions"]
    took = [(e["kind"], e["took_seconds"]) for e in body["events"] if e["took_seconds"] is not None]
    assert took == [("move", 0.0)]  # the record keeps the clock: alice moved at once
    assert (
        "claim_time" not in token_client(opponent).get(f"/api/games/{game.pk}/").json()["actions"]
    )
    response = token_client(player).post(
        f"/api/games/{game.pk}/claim-time", {"ply": body["ply"]}, "json"
    )
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["termination"] == "time_claim" and after["winner"] == "white"
    assert [e["kind"] for e in after["events"]] == ["timeout_claim", "win"]
    assert Match.objects.get(pk=game.match_id).status == Match.Status.FINISHED


def test_an_early_claim_is_refused_with_the_reason_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    player.language = "es"
    player.save(update_fields=["language"])
    body = token_client(player).get(f"/api/games/{game.pk}/").json()
    assert not body["clock"]["live"]["fallen"] and "claim_time" not in body["actions"]
    response = token_client(player).post(
        f"/api/games/{game.pk}/claim-time", {"ply": game.ply}, "json"
    )
    assert response.status_code == 409
    assert response.json()["code"] == "time_left"
    assert "tu rival" in response.json()["detail"]


def test_the_game_page_shows_the_clock_and_the_claim_button_to_the_opponent(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=True)
    page = client_for(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="live-clock"' in page and 'id="claim-time"' in page
    assert 'id="claim-time-form" hidden' not in page  # fallen: shown without script
    own = client_for(opponent).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="live-clock"' in own and 'id="claim-time"' not in own


def test_a_fresh_clock_hides_the_claim_button_until_it_falls(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    page = client_for(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="claim-time-form" hidden' in page
    left = re.search(r'data-time-left="([0-9.]+)"', page)
    assert left is not None and 60 < float(left.group(1)) <= 101  # the server's figure


def test_the_claim_button_ends_the_game_and_says_so(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=True)
    response = client_for(player).post(
        reverse("game_claim_time", args=[game.pk]), {"ply": game.ply}, follow=True
    )
    assert response.status_code == 200
    assert "ran out of time: you win the match" in response.content.decode()
    game.refresh_from_db()
    assert game.is_finished and game.winner == 0


def test_a_refused_claim_button_answers_409_in_the_players_language(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    opponent.language = "ca"
    opponent.save(update_fields=["language"])
    response = client_for(opponent).post(
        reverse("game_claim_time", args=[game.pk]), {"ply": game.ply}
    )
    assert response.status_code == 409
    assert "És el teu torn" in response.content.decode()
    stale = client_for(player).post(reverse("game_claim_time", args=[game.pk]), {"ply": 1})
    assert stale.status_code == 409
    assert Match.objects.get(pk=game.match_id).bank_black == timedelta(seconds=90)


def test_the_match_page_and_the_challenges_name_the_live_clock(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=True, length=3)
    page = Client().get(reverse("match_detail", args=[game.match_id])).content.decode()
    assert "live clock: 11 s a turn, then a 90 s reserve" in page
    challenge_services.challenge_create(
        challenger=opponent, now=timezone.now(), live_delay=8, live_reserve=60
    )
    challenges = client_for(player).get(reverse("challenge_list")).content.decode()
    assert "live clock: 8 s a turn, then a 60 s reserve" in challenges


def test_a_player_away_from_the_site_is_shown_away_and_their_clock_runs_on(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    User.objects.filter(pk=opponent.pk).update(seen_at=timezone.now() - timedelta(hours=1))
    page = client_for(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert 'id="live-clock-away-black"' in page  # bob has left
    assert 'id="live-clock-away-white"' not in page  # alice is here: this request


def test_the_clock_panel_marks_away_from_the_players_sockets_on_the_page(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User, outsider: User
) -> None:
    """Read from the cache (``matches.presence``): bob was on the site a moment ago, but no
    socket of his is open on the game's page, so he is away; alice, whose page is open,
    is here for a spectator."""
    from matches.presence import presence_arrive, presence_leave

    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    User.objects.filter(pk__in=[player.pk, opponent.pk]).update(seen_at=timezone.now())
    assert presence_arrive(game_id=game.pk, user_id=player.pk)
    assert presence_arrive(game_id=game.pk, user_id=opponent.pk)
    assert presence_leave(game_id=game.pk, user_id=opponent.pk)

    def away_marks(user: User) -> dict[str, bool]:
        """Each away mark in the page: whether it shows (not ``hidden``)."""
        page = client_for(user).get(reverse("game_detail", args=[game.pk])).content.decode()
        marks = re.findall(r'<span class="muted away" id="live-clock-away-(\w+)"([^>]*)>', page)
        return {side: " hidden" not in rest for side, rest in marks}

    assert away_marks(player) == {"black": True}  # hers: none; his shows
    assert away_marks(outsider) == {"white": False, "black": True}
    presence_arrive(game_id=game.pk, user_id=opponent.pk)  # he comes back
    assert away_marks(player) == {"black": False}


def test_without_the_cache_the_away_mark_falls_back_on_seen_at(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    """The cache emptied (as Redis down answers): bob, seen a moment ago, is not marked."""
    from django.core.cache import cache

    from matches.presence import presence_arrive

    game = bob_on_turn(monkeypatch, player, opponent, long_ago=False)
    presence_arrive(game_id=game.pk, user_id=player.pk)
    cache.clear()
    User.objects.filter(pk=opponent.pk).update(seen_at=timezone.now())
    page = client_for(player).get(reverse("game_detail", args=[game.pk])).content.decode()
    assert re.search(r'id="live-clock-away-black" data-player="\d+" hidden>', page)
