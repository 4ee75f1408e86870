"""The OpenAPI schema: generated without a warning, since a bot reads nothing else; its
errors, its descriptions (for the API's users, never our docstrings), how a bot gets a
token, and request bodies it and the service agree on."""

import inspect
import re
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import jsonschema
import pytest
from django.core.management import call_command
from django.urls import reverse
from rest_framework.test import APIClient

import accounts.api
import backgammon.api.errors
import backgammon.api.parsers
import backgammon.api.schema
import backgammon.api.views
import matches.api
import matches.serializers
import stats.api
from accounts.models import User
from challenges.models import Challenge
from tests.matches.api_helpers import scripted_dice, snapshot, start_match, token_client


def test_the_schema_validates_without_warnings(tmp_path) -> None:
    out = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))
    text = out.read_text()
    assert "/api/games/{id}/move" in text
    assert "tokenAuth" in text and "cookieAuth" in text


@pytest.mark.parametrize("path", ["/api/schema/"])
def test_the_schema_is_served(client, path: str) -> None:
    assert client.get(path).status_code == 200


# --------------------------------------------------------------------------- helpers


API_MODULES: list[ModuleType] = [
    matches.api,
    matches.serializers,
    stats.api,
    accounts.api,
    backgammon.api.errors,
    backgammon.api.parsers,
    backgammon.api.schema,
    backgammon.api.views,
]


def the_schema() -> dict[str, Any]:
    response = APIClient().get("/api/schema/?format=json")
    assert response.status_code == 200
    return response.json()


def operations(schema: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    for path, methods in schema["paths"].items():
        for method, operation in methods.items():
            yield path, method, operation


def texts(node: Any) -> Iterator[str]:
    """Every description, summary and title in the schema."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in {"description", "summary", "title"} and isinstance(value, str):
                yield value
            else:
                yield from texts(value)
    elif isinstance(node, list):
        for item in node:
            yield from texts(item)


# --------------------------------------------------------------------------- errors


def test_every_operation_documents_its_errors_with_the_error_shape() -> None:
    schema = the_schema()
    error = {"$ref": "#/components/schemas/Error"}
    for path, method, operation in operations(schema):
        responses = operation["responses"]
        expected = {"401", "403"}
        if "{" in path:
            expected.add("404")
        if "requestBody" in operation:
            expected |= {"400", "413", "415"}
        assert expected <= set(responses), (method, path, sorted(responses))
        for status, response in responses.items():
            if status.startswith(("4", "5")):
                assert response["content"] == {"application/json": {"schema": error}}, (
                    method,
                    path,
                    status,
                )


def test_the_404s_are_documented_where_endpoints_answer_them() -> None:
    paths = the_schema()["paths"]
    for path in (
        "/api/challenges/{id}/decline",
        "/api/matches/{id}/",
        "/api/matches/{id}/export.mat",
        "/api/stats/players/{username}/",
        "/api/stats/dice/{username}/",
        "/api/stats/variants/{variant}/",
    ):
        operation = next(iter(paths[path].values()))
        assert "404" in operation["responses"], path
    assert "404" in paths["/api/stats/leaderboard/"]["get"]["responses"]  # ?page=99


# --------------------------------------------------------------------------- descriptions

#: Words of the code, not of the API: none belongs in what a client reads.
INTERNAL = re.compile(
    r"middleware|docstring|serializer|queryset|select_related|selector|\bservices?\b"
    r"|\bDRF\b|\bORM\b|issue \d|``|:func:|:class:|\bSQL\b",
    re.IGNORECASE,
)


def test_no_developer_note_leaks_into_the_schema() -> None:
    schema = the_schema()
    for text in texts(schema):
        assert not INTERNAL.search(text), text


def test_no_docstring_of_our_code_is_in_the_schema() -> None:
    """Descriptions are written for clients (extend_schema); docstrings are for us."""
    flat = " ".join(" ".join(text.split()) for text in texts(the_schema()))
    leaks = []
    for module in API_MODULES:
        for name, obj in vars(module).items():
            if not (inspect.isclass(obj) or inspect.isfunction(obj)):
                continue
            doc = inspect.getdoc(obj)
            if not doc or getattr(obj, "__module__", None) != module.__name__:
                continue
            for paragraph in doc.split("\n\n"):
                paragraph = " ".join(paragraph.split())
                if len(paragraph) > 25 and paragraph in flat:
                    leaks.append(f"{module.__name__}.{name}: {paragraph}")
    assert not leaks, "\n".join(leaks)


def test_every_operation_has_a_description_for_its_users() -> None:
    for path, method, operation in operations(the_schema()):
        assert len(operation.get("description", "")) > 20, (method, path)


def test_decline_and_withdraw_say_what_they_do() -> None:
    paths = the_schema()["paths"]
    decline = paths["/api/challenges/{id}/decline"]["post"]["description"]
    withdraw = paths["/api/challenges/{id}/withdraw"]["post"]["description"]
    assert decline.startswith("Decline") and withdraw.startswith("Withdraw")


# --------------------------------------------------------------------------- tokens


def test_the_schema_says_how_a_bot_gets_a_token() -> None:
    info = the_schema()["info"]["description"]
    assert "Authorization: Token <key>" in info
    assert reverse("account_signup") in info and reverse("profile") in info
    assert reverse("profile_token_create").startswith(reverse("profile"))


def test_there_is_no_api_to_sign_up_or_trade_a_password_for_a_token() -> None:
    """Sign-up needs a confirmed e-mail address, and passwords are checked only by the
    site's rate-limited log-in: the schema says so instead of offering either."""
    schema = the_schema()
    for path, _method, _operation in operations(schema):
        assert not re.search(r"token|sign-?up|login|register|auth", path), path
    assert "no API call to sign up" in schema["info"]["description"]


# --------------------------------------------------------------------------- requests


def validator(schema: dict[str, Any], component: str) -> jsonschema.Draft7Validator:
    root = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    return jsonschema.Draft7Validator(root)


# (schema component, endpoint, body): bodies the schema refuses, each for one reason.
REFUSED = [
    ("ChallengeCreate", "challenges", {"opponent": ""}),
    ("ChallengeCreate", "challenges", {"opponent": "   "}),
    ("ChallengeCreate", "challenges", {"opponent": " bob"}),
    ("ChallengeCreate", "challenges", {"opponent": "bob\x00"}),
    ("ChallengeCreate", "challenges", {"opponent": 5}),
    ("ChallengeCreate", "challenges", {"length": "5"}),
    ("ChallengeCreate", "challenges", {"length": True}),
    ("ChallengeCreate", "challenges", {"rated": "yes"}),
    ("ChallengeCreate", "challenges", {"jacoby": 0, "length": 0}),
    ("ChallengeCreate", "challenges", {"cube_limit": 3}),
    ("ChallengeCreate", "challenges", {"cube_limit": 32768}),  # 500 on PostgreSQL before
    ("ChallengeCreate", "challenges", {"message": " " * 201}),
    ("ChallengeCreate", "challenges", {"message": "hi\x00"}),
    ("Move", "move", {"ply": 1, "play": ""}),
    ("Move", "move", {"ply": 1, "play": "   "}),
    ("Move", "move", {"ply": 1, "play": " " * 80 + "13/7 8/7"}),
    ("Move", "move", {"ply": 1, "play": "13/7\x00 8/7"}),
    ("Move", "move", {"ply": "1", "play": "13/7 8/7"}),
    ("GameMessageCreate", "messages", {"text": " \n "}),
    ("GameMessageCreate", "messages", {"text": "hi\x00"}),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("component", "endpoint", "body"), REFUSED)
def test_what_the_schema_refuses_the_service_refuses(
    player: User, opponent: User, component: str, endpoint: str, body: dict[str, Any]
) -> None:
    schema = the_schema()
    assert not validator(schema, component).is_valid(body), body
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=3)
    game = match["games"][0]["id"]
    url = {
        "challenges": "/api/challenges/",
        "move": f"/api/games/{game}/move",
        "messages": f"/api/games/{game}/messages",
    }[endpoint]
    white = player if match["white"]["username"] == player.username else opponent
    before, challenges = snapshot(), list(Challenge.objects.values())
    with scripted_dice([3, 1]):
        response = token_client(white).post(url, body, format="json")
    assert response.status_code == 400, (body, response.json())
    assert response.json()["detail"]  # a field error, or the service's (cube_limit)
    assert snapshot() == before and list(Challenge.objects.values()) == challenges


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("component", "body"),
    [
        ("ChallengeCreate", {"opponent": "bob", "cube_limit": 16384, "message": " hi "}),
        ("ChallengeCreate", {"length": 0, "cube_limit": None, "jacoby": True}),
        ("Move", {"ply": 1, "play": " 13/7 8/7 "}),
        ("GameMessageCreate", {"text": " hello "}),
    ],
)
def test_what_the_schema_allows_is_read(
    player: User, opponent: User, component: str, body: dict[str, Any]
) -> None:
    """The other direction, on bodies that are valid in every other way too."""
    schema = the_schema()
    if component != "ChallengeCreate" or body.get("cube_limit", 1) is not None:
        assert validator(schema, component).is_valid(body), body
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=3)
    game = match["games"][0]["id"]
    white = player if match["white"]["username"] == player.username else opponent
    url = {
        "ChallengeCreate": "/api/challenges/",
        "Move": f"/api/games/{game}/move",
        "GameMessageCreate": f"/api/games/{game}/messages",
    }[component]
    if "opponent" in body:  # whoever is not the sender
        body = {**body, "opponent": ({player, opponent} - {white}).pop().username}
    with scripted_dice([3, 1]):
        response = token_client(white).post(url, body, format="json")
    assert response.status_code in (200, 201), response.json()
