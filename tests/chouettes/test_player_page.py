"""A player's chouettes on their public page: chouettes, games and points, and the list."""

from __future__ import annotations

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.test.utils import override_settings
from django.urls import NoReverseMatch, include, path, reverse

from chouettes import seating as chouette_seating
from chouettes.selectors import player_record
from tests.factories import UserFactory

from .helpers import Table, box_doubles, seat_table

pytestmark = pytest.mark.django_db


def _page(request: HttpRequest, pk: int) -> HttpResponse:
    return HttpResponse()


def _site_urls() -> list[object]:
    """The site's URLs, with a stand-in chouette page until the site has its own."""
    patterns: list[object] = [path("", include("backgammon.urls"))]
    try:
        reverse("chouette_detail", args=[1])
    except NoReverseMatch:
        patterns.append(path("chouette-page/<int:pk>/", _page, name="chouette_detail"))
    return patterns


urlpatterns = _site_urls()


def every_member_drops(table: Table) -> None:
    """ann (the box) doubles; bob and cy drop: ann +2, bob -1, cy -1; game 2 starts."""
    box_doubles(table)
    table.act("team_answer", "cy", take=False)
    table.roll(2, 5)
    table.act("team_answer", "bob", take=False)


@override_settings(ROOT_URLCONF=__name__)
def test_the_player_page_shows_chouettes_games_and_points(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    table = seat_table(monkeypatch, 3)
    every_member_drops(table)
    assert player_record(table.users["bob"]).points == table.points()["bob"] == -1

    page = client.get(reverse("player_detail", args=["bob"])).content.decode()
    assert "1 chouette " in page.replace("\n", " ") and "1 chouette game" in page
    assert "Points in all: -1" in page
    chouette = table.chouette
    assert f'<a href="{chouette.get_absolute_url()}">Chouette #{chouette.pk}</a>' in page

    box = client.get(reverse("player_detail", args=["ann"])).content.decode()
    assert "Points in all: +2" in box


@override_settings(ROOT_URLCONF=__name__)
def test_a_leaver_keeps_their_points_and_an_invitation_is_not_listed(
    monkeypatch: pytest.MonkeyPatch, client: Client
) -> None:
    table = seat_table(monkeypatch, 4)
    chouette_seating.chouette_leave(
        chouette_id=table.chouette.pk, user=table.users["di"], now=table.tick()
    )  # before the start: at once, no games
    zoe = UserFactory(username="zoe")
    chouette_seating.chouette_invite(
        chouette_id=table.chouette.pk, user=table.users["ann"], players=[zoe], now=table.tick()
    )
    assert player_record(zoe).chouettes == 0
    page = client.get(reverse("player_detail", args=["zoe"])).content.decode()
    assert "player-chouettes" not in page
    left = client.get(reverse("player_detail", args=["di"])).content.decode()
    assert "Points in all: +0" in left and "(left)" in left


def test_every_seat_counts_in_the_record(monkeypatch: pytest.MonkeyPatch) -> None:
    first = seat_table(monkeypatch, 3)
    every_member_drops(first)
    record = player_record(first.users["cy"])
    assert (record.chouettes, record.games, record.points) == (1, 1, -1)
