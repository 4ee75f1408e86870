"""Game messages on the game page: the list the two players see, and posting one (issue 6)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_POST

from accounts.models import User

from . import selectors, services
from .errors import InvalidAction, ServiceError
from .forms import GameMessageForm
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
    """Post a message, then back to the game page.

    A refusal is the game page again with the reason on top and the error's status (a
    game that does not exist: the 404 page), and nothing stored.
    """
    user = request.user
    assert isinstance(user, User)
    form = GameMessageForm(request.POST)
    try:
        if not form.is_valid():
            raise InvalidAction(form.errors["text"][0], code="invalid_message")
        services.game_message_post(
            game_id=game_id, author=user, text=form.cleaned_data["text"], now=timezone.now()
        )
    except ServiceError as error:
        messages.error(request, str(error))
        if error.status == 404:
            raise Http404(str(error)) from error
        # Imported here: views imports this module for the messages on the game page.
        from .views import _load_game, _render_game

        return _render_game(request, _load_game(game_id), status=error.status)
    return redirect(reverse("game_detail", args=[game_id]) + "#messages")
