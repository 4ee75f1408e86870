"""The Redis cache backend answers as an empty cache while Redis is unreachable, and the
pages that read the cache keep working: the suspension check reads the database and the
log-in rate limits fail open, each outage with a warning in the log."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterator

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon import cache as resilient
from backgammon.cache import ResilientRedisCache
from moderation import players
from tests.factories import PASSWORD, UserFactory

CLOSED = "redis://127.0.0.1:1/0"
OPTIONS = {"socket_connect_timeout": 1.0, "socket_timeout": 1.0}


@pytest.fixture(autouse=True)
def _redis_not_known_down() -> Iterator[None]:
    resilient._unavailable_until.clear()
    yield
    resilient._unavailable_until.clear()


@pytest.fixture
def redis_down(settings: Settings) -> None:
    """The site's cache is Redis, as in production, and nothing listens on its port."""
    settings.CACHES = {
        "default": {
            "BACKEND": "backgammon.cache.ResilientRedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": OPTIONS,
        }
    }


def warnings_in(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "backgammon.cache"]


def test_an_unreachable_redis_answers_as_an_empty_cache_that_forgets_writes(
    caplog: pytest.LogCaptureFixture,
) -> None:
    down = ResilientRedisCache(CLOSED, {"OPTIONS": OPTIONS})
    with caplog.at_level(logging.WARNING, logger="backgammon.cache"):
        assert down.get("k", "default") == "default"
        down.set("k", 1)
        assert down.add("k", 1) is True  # as on an empty cache: a lock taken with add opens
        assert down.get("k") is None
        assert down.get_many(["k", "j"]) == {}
        assert down.has_key("k") is False
        assert down.touch("k") is False
        assert down.delete("k") is False
        assert down.set_many({"k": 1}) == []
        down.delete_many(["k"])
        assert down.clear() is False
        with pytest.raises(ValueError):
            down.incr("k")
    [warning] = warnings_in(caplog)
    assert "ConnectionError" in warning and "rate limits are not enforced" in warning


def test_after_a_failure_redis_is_not_tried_again_for_a_while(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    down = ResilientRedisCache(CLOSED, {"OPTIONS": OPTIONS})
    assert down.get("k") is None
    attempts: list[str] = []
    monkeypatch.setattr(
        "django.core.cache.backends.redis.RedisCacheClient.get_client",
        lambda self, key=None, *, write=False: attempts.append(key) or pytest.fail("tried"),
    )
    assert down.get("k") is None and down.add("k", 1) is True
    assert attempts == []
    later = resilient.time.monotonic() + resilient.RETRY_AFTER_SECONDS + 1
    monkeypatch.setattr(resilient.time, "monotonic", lambda: later)
    with pytest.raises(pytest.fail.Exception):
        down.get("k")
    assert attempts == [":1:k"]


def test_errors_that_are_not_redis_errors_still_raise() -> None:
    down = ResilientRedisCache(CLOSED, {"OPTIONS": OPTIONS})
    with pytest.raises(Exception, match="pickle"):
        down.set("k", lambda: None)


@pytest.mark.redis
def test_with_redis_up_it_is_django_redis_cache(settings: Settings) -> None:
    key = f"test-{uuid.uuid4()}"
    assert cache.add(key, 1, timeout=30) is True
    assert cache.add(key, 2, timeout=30) is False
    assert cache.incr(key) == 2
    assert cache.get_many([key]) == {key: 2}
    assert cache.delete(key) is True
    assert cache.get(key, "gone") == "gone"


@pytest.mark.django_db
def test_with_redis_down_a_suspended_session_is_still_refused(
    redis_down: None, player: User, player_client: Client, superuser: User
) -> None:
    assert player_client.get(reverse("dashboard")).status_code == 200
    players.user_suspend(
        moderator=superuser, user=player, reason="Abusive messages.", now=timezone.now()
    )
    response = player_client.get(reverse("dashboard"))
    assert response.status_code == 403 and "Abusive messages." in response.content.decode()


@pytest.mark.django_db
def test_with_redis_down_the_log_in_works_and_its_limits_fail_open_with_a_warning(
    redis_down: None, player: User, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    with caplog.at_level(logging.WARNING, logger="backgammon.cache"):
        for _ in range(12):  # more than any limit allows
            wrong = client.post(reverse("account_login"), {"login": "alice", "password": "nope"})
            assert wrong.status_code == 400
            assert "Too many failed login attempts" not in wrong.content.decode()
        response = client.post(reverse("account_login"), {"login": "alice", "password": PASSWORD})
    assert response.status_code == 302 and response["Location"] == reverse("dashboard")
    assert any("rate limits are not enforced" in w for w in warnings_in(caplog))


@pytest.fixture
def superuser(db: None) -> User:
    return UserFactory(username="root", is_staff=True, is_superuser=True)
