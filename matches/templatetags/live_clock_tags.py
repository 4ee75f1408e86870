"""The game page's live clock (issue 28): both reserves, the turn's countdown, and the
claim button of a fallen clock.

The server decides (:func:`matches.clock.live_clock`); the page's script
(``static/js/live_clock.js``) only counts down from the seconds left it was given, by the
browser's monotonic clock (a wrong clock on the player's machine changes nothing), and
shows the claim button to the opponent once the clock has fallen.
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

register = template.Library()


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _away(player: User, viewer: User | None, now: datetime) -> bool:
    if player.is_bot or (viewer is not None and viewer.pk == player.pk):
        return False
    return not is_online(player, now)


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
    for color, name in ((0, "white"), (1, "black")):
        reserve = clock["reserve_seconds"][name]
        if color == on_turn:
            reserve = min(reserve, clock["time_left_seconds"])
        sides.append(
            {
                "name": name,
                "player": match.player(Color(color)),
                # Not seen on the site for a while (accounts' seen_at, written after this
                # request for its own viewer, who is here): their clock runs on.
                "away": _away(match.player(Color(color)), user, now),
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
