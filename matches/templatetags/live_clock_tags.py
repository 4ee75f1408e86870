"""The game page's live clock (issue 28): both reserves, the turn's countdown, and the
claim button of a fallen clock.

The server decides (:func:`matches.clock.live_clock`); the page's script
(``static/js/live_clock.js``) only counts down from the seconds left it was given, by the
browser's monotonic clock (a wrong clock on the player's machine changes nothing), and
shows the claim button to the opponent once the clock has fallen.

Each player but the viewer is marked "away" when they are not at the board: no socket of
theirs open on the game's page (``matches.presence``, one cache read for both), or, while
the cache knows nothing (Redis down), not seen on the site for a while (``seen_at``). The
mark is in the page for each of them, hidden while they are here, and the script shows or
hides it in place when the game's group hears that they left or came back.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django import template
from django.utils import timezone

from accounts.models import User
from accounts.requests import context_user
from accounts.services import is_online
from gammon import Color
from matches.clock import live_clock
from matches.models import Game
from matches.presence import players_here

register = template.Library()


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _away(player: User, here: dict[int, bool] | None, now: datetime) -> bool:
    """Not at the board (its page closed, or hidden): their clock runs on. Without the
    cache's count, not seen on the site for a while (written after this request for its
    own viewer, who is never marked)."""
    if here is None:
        return not is_online(player, now)
    return not here.get(player.pk, False)


def _marked(player: User, viewer: User | None) -> bool:
    """Whether the page shows an away mark for ``player``: a bot is always there, and
    the viewer is here."""
    return not player.is_bot and (viewer is None or viewer.pk != player.pk)


@register.inclusion_tag("matches/_live_clock.html", takes_context=True)
def live_clock_panel(context: template.Context, game: Game) -> dict[str, Any]:
    """The live clock of ``game``, or nothing for a correspondence or finished game."""
    now = timezone.now()
    clock = live_clock(game, now)
    if clock is None:
        return {"clock": None}
    match = game.match
    user = context_user(context)
    viewer = match.color_of(user) if user is not None else None
    on_turn = game.turn
    delay_left = max(0.0, clock["delay_seconds"] - (now - clock["turn_started_at"]).total_seconds())
    sides = []
    here = players_here(game.pk, (match.white_id, match.black_id))
    for color, name in ((0, "white"), (1, "black")):
        reserve = clock["reserve_seconds"][name]
        if color == on_turn:
            reserve = min(reserve, clock["time_left_seconds"])
        player = match.player(Color(color))
        sides.append(
            {
                "name": name,
                "player": player,
                "marked": _marked(player, user),
                "away": _away(player, here, now),
                "on_turn": color == on_turn,
                "reserve": _minutes(reserve),
            }
        )
    return {
        "clock": clock,
        "game": game,
        "sides": sides,
        "delay_left": f"{delay_left:.3f}",
        "time_left": f"{clock['time_left_seconds']:.3f}",
        "may_claim": viewer is not None and int(viewer) != on_turn and not game.held,
        "fallen": clock["fallen"],
        "csrf_token": context.get("csrf_token"),
    }
