"""Game messages on the game page: the list the two players see, and posting one (issue 6)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.models import User

from . import selectors, services
from .errors import ServiceError
from .models import Game, GameMessage
from .notifications import notifications_mark_messages_read


def game_messages_context(game: Game, user: Any) -> dict[str, Any]:
    """What the game page shows of the messages: only to the two players (one query).

    A player who is shown them has read them: their ``message_received`` notices for
    this game are marked read (one UPDATE), so the next message tells them again.
    """
    rows = selectors.game_messages(game, user)
    color = game.match.color_of(user)
    if rows is None or color is None:  # not one of the two players
        return {"game_messages": None}
    notifications_mark_messages_read(user=user, game=game, now=timezone.now())
    return {
        "game_messages": rows,
        "message_max_length": GameMessage.MAX_LENGTH,
        "message_opponent": game.match.player(color.other),
    }


@require_POST
@login_required
def game_message_post(request: HttpRequest, game_id: int) -> HttpResponse:
    user = request.user
    assert isinstance(user, User)
    try:
        services.game_message_post(
            game_id=game_id, author=user, text=request.POST.get("text", ""), now=timezone.now()
        )
    except ServiceError as error:
        messages.error(request, str(error))
        if error.status == 404:
            raise
    return redirect(reverse("game_detail", args=[game_id]) + "#messages")
