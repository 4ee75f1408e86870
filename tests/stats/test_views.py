"""The statistics pages, in English and Spanish, and the player page's record."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from accounts.models import User
from stats.models import Counter, PlayerStats
from tests.factories import UserFactory
from tests.stats.helpers import match_resign, match_start

pytestmark = pytest.mark.django_db


@pytest.fixture
def issue_counts() -> None:
    """The counts of the issue's example."""
    for key, count in (
        ("game:standard:white", 1046272),
        ("game:standard:black", 1047196),
        ("game:standard:draw", 1063),
    ):
        Counter.objects.create(key=key, count=count)


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def test_the_stats_page_shows_the_issues_format_in_english(client: Client, issue_counts) -> None:
    page = text(client.get("/stats/", HTTP_ACCEPT_LANGUAGE="en").content.decode())
    assert "Finished game statistics" in page
    assert "White 1046272 (49.95 %)" in page
    assert "Black 1047196 (49.99 %)" in page
    assert "Draws 1063 (0.05 %)" in page


@pytest.mark.parametrize("language", ["es", "ca"])
def test_the_stats_page_uses_a_decimal_comma_in_spanish_and_catalan(
    client: Client, issue_counts, language: str
) -> None:
    page = text(client.get("/stats/", HTTP_ACCEPT_LANGUAGE=language).content.decode())
    assert "1046272 (49,95 %)" in page
    assert "1047196 (49,99 %)" in page
    assert "1063 (0,05 %)" in page
    assert "49.95" not in page


def test_the_spanish_page_is_translated(client: Client, issue_counts) -> None:
    page = text(client.get("/stats/", HTTP_ACCEPT_LANGUAGE="es").content.decode())
    assert "Estadísticas de partidas terminadas" in page
    assert "Blancas 1046272 (49,95 %)" in page


def test_the_leaderboard_is_paginated(client: Client) -> None:
    users = User.objects.bulk_create(User(username=f"ranked{i:02d}") for i in range(55))
    PlayerStats.objects.bulk_create(
        PlayerStats(player=user, rating=1500 + i, rated_matches=5) for i, user in enumerate(users)
    )
    UserFactory(username="unranked")
    first = client.get("/stats/leaderboard/").content.decode()
    assert "ranked54" in first and "ranked05" in first
    assert "ranked04" not in first
    assert "unranked" not in first
    second = client.get("/stats/leaderboard/?page=2").content.decode()
    assert "ranked04" in second and "ranked54" not in second


def test_the_dice_pages_render(client: Client, player: User, opponent: User) -> None:
    match_start(player, opponent, length=1)
    site = client.get("/stats/dice/")
    assert site.status_code == 200
    assert "6-5" in site.content.decode()
    mine = client.get(f"/stats/dice/{player.username}/")
    assert mine.status_code == 200
    assert client.get("/stats/dice/nobody/").status_code == 404


def test_the_player_page_shows_the_record_and_an_svg_chart(
    client: Client, player: User, opponent: User
) -> None:
    match_resign(match_start(player, opponent, length=1), opponent)
    page = client.get(f"/players/{player.username}/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "<svg" in page and "<polyline" in page
    # The chart is drawn by the server: the page's one script is every page's live link.
    assert re.findall(r"<script[^>]*>", page) == [
        '<script type="module" src="/static/js/live_page.js">'
    ]
    assert "1510,00" in page  # the rating, in the Spanish format
    points = re.search(r'points="([^"]+)"', page)
    assert points is not None and "," in points.group(1)
    assert all(re.fullmatch(r"[\d.]+,[\d.]+", p) for p in points.group(1).split())


@pytest.mark.parametrize(
    ("language", "month"), [("en", "Dec."), ("es", "de diciembre de"), ("ca", "de desembre de")]
)
def test_the_rating_charts_dates_are_written_as_the_readers_language_writes_them(
    client: Client, player: User, opponent: User, language: str, month: str
) -> None:
    """Issue 26: the chart's dates were numbers in the US order on every language."""
    from datetime import UTC, datetime

    finished = datetime(2026, 12, 6, 12, tzinfo=UTC)
    match_resign(match_start(player, opponent, length=1, now=finished), opponent, now=finished)
    page = client.get(f"/players/{player.username}/", HTTP_ACCEPT_LANGUAGE=language)
    chart = page.content.decode().split('class="rating-chart"')[1].split("</svg>")[0]
    dates = re.findall(r'<text[^>]*class="tick"[^>]*>([^<]*\D[^<]*\d{4})</text>', chart)
    assert len(dates) == 2 and all(month in d and "/" not in d for d in dates), dates


def test_a_player_without_rated_matches_has_no_chart(client: Client, player: User) -> None:
    page = client.get(f"/players/{player.username}/").content.decode()
    assert "<svg" not in page
    assert "1500.00" in page
