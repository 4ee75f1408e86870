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

A socket of a player that follows one of their own live games in play also marks them "at
the board" there (:mod:`live.presence`): counted when it follows, refreshed every
``matches.presence.REFRESH_EVERY`` by the same periodic task, taken back when it closes;
the game's group hears when the player arrives or leaves. A visitor's, a spectator's or
a bot's socket changes nothing; a suspended player's is refused before it follows.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.utils import timezone

from accounts.models import User
from accounts.services import user_mark_seen
from matches.presence import REFRESH_EVERY
from moderation.selectors import suspension_of

from . import groups, presence


@database_sync_to_async
def _suspended(user_id: int) -> bool:
    return suspension_of(user_id) is not None


@database_sync_to_async
def _mark_seen(user: User) -> None:
    user_mark_seen(user=user, now=timezone.now())


#: The periodic calls of :mod:`live.presence`, each on the consumer's database thread.
_arrive = database_sync_to_async(presence.player_arrive)
_refresh = database_sync_to_async(presence.player_refresh)
_leave = database_sync_to_async(presence.player_leave)


class LiveConsumer(AsyncJsonWebsocketConsumer):
    async def connect(self) -> None:
        user = self.scope.get("user")
        self.followed: set[str] = set()
        self.user_id: int | None = None
        self.at_boards: set[int] = set()  # the games where this socket counts its player
        self.player = False  # a signed-in person (not a bot): seen, and at their boards
        if user is not None and user.is_authenticated:
            if await _suspended(user.pk):
                await self.close(code=4403)
                return
            self.user_id = user.pk
        await self.accept()
        if self.user_id is not None:
            await self._join(groups.user(self.user_id))
            if not user.is_bot:  # as the middleware: a bot's account is never "on the site"
                self.player = True
                self.seen = asyncio.create_task(self._keep_seen(user))

    async def _keep_seen(self, user: User) -> None:
        """Mark the player seen now and keep their boards' counts alive, every
        ``REFRESH_EVERY`` (``user_mark_seen`` writes only once its mark would go stale)."""
        while True:
            await _mark_seen(user)
            for game_id in list(self.at_boards):
                await _refresh(game_id, user.pk)
            await asyncio.sleep(REFRESH_EVERY)

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
                game_id = presence.game_of(name)
                if self.player and game_id is not None and self.user_id is not None:
                    if await _arrive(game_id, self.user_id):
                        self.at_boards.add(game_id)
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
        user_id = getattr(self, "user_id", None)
        for game_id in getattr(self, "at_boards", ()):
            if user_id is not None:
                await _leave(game_id, user_id)
