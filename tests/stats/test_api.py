"""The read-only statistics API: public, exact, and in the OpenAPI schema."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from stats.models import Counter, PlayerStats
from tests.stats.helpers import count_dice, match_resign, match_start

pytestmark = pytest.mark.django_db


def test_site_stats_are_public_with_exact_percentages(client: Client) -> None:
    Counter.objects.create(key="game:standard:white", count=2)
    Counter.objects.create(key="game:nackgammon:black", count=1)
    data = client.get("/api/stats/").json()
    assert data["games"]["all"] == {
        "white": 2,
        "black": 1,
        "draw": 0,
        "total": 3,
        "white_pct": "66.66",
        "black_pct": "33.33",
        "draw_pct": "0.00",
    }
    assert data["games"]["nackgammon"]["total"] == 1
    assert data["matches"]["all"]["total"] == 0
    assert set(data["terminations"]) >= {"single", "gammon", "backgammon", "drop", "resign"}


def test_one_variant_and_an_unknown_one(client: Client) -> None:
    data = client.get("/api/stats/variants/hypergammon/").json()
    assert data["variant"] == "hypergammon"
    assert data["games"]["total"] == 0
    assert client.get("/api/stats/variants/chess/").status_code == 404


def test_a_players_record_and_rating(client: Client, player: User, opponent: User) -> None:
    match_resign(match_start(player, opponent, length=1), opponent)
    data = client.get(f"/api/stats/players/{player.username}/").json()
    assert data["username"] == "alice"
    assert data["rating"] == 1510.0
    assert data["matches"]["total"] == {"played": 1, "won": 1, "lost": 0, "drawn": 0}
    assert [point["rating"] for point in data["history"]] == [1510.0]
    assert client.get("/api/stats/players/nobody/").status_code == 404


def test_the_leaderboard_is_paginated(client: Client, player: User) -> None:
    PlayerStats.objects.create(player=player, rating=1600, rated_matches=5)
    data = client.get("/api/stats/leaderboard/").json()
    assert data["count"] == 1
    assert data["results"][0]["username"] == "alice"


def test_dice_for_the_site_and_a_player(client: Client, player: User, opponent: User) -> None:
    match_start(player, opponent, length=1)
    count_dice()
    site = client.get("/api/stats/dice/").json()
    assert len(site["rolls"]) == 21
    assert set(site["faces"]) == {"1", "2", "3", "4", "5", "6"}
    assert sum(site["faces"].values()) >= 2
    assert site["rolls_test"]["degrees_of_freedom"] == 20
    mine = client.get(f"/api/stats/dice/{player.username}/").json()
    assert sum(mine["faces"].values()) >= 1


def test_every_endpoint_is_in_the_schema(client: Client) -> None:
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    for path in (
        "/api/stats/",
        "/api/stats/variants/{variant}/",
        "/api/stats/players/{username}/",
        "/api/stats/leaderboard/",
        "/api/stats/dice/",
        "/api/stats/dice/{username}/",
    ):
        assert set(schema["paths"][path]) == {"get"}
