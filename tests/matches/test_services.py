"""Every action and every refusal of ``matches.services``.

Dice are scripted with ``FixedDice`` and colours are fixed (the challenger
plays White) unless a test is about the draw itself, so each test reads as a
game record. After every refusal the game row and its record are unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace
from typing import Any

import pytest
from django.forms.models import model_to_dict

from accounts.models import User
from backgammon.rules import Color, FixedDice, Position
from matches import services
from matches.errors import ServiceError
from matches.models import Game

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)
LATER = NOW + timedelta(hours=1)


def board(white: dict[int, int], black: dict[int, int]) -> dict[str, list[int]]:
    """A stored board (White's side) from each side's own point numbers; 25 is the bar."""
    position = Position.from_sides(white, black)
    return {"points": list(position.points), "bar": list(position.bar), "off": list(position.off)}


@pytest.fixture
def roll(monkeypatch: pytest.MonkeyPatch) -> Callable[..., None]:
    """Script the dice the services throw next (single dice or pairs)."""

    def script(*dice: int | tuple[int, int]) -> None:
        monkeypatch.setattr(services, "dice", FixedDice(dice))

    return script


@pytest.fixture
def challenger_is_white(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(services, "secrets", SimpleNamespace(randbelow=lambda n: 0))


@pytest.fixture
def start(
    player: User, opponent: User, roll: Callable[..., None], challenger_is_white: None
) -> Callable[..., Game]:
    """Start a match, alice (White) against bob (Black), with a scripted opening roll."""

    def start_match(*dice: int | tuple[int, int], **options: Any) -> Game:
        roll(*dice)
        challenge = services.challenge_create(
            challenger=player, opponent=opponent, now=NOW, **options
        )
        match = services.challenge_accept(challenge_id=challenge.pk, user=opponent, now=NOW)
        game = match.current_game
        assert game is not None
        return game

    return start_match


def act(game: Game, action: str, user: User, **kwargs: Any) -> Game:
    """Call ``services.game_<action>`` (or ``match_<action>``) with the game's current ply."""
    function = getattr(services, action)
    game.refresh_from_db()
    kwargs.setdefault("expected_ply", game.ply)
    kwargs.setdefault("now", LATER)
    return function(game_id=game.pk, player=user, **kwargs)


def kinds(game: Game) -> list[str]:
    return list(game.events.values_list("kind", flat=True))


@contextmanager
def refused(
    game: Game, error: type[ServiceError], code: str | None = None
) -> Iterator[pytest.ExceptionInfo[ServiceError]]:
    """Expect ``error`` (with ``code``) and check the game and its record did not change."""
    game.refresh_from_db()
    before = model_to_dict(game)
    match_before = model_to_dict(game.match)
    events = game.events.count()
    with pytest.raises(error) as raised:
        yield raised
    if code is not None:
        assert raised.value.code == code
    game.refresh_from_db()
    game.match.refresh_from_db()
    assert model_to_dict(game) == before
    assert model_to_dict(game.match) == match_before
    assert game.events.count() == events


def set_board(game: Game, **fields: Any) -> Game:
    """Put the game in a test position (a test's setup; play never writes rows directly)."""
    Game.objects.filter(pk=game.pk).update(**fields)
    game.refresh_from_db()
    return game


# --------------------------------------------------------------------------- game start


def test_black_moves_its_own_checkers(
    start: Callable[..., Game], roll: Callable[..., None], player: User, opponent: User
) -> None:
    game = start(3, 1)
    game = act(game, "game_play_move", player, play_text="8/5 6/5")
    assert (game.turn, game.state) == (1, Game.State.ROLLING)
    roll(6, 5)
    game = act(game, "game_roll", opponent)
    assert game.position().checkers_of(Color.BLACK) == {24: 2, 13: 5, 8: 3, 6: 5}
    game = act(game, "game_play_move", opponent, play_text="24/13")
    # Black's 24 and 13 points are White's 1 and 12.
    assert game.board["points"][0] == -1 and game.board["points"][11] == -6
    assert game.position().checkers_of(Color.WHITE) == {24: 2, 13: 5, 8: 2, 6: 4, 5: 2}


def test_resigning_with_none_borne_off_is_a_gammon_whoever_is_on_turn(
    start: Callable[..., Game], roll: Callable[..., None], opponent: User
) -> None:
    game = start(3, 1)
    set_board(
        game,
        board=board({6: 5, 5: 5}, {6: 15}),
        turn=1,
        state=Game.State.ROLLING,
        die1=None,
        die2=None,
    )
    roll(5, 2)
    game = act(game, "game_resign", opponent)
    assert (game.winner, game.termination, game.points) == (0, "resign", 2)
