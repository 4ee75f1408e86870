"""Fuzz the whole API from its own schema (schemathesis), signed in as a player of a live game.

For every generated request: no 5xx, the response matches the schema, and a refused
request (4xx) leaves every stored game, match and record row exactly as it was. Generated
ids and plies are often pointed at the live game, so the actions really run rather than
all ending in 404 or 409. Deterministic (``derandomize``) and small enough for CI.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
import schemathesis
from django.core.wsgi import get_wsgi_application
from django.utils import timezone
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    negative_data_rejection,
    response_schema_conformance,
    status_code_conformance,
)

from accounts.models import User
from challenges import services as challenge_services
from challenges.models import Challenge
from matches import record, selectors
from matches.models import Game, Match
from tests.factories import UserFactory
from tests.matches.api_helpers import SeededDice, snapshot

pytestmark = pytest.mark.django_db

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    negative_data_rejection,
]


# Loaded at import (the schema view needs no database). Not ``from_fixture``: its lazy
# loader sets ``node._nodeid``, which pytest 9 no longer has.
schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", get_wsgi_application())


@pytest.fixture(autouse=True)
def _keep_the_test_connection() -> Any:
    """Calls through WSGI fire request_started/finished, whose close_old_connections would
    close the test's connection inside its transaction on PostgreSQL (Django's test Client
    disconnects it the same way)."""
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def world(player: User, opponent: User, outsider: User, monkeypatch: pytest.MonkeyPatch) -> dict:
    """A live match (the token's owner is on turn), and challenges of every kind."""
    monkeypatch.setattr(record, "dice", SeededDice(7))
    now = timezone.now()
    challenge = challenge_services.challenge_create(
        challenger=player, opponent=opponent, length=3, now=now
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=now)
    game = match.current_game
    assert game is not None
    on_turn = match.white if game.turn == 0 else match.black
    other = opponent if on_turn.pk == player.pk else player
    challenges = [
        challenge_services.challenge_create(challenger=on_turn, opponent=None, now=now).pk,
        challenge_services.challenge_create(challenger=other, opponent=on_turn, now=now).pk,
        challenge_services.challenge_create(challenger=outsider, opponent=None, now=now).pk,
        challenge_services.challenge_create(challenger=UserFactory(), opponent=None, now=now).pk,
    ]
    return {"match": match.pk, "challenges": challenges, "rows": None}


def stored() -> tuple[Any, ...]:
    """Every game, match and challenge row and the record's size: what a refused request
    must leave as it was."""
    return snapshot(), list(Challenge.objects.order_by("pk").values())


def _aim(case: Any, world: dict[str, Any]) -> None:
    """Point most generated ids at real objects, and half the plies at the current one."""
    match = Match.objects.get(pk=world["match"])
    game = Game.objects.filter(match=match).order_by("-number").first()
    path = case.path or ""
    params = case.path_parameters or {}
    raw = params.get("id")
    if isinstance(raw, int) and raw % 4:
        if path.startswith("/api/games/"):
            params["id"] = game.pk
        elif path.startswith("/api/matches/"):
            params["id"] = match.pk
        elif path.startswith("/api/challenges/"):
            params["id"] = random.Random(raw).choice(world["challenges"])
    body = case.body
    ply = body.get("ply") if isinstance(body, dict) else None
    # A negative ply is the negative phase's invalid data: aiming it would make it valid,
    # and the check that invalid data is refused would fail on a request that was not.
    if isinstance(ply, int) and not isinstance(ply, bool) and ply >= 0 and ply % 2:
        assert isinstance(body, dict)
        body["ply"] = game.ply
        # Random text is never a legal play: sometimes send one the game allows.
        plays = selectors.game_plays(game)
        if plays and isinstance(body.get("play"), str) and len(body["play"]) % 2:
            body["play"] = str(random.Random(len(body["play"])).choice(plays))


def _headers(world: dict[str, Any]) -> dict[str, str]:
    """The token of whoever must act in the live game, so that turns really advance."""
    match = Match.objects.select_related("white", "black").get(pk=world["match"])
    game = Game.objects.filter(match=match).order_by("-number").first()
    user = match.black if game.turn == 1 and not game.is_finished else match.white
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}"}


@schema.parametrize()
@settings(
    max_examples=12,
    derandomize=True,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
)
def test_the_api_survives_its_own_schema(case: Any, world: dict[str, Any]) -> None:
    _aim(case, world)
    headers = _headers(world)
    # After a refused request the rows are as they were checked to be: no need to read
    # them again (aiming and the token write nothing they hold).
    before = stored() if world["rows"] is None else world["rows"]
    world["rows"] = None
    response = case.call(headers=headers)
    # Every endpoint, whichever app it is in, answers as its schema says (backgammon/api/).
    case.validate_response(response, checks=CHECKS)
    if 400 <= response.status_code < 500:
        after = stored()
        assert after == before, f"{case.method} {case.formatted_path} changed stored rows"
        world["rows"] = after
