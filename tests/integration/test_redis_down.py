"""With Redis unreachable the site keeps working: the production server (uvicorn, ASGI)
serves it, with ``REDIS_URL`` at a closed port (127.0.0.1:1), while a player signs in
through the form, opens a game page and moves there, and a bot moves through the API with
its token. The live pushes those moves owe are dropped (the pages poll).

Redis is the cache and the broker, never the source of truth (backgammon/cache.py):
reads go to the database, rate limits fail open, the suspension check still refuses a
suspended player, and the e-mail rows a move owes stay ``pending`` for the sweeper.

The server needs a database of its own that another process can open: a fresh SQLite
file, or, when ``DATABASE_URL`` is PostgreSQL (CI), a fresh database on that server. It
is migrated and seeded by subprocesses; nothing here uses the test database.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests

from challenges import services as challenge_services
from tests.integration.servers import (
    PASSWORD,
    Site,
    csrf_token,
    migrate,
    run_python,
    server_env,
    sign_in,
)

CLOSED_REDIS = "redis://127.0.0.1:1/0"


# --------------------------------------------------------------------------- database


@pytest.fixture
def site_env(database_url: str, tmp_path: Path) -> dict[str, str]:
    return server_env(database_url, CLOSED_REDIS, tmp_path)


def seed() -> None:
    """(In the site's process.) Alice and Bob in a game, Carol suspended; prints the ids."""
    from allauth.account.models import EmailAddress
    from django.utils import timezone
    from rest_framework.authtoken.models import Token

    from accounts.models import User
    from moderation.players import user_suspend
    from notifications.models import Notification

    def player(name: str) -> User:
        user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    alice, bob, carol = player("alice"), player("bob"), player("carol")
    moderator = User.objects.create_superuser("mod", "mod@example.com", PASSWORD)
    now = timezone.now()
    user_suspend(moderator=moderator, user=carol, reason="Testing the suspension", now=now)
    challenge = challenge_services.challenge_create(challenger=alice, opponent=bob, now=now)
    game = challenge_services.challenge_accept(
        challenge_id=challenge.pk, user=bob, now=now
    ).current_game
    assert game is not None and game.state == "moving"
    mover = game.match.player(game.turn_color)
    other = game.match.player(game.turn_color.other)
    token = Token.objects.create(user=other)
    last = Notification.objects.order_by("pk").values_list("pk", flat=True).last() or 0
    print(
        json.dumps({"game": game.pk, "mover": mover.username, "bot_token": token.key, "last": last})
    )


def suspend(username: str) -> None:
    """(In the site's process.) Suspend ``username`` now, as a moderator would."""
    from django.utils import timezone

    from accounts.models import User
    from moderation.players import user_suspend

    user_suspend(
        moderator=User.objects.get(username="mod"),
        user=User.objects.get(username=username),
        reason="Suspended while Redis was down",
        now=timezone.now(),
    )


def email_statuses(after: int) -> None:
    """(In the site's process.) The statuses of the outbox's e-mail rows after row ``after``."""
    from notifications.models import Notification

    rows = Notification.objects.filter(delivery="email", pk__gt=after)
    rows = rows.values_list("status", flat=True)
    print(json.dumps(sorted(set(rows))))


HERE = "from tests.integration.test_redis_down import"


# --------------------------------------------------------------------------- server


@pytest.fixture
def site(site_env: dict[str, str], tmp_path: Path) -> Iterator[tuple[Site, dict[str, Any]]]:
    migrate(site_env)
    # Seeded with no Redis configured at all (tasks in-process): only the server is in the outage.
    without_redis = {k: v for k, v in site_env.items() if k != "REDIS_URL"}
    seeded = json.loads(run_python(without_redis, f"{HERE} seed; seed()"))
    server = Site(site_env, tmp_path / "server.log")
    try:
        yield server, seeded
    finally:
        server.stop()


# --------------------------------------------------------------------------- the test


def test_the_site_works_while_redis_is_unreachable(
    site: tuple[Site, dict[str, Any]], site_env: dict[str, str]
) -> None:
    server, seeded = site
    game_url = f"{server.url}/games/{seeded['game']}/"

    # Log-in through the form (the rate limits cannot read the cache: they let it through).
    browser, answer = sign_in(server, seeded["mover"])
    assert answer.status_code == 302, answer.text[:2000]
    assert browser.get(f"{server.url}/dashboard/", timeout=30).status_code == 200

    # The game page, and a move sent with its form.
    page = browser.get(game_url, timeout=30)
    assert page.status_code == 200, page.text[:2000]
    ply = re.search(r'id="move-form">.*?name="ply" value="(\d+)"', page.text, re.S)
    plays = re.findall(r'<option value="([^"]+)">', page.text)
    assert ply and plays
    moved = browser.post(
        game_url,
        data={
            "csrfmiddlewaretoken": csrf_token(page.text),
            "action": "move",
            "ply": ply.group(1),
            "play": plays[0],
            "confirm": "",
        },
        allow_redirects=False,
        timeout=30,
    )
    assert moved.status_code == 302, moved.text[:2000]

    # The opponent's bot moves through the API with its token.
    api = requests.Session()
    api.headers["Authorization"] = f"Token {seeded['bot_token']}"
    api_url = f"{server.url}/api/games/{seeded['game']}/"
    game = api.get(api_url, timeout=30).json()
    assert int(game["ply"]) > int(ply.group(1)), "the web move was not recorded"
    if "roll" in game["actions"]:
        rolled = api.post(f"{api_url}roll", json={"ply": game["ply"]}, timeout=30)
        assert rolled.status_code == 200, rolled.text
        game = rolled.json()
    assert "move" in game["actions"], game
    api_moved = api.post(
        f"{api_url}move",
        json={"ply": game["ply"], "play": game["plays"][0]["notation"]},
        timeout=30,
    )
    assert api_moved.status_code == 200, api_moved.text
    assert api_moved.json()["ply"] > game["ply"]

    # The e-mails these moves owe wait in the outbox for the sweeper.
    assert json.loads(
        run_python(site_env, f"{HERE} email_statuses; email_statuses({seeded['last']})")
    ) == ["pending"]

    # The suspension check reads the database: a suspended player cannot sign in, and a
    # player suspended during the outage is refused at their next request.
    _, refused = sign_in(server, "carol")
    assert refused.status_code == 403 and "Testing the suspension" in refused.text
    run_python(site_env, f"{HERE} suspend; suspend({seeded['mover']!r})")
    stopped = browser.get(game_url, timeout=30)
    assert stopped.status_code == 403 and "Suspended while Redis was down" in stopped.text

    log = server.output()
    assert "Internal Server Error" not in log and "Traceback" not in log, log
    assert "Redis cache unavailable" in log
