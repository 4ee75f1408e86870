"""The live socket: who may connect, what a connection follows, and what it receives."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import pytest
from asgiref.sync import sync_to_async
from channels.layers import get_channel_layer
from channels.testing.websocket import WebsocketCommunicator
from django.conf import settings
from django.db import connections
from django.test import Client
from django.utils import timezone

from accounts.models import User
from backgammon.asgi import application
from live import groups, push
from moderation.models import Suspension
from tests.loops import run_apart

pytestmark = pytest.mark.django_db(transaction=True)

#: The site the sockets come from (one of ALLOWED_HOSTS when the ASGI app was imported).
SITE = "http://localhost:8000"


def run(body: Callable[[], Awaitable[None]]) -> None:
    """Run ``body`` in an event loop of its own, on a thread of its own: the browser tests
    leave one running on the main thread of their worker."""

    async def and_close() -> None:
        try:
            await body()
        finally:  # the consumer's database thread lets the test database go
            await sync_to_async(connections.close_all)()

    run_apart(and_close())


def socket(user: User | None = None, origin: str = SITE) -> WebsocketCommunicator:
    """A socket to ``/ws/live/`` from this site's page, signed in as ``user`` (made outside
    the async part: signing in writes a session)."""
    headers = [(b"origin", origin.encode()), (b"host", b"localhost:8000")]
    if user is not None:
        client = Client()
        client.force_login(user)
        session = client.cookies[settings.SESSION_COOKIE_NAME].value
        cookie = f"{settings.SESSION_COOKIE_NAME}={session}"
        headers.append((b"cookie", cookie.encode()))
    return WebsocketCommunicator(application, "/ws/live/", headers=headers)


async def follow(ws: WebsocketCommunicator, *names: Any) -> list[str]:
    await ws.send_json_to({"follow": list(names)})
    answer = await ws.receive_json_from(timeout=5)
    assert answer["kind"] == "following"
    return list(answer["groups"])


def test_a_visitor_follows_public_groups_and_receives_their_events() -> None:
    async def body() -> None:
        ws = socket()
        connected, _ = await ws.connect()
        assert connected
        assert await follow(ws, "game.12", "lobby") == ["game.12", "lobby"]
        await get_channel_layer().group_send(
            "game.12", {"type": push.MESSAGE_TYPE, "event": {"kind": "game", "id": 12, "ply": 3}}
        )
        assert await ws.receive_json_from(timeout=5) == {"kind": "game", "id": 12, "ply": 3}
        await ws.disconnect()

    run(body)


def test_a_player_is_in_their_own_group_and_no_one_follows_anothers(player: User) -> None:
    ws = socket(player)

    async def body() -> None:
        assert (await ws.connect())[0]
        followed = await follow(ws, groups.user(player.pk + 1), "user.1", "admin", "game.x", 7)
        assert followed == [groups.user(player.pk)]
        await get_channel_layer().group_send(
            groups.user(player.pk), {"type": push.MESSAGE_TYPE, "event": {"kind": "notification"}}
        )
        assert await ws.receive_json_from(timeout=5) == {"kind": "notification"}
        await ws.disconnect()

    run(body)


def test_a_connection_follows_a_bounded_number_of_groups() -> None:
    async def body() -> None:
        ws = socket()
        assert (await ws.connect())[0]
        followed = await follow(ws, *[f"game.{n}" for n in range(1, 50)])
        assert len(followed) == groups.MAX_FOLLOWED
        await ws.disconnect()

    run(body)


def test_a_suspended_player_is_refused(player: User) -> None:
    Suspension.objects.create(
        user=player,
        reason="Spam.",
        starts_at=timezone.now() - timedelta(minutes=1),
        created_by=player,
    )

    ws = socket(player)

    async def body() -> None:
        connected, code = await ws.connect()
        assert not connected and code == 4403

    run(body)


def test_another_sites_page_may_not_open_a_socket(player: User) -> None:
    ws = socket(player, origin="https://evil.example")

    async def body() -> None:
        connected, _ = await ws.connect()
        assert not connected

    run(body)


def test_a_push_leaves_after_the_commit_and_never_after_a_rollback() -> None:
    from django.db import transaction

    async def listen(expected: list[dict[str, Any]]) -> None:
        ws = socket()
        assert (await ws.connect())[0]
        await follow(ws, "game.5")
        await send_pushes()
        for event in expected:
            assert await ws.receive_json_from(timeout=5) == event
        assert await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()

    from channels.db import database_sync_to_async

    @database_sync_to_async
    def send_pushes() -> None:
        try:
            with transaction.atomic():
                push.after_commit("game.5", {"kind": "game", "id": 5, "ply": 1})
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
        with transaction.atomic():
            push.after_commit("game.5", {"kind": "game", "id": 5, "ply": 2})

    async def body() -> None:
        await listen([{"kind": "game", "id": 5, "ply": 2}])

    run(body)


@pytest.mark.django_db
def test_a_push_while_redis_is_down_is_dropped_quickly_and_the_next_ones_skip_it(
    settings: Any, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    from channels.layers import channel_layers

    settings.CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": "redis://127.0.0.1:1/0", "socket_connect_timeout": 0.5}]
            },
        }
    }
    channel_layers.backends.clear()
    monkeypatch.setattr(push, "_unavailable_until", 0.0)
    try:
        assert push.send("game.1", {"kind": "game"}) is False
        assert "live pushes not sent" in caplog.text
        tried = []
        layer = channel_layers["default"]
        monkeypatch.setattr(layer, "group_send", lambda *args: tried.append(args))
        assert push.send("game.1", {"kind": "game"}) is False
        assert tried == [], "the next push skips Redis for a while"
    finally:
        channel_layers.backends.clear()


def test_a_chouette_spectator_hears_its_decisions_and_never_its_talk(
    monkeypatch: pytest.MonkeyPatch, outsider: User
) -> None:
    """The team's talk reaches the team, the table's the table, each on their own group;
    the chouette's public group hears only that a decision was taken."""
    from channels.db import database_sync_to_async

    from chouettes import chat
    from tests.chouettes.helpers import box_doubles, seat_table

    table = seat_table(monkeypatch, 3)
    box_doubles(table)  # ann (the box) doubled; bob (captain) and cy answer
    cid, board_id = table.chouette.pk, table.board.pk
    ann, bob, cy = (table.users[name] for name in ("ann", "bob", "cy"))
    sockets = {"ann": socket(ann), "cy": socket(cy), "spectator": socket(outsider)}
    chouette_event = {"kind": "chouette", "id": cid}
    talk_event = {"kind": "chouette_chat", "chouette": cid}

    @database_sync_to_async
    def say(author: User, team: bool) -> None:
        chat.message_post(chouette_id=cid, author=author, text="Take?", team=team, now=table.tick())

    @database_sync_to_async
    def answer() -> None:
        table.act("team_answer", "cy", take=True)

    async def body() -> None:
        for ws in sockets.values():
            assert (await ws.connect())[0]
            await follow(ws, groups.chouette(cid), groups.game(board_id))
        await say(bob, team=True)
        assert await sockets["cy"].receive_json_from(timeout=5) == talk_event
        await say(bob, team=False)
        assert await sockets["ann"].receive_json_from(timeout=5) == talk_event
        assert await sockets["cy"].receive_json_from(timeout=5) == talk_event
        await answer()
        for ws in sockets.values():
            assert await ws.receive_json_from(timeout=5) == chouette_event
        # Nothing else: the box never heard the team's talk, nor the spectator any talk.
        for ws in sockets.values():
            assert await ws.receive_nothing(timeout=0.3)
            await ws.disconnect()

    run(body)


def test_an_open_socket_marks_its_player_on_the_site(player: User) -> None:
    """As a request does (ActivityMiddleware): the e-mails about a game wait while its
    page is open."""
    from channels.db import database_sync_to_async

    User.objects.filter(pk=player.pk).update(seen_at=None)
    ws = socket(player)

    @database_sync_to_async
    def seen() -> Any:
        return User.objects.get(pk=player.pk).seen_at

    async def body() -> None:
        import asyncio

        assert (await ws.connect())[0]
        for _ in range(100):  # the mark is written by the socket's own task: wait for it
            if await seen() is not None:
                break
            await asyncio.sleep(0.05)
        assert await seen() is not None
        await ws.disconnect()

    run(body)
