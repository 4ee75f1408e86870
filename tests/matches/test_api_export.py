"""The match export (.mat) through the API: the match page's file, in the schema, with the
API's JSON errors. (What the file says is tests/matches/test_export.py's business.)"""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import User
from matches.export import export_mat
from matches.models import Match
from tests.matches.api_helpers import act, scripted_dice, start_match, token_client

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(player: User, opponent: User) -> Match:
    """A match with a move and a double in its record."""
    with scripted_dice([6, 1, 3, 1]):
        data = start_match(token_client(player), token_client(opponent), length=3)
        white = player if data["white"]["username"] == player.username else opponent
        black = opponent if white == player else player
        game = data["games"][0]["id"]
        assert act(token_client(white), game, "move", 1, play="13/7 8/7")[0] == 200
        assert act(token_client(black), game, "double", 2)[0] == 200
    return Match.objects.select_related("white", "black").get(pk=data["id"])


def url(match_id: int, query: str = "") -> str:
    return f"/api/matches/{match_id}/export.mat{query}"


@pytest.mark.parametrize("client", [APIClient(), None], ids=["visitor", "player"])
def test_anyone_gets_the_file_the_match_page_offers(
    match: Match, player: User, client: APIClient | None
) -> None:
    client = client or token_client(player)
    response = client.get(url(match.pk))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="match-{match.pk}-{match.white.username}-{match.black.username}.mat"'
    )
    page_file = Client().get(f"/matches/{match.pk}/export.mat")
    assert response.content == page_file.content
    assert response.content.decode() == export_mat(match, xg_header=True)
    plain = client.get(url(match.pk, "?header=gnubg"))
    assert plain.content.decode() == export_mat(match, xg_header=False)
    assert client.get(url(match.pk, "?header=xg")).content == response.content


@pytest.mark.parametrize("accept", ["*/*", "text/plain", "application/json"])
def test_its_errors_are_the_apis_json(match: Match, accept: str) -> None:
    client = APIClient()
    for path, status, code in [
        (url(999999), 404, "not_found"),
        (url(0), 404, "not_found"),
        ("/api/matches/abc/export.mat", 404, "not_found"),
        (url(match.pk, "?header=chess"), 400, "invalid"),
        (url(match.pk, "?header="), 400, "invalid"),
    ]:
        response = client.get(path, HTTP_ACCEPT=accept)
        assert response.status_code == status, path
        assert response["Content-Type"] == "application/json"
        assert response.json()["code"] == code
    response = client.post(url(match.pk))
    assert (response.status_code, response.json()["code"]) == (405, "method_not_allowed")


def test_the_schema_lists_it() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    operation = schema["paths"]["/api/matches/{id}/export.mat"]["get"]
    plain_text = {"text/plain": {"schema": {"type": "string"}}}
    assert operation["responses"]["200"]["content"] == plain_text
    assert "404" in operation["responses"]
    assert {"in": "query", "name": "header"}.items() <= operation["parameters"][0].items()
    assert operation["parameters"][0]["schema"]["enum"] == ["xg", "gnubg"]
    assert {} in operation["security"]  # no sign-in needed, as on the match page


def test_it_is_named_as_before(match: Match) -> None:
    assert reverse("api_match_export_mat", args=[match.pk]) == url(match.pk)
    assert reverse("match_export_mat", args=[match.pk]) == f"/matches/{match.pk}/export.mat"
