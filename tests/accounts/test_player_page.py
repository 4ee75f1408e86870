import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_anyone_can_see_a_players_page(client: Client, player: User) -> None:
    player.display_name = "Alice the Bold"
    player.save()
    response = client.get(reverse("player_detail", args=["alice"]))
    assert response.status_code == 200
    assert "Alice the Bold" in response.content.decode()
    assert "@alice" in response.content.decode()


def test_an_unknown_player_is_a_404(client: Client) -> None:
    assert client.get(reverse("player_detail", args=["nobody"])).status_code == 404


def test_an_inactive_player_is_a_404(client: Client) -> None:
    UserFactory(username="gone", is_active=False)
    assert client.get(reverse("player_detail", args=["gone"])).status_code == 404


def test_the_page_escapes_the_display_name(client: Client) -> None:
    UserFactory(username="mallory", display_name="<script>x</script>")
    content = client.get(reverse("player_detail", args=["mallory"])).content.decode()
    assert "<script>x</script>" not in content
