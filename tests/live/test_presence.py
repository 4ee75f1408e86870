"""A player at the board of their live game: counted by their sockets on its page, told to
the game's group when they arrive or leave (issue 28: "a player who leaves the page is
shown as away to the opponent")."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.testing.websocket import WebsocketCommunicator
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon import cache as resilient
from live import groups
from matches.models import Game
from matches.presence import players_here
from moderation.models import Suspension
from tests.matches.clock_helpers import start_game

from .test_consumers import follow, run, socket

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def live_game(monkeypatch: pytest.MonkeyPatch, player: User, opponent: User) -> Game:
    """alice (White, on turn) vs bob, a live 1-point match on seed 004's clock."""
    return start_game(
        monkeypatch, player, opponent, now=timezone.now(), length=1, live_delay=11, live_reserve=90
    )


def presence(game: Game, user: User, here: bool) -> dict[str, Any]:
    return {"kind": "presence", "game": game.pk, "player": user.pk, "here": here}


@database_sync_to_async
def here_now(game: Game, *users: User) -> dict[int, bool] | None:
    return players_here(game.pk, [user.pk for user in users])


async def hears_nothing(ws: WebsocketCommunicator) -> None:
    if not await ws.receive_nothing(timeout=0.3):
        raise AssertionError(f"heard {await ws.receive_output(timeout=1)}")


async def watching(game: Game) -> WebsocketCommunicator:
    """A visitor's socket on the game's page: what every spectator hears."""
    ws = socket()
    assert (await ws.connect())[0]
    await follow(ws, groups.game(game.pk))
    return ws


def test_a_player_is_here_while_one_of_their_sockets_is_open_and_away_after_the_last(
    live_game: Game, player: User
) -> None:
    first, second = socket(player), socket(player)

    async def body() -> None:
        spectator = await watching(live_game)
        assert (await first.connect())[0]
        await follow(first, groups.game(live_game.pk))
        assert await spectator.receive_json_from(timeout=5) == presence(live_game, player, True)
        assert await here_now(live_game, player) == {player.pk: True}

        assert (await second.connect())[0]
        await follow(second, groups.game(live_game.pk))
        await first.disconnect()  # one of two tabs closed: still at the board
        await hears_nothing(spectator)
        assert await here_now(live_game, player) == {player.pk: True}

        await second.disconnect()
        assert await spectator.receive_json_from(timeout=5) == presence(live_game, player, False)
        assert await here_now(live_game, player) == {player.pk: False}
        await spectator.disconnect()

    run(body)


def test_the_opponent_hears_the_player_arrive_and_leave(
    live_game: Game, player: User, opponent: User
) -> None:
    his, hers = socket(opponent), socket(player)

    async def body() -> None:
        assert (await his.connect())[0]
        await follow(his, groups.game(live_game.pk))
        assert await his.receive_json_from(timeout=5) == presence(live_game, opponent, True)
        assert (await hers.connect())[0]
        await follow(hers, groups.game(live_game.pk))
        assert await his.receive_json_from(timeout=5) == presence(live_game, player, True)
        assert await here_now(live_game, player, opponent) == {player.pk: True, opponent.pk: True}
        await hers.disconnect()
        assert await his.receive_json_from(timeout=5) == presence(live_game, player, False)
        await his.disconnect()

    run(body)


def test_a_spectators_or_a_visitors_socket_makes_no_one_here(
    live_game: Game, player: User, outsider: User
) -> None:
    charlie, visitor = socket(outsider), socket()

    async def body() -> None:
        spectator = await watching(live_game)
        for ws in (charlie, visitor):
            assert (await ws.connect())[0]
            await follow(ws, groups.game(live_game.pk))
        await hears_nothing(spectator)
        # Nothing was counted at all: the cache knows nothing, seen_at decides.
        assert await here_now(live_game, player, outsider) is None
        for ws in (charlie, visitor, spectator):
            await ws.disconnect()
        assert await here_now(live_game, player, outsider) is None

    run(body)


def test_a_players_socket_on_a_correspondence_game_counts_nothing(
    monkeypatch: pytest.MonkeyPatch, player: User, opponent: User
) -> None:
    game = start_game(monkeypatch, player, opponent, now=timezone.now(), length=1)
    ws = socket(player)

    async def body() -> None:
        spectator = await watching(game)
        assert (await ws.connect())[0]
        await follow(ws, groups.game(game.pk))
        await hears_nothing(spectator)
        assert await here_now(game, player) is None
        await ws.disconnect()
        await spectator.disconnect()

    run(body)


def test_a_suspended_players_socket_changes_nothing(live_game: Game, player: User) -> None:
    Suspension.objects.create(
        user=player,
        reason="Spam.",
        starts_at=timezone.now() - timedelta(minutes=1),
        created_by=player,
    )
    ws = socket(player)

    async def body() -> None:
        spectator = await watching(live_game)
        connected, code = await ws.connect()
        assert not connected and code == 4403
        await hears_nothing(spectator)
        assert await here_now(live_game, player) is None
        await spectator.disconnect()

    run(body)


@pytest.fixture
def redis_down(settings: Settings) -> Iterator[None]:
    """The site's cache is Redis, as in production, and nothing listens on its port."""
    resilient._unavailable_until.clear()
    settings.CACHES = {
        "default": {
            "BACKEND": "backgammon.cache.ResilientRedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    yield
    resilient._unavailable_until.clear()


def test_with_the_cache_down_a_players_socket_works_and_nothing_is_told(
    live_game: Game, player: User, redis_down: None
) -> None:
    ws = socket(player)

    async def body() -> None:
        spectator = await watching(live_game)
        assert (await ws.connect())[0]
        assert await follow(ws, groups.game(live_game.pk)) == sorted(
            [groups.game(live_game.pk), groups.user(player.pk)]
        )
        await ws.disconnect()
        await hears_nothing(spectator)
        assert await here_now(live_game, player) is None  # the pages fall back on seen_at
        await spectator.disconnect()

    run(body)
