"""A chouette's talk: a message to the table, or to the team only (the box has no say in
the team's talk while its game is played), and a moderator's hiding of one.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from accounts.models import User
from backgammon.errors import Conflict, Forbidden, InvalidAction, NotFound
from backgammon.limits import rate_check

from .locks import locked_chouette, member_seat
from .models import Chouette, Message, Seat
from .signals import chouette_told


@transaction.atomic
def message_post(
    *, chouette_id: int, author: User, text: str, team: bool, now: datetime
) -> Message:
    """A message to the table, or to the team only (refused to the box)."""
    chouette = locked_chouette(chouette_id)
    member_seat(chouette, author)
    game = chouette.games.order_by("-number").first()
    if game is None:
        raise Conflict(_("The chouette has not started yet."), code="chouette_open")
    if team and author.pk == game.match.white_id and game.settled_at is None:
        raise Forbidden(_("The box has no say in the team's talk."), code="not_team")
    text = text.strip()
    if not text:
        raise InvalidAction(_("Write a message first."), code="empty_message")
    if len(text) > Message.MAX_LENGTH:
        raise InvalidAction(
            _("A message is at most %(max)s characters long."),
            code="message_length",
            max=Message.MAX_LENGTH,
        )
    rate_check("messages", author.pk)  # LIMIT_MESSAGES_PER_MINUTE, with the games' chat
    message = Message.objects.create(
        chouette=chouette, game=game, author=author, text=text, team=team, created_at=now
    )
    if team:  # the game's team: its captain and the line behind, never the box
        readers = [game.places["captain"], *game.places["line"]]
    else:
        readers = list(
            chouette.seats.filter(status=Seat.Status.SEATED).values_list("player_id", flat=True)
        )
    chouette_told.send(sender=Chouette, chouette_id=chouette.pk, readers=readers)
    return message


@transaction.atomic
def message_hide(*, message_id: int, moderator: User, now: datetime) -> Message:
    """A moderator hides a message from the players (it stays stored, for the record;
    the pages and the API show the mask). The caller audits."""
    message = Message.objects.select_for_update().filter(pk=message_id).first()
    if message is None:
        raise NotFound(_("No such message."))
    if message.hidden:
        raise Conflict(_("This message is already hidden."), code="already_hidden")
    message.hidden, message.hidden_by, message.hidden_at = True, moderator, now
    message.save(update_fields=["hidden", "hidden_by", "hidden_at"])
    return message
