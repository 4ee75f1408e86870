"""Who is at a game's board now (issue 28: "a player who leaves the page is shown as away
to the opponent"): a player of the game with at least one socket open on its page.

``User.seen_at`` says only that a player was on the site in the last minutes; closing the
game's page must show them away at once. So the live consumer (``live.presence``) keeps a
count per (game, player) in the cache: one more when a socket of a player of the game
follows ``game.N``, one less when it closes. Each count expires :data:`TTL` after it was
last refreshed, and every open socket refreshes its own every :data:`REFRESH_EVERY` (and
makes it at least one again if it was lost: Redis restarted, a key evicted), so the
sockets of a process that died fade within :data:`TTL`.

The cache is never the truth here either. While it is empty (Redis down: see
``backgammon.cache``; or emptied) :func:`players_here` answers None and the pages fall
back to ``seen_at`` (``accounts.services.is_online``); a write that cannot be made is
skipped, never an error. :data:`KNOWN` marks a cache that has counted: it is added (no
expiry) whenever a count is, so a count missing beside it means "not here".
"""

from __future__ import annotations

from collections.abc import Iterable

from django.core.cache import cache

#: Seconds a count lives after its last refresh: a dead process's sockets fade by then.
TTL = 90
#: Seconds between two refreshes of an open socket's counts (well inside :data:`TTL`).
REFRESH_EVERY = 30
#: Present (forever) in a cache that counts presence; missing in an empty one.
KNOWN = "presence:known"


def _key(game_id: int, user_id: int) -> str:
    return f"presence:{game_id}:{user_id}"


def _add_one(key: str) -> int | None:
    """One more socket under ``key``: the new count, or None if the cache cannot count."""
    cache.add(KNOWN, True, None)
    cache.add(key, 0, TTL)
    try:
        count = cache.incr(key)
    except ValueError:  # the cache is down (answers as empty), or the key just expired
        return None
    cache.touch(key, TTL)
    return count


def presence_arrive(*, game_id: int, user_id: int) -> bool:
    """Count a socket of the player at the game; True when it is their first (arrived)."""
    return _add_one(_key(game_id, user_id)) == 1


def presence_leave(*, game_id: int, user_id: int) -> bool:
    """Count a socket of the player as closed; True when it was their last (left).

    A count the cache lost is left alone (False): nothing is known, so nothing is said;
    the pages read the cache (or ``seen_at``) again at their next refresh."""
    key = _key(game_id, user_id)
    try:
        count = cache.decr(key)
    except ValueError:
        return False
    if count < 0:  # a count made again by a refresh after one was lost
        cache.set(key, 0, TTL)
    return count <= 0


def presence_refresh(*, game_id: int, user_id: int) -> bool:
    """Keep an open socket's count alive; True when it had to be counted again from zero
    (it was lost or had expired: the player arrives again for the pages)."""
    key = _key(game_id, user_id)
    count = cache.get(key)
    if isinstance(count, int) and count > 0:
        cache.touch(key, TTL)
        return False
    return _add_one(key) == 1


def players_here(game_id: int, user_ids: Iterable[int]) -> dict[int, bool] | None:
    """Whether each player has a socket open on the game's page, in one cache read; None
    when the cache knows nothing (Redis down or emptied): then ``seen_at`` decides."""
    keys = {_key(game_id, user_id): user_id for user_id in user_ids}
    found = cache.get_many([KNOWN, *keys])
    if KNOWN not in found:
        return None
    return {user_id: (found.get(key) or 0) > 0 for key, user_id in keys.items()}
