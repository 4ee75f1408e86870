"""How a player's name is shown on every page: a bot's name carries a "bot" badge.

``{% load players %}`` then ``{{ user|player_name }}`` (the name, escaped, and the badge
for a bot) or ``{{ user|bot_badge }}`` (the badge alone, after a name written otherwise);
``{{ user|online }}`` marks a player on the site now (the directory, the player page).
"""

from __future__ import annotations

from django import template
from django.utils import timezone
from django.utils.html import format_html
from django.utils.safestring import SafeString
from django.utils.translation import gettext

from accounts.models import User
from accounts.services import is_online

register = template.Library()


@register.filter
def bot_badge(user: User | None) -> SafeString:
    """The "bot" badge after a computer player's name, and nothing for a person."""
    if user is None or not getattr(user, "is_bot", False):
        return SafeString("")
    return format_html(
        ' <span class="badge bot-badge" title="{}">{}</span>',
        gettext("A computer player: GNU Backgammon"),
        gettext("bot"),
    )


@register.filter
def player_name(user: User | None) -> SafeString:
    """The name shown to other players, with the badge of a bot."""
    if user is None:
        return SafeString("")
    return format_html("{}{}", user.public_name, bot_badge(user))


@register.filter
def online(user: User | None) -> SafeString:
    """A green dot after the name of a player on the site now (issue 28's live play:
    someone to play at once); nothing otherwise. Bots are always there, and not marked."""
    if user is None or getattr(user, "is_bot", False):
        return SafeString("")
    if not is_online(user, timezone.now()):
        return SafeString("")
    text = gettext("Online now")
    return format_html(
        ' <span class="online-dot" title="{}" role="img" aria-label="{}"></span>', text, text
    )
