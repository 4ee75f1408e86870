"""The player directory (/players/) and the player page's "Challenge this player"."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import timezone

from accounts.models import User
from stats.models import PlayerStats
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def names(html: str) -> list[str]:
    """The player links of the directory's table, in order."""
    return re.findall(r'<a href="/players/([^/]+)/">', html)


def test_it_lists_active_players_with_rating_and_last_activity(client: Client) -> None:
    now = timezone.now()
    alice = UserFactory(username="alice", display_name="Alice Liddell", email="alice@example.com")
    PlayerStats.objects.create(player=alice, rating=1612.5, last_active_at=now)
    UserFactory(username="bob")
    UserFactory(username="gone", is_active=False)
    html = client.get("/players/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert names(html) == ["alice", "bob"]  # the recently active first, then the others
    assert "Alice Liddell" in html and "@alice" in html
    assert "1,612.50" in html or "1612.50" in html
    assert "never" in html  # bob has no activity yet
    assert "example.com" not in html


def test_it_searches_usernames_and_display_names_ignoring_case(client: Client) -> None:
    UserFactory(username="alberto")
    UserFactory(username="zed", display_name="Sally Alvarez")
    UserFactory(username="malory")
    UserFactory(username="bob")
    html = client.get("/players/", {"q": "AL"}).content.decode()
    # The names that start with the text come first, then those that contain it.
    assert names(html) == ["alberto", "malory", "zed"]
    assert 'value="AL"' in html


def test_a_search_with_no_match_says_so(client: Client) -> None:
    UserFactory(username="alice")
    html = client.get("/players/", {"q": " nobody "}, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "No player matches “nobody”." in html
    assert names(html) == []


def test_it_is_paginated_and_keeps_the_search_in_the_pager(client: Client) -> None:
    User.objects.bulk_create(User(username=f"player{i:02d}") for i in range(55))
    first = client.get("/players/", {"q": "player"}).content.decode()
    assert len(names(first)) == 50
    assert 'href="?q=player&amp;page=2"' in first
    second = client.get("/players/", {"q": "player", "page": "2"}).content.decode()
    assert names(second) == [f"player{i:02d}" for i in range(50, 55)]


def test_the_nav_links_to_the_directory(client: Client) -> None:
    assert b'href="/players/"' in client.get("/").content


def test_a_player_page_offers_to_challenge_the_player(client: Client) -> None:
    alice = UserFactory(username="alice")
    UserFactory(username="bob")
    client.force_login(alice)
    html = client.get("/players/bob/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'href="/challenges/new/?opponent=bob"' in html
    assert "Challenge this player" in html
    form = client.get("/challenges/new/?opponent=bob").content.decode()
    assert re.search(r'name="opponent"[^>]*value="bob"', form)


def test_ones_own_page_offers_no_challenge(client: Client) -> None:
    alice = UserFactory(username="alice")
    client.force_login(alice)
    assert b"/challenges/new/?opponent=" not in client.get("/players/alice/").content


def test_a_visitor_is_sent_to_log_in_before_the_challenge_form(client: Client) -> None:
    UserFactory(username="bob")
    html = client.get("/players/bob/").content.decode()
    assert 'href="/challenges/new/?opponent=bob"' in html
    response = client.get("/challenges/new/?opponent=bob")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/?next=")
