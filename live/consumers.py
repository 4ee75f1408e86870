"""The one WebSocket endpoint, ``/ws/live/``: a page follows the groups it shows.

A page opens the socket, says which public groups it shows (``{"follow": ["game.12"]}``),
and receives each event pushed there; a signed-in player is also in their own
``user.N`` group from the start. Events are small and say only what changed (see
:mod:`live.groups`); the page fetches the rest through its own view. A suspended player
is refused like every request of theirs. Anything else a client sends is ignored.

An open socket is a player on the site, as a request is (``accounts.middleware.
ActivityMiddleware``): ``User.seen_at`` is written when it opens and then once per
``SEEN_EVERY`` while it stays open, so the e-mails about a game wait while its page is
open (a hidden tab closes its socket: then they go).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from accounts.models import User
from accounts.services import SEEN_EVERY, user_mark_seen
from moderation.selectors import suspension_of

from . import groups


@database_sync_to_async
def _suspended(user_id: int) -> bool:
    return suspension_of(user_id) is not None


@database_sync_to_async
def _mark_seen(user: User) -> None:
    user_mark_seen(user=user, now=timezone.now())


class LiveConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.followed: set[str] = set()
        self.user_id: int | None = None
        if user is not None and user.is_authenticated:
            if await _suspended(user.pk):
                await self.close(code=4403)
                return
            self.user_id = user.pk
        await self.accept()
        if self.user_id is not None:
            await self._join(groups.user(self.user_id))
            if not user.is_bot:  # as the middleware: a bot's account is never "on the site"
                self.seen = asyncio.create_task(self._keep_seen(user))

    async def _keep_seen(self, user: User) -> None:
        """Mark the player seen now, then each time the mark would go stale."""
        while True:
            await _mark_seen(user)
            await asyncio.sleep(SEEN_EVERY.total_seconds())

    async def _join(self, group: str) -> None:
        await self.channel_layer.group_add(group, self.channel_name)
        self.followed.add(group)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        wanted = content.get("follow") if isinstance(content, dict) else None
        if not isinstance(wanted, list):
            return
        for name in wanted[: groups.MAX_FOLLOWED]:
            if groups.followable(name) and name not in self.followed:
                if len(self.followed) >= groups.MAX_FOLLOWED + 1:  # + the user's own
                    break
                await self._join(name)
        await self.send_json({"kind": "following", "groups": sorted(self.followed)})

    async def live_event(self, message: dict[str, Any]) -> None:
        await self.send_json(message["event"])

    async def disconnect(self, code: int) -> None:
        seen = getattr(self, "seen", None)
        if seen is not None:
            seen.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await seen
        for group in getattr(self, "followed", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
