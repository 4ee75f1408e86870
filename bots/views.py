"""The page of the computer players: their levels, whether they play here, a challenge."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from . import selectors


def bot_list(request: HttpRequest) -> HttpResponse:
    rows = selectors.bots_listed()
    return render(
        request,
        "bots/bot_list.html",
        {"bots": rows, "available": all(row.available for row in rows)},
    )
