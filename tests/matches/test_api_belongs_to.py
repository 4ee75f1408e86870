"""A match in the API says what it belongs to (``belongs_to``, issue 25): a tournament, with
the pairing that placed it, or a chouette, whose board it is; null for a match of its own.
``matches`` imports neither app: it asks them through ``matches.questions``, and an
ordinary match costs one indexed lookup of the tournaments' pairings and nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from accounts.models import User
from chouettes import seating as chouette_seating
from matches.models import Game
from tests.factories import UserFactory
from tests.matches.api_helpers import get_game, get_match, scripted_dice, start_match, token_client
from tests.tournaments.helpers import live, run

pytestmark = pytest.mark.django_db


def test_a_match_of_its_own_belongs_to_nothing_and_asks_one_indexed_question(
    player: User, opponent: User
) -> None:
    with scripted_dice([6, 1]):
        match = start_match(token_client(player), token_client(opponent), length=3)
    assert match["belongs_to"] is None
    game_id = match["games"][0]["id"]
    with CaptureQueriesContext(connection) as queries:
        game = get_game(APIClient(), game_id)
    assert game["belongs_to"] is None and game["held"] is False
    asked = [q["sql"] for q in queries.captured_queries if "tournaments_" in q["sql"]]
    assert len(asked) == 1 and '"match_id" IN' in asked[0]
    assert not [q for q in queries.captured_queries if "chouettes_" in q["sql"]]
    assert get_match(APIClient(), match["id"])["belongs_to"] is None
    listed = token_client(player).get("/api/matches/").json()
    assert [m["belongs_to"] for m in listed] == [None]


def test_a_tournament_match_names_its_tournament_and_pairing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tournament, field = run(monkeypatch, "knockout", 4)
    pairing = live(tournament)[0]
    assert pairing.match is not None
    expected: dict[str, Any] = {
        "kind": "tournament",
        "id": tournament.pk,
        "url": f"/api/tournaments/{tournament.pk}/",
        "name": tournament.name,
        "pairing": {"stage": pairing.stage, "round": pairing.round, "index": pairing.index},
        "game": None,
    }
    game = Game.objects.get(match=pairing.match)
    assert get_game(APIClient(), game.pk)["belongs_to"] == expected
    assert get_match(APIClient(), pairing.match.pk)["belongs_to"] == expected
    white = pairing.match.white
    with CaptureQueriesContext(connection) as queries:
        listed = token_client(white).get("/api/matches/").json()
    assert [m["belongs_to"] for m in listed] == [expected]
    assert len([q for q in queries.captured_queries if "tournaments_" in q["sql"]]) == 1


def test_a_chouette_board_names_its_chouette_and_game(monkeypatch: pytest.MonkeyPatch) -> None:
    ann, bob, cy = (UserFactory(username=n) for n in ("ann", "bob", "cy"))
    chouette = chouette_seating.chouette_create(
        creator=ann, places_from_dice=False, now=ann.date_joined
    )
    for user in (bob, cy):
        chouette_seating.chouette_join(chouette_id=chouette.pk, user=user, now=ann.date_joined)
    with scripted_dice([3, 1]):
        game = chouette_seating.chouette_start(
            chouette_id=chouette.pk, user=ann, now=ann.date_joined
        )
    expected = {
        "kind": "chouette",
        "id": chouette.pk,
        "url": f"/api/chouettes/{chouette.pk}/",
        "name": None,
        "pairing": None,
        "game": 1,
    }
    assert get_match(APIClient(), game.match_id)["belongs_to"] == expected
    listed = token_client(cy).get("/api/matches/").json()
    assert listed == []  # cy is on the team, not a player of the board
    with CaptureQueriesContext(connection) as queries:
        listed = token_client(bob).get("/api/matches/").json()
    assert [m["belongs_to"] for m in listed] == [expected]
    assert not [q for q in queries.captured_queries if "tournaments_" in q["sql"]]
