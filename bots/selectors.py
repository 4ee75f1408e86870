"""Reads: the bots as the pages and the API list them."""

from __future__ import annotations

from dataclasses import dataclass

from gnubg_bridge.decisions import LEVELS
from gnubg_bridge.process import available

from .models import Bot


@dataclass(frozen=True)
class BotRow:
    username: str
    name: str
    level: str
    title: str
    plies: int
    noise: float
    available: bool
    is_bot: bool = True


def bots_listed() -> list[BotRow]:
    """The active bots, weakest first (gnubg's order of its levels)."""
    here = available()
    bots = Bot.objects.select_related("user").filter(user__is_active=True)
    rows = []
    for bot in sorted(bots, key=lambda b: list_position(b.level)):
        level = bot.gnubg_level
        rows.append(
            BotRow(
                username=bot.user.username,
                name=bot.user.public_name,
                level=level.name,
                title=level.title,
                plies=level.plies,
                noise=level.noise,
                available=here,
            )
        )
    return rows


def list_position(level: str) -> int:
    return list(LEVELS).index(level) if level in LEVELS else len(LEVELS)
