"""A NUL character in the URL: a 4xx in the user's language, before any database lookup.

On PostgreSQL ``/players/%00/`` reached ``User.objects.get(username="\\x00")`` and answered
500 (``DataError``: text cannot hold NUL); ``backgammon.middleware.RejectNulMiddleware``
refuses it once for every URL. These tests run on SQLite and PostgreSQL alike: on either,
the old code answered Django's English page, or a 500.
"""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from backgammon.inputs import positive_int
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

NUL_PATHS = ["/players/%00/", "/stats/dice/%00/", "/report/%00/", "/players/bob%00/"]


@pytest.fixture
def spanish_client(player: User) -> Client:
    player.language = "es"
    player.save(update_fields=["language"])
    client = Client()
    client.force_login(player)
    return client


@pytest.mark.parametrize("path", NUL_PATHS)
def test_a_nul_in_a_path_segment_is_the_404_page_in_the_users_language(
    spanish_client: Client, opponent: User, path: str
) -> None:
    response = spanish_client.get(path)
    assert response.status_code == 404
    page = response.content.decode()
    assert "Página no encontrada" in page and "No hay nada en esta dirección." in page


def test_a_visitor_gets_it_in_the_browsers_language(client: Client) -> None:
    response = client.get("/players/%00/", headers={"accept-language": "ca"})
    assert response.status_code == 404
    assert "No hi ha res en aquesta adreça." in response.content.decode()


def test_a_nul_in_an_api_path_is_the_apis_json_404(spanish_client: Client) -> None:
    response = spanish_client.get("/api/stats/players/%00/")
    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "No encontrado."}


def test_a_nul_in_the_query_string_is_a_400(spanish_client: Client, opponent: User) -> None:
    response = spanish_client.get("/stats/leaderboard/", {"page": "1\x00"})
    assert response.status_code == 400
    assert "La dirección contiene un carácter que no está permitido (NUL)." in (
        response.content.decode()
    )


def test_the_admins_search_for_a_nul_is_a_400_too(opponent: User) -> None:
    # On PostgreSQL the search reached an icontains lookup: DataError, a 500.
    client = Client()
    client.force_login(UserFactory(username="root", is_staff=True, is_superuser=True))
    assert client.get("/admin/accounts/user/", {"q": "a\x00"}).status_code == 400
    assert client.get("/admin/accounts/user/", {"q": "bob"}).status_code == 200


def test_the_apis_query_parameters_are_its_serializers_to_refuse(
    spanish_client: Client, opponent: User
) -> None:
    # One it does not read is ignored, as the schema says; one it reads is refused.
    assert spanish_client.get("/api/stats/leaderboard/", {"x\x00": "1"}).status_code == 200
    response = spanish_client.get("/api/stats/leaderboard/", {"page": "1\x00"})
    assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_any_other_missing_page_is_the_same_translated_404(spanish_client: Client) -> None:
    response = spanish_client.get("/players/nobody/")
    assert response.status_code == 404
    assert "No hay nada en esta dirección." in response.content.decode()


def test_addresses_without_nul_are_untouched(player_client: Client, opponent: User) -> None:
    assert player_client.get("/players/bob/").status_code == 200
    assert player_client.get("/stats/leaderboard/", {"page": "%00"}).status_code == 200


@pytest.mark.parametrize(
    ("raw", "number"),
    [
        ("42", 42),
        ("²", None),
        ("١٢", None),
        ("-1", None),
        ("0", None),
        ("", None),
        (None, None),
        ("9" * 5000, None),
        (str(2**63 - 1), 2**63 - 1),
        (str(2**63), None),
    ],
)
def test_a_number_from_a_query_string_is_ascii_digits_within_an_id(
    raw: str | None, number: int | None
) -> None:
    assert positive_int(raw) == number
