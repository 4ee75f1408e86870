"""The one WebSocket endpoint, ``/ws/live/``: a page follows the groups it shows.

A page opens the socket, says which public groups it shows (``{"follow": ["game.12"]}``),
and receives each event pushed there; a signed-in player is also in their own
``user.N`` group from the start. Events are small and say only what changed (see
:mod:`live.groups`); the page fetches the rest through its own view. A suspended player
is refused like every request of theirs. Anything else a client sends is ignored.
"""

from __future__ import annotations

from typing import Any

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from moderation.selectors import suspension_of

from . import groups


@database_sync_to_async
def _suspended(user_id: int) -> bool:
    return suspension_of(user_id) is not None


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
        for group in getattr(self, "followed", ()):
            await self.channel_layer.group_discard(group, self.channel_name)
