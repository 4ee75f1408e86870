"""Two server processes of the site (uvicorn, ASGI) sharing Redis's channel layer, as two
web machines behind a load balancer: an action made through one reaches a socket open on
the other, at once.

Bob keeps a socket open on server B, following the game; Alice moves through server A's
game page. Bob's socket hears that the game moved on, and that it is his turn.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets

from tests.integration.servers import (
    PASSWORD,
    Site,
    csrf_token,
    migrate,
    run_python,
    server_env,
    sign_in,
)
from tests.loops import run_apart
from tests.worker import Redis

pytestmark = [pytest.mark.redis]

HERE = "from tests.integration.test_live_servers import"


def seed() -> None:
    """(In a site's process.) Alice and Bob in a game; prints its id and who moves."""
    from allauth.account.models import EmailAddress
    from django.utils import timezone

    from accounts.models import User
    from challenges import services as challenge_services

    def player(name: str) -> User:
        user = User.objects.create_user(name, f"{name}@example.com", PASSWORD)
        EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
        return user

    alice, bob = player("alice"), player("bob")
    now = timezone.now()
    challenge = challenge_services.challenge_create(challenger=alice, opponent=bob, now=now)
    match = challenge_services.challenge_accept(challenge_id=challenge.pk, user=bob, now=now)
    game = match.current_game
    assert game is not None
    mover, other = game.match.player(game.turn_color), game.match.player(game.turn_color.other)
    print(json.dumps({"game": game.pk, "mover": mover.username, "other": other.username}))


@pytest.fixture
def two_servers(database_url: str, tmp_path: Path) -> Iterator[tuple[Site, Site, dict[str, Any]]]:
    redis = Redis()
    redis.start()
    env = server_env(database_url, redis.url, tmp_path)
    migrate(env)
    seeded = json.loads(run_python(env, f"{HERE} seed; seed()"))
    a = Site(env, tmp_path / "a.log")
    try:
        b = Site(env, tmp_path / "b.log")
        try:
            yield a, b, seeded
        finally:
            b.stop()
    finally:
        a.stop()
        redis.stop()


async def listen(url: str, cookie: str, follow: list[str], moved: asyncio.Event) -> list[Any]:
    """Open a socket on ``url`` as the session ``cookie``, follow ``follow``, let the
    mover go (``moved`` is set by the caller once the socket follows), and collect the
    events until the game's and the player's have both come."""
    heard: list[Any] = []
    async with websockets.connect(
        url,
        origin=url.replace("ws://", "http://").split("/ws/")[0],
        additional_headers={"Cookie": cookie},
    ) as socket:
        await socket.send(json.dumps({"follow": follow}))
        following = json.loads(await asyncio.wait_for(socket.recv(), 10))
        assert set(follow) <= set(following["groups"]), following
        moved.set()
        while {e.get("kind") for e in heard} < {"game", "turn"}:
            heard.append(json.loads(await asyncio.wait_for(socket.recv(), 10)))
    return heard


def test_a_move_through_one_server_reaches_a_socket_on_the_other(
    two_servers: tuple[Site, Site, dict[str, Any]],
) -> None:
    a, b, seeded = two_servers
    game_id = seeded["game"]
    mover, _ = sign_in(a, seeded["mover"])
    watcher, answer = sign_in(b, seeded["other"])
    assert answer.status_code == 302
    cookie = "; ".join(f"{k}={v}" for k, v in watcher.cookies.items())
    page = mover.get(f"{a.url}/games/{game_id}/", timeout=30)
    ply = re.search(r'id="move-form">.*?name="ply" value="(\d+)"', page.text, re.S)
    plays = re.findall(r'<option value="([^"]+)">', page.text)
    assert ply and plays, "the mover's page offers a move"

    async def scene() -> list[Any]:
        moved = asyncio.Event()
        socket = asyncio.create_task(
            listen(f"ws://127.0.0.1:{b.port}/ws/live/", cookie, [f"game.{game_id}"], moved)
        )
        await moved.wait()
        answer = await asyncio.to_thread(
            mover.post,
            f"{a.url}/games/{game_id}/",
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
        assert answer.status_code == 302, answer.text[:2000]
        return await socket

    heard = run_apart(scene())
    game_events = [e for e in heard if e.get("kind") == "game"]
    assert game_events and game_events[-1]["id"] == game_id
    assert game_events[-1]["ply"] > int(ply.group(1))
    assert {"kind": "turn", "game": game_id} in heard
