"""The count of a player's sockets on a game's page (``matches.presence``): what the
live consumer keeps, and the pages read."""

from __future__ import annotations

from django.core.cache import cache

from matches.presence import (
    players_here,
    presence_arrive,
    presence_leave,
    presence_refresh,
)


def test_the_first_socket_arrives_and_the_last_leaves() -> None:
    assert players_here(1, [5]) is None  # nothing counted yet: the cache knows nothing
    assert presence_arrive(game_id=1, user_id=5)
    assert not presence_arrive(game_id=1, user_id=5)
    assert players_here(1, [5, 6]) == {5: True, 6: False}
    assert not presence_leave(game_id=1, user_id=5)
    assert presence_leave(game_id=1, user_id=5)
    assert players_here(1, [5]) == {5: False}
    assert players_here(2, [5]) == {5: False}  # another game


def test_a_lost_count_is_made_again_by_the_refresh_of_an_open_socket() -> None:
    presence_arrive(game_id=1, user_id=5)
    presence_arrive(game_id=1, user_id=5)
    assert not presence_refresh(game_id=1, user_id=5)  # alive: only kept
    cache.delete("presence:1:5")  # lost (evicted, Redis restarted)
    assert players_here(1, [5]) == {5: False}
    assert presence_refresh(game_id=1, user_id=5)  # counted again: arrives
    assert players_here(1, [5]) == {5: True}
    # Both sockets close: the count never goes below zero, the player has left.
    assert presence_leave(game_id=1, user_id=5)
    assert presence_leave(game_id=1, user_id=5)
    assert players_here(1, [5]) == {5: False}
    assert presence_arrive(game_id=1, user_id=5)


def test_a_leave_the_cache_cannot_count_says_nothing() -> None:
    assert not presence_leave(game_id=1, user_id=5)
