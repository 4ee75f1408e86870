"""Username completion in the challenge form: the JSON endpoint and the form's markup."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

URL = "/challenges/opponents/"


def usernames(client: Client, text: str) -> list[str]:
    response = client.get(URL, {"q": text})
    assert response.status_code == 200
    return [p["username"] for p in response.json()["players"]]


def test_it_completes_usernames_by_prefix_ignoring_case(player_client: Client) -> None:
    UserFactory(username="alma", display_name="Alma Liddell")
    UserFactory(username="Albert")
    UserFactory(username="malory")  # contains "al" but does not start with it
    UserFactory(username="alfred", is_active=False)
    response = player_client.get(URL, {"q": "AL"})
    assert response.json() == {
        "players": [
            {"username": "Albert", "name": "Albert"},
            {"username": "alma", "name": "Alma Liddell"},
        ]
    }
    assert response["Cache-Control"] == "private, max-age=60"


def test_it_gives_at_most_ten_and_never_oneself(player: User, player_client: Client) -> None:
    User.objects.bulk_create(User(username=f"{player.username}{i:02d}") for i in range(12))
    names = usernames(player_client, player.username)
    assert len(names) == 10 and player.username not in names


def test_an_empty_text_gives_nothing(player_client: Client) -> None:
    UserFactory(username="alice")
    assert usernames(player_client, "  ") == []


def test_it_is_for_signed_in_players(client: Client) -> None:
    response = client.get(URL, {"q": "al"})
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/")


def test_the_form_links_its_field_to_a_datalist_and_loads_the_script(
    player_client: Client,
) -> None:
    html = player_client.get("/challenges/new/").content.decode()
    assert 'list="opponent-options"' in html and '<datalist id="opponent-options">' in html
    assert f'data-complete-url="{URL}"' in html
    assert 'type="module" src="/static/js/opponent_complete.js"' in html
