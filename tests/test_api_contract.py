"""Every API error, whatever causes it and wherever it is raised, is JSON ``{code, detail}``.

Bodies no parser can take (nested 100,000 deep, over the upload limit), URLs no endpoint
has, methods an endpoint lacks, bad tokens, throttling and bugs: each answers the one
error shape with its status, in the caller's language, and changes nothing.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client, override_settings
from rest_framework.test import APIClient
from rest_framework.throttling import BaseThrottle

from accounts.models import User
from challenges.models import Challenge
from matches import api
from tests.matches.api_helpers import scripted_dice, snapshot, start_match, token_client

pytestmark = pytest.mark.django_db

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.fixture
def live(player: User, opponent: User) -> dict[str, Any]:
    """A match being played between alice and bob (White to move after 6-1)."""
    with scripted_dice([6, 1]):
        return start_match(token_client(player), token_client(opponent), length=3)


def body_paths(match: dict[str, Any]) -> list[str]:
    """Every operation of the schema that takes a body, with its ids pointing at ``match``."""
    schema = APIClient().get("/api/schema/?format=json").json()
    game, challenge = match["games"][0]["id"], Challenge.objects.get().pk
    paths = []
    for path, operations in schema["paths"].items():
        if "requestBody" in operations.get("post", {}):
            the_id = challenge if path.startswith("/api/challenges/") else game
            paths.append(path.replace("{id}", str(the_id)))
    assert len(paths) >= 11, paths  # the game actions, the chat, a new challenge
    return paths


def assert_error(response: Any, status: int, code: str) -> dict[str, Any]:
    assert response.status_code == status, response.content[:300]
    assert response["Content-Type"] == "application/json", response["Content-Type"]
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"]
    return body


# --------------------------------------------------------------------------- bodies


def test_json_nested_100000_deep_is_a_400_everywhere_and_changes_nothing(
    live: dict[str, Any], player: User
) -> None:
    client = token_client(player)
    before, challenges = snapshot(), list(Challenge.objects.values())
    for path in body_paths(live):
        response = client.post(path, DEEP, content_type="application/json")
        body = assert_error(response, 400, "parse_error")
        assert body["detail"] == "The JSON body is nested too deeply.", path
    assert snapshot() == before
    assert list(Challenge.objects.values()) == challenges


def test_the_deep_json_error_is_in_the_players_language(live: dict[str, Any], player: User) -> None:
    player.language = "ca"
    player.save(update_fields=["language"])
    response = token_client(player).post(
        f"/api/games/{live['games'][0]['id']}/move", DEEP, content_type="application/json"
    )
    body = assert_error(response, 400, "parse_error")
    assert body["detail"] == "El cos JSON està niat a massa profunditat."


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_a_body_over_the_upload_limit_is_a_413_and_changes_nothing(
    live: dict[str, Any], player: User
) -> None:
    client = token_client(player)
    before = snapshot()
    big = '{"ply": 1, "play": "13/7 8/7", "pad": "' + "x" * 2000 + '"}'
    for path in body_paths(live):
        response = client.post(path, big, content_type="application/json")
        body = assert_error(response, 413, "too_large")
        assert "1000" in body["detail"]
    assert snapshot() == before
    # A body just under the limit is read as usual (White is to move).
    game = live["games"][0]["id"]
    white = User.objects.get(username=live["white"]["username"])
    with scripted_dice([3, 1]):
        response = token_client(white).post(
            f"/api/games/{game}/move", {"ply": 1, "play": "13/7 8/7"}, format="json"
        )
    assert response.status_code == 200


def test_a_request_django_refuses_before_any_view_is_json_under_api(
    live: dict[str, Any],
) -> None:
    """A Host header outside ALLOWED_HOSTS is refused by Django itself (handler400)."""
    response = Client().get(f"/api/matches/{live['id']}/", HTTP_HOST="evil.example")
    assert_error(response, 400, "bad_request")
    page = Client().get(f"/matches/{live['id']}/", HTTP_HOST="evil.example")
    assert page.status_code == 400 and page["Content-Type"].startswith("text/html")


# --------------------------------------------------------------------------- URLs, methods


@pytest.mark.parametrize(
    "path", ["/api/", "/api/nothing/", "/api/games/1/bogus", "/api/games/", "/api/token/"]
)
def test_an_unknown_api_url_is_a_json_404(path: str) -> None:
    assert_error(APIClient().get(path), 404, "not_found")
    assert_error(APIClient().post(path, {}, format="json"), 404, "not_found")


def test_the_404_of_an_unknown_url_is_in_the_browser_language() -> None:
    response = APIClient().get("/api/nothing/", HTTP_ACCEPT_LANGUAGE="es")
    assert assert_error(response, 404, "not_found")["detail"] == "No encontrado."


def test_a_web_page_that_does_not_exist_is_still_a_page() -> None:
    response = Client().get("/nothing-here/")
    assert response.status_code == 404 and response["Content-Type"].startswith("text/html")


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("delete", "/api/games/{game}/"),
        ("get", "/api/games/{game}/move"),
        ("put", "/api/challenges/"),
        ("post", "/api/matches/{match}/export.mat"),
        ("post", "/api/stats/"),
    ],
)
def test_a_method_an_endpoint_lacks_is_a_json_405(
    live: dict[str, Any], player: User, method: str, path: str
) -> None:
    url = path.format(game=live["games"][0]["id"], match=live["id"])
    before = snapshot()
    response = getattr(token_client(player), method)(url)
    assert_error(response, 405, "method_not_allowed")
    assert snapshot() == before


# --------------------------------------------------------------------------- who is asking


def test_anonymous_and_bad_tokens_are_json_401(live: dict[str, Any]) -> None:
    assert_error(APIClient().get("/api/matches/"), 401, "not_authenticated")
    assert_error(APIClient().get("/api/me/"), 401, "not_authenticated")
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    for path in ("/api/me/", f"/api/games/{live['games'][0]['id']}/", "/api/stats/"):
        response = bad.get(path)
        assert_error(response, 401, "authentication_failed")
        assert response["WWW-Authenticate"] == "Token"


class Refuse(BaseThrottle):
    def allow_request(self, request: Any, view: Any) -> bool:
        return False

    def wait(self) -> float:
        return 30


def test_throttling_answers_json_429(
    live: dict[str, Any], player: User, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(api.GameDetailView, "throttle_classes", [Refuse])
    response = token_client(player).get(f"/api/games/{live['games'][0]['id']}/")
    body = assert_error(response, 429, "throttled")
    assert "30" in body["detail"] and response["Retry-After"] == "30"


def test_a_bug_answers_json_500_under_api_and_a_page_elsewhere(
    live: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(api, "match_data", boom)
    client = APIClient(raise_request_exception=False)
    response = client.get(f"/api/matches/{live['id']}/", HTTP_ACCEPT_LANGUAGE="es")
    body = assert_error(response, 500, "server_error")
    assert "a bug" not in body["detail"]
    assert body["detail"] == "Se ha producido un error en el servidor."

    from matches import views

    monkeypatch.setattr(views, "render", boom)
    page = Client(raise_request_exception=False).get(f"/matches/{live['id']}/")
    assert page.status_code == 500 and page["Content-Type"].startswith("text/html")


def test_other_apps_endpoints_answer_the_same_shape() -> None:
    """stats and accounts have their own views; their errors are the same contract."""
    assert_error(APIClient().get("/api/stats/players/nobody/"), 404, "not_found")
    assert_error(APIClient().get("/api/stats/variants/chess/"), 404, "not_found")
    assert_error(APIClient().get("/api/stats/leaderboard/?page=99"), 404, "not_found")


@pytest.mark.parametrize("query", ["?events_from=", "?events_from=x", "?events_from=0"])
def test_an_empty_or_bad_query_value_is_refused_as_the_schema_says(
    live: dict[str, Any], query: str
) -> None:
    response = APIClient().get(f"/api/games/{live['games'][0]['id']}/{query}")
    assert "events_from" in assert_error(response, 400, "invalid")["fields"]
