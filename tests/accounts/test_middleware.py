import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client, RequestFactory
from django.urls import reverse
from django.utils import timezone, translation

from accounts.middleware import UserPreferencesMiddleware
from accounts.models import User

pytestmark = pytest.mark.django_db


def test_it_uses_the_browser_language_for_visitors(client: Client) -> None:
    response = client.get(reverse("home"), headers={"accept-language": "es"})
    assert response["Content-Language"] == "es"
    assert "Iniciar sesión" in response.content.decode()


def test_it_uses_the_players_language_over_the_browser(player: User) -> None:
    player.language = "ca"
    player.save()
    client = Client()
    client.force_login(player)
    response = client.get(reverse("home"), headers={"accept-language": "es"})
    assert response["Content-Language"] == "ca"
    assert "Tanca la sessió" in response.content.decode()


def test_it_activates_the_players_time_zone_for_the_request(player: User) -> None:
    player.time_zone = "America/New_York"
    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = player
    UserPreferencesMiddleware(view)(request)
    assert seen == ["America/New_York"]
    assert timezone.get_current_timezone_name() == "UTC"


def test_it_keeps_utc_for_visitors() -> None:
    from django.contrib.auth.models import AnonymousUser

    seen: list[str] = []

    def view(request: HttpRequest) -> HttpResponse:
        seen.append(timezone.get_current_timezone_name())
        return HttpResponse()

    request = RequestFactory().get("/")
    request.user = AnonymousUser()
    UserPreferencesMiddleware(view)(request)
    assert seen == ["UTC"]


def test_the_language_switcher_saves_the_players_choice(
    player_client: Client, player: User
) -> None:
    response = player_client.post(reverse("set_language"), {"language": "es", "next": "/"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.language == "es"
    assert "Cerrar sesión" in player_client.get("/").content.decode()


def test_the_language_switcher_works_for_visitors(client: Client) -> None:
    client.post(reverse("set_language"), {"language": "ca", "next": "/"})
    with translation.override("en"):
        response = client.get("/")
    assert response["Content-Language"] == "ca"
