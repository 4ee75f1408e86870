"""The players' chat in a game, and a moderator hiding a message."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from backgammon.limits import rate_check

from .models import Game, GameMessage
from .signals import message_posted


@transaction.atomic
def game_message_post(*, game_id: int, author: User, text: str, now: datetime) -> GameMessage:
    """One of the two players sends the other a short message in the game.

    ``message_posted`` tells the opponent's notices
    (:func:`notifications.receivers.on_message_posted` keeps ten messages in a row
    down to one notice). A player sends at most ``LIMIT_MESSAGES_PER_MINUTE`` messages
    a minute, here and in the chouettes' chat together (429 past it).
    """
    game = Game.objects.select_related("match__white", "match__black").filter(pk=game_id).first()
    if game is None:
        raise NotFound(_("No such game."))
    color = game.match.color_of(author)
    if color is None:
        raise Forbidden(_("You are not playing in this game."))
    if game.match.chouette:
        raise Conflict(
            _("A chouette's players talk in the chouette's own chat, where the team has its own."),
            code="chouette",
        )
    text = text.strip()
    if not text:
        raise InvalidAction(_("Write a message first."), code="empty_message")
    if len(text) > GameMessage.MAX_LENGTH:
        raise InvalidAction(
            _("A message is at most %(max)s characters long."),
            code="message_length",
            max=GameMessage.MAX_LENGTH,
        )
    rate_check("messages", author.pk)  # LIMIT_MESSAGES_PER_MINUTE, with the chouettes' chat
    message = GameMessage.objects.create(game=game, author=author, text=text, created_at=now)
    message_posted.send(
        sender=GameMessage, message=message, recipient=game.match.player(color.other), now=now
    )
    return message


@transaction.atomic
def game_message_hide(*, message_id: int, moderator: User, now: datetime) -> GameMessage:
    """Hide a message from the players (it stays stored, for the record)."""
    message = GameMessage.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound(_("No such message."))
    if message.hidden:
        raise Conflict(_("This message is already hidden."), code="already_hidden")
    message.hidden = True
    message.hidden_by = moderator
    message.hidden_at = now
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    return message
