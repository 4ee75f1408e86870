"""Tournaments on other apps' pages, as template tags, so that neither the match page
(matches) nor the player page (stats) imports tournaments:
``{% load tournament_tags %}{% match_tournament match %}`` and
``{% player_tournaments player as entries %}``."""

from __future__ import annotations

from django import template

from accounts.models import User
from matches.models import Match

from .. import selectors
from ..models import Entry

register = template.Library()

#: The player page lists this many of a player's tournaments, newest first.
PLAYER_TOURNAMENTS = 20


@register.inclusion_tag("tournaments/_match_tournament.html")
def match_tournament(match: Match) -> dict[str, object]:
    """The tournament and round a tournament match belongs to (nothing for another)."""
    return {"pairing": selectors.tournament_of_match(match.pk)}


@register.simple_tag
def player_tournaments(player: User) -> list[Entry]:
    """The player's newest tournaments with their place."""
    return list(selectors.tournaments_of(player)[:PLAYER_TOURNAMENTS])
