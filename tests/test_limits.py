"""The players' rates (backgammon/limits.py) and the API's rate of changing requests.

A rate refuses past its number with a 429 that says when to try again, in the player's
language; another player is not affected; while Redis is down nothing is refused and the
outage is logged, as for the log-in limits. The limits of each action are tested with
the action (tests/challenges, tests/chouettes, tests/bots, tests/matches, tests/analysis).
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.utils import translation
from pytest_django.fixtures import Settings

from accounts.models import User
from backgammon import cache as resilient
from backgammon.errors import LimitReached
from backgammon.limits import rate_check, wait_text
from challenges.models import Challenge
from tests.conftest import LIMITS
from tests.matches.api_helpers import token_client

CLOSED = "redis://127.0.0.1:1/0"


def refused(scope: str, user_id: int) -> LimitReached:
    with pytest.raises(LimitReached) as caught:
        rate_check(scope, user_id)
    return caught.value


def test_a_rate_refuses_past_its_number_saying_when_to_retry(settings: Settings) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 2
    rate_check("messages", 1)
    rate_check("messages", 1)
    error = refused("messages", 1)
    assert (error.status, error.code) == (429, "too_many_messages")
    assert error.retry_after is not None and 1 <= error.retry_after <= 60
    assert str(error).startswith("You have sent as many messages as a player may in a minute (2)")
    with translation.override("es"):
        assert str(error).startswith("Has enviado tantos mensajes como puede enviar un jugador")
        assert "Vuelve a intentarlo dentro de" in str(error) and "segundo" in str(error)
    rate_check("messages", 2)  # another player's count is their own
    rate_check("analyses", 1)  # and so is each rate's


def test_a_refusal_counts_several_actions_at_once(settings: Settings) -> None:
    settings.LIMIT_INVITATIONS_PER_HOUR = 5
    rate_check("invitations", 1, count=4)
    with pytest.raises(LimitReached) as caught:
        rate_check("invitations", 1, count=2)
    assert caught.value.code == "too_many_invitations"
    assert caught.value.retry_after is not None and caught.value.retry_after <= 3600


@pytest.mark.parametrize(
    ("seconds", "english", "spanish"),
    [
        (1, "1 second", "1 segundo"),
        (59, "59 seconds", "59 segundos"),
        (61, "2 minutes", "2 minutos"),
        (3599, "60 minutes", "60 minutos"),
        (3600, "1 hour", "1 hora"),
        (3601, "2 hours", "2 horas"),
        (2 * 86400 - 1, "48 hours", "48 horas"),
        (14 * 86400 - 5, "14 days", "14 días"),
    ],
)
def test_the_wait_is_said_as_a_person_says_it_rounded_up(
    seconds: int, english: str, spanish: str
) -> None:
    assert wait_text(seconds) == english
    with translation.override("es"):
        assert wait_text(seconds) == spanish


# --------------------------------------------------------------------------- settings

#: The site's defaults (README's deployment table); the tests raise them all
#: (tests/conftest.py), so they are read from a fresh process.
DEFAULTS = {
    "LIMIT_OPEN_CHALLENGES": 20,
    "LIMIT_TO_ONE_PLAYER": 3,
    "LIMIT_CHOUETTE_INVITATIONS": 20,
    "LIMIT_BOT_MATCHES": 10,
    "LIMIT_INVITATIONS_PER_HOUR": 30,
    "LIMIT_MESSAGES_PER_MINUTE": 10,
    "LIMIT_ANALYSES_PER_DAY": 20,
    "LIMIT_API_ACTIONS_PER_MINUTE": 60,
}


def settings_of(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = (
        "import json, backgammon.settings as s;"
        f"print(json.dumps({{n: getattr(s, n) for n in {sorted(DEFAULTS)!r}}}))"
    )
    return subprocess.run(
        [sys.executable, "-c", code],
        env={**{k: v for k, v in os.environ.items() if not k.startswith("LIMIT_")}, **env},
        cwd=Path(__file__).resolve().parent.parent,
        capture_output=True,
        text=True,
    )


def test_the_limits_default_to_a_real_sites_numbers_and_each_can_be_set() -> None:
    assert set(DEFAULTS) == set(LIMITS)
    assert json.loads(settings_of({}).stdout.strip().splitlines()[-1]) == DEFAULTS
    changed = settings_of({"LIMIT_BOT_MATCHES": "4"})
    assert json.loads(changed.stdout.strip().splitlines()[-1])["LIMIT_BOT_MATCHES"] == 4
    refused = settings_of({"LIMIT_MESSAGES_PER_MINUTE": "0"})
    assert refused.returncode != 0 and "LIMIT_MESSAGES_PER_MINUTE" in refused.stderr


# --------------------------------------------------------------------------- Redis down


@pytest.fixture
def redis_down(settings: Settings) -> Iterator[None]:
    """The site's cache is Redis, as in production, and nothing listens on its port."""
    resilient._unavailable_until.clear()
    settings.CACHES = {
        "default": {
            "BACKEND": "backgammon.cache.ResilientRedisCache",
            "LOCATION": CLOSED,
            "OPTIONS": {"socket_connect_timeout": 1.0, "socket_timeout": 1.0},
        }
    }
    yield
    resilient._unavailable_until.clear()


def test_with_redis_down_the_rates_fail_open_with_a_warning(
    redis_down: None, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    settings.LIMIT_MESSAGES_PER_MINUTE = 1
    with caplog.at_level(logging.WARNING, logger="backgammon.cache"):
        for _ in range(5):
            rate_check("messages", 1)
    warnings = [r.getMessage() for r in caplog.records if r.name == "backgammon.cache"]
    assert any("rate limits are not enforced" in w for w in warnings)


def test_a_count_the_cache_loses_midway_lets_the_action_through(
    settings: Settings, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Redis gone between the window's first count and the next (``incr`` of a key that
    is not there): ``RATELIMIT_FAIL_OPEN`` lets it through rather than refusing."""
    settings.LIMIT_MESSAGES_PER_MINUTE = 1
    rate_check("messages", 1)

    def lost(*args: Any, **kwargs: Any) -> int:
        raise ValueError("Key not found.")

    monkeypatch.setattr("django.core.cache.backends.locmem.LocMemCache.incr", lost)
    rate_check("messages", 1)
    rate_check("messages", 1)


# --------------------------------------------------------------------------- the API


@pytest.mark.django_db
def test_the_api_counts_a_players_changing_requests_and_refuses_past_them(
    settings: Settings, player: User, opponent: User
) -> None:
    settings.LIMIT_API_ACTIONS_PER_MINUTE = 3
    player.language = "es"
    player.save(update_fields=["language"])
    client = token_client(player)
    for _ in range(3):
        response = client.post("/api/challenges/", {"opponent": None}, format="json")
        assert response.status_code == 201, response.json()
    assert client.get("/api/matches/").status_code == 200  # reading does not count
    response = client.post("/api/challenges/", {"opponent": None}, format="json")
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "too_many_api_actions"
    assert body["detail"].startswith("Has enviado tantas acciones por la API")
    assert 1 <= int(response["Retry-After"]) <= 60
    assert Challenge.objects.count() == 3  # nothing changed
    assert client.get("/api/matches/").status_code == 200
    other = token_client(opponent).post("/api/challenges/", {"opponent": None}, format="json")
    assert other.status_code == 201  # another player's count is their own
