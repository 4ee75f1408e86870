"""Shared set-up for the time-control and notification tests: alice (White) vs bob."""

from __future__ import annotations

from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest

from accounts.models import User
from challenges import services as challenge_services
from gammon import FixedDice
from matches import record, turns
from matches.models import Game

NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # a Monday, noon UTC


def start_game(
    monkeypatch: pytest.MonkeyPatch,
    white: User,
    black: User,
    *dice: int | tuple[int, int],
    now: datetime = NOW,
    **options: Any,
) -> Game:
    """A match ``white`` vs ``black`` with the opening roll scripted (default: White 3-1)."""
    monkeypatch.setattr(challenge_services, "secrets", SimpleNamespace(randbelow=lambda n: 0))
    monkeypatch.setattr(record, "dice", FixedDice(dice or (3, 1)))
    challenge = challenge_services.challenge_create(
        challenger=white, opponent=black, now=now, **options
    )
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=black, now=now)
    game = match.current_game
    assert game is not None
    return game


def white_opens(monkeypatch: pytest.MonkeyPatch, game: Game, player: User, now: datetime) -> Game:
    """White plays the 3-1 opening (8/5 6/5); Black is then to roll or double."""
    game.refresh_from_db()
    return turns.game_play_move(
        game_id=game.pk, player=player, play_text="8/5 6/5", expected_ply=game.ply, now=now
    )
