"""The public statistics pages: thin views over ``stats.selectors``."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from accounts.names import users_named
from bots.services import bots_available
from matches.models import VariantChoice

from . import selectors
from .models import LEADERBOARD_MIN_MATCHES

LEADERBOARD_PAGE_SIZE = 50
DIRECTORY_PAGE_SIZE = 50


def site(request: HttpRequest) -> HttpResponse:
    stats = selectors.site_stats()
    variants = [(v, label) for v, label in VariantChoice.choices]
    return render(
        request,
        "stats/site.html",
        {
            "stats": stats,
            "variant_games": [(label, stats.games[v]) for v, label in variants],
            "variant_matches": [(label, stats.matches[v]) for v, label in variants],
        },
    )


def leaderboard(request: HttpRequest) -> HttpResponse:
    paginator = Paginator(selectors.leaderboard(), LEADERBOARD_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    return render(
        request,
        "stats/leaderboard.html",
        {"page": page, "min_matches": LEADERBOARD_MIN_MATCHES, "offset": page.start_index()},
    )


def dice(request: HttpRequest) -> HttpResponse:
    return render(request, "stats/dice.html", {"dice": selectors.dice_stats(), "player": None})


def player_dice(request: HttpRequest, username: str) -> HttpResponse:
    player = get_object_or_404(users_named(username), is_active=True)
    return render(
        request, "stats/dice.html", {"dice": selectors.dice_stats(player), "player": player}
    )


def player_detail(request: HttpRequest, username: str) -> HttpResponse:
    """A player's public page: their matches, record, ratings and rating chart, and their
    chouettes. It lives here, at the top of the apps it reads (accounts, matches,
    chouettes, stats), so that none of them imports an app above it."""
    player = get_object_or_404(users_named(username), is_active=True)
    context: dict[str, object] = {"player": player}
    context.update(selectors.player_matches_context(player))
    context.update(selectors.player_page_context(player))
    context.update(selectors.player_chouettes_context(player))
    context["unavailable_bot"] = player.is_bot and not bots_available()
    return render(request, "accounts/player.html", context)


def player_list(request: HttpRequest) -> HttpResponse:
    """The player directory: every active player, searchable by name (``?q=``). It shows
    names, ratings and last activity only, never an e-mail address."""
    query = selectors.directory_query(request.GET.get("q"))
    paginator = Paginator(selectors.player_directory(query), DIRECTORY_PAGE_SIZE)
    page = paginator.get_page(request.GET.get("page"))
    return render(request, "stats/player_list.html", {"page": page, "q": query})
