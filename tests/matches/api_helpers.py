"""Helpers for the API tests: token clients, scripted dice, and snapshots of stored games.

The tests talk to the API only through these clients, as an outside program would.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from accounts.models import User
from gammon import Dice, FixedDice
from matches import record
from matches.models import Game, GameEvent, GameMessage, Match
from notifications.models import Notification


def token_client(user: User | None) -> APIClient:
    """An API client authenticated with ``user``'s token (anonymous for None)."""
    client = APIClient()
    if user is not None:
        token, _ = Token.objects.get_or_create(user=user)
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


class SeededDice:
    """Reproducible dice for long random games (``FixedDice`` is for short scripts)."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(seed)

    def roll(self) -> tuple[int, int]:
        return self.roll_one(), self.roll_one()

    def roll_one(self) -> int:
        return self._random.randint(1, 6)


@contextmanager
def scripted_dice(dice: Dice | list[int]) -> Iterator[Dice]:
    """Make the services throw ``dice`` (a script of single dice, or any Dice)."""
    replacement = FixedDice(dice) if isinstance(dice, list) else dice
    previous = record.dice
    record.dice = replacement
    try:
        yield replacement
    finally:
        record.dice = previous


def snapshot() -> tuple[list[dict[str, Any]], list[dict[str, Any]], int, int, int]:
    """Every stored game and match row, and the number of record, message and notification
    rows."""
    games = list(Game.objects.order_by("pk").values())
    matches = list(Match.objects.order_by("pk").values())
    return (
        games,
        matches,
        GameEvent.objects.count(),
        GameMessage.objects.count(),
        Notification.objects.count(),
    )


def start_match(challenger: APIClient, accepter: APIClient, **options: Any) -> dict[str, Any]:
    """Create an open challenge and accept it, through the API; returns the match."""
    body = {"opponent": None, **options}
    response = challenger.post("/api/challenges/", body, format="json")
    assert response.status_code == 201, response.json()
    response = accepter.post(f"/api/challenges/{response.json()['id']}/accept")
    assert response.status_code == 201, response.json()
    return response.json()


def act(
    client: APIClient, game_id: int, action: str, ply: int, **body: Any
) -> tuple[int, dict[str, Any]]:
    """POST one game action with the ply seen; returns ``(status, json)``."""
    url = f"/api/games/{game_id}/{action.replace('_', '-')}"
    response = client.post(url, {"ply": ply, **body}, format="json")
    return response.status_code, response.json()


def get_game(client: APIClient, game_id: int) -> dict[str, Any]:
    response = client.get(f"/api/games/{game_id}/")
    assert response.status_code == 200, response.json()
    return response.json()


def get_match(client: APIClient, match_id: int) -> dict[str, Any]:
    response = client.get(f"/api/matches/{match_id}/")
    assert response.status_code == 200, response.json()
    return response.json()
