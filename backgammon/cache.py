"""The Redis cache backend of ``settings.CACHES``: an outage of Redis costs speed, never a 500.

Redis is a cache and a broker here, never the source of truth. Django's ``RedisCache``
raises ``redis.exceptions.ConnectionError`` from every call while Redis is down, and every
request that reads the cache (the suspension check of each signed-in request, allauth's
log-in rate limits) then answered 500. ``ResilientRedisCache`` answers such a call as
Django's ``DummyCache`` would, as an empty cache that forgets every write:

- a read is a miss (``get`` gives the default, ``get_many`` ``{}``, ``has_key`` False), so
  the caller computes the value from the database, as on any miss: the suspension check
  (``moderation.selectors.suspension_of``) still refuses a suspended player;
- a write does nothing (``set``, ``set_many``, ``delete``, ``delete_many``, ``touch``,
  ``clear``);
- ``add`` says it stored the value, as on an empty cache. Its only callers are allauth's
  rate limits, which take a short lock with ``add`` and then find no history: **rate
  limits fail open** (a request is never refused because Redis is down), and the log
  line says so;
- ``incr`` raises ``ValueError``, as for a missing key.

After a failure the backend does not try Redis again for :data:`RETRY_AFTER_SECONDS`
(per process), so a request during an outage does not wait for one connection attempt
per cache call; it logs one warning per such interval. Errors other than Redis's own
(a value that cannot be pickled, a bad key) still raise. The connection timeouts are set
short in ``settings.CACHES`` (``OPTIONS``), and redis-py retries nothing by default.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Mapping
from datetime import timedelta
from typing import Any, TypeAlias, TypeVar

from django.core.cache.backends.redis import RedisCache, RedisCacheClient
from redis.exceptions import RedisError

log = logging.getLogger(__name__)

#: After a failed call, Redis is left alone for this long (the calls answer as a miss).
RETRY_AFTER_SECONDS = 5.0

T = TypeVar("T")

#: The key and timeout types of ``RedisCacheClient``'s methods (as in django-stubs).
Key: TypeAlias = str | bytes | memoryview
Expiry: TypeAlias = int | timedelta

#: Per server list: the monotonic time before which Redis is not tried again.
_unavailable_until: dict[tuple[str, ...], float] = {}


class ResilientRedisCacheClient(RedisCacheClient):
    """Django's client, with each call answered as an empty cache when Redis cannot answer."""

    def __init__(self, servers: list[str], **options: Any) -> None:
        super().__init__(servers, **options)
        self._servers_key = tuple(servers)

    def _guard(self, operation: str, call: Callable[[], T], empty: T) -> T:
        if time.monotonic() < _unavailable_until.get(self._servers_key, 0.0):
            return empty
        try:
            return call()
        except RedisError as exc:
            _unavailable_until[self._servers_key] = time.monotonic() + RETRY_AFTER_SECONDS
            log.warning(
                "Redis cache unavailable (%s in %s: %s): answering as an empty cache for "
                "%.0f s; rate limits are not enforced, reads go to the database",
                type(exc).__name__,
                operation,
                exc,
                RETRY_AFTER_SECONDS,
            )
            return empty

    def add(self, key: Key, value: Any, timeout: Expiry | None) -> bool:
        return self._guard("add", lambda: RedisCacheClient.add(self, key, value, timeout), True)

    def get(self, key: Key, default: Any) -> Any:
        return self._guard("get", lambda: RedisCacheClient.get(self, key, default), default)

    def set(self, key: Key, value: Any, timeout: Expiry | None) -> None:
        self._guard("set", lambda: RedisCacheClient.set(self, key, value, timeout), None)

    def touch(self, key: Key, timeout: Expiry | None) -> bool:
        # None (no expiry) is what RedisCache.touch passes for timeout=None, and Django's
        # client handles it; django-stubs leave None out of this one parameter.
        return self._guard(
            "touch",
            lambda: RedisCacheClient.touch(self, key, timeout),  # type: ignore[arg-type]
            False,
        )

    def delete(self, key: Key) -> bool:
        return self._guard("delete", lambda: RedisCacheClient.delete(self, key), False)

    def get_many(self, keys: Iterable[Key]) -> dict[Key, Any]:
        listed = list(keys)
        return self._guard("get_many", lambda: RedisCacheClient.get_many(self, listed), {})

    def has_key(self, key: Key) -> bool:
        return self._guard("has_key", lambda: RedisCacheClient.has_key(self, key), False)

    def incr(self, key: Key, delta: int) -> int:
        value: int | None = self._guard(
            "incr", lambda: RedisCacheClient.incr(self, key, delta), None
        )
        if value is None:  # as for a key that is not there
            raise ValueError(f"Key {key!r} not found.")
        return value

    def set_many(self, data: Mapping[Key, Any], timeout: Expiry | None) -> None:
        # None as in touch: RedisCache.set_many passes it for timeout=None.
        self._guard(
            "set_many",
            lambda: RedisCacheClient.set_many(self, data, timeout),  # type: ignore[arg-type]
            None,
        )

    def delete_many(self, keys: Iterable[Key]) -> None:
        self._guard("delete_many", lambda: RedisCacheClient.delete_many(self, keys), None)

    def clear(self) -> bool:
        return self._guard("clear", lambda: RedisCacheClient.clear(self), False)


class ResilientRedisCache(RedisCache):
    """``RedisCache`` whose calls answer as an empty cache while Redis is unreachable."""

    def __init__(self, server: str | list[str], params: dict[str, Any]) -> None:
        super().__init__(server, params)
        self._class = ResilientRedisCacheClient
